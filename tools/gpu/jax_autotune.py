# SPDX-License-Identifier: Apache-2.0
"""Two autotune candidates, jit_autotune_fn_0 and jit_autotune_fn_1, each run
five times (tools/gpu/check.sh): the shape `xplane-stat autotune` reads.

python3 jax_autotune.py [PROFILE_DIR [PROFILES]]: as jax_matmul.py; with
PROFILES (default 1), that many traces one after another, each in its own
folder PROFILE_DIR/<i> (what `autotune DIR` reads as many profiles).
"""
import os
import contextlib
import sys

import jax
import jax.numpy as jnp

from gpu_range import profiler_range


def autotune_fn_0(x):
    return jnp.sum(x @ x.T)


def autotune_fn_1(x):
    return jnp.sum(jnp.einsum("ij,kj->ik", x, x, precision=jax.lax.Precision.HIGHEST))


def main():
    x = jax.random.normal(jax.random.key(1), (2048, 2048), jnp.float32)
    fns = [jax.jit(autotune_fn_0), jax.jit(autotune_fn_1)]
    for f in fns:
        f(x).block_until_ready()  # compile outside the trace
    profiles = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    for i in range(profiles):
        if len(sys.argv) == 1:
            ctx = contextlib.nullcontext()
        else:
            ctx = jax.profiler.trace(sys.argv[1] if profiles == 1 else os.path.join(sys.argv[1], str(i)))
        with ctx, profiler_range():
            for f in fns:
                for _ in range(5):
                    f(x).block_until_ready()
    print(f"candidates=2 runs=5 profiles={profiles}")


main()
