# SPDX-License-Identifier: Apache-2.0
"""The pytest plugin against real JAX (tools/gpu/check.sh, step Q): two jitted
functions measured by xplane_bench; run by pytest with -p xplane_stat.pytest_plugin."""
import jax
import jax.numpy as jnp


def matmul(a, b):
    return a @ b


def softmax(x):
    return jax.nn.softmax(x, axis=-1)


def test_matmul(xplane_bench):
    a = jax.random.normal(jax.random.key(0), (4096, 4096), jnp.float32)
    row = xplane_bench.measure(jax.jit(matmul), a, a, rounds=20, warmup=2)
    assert row["name"] == "jit_matmul" and row["executions"] == 20
    assert row["first_call_s"] > 0


def test_softmax(xplane_bench):
    x = jax.random.normal(jax.random.key(1), (8192, 4096), jnp.float32)
    row = xplane_bench.measure(jax.jit(softmax), x, rounds=20)
    assert row["executions"] == 20
