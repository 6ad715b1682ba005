# SPDX-License-Identifier: Apache-2.0
"""The Python package against real JAX (tools/gpu/check.sh, step P): the
autotune candidates of jax_autotune.py through
xplane_stat.jax.profile_time_by_function_id, and a jitted matmul through
xplane_stat.jax.profile, each profile kept in DIR for `xplane-stat` to
read the same dump.

python3 py_check.py DIR
"""
import json
import os
import subprocess
import sys

import jax
import jax.numpy as jnp

import xplane_stat
from xplane_stat.jax import profile, profile_time_by_function_id


def autotune_fn_0(x):
    return jnp.sum(x @ x.T)


def autotune_fn_1(x):
    return jnp.sum(jnp.einsum("ij,kj->ik", x, x, precision=jax.lax.Precision.HIGHEST))


def matmul(a, b):
    return a @ b


def main():
    out = sys.argv[1]
    print("xplane_stat", xplane_stat.version(), "jax", jax.__version__)
    x = jax.random.normal(jax.random.key(1), (2048, 2048), jnp.float32)
    fns = [jax.jit(autotune_fn_0), jax.jit(autotune_fn_1)]
    for f in fns:
        f(x).block_until_ready()

    def closure():
        for f in fns:
            for _ in range(5):
                f(x).block_until_ready()

    res = profile_time_by_function_id(closure, "gpu", 10, profile_dir=os.path.join(out, "autotune"))
    print("profile_time_by_function_id:", json.dumps({str(k): v for k, v in sorted(res.items())}))
    a = jax.random.normal(jax.random.key(2), (4096, 4096), jnp.float32)
    row = profile(jax.jit(matmul), a, a, rounds=10, warmup=1, profile_dir=os.path.join(out, "matmul"))
    print("profile:", json.dumps(row))
    # the same dumps through the command: the numbers must agree (cJSON prints 15 digits where they suffice)
    xps = os.environ["XPS"]
    doc = json.loads(subprocess.run([xps, "autotune", "--json", "--device", "gpu", "--pool-programs",
                                     os.path.join(out, "autotune")], capture_output=True, text=True).stdout)
    agree = all(abs(doc["candidates"][str(k)]["mean_s"] - m) <= 1e-15 * m and
                abs(doc["candidates"][str(k)]["std_s"] - s) <= 1e-15 * max(s, 1e-30)
                for k, (m, s) in res.items()) and len(doc["candidates"]) == len(res)
    print("autotune --json on the same dump:", "AGREES" if agree else "DIFFERS",
          {k: (v["mean_s"], v["std_s"]) for k, v in doc["candidates"].items()})
    doc = json.loads(subprocess.run([xps, "functions", "--json", "--match", "^jit_matmul$",
                                     os.path.join(out, "matmul")], capture_output=True, text=True).stdout)
    f = doc["functions"][0]
    print("functions --json on the same dump:",
          "AGREES" if f["total_ns"] == row["total_ns"] and f["executions"] == row["executions"] else "DIFFERS",
          f["executions"], f["mean_ns"])


main()
