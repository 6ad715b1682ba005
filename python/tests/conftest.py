# SPDX-License-Identifier: Apache-2.0
"""The package under test from this checkout, the library and the binary of
the build given by XPS_BUILD (default: build/ at the repository root)."""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.environ.get("XPS_BUILD", os.path.join(ROOT, "build"))
sys.path.insert(0, os.path.join(ROOT, "python"))
os.environ.setdefault("XPLANE_STAT_LIBRARY", os.path.join(BUILD, "libxplane-stat.so"))
