# SPDX-License-Identifier: Apache-2.0
"""Several jitted functions of a small model, each run five times under
jax.profiler (tools/gpu/check.sh): a forward pass and its gradient with
name scopes, a layer norm, a scan (a while loop on the device) and a chain
of fusions that transposes keep apart (what CUDA graphs/command buffers
gather). Run once with XLA's command buffers on and once off (XLA_FLAGS).

python3 jax_model.py [PROFILE_DIR]: without PROFILE_DIR the same work
runs unprofiled (for `xplane-stat capture`).
"""
import contextlib
import sys

import jax
import jax.numpy as jnp

from gpu_range import profiler_range


def mlp(params, x):
    h = x
    for i, w in enumerate(params):
        with jax.named_scope(f"layer{i}"):
            h = jax.nn.gelu(h @ w)
    with jax.named_scope("loss"):
        return jnp.mean(h * h)


def layer_norm(x):
    m = jnp.mean(x, axis=-1, keepdims=True)
    v = jnp.var(x, axis=-1, keepdims=True)
    return (x - m) * jax.lax.rsqrt(v + 1e-5)


def scan_steps(w, x):
    def step(h, _):
        return jnp.tanh(h @ w), jnp.sum(h)
    h, sums = jax.lax.scan(step, x, None, length=8)
    return h, sums


def fusion_chain(x):
    for i in range(12):
        x = jnp.sin(x) * (i + 1) + jnp.cos(x.T)
    return x


def main():
    k = jax.random.split(jax.random.key(2), 4)
    params = [jax.random.normal(k[i], (1024, 1024), jnp.float32) * 0.03 for i in range(3)]
    x = jax.random.normal(k[3], (2048, 1024), jnp.float32)
    sq = jax.random.normal(k[3], (1024, 1024), jnp.float32)
    forward = jax.jit(mlp)
    backward = jax.jit(jax.grad(mlp))
    norm = jax.jit(layer_norm)
    scan = jax.jit(scan_steps)
    chain = jax.jit(fusion_chain)
    work = [lambda: forward(params, x), lambda: backward(params, x), lambda: norm(x),
            lambda: scan(params[0], sq), lambda: chain(sq)]
    for w in work:
        jax.block_until_ready(w())  # compile outside the trace
    with jax.profiler.trace(sys.argv[1]) if len(sys.argv) > 1 else contextlib.nullcontext(), profiler_range():
        for w in work:
            for _ in range(5):
                jax.block_until_ready(w())
    print("functions=5 runs=5 each; XLA_FLAGS:", __import__("os").environ.get("XLA_FLAGS", ""))


main()
