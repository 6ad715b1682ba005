# SPDX-License-Identifier: Apache-2.0
"""A stand-in for jax, for testing xplane_stat.jax's plumbing without JAX:
jax.profiler.trace(dir) copies the real traces named by XPS_STANDIN_TRACES
(os.pathsep-separated) into dir as jax.profiler lays them out
(dir/plugins/profile/<run>/<host>.xplane.pb); calls are counted, nothing is
computed. It checks the plumbing, not JAX."""
import os

from . import profiler  # noqa: F401

calls = []


def block_until_ready(x):
    calls.append(("block_until_ready", x))
    return x
