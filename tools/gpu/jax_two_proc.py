# SPDX-License-Identifier: Apache-2.0
"""One run written as two processes' files (tools/gpu/check.sh): two
processes joined by jax.distributed on this machine, each with the one GPU
as its local device, each profiling its own jitted work into its own
folder. With DISTRIBUTED=0 the two run without jax.distributed (the
fallback when it cannot start on one GPU).

python3 jax_two_proc.py PROFILE_DIR PROCESS_ID PORT
"""
import os
import sys

import jax
import jax.numpy as jnp


def main():
    pid = int(sys.argv[2])
    if os.environ.get("DISTRIBUTED", "1") == "1":
        jax.distributed.initialize(coordinator_address=f"127.0.0.1:{sys.argv[3]}",
                                   num_processes=2, process_id=pid, local_device_ids=[0],
                                   initialization_timeout=60)
    print("process", jax.process_index(), "of", jax.process_count(), "local", jax.local_devices())
    step = jax.jit(lambda a: jnp.tanh(a @ a) * (pid + 1))
    a = jax.random.normal(jax.random.key(pid), (2048 * (pid + 1), 2048 * (pid + 1)), jnp.float32)
    jax.block_until_ready(step(a))
    with jax.profiler.trace(sys.argv[1]):
        for _ in range(4):
            jax.block_until_ready(step(a))
    print("process", pid, "steps=4 size", a.shape)


main()
