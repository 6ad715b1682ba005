# SPDX-License-Identifier: Apache-2.0
"""jax.profiler.trace of the stand-in (see __init__)."""
import contextlib
import os
import shutil


@contextlib.contextmanager
def trace(log_dir, **kwargs):
    run = os.path.join(log_dir, "plugins", "profile", "2026_11_28_00_00_00")
    yield
    os.makedirs(run, exist_ok=True)
    for i, src in enumerate(p for p in os.environ.get("XPS_STANDIN_TRACES", "").split(os.pathsep) if p):
        shutil.copy(src, os.path.join(run, f"host{i}.xplane.pb"))
