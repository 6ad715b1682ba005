# SPDX-License-Identifier: Apache-2.0
"""A jitted matmul run 10 times (tools/gpu/check.sh).

python3 jax_matmul.py [PROFILE_DIR]: with PROFILE_DIR, the 10 runs happen
inside jax.profiler.trace(PROFILE_DIR), which writes
PROFILE_DIR/plugins/profile/<run>/<host>.xplane.pb; without it the script
runs the same work unprofiled (for `xplane-stat capture`).
"""
import contextlib
import sys

import jax
import jax.numpy as jnp

from gpu_range import profiler_range


@jax.jit
def matmul(a, b):
    return a @ b


def main():
    key = jax.random.key(0)
    a = jax.random.normal(key, (4096, 4096), jnp.float32)
    b = jax.random.normal(key, (4096, 4096), jnp.float32)
    matmul(a, b).block_until_ready()  # compile outside the trace
    ctx = jax.profiler.trace(sys.argv[1]) if len(sys.argv) > 1 else contextlib.nullcontext()
    with ctx, profiler_range():
        for _ in range(10):
            matmul(a, b).block_until_ready()
    print("executions=10 function=jit_matmul")


main()
