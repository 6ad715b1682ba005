#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""The house's shape, checked: no two source modules depend on each other in a
loop, through includes (a module is x.c with x.h) or through calls (from the
built objects' symbols), and no command file uses another command's.

usage: layering_check.py SOURCE_DIR BUILD_DIR
Exit 0 when it holds, 1 with each loop or use named, 77 (skipped) without nm.
"""
import collections
import glob
import os
import re
import shutil
import subprocess
import sys


def loops(graph):
    """The strongly connected components of more than one node (Tarjan, iterative)."""
    index, low, on, stack, out, counter = {}, {}, set(), [], [], [0]
    for root in list(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return out


def main():
    src, build = sys.argv[1], sys.argv[2]
    os.chdir(src)
    files = sorted(glob.glob('src/**/*.[ch]', recursive=True))
    by_name = {os.path.basename(f): f for f in files}
    unit = lambda f: f[:-2]
    commands = set(re.findall(r'\{"([a-z-]+)", cmd_', open('src/main.c').read()))
    is_command = lambda u: u.startswith('src/cmd/cmd_') and u[len('src/cmd/cmd_'):] in commands
    bad = []

    inc = collections.defaultdict(set)
    for f in files:
        for h in re.findall(r'#include "([^"]+)"', open(f, errors='replace').read()):
            if h in by_name and unit(by_name[h]) != unit(f):
                inc[unit(f)].add(unit(by_name[h]))
    for comp in loops(inc):
        bad.append('modules include each other in a loop: ' + ', '.join(comp))

    if not shutil.which('nm'):
        print('skipped: nm not installed')
        return 77
    defined, used = {}, collections.defaultdict(set)
    for o in glob.glob(os.path.join(build, 'CMakeFiles', '**', '*.c.o'), recursive=True):
        m = re.search(r'/(src/.*)\.c\.o$', o)
        if not m or not os.path.exists(m.group(1) + '.c'):
            continue
        u = m.group(1)
        for line in subprocess.run(['nm', o], capture_output=True, text=True).stdout.splitlines():
            p = line.split()
            if len(p) == 2 and p[0] == 'U':
                used[u].add(p[1])
            elif len(p) == 3 and p[1] in 'TDBRC':
                defined.setdefault(p[2], u)
    calls = collections.defaultdict(set)
    for u, syms in used.items():
        for s in syms:
            if s in defined and defined[s] != u:
                calls[u].add(defined[s])
    if not calls:
        bad.append('no objects under %s: build first' % build)
    for comp in loops(calls):
        bad.append('modules call each other in a loop: ' + ', '.join(comp))
    for u in sorted(set(inc) | set(calls)):
        for t in sorted(inc[u] | calls[u]):
            if is_command(u) and is_command(t):
                bad.append('%s uses the command file %s' % (u, t))
    for b in bad:
        print(b)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
