#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The README's examples against the tool's real output, so that they cannot go stale.

In the README's sh blocks, a command `xplane-stat ...` on the bundled traces
(testdata/) followed by lines `#   ...` shows what it prints: each of those
lines must be a line of the command's output (stdout and stderr), but lines
that elide (`...`) or comment (`(...)`). Usage: readme_examples.py SOURCE_DIR XPLANE_STAT
"""
import os
import re
import shlex
import subprocess
import sys
import tempfile


def examples(readme):
    """(line number, command, [shown lines]) for each command that shows its output."""
    out, in_sh, cmd = [], False, None
    for n, line in enumerate(open(readme, encoding="utf-8"), 1):
        line = line.rstrip("\n")
        if line.startswith("```"):
            in_sh, cmd = line.strip() == "```sh", None
            continue
        if not in_sh:
            continue
        if line.startswith("xplane-stat ") and "testdata/" in line and not re.search(r"[|>]", line):
            cmd = (n, line, [])
            out.append(cmd)
        elif line.startswith("#   ") and cmd:
            cmd[2].append(line[4:])
        elif line == "#" and cmd:
            pass  # a blank line of the output
        else:
            cmd = None
    return [e for e in out if e[2]]


def main():
    src, binary = sys.argv[1], sys.argv[2]
    fail = checked = 0
    scratch = tempfile.TemporaryDirectory()  # what an example writes (-o) lands there, not in the checkout
    for n, cmd, shown in examples(os.path.join(src, "README.md")):
        args = [os.path.join(src, a) if a.startswith("testdata/") else a for a in shlex.split(cmd)]
        r = subprocess.run([binary] + args[1:], cwd=scratch.name, capture_output=True, text=True)
        r.stdout = r.stdout.replace(src.rstrip("/") + "/", "")
        r.stderr = r.stderr.replace(src.rstrip("/") + "/", "")
        lines = set(l.rstrip() for l in (r.stdout + r.stderr).splitlines())
        for s in shown:
            if "..." in s or s.startswith("("):
                continue
            checked += 1
            if s.rstrip() not in lines:
                print(f"README.md:{n}: {cmd}\n  shows:  {s}\n  but the output has no such line")
                fail = 1
    print(f"README examples: {checked} shown lines checked")
    return fail


if __name__ == "__main__":
    sys.exit(main())
