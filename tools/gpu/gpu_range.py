# SPDX-License-Identifier: Apache-2.0
"""What the JAX scripts of the GPU kit share (tools/gpu/check.sh)."""
import contextlib
import ctypes
import os


def profiler_range():
    """cudaProfilerStart/Stop around the measured runs, so that a capture with
    --capture-range=cudaProfilerApi records what jax.profiler's trace holds
    (not the warm-up, compilation or autotuning). Prints what it got."""
    lib = None
    names = ["libcudart.so.13", "libcudart.so"]
    try:
        import nvidia
        names += [os.path.join(d, sub, "libcudart.so.13") for d in nvidia.__path__
                  for sub in ("cu13/lib", "cuda_runtime/lib")]
    except ImportError:
        pass
    for name in names:
        try:
            lib = ctypes.CDLL(name)
            break
        except OSError:
            continue
    if lib is None:
        print("cudaProfilerStart: no libcudart found; capture will record the whole run")
        return contextlib.nullcontext()

    @contextlib.contextmanager
    def rng():
        print("cudaProfilerStart ->", lib.cudaProfilerStart())
        try:
            yield
        finally:
            print("cudaProfilerStop ->", lib.cudaProfilerStop())

    return rng()
