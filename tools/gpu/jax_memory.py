# SPDX-License-Identifier: Apache-2.0
"""A memory-heavy run under jax.profiler (tools/gpu/check.sh): a function
whose intermediates take several GiB, buffers made and freed inside the
trace, and afterwards jax's device memory profile (pprof) beside the dump.

python3 jax_memory.py PROFILE_DIR
"""
import os
import sys

import jax
import jax.numpy as jnp


@jax.jit
def widen(x):
    y = jnp.concatenate([x, x * 2, x * 3, x * 4])  # 4 GiB from 1 GiB
    z = jnp.tanh(y)
    return jnp.sum(z @ x[:, :512], axis=0)


@jax.jit
def fill(i):
    return jnp.full((8192, 16384), i, jnp.float32)  # 512 MiB each


def main():
    x = jax.random.normal(jax.random.key(3), (16384, 16384), jnp.float32)  # 1 GiB
    jax.block_until_ready(widen(x))
    jax.block_until_ready(fill(0))
    with jax.profiler.trace(sys.argv[1]):
        for _ in range(3):
            jax.block_until_ready(widen(x))
        kept = [fill(i) for i in range(8)]  # 4 GiB held
        jax.block_until_ready(kept)
        del kept[::2]  # half freed inside the trace
        jax.block_until_ready(widen(x))
    jax.profiler.save_device_memory_profile(os.path.join(sys.argv[1], "memory.prof"))
    print("widen=4 fill=8 held_after=4x512MiB")


main()
