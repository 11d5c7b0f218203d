#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Checks the layering of runtime/src (ctest house.layers).

The runtime's folders form layers: a file may include headers of its own
folder and of folders on a LOWER layer, never of a higher one (an upward
include), and no two files may include each other through any chain (an
include cycle). Files directly in runtime/src (the process state and the
CUPTI callbacks) are the top layer. docs/runtime.md, "Layout", says what
each folder holds.

  scripts/check_layers.py [--root DIR]   # exit 0: clean; 1: violations listed
"""
import argparse
import os
import re
import sys

# Folder -> layer; lower layers never include higher ones. Folders on the
# same layer do not include each other either.
LAYERS = {
    "support": 0,   # stderr line, clocks, driver error names
    "cupti": 1,     # thin wrappers of CUPTI's range profiler and activity API
    "kernels": 1,   # the runtime's own GPU kernels (counter sum, L2 flush)
    "metrics": 1,   # the metric list, evaluation, learned tensor types
    "nvtx": 1,      # NVTX range tracking
    "profile": 2,   # the profile JSON writer and its records
    "launches": 3,  # what is known of a kernel and a launch's arguments
    "replay": 4,    # the hardware counters: kernel, application, pass replay
    "": 5,          # runtime/src itself: process state, callbacks, launch hooks
}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def folder_of(rel):
    return os.path.dirname(rel)


def scan(root):
    """{file relative to root: [included files relative to root]}."""
    graph = {}
    for dirpath, _, files in os.walk(root):
        for f in files:
            if not f.endswith((".h", ".cpp")):
                continue
            path = os.path.join(dirpath, f)
            rel = os.path.relpath(path, root)
            with open(path, encoding="utf-8") as fh:
                text = fh.read()
            incs = []
            for inc in INCLUDE.findall(text):
                if os.path.exists(os.path.join(root, inc)):
                    incs.append(os.path.normpath(inc))
                elif os.path.exists(os.path.join(dirpath, inc)):
                    incs.append(os.path.relpath(os.path.join(dirpath, inc), root))
            graph[rel] = incs
    return graph


def upward(graph):
    errors = []
    for src, incs in sorted(graph.items()):
        fs = folder_of(src)
        if fs not in LAYERS:
            errors.append(f"{src}: folder '{fs}' has no layer in scripts/check_layers.py")
            continue
        for inc in incs:
            fi = folder_of(inc)
            if fi == fs or fi not in LAYERS:
                continue
            if LAYERS[fi] >= LAYERS[fs]:
                errors.append(f"{src} includes {inc}: "
                              f"'{fi or 'runtime/src'}' (layer {LAYERS[fi]}) is not below "
                              f"'{fs or 'runtime/src'}' (layer {LAYERS[fs]})")
    return errors


def cycles(graph):
    errors, state, stack = [], {}, []

    def visit(n):
        state[n] = 1
        stack.append(n)
        for m in graph.get(n, []):
            if state.get(m) == 1:
                errors.append("include cycle: " + " -> ".join(stack[stack.index(m):] + [m]))
            elif m in graph and not state.get(m):
                visit(m)
        stack.pop()
        state[n] = 2

    for n in sorted(graph):
        if not state.get(n):
            visit(n)
    return errors


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--root", default=os.path.join(here, "..", "runtime", "src"))
    a = ap.parse_args()
    graph = scan(a.root)
    if not graph:
        print(f"check_layers: no sources under {a.root}", file=sys.stderr)
        return 1
    errors = upward(graph) + cycles(graph)
    for e in errors:
        print("check_layers: " + e)
    if errors:
        return 1
    n_dirs = len({folder_of(f) for f in graph})
    print(f"check_layers: {len(graph)} files in {n_dirs} folders, no upward include, no cycle")
    return 0


if __name__ == "__main__":
    sys.exit(main())
