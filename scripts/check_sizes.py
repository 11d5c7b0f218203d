#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""House rules: no source file over 800 lines, no function over 120 lines.

  scripts/check_sizes.py [--list]

Checks the tracked C++/CUDA (.cpp .h .cu .cuh .c) and Python files (git
ls-files). C-family functions are found by brace matching: a body is a `{`
that follows a `)` (or `) const`, `) override`, an initializer list...) at
namespace or class level; Python functions by the ast module. Exceptions are
listed, each with its reason, in scripts/size_exceptions.txt
("path[:function] reason"); an exception that no longer applies is an error
too, so the list stays true. Exit status 1 on any violation.
"""
import ast
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MAX_FILE, MAX_FUNC = 800, 120
C_EXT = (".cpp", ".h", ".cu", ".cuh", ".c")


def tracked():
    out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True).stdout
    return [f for f in out.split() if f.endswith(C_EXT + (".py",)) and "/raw/" not in f]


def strip_c(text):
    """Comments, strings and char literals blanked, newlines kept."""
    pat = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)
    return pat.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


def c_functions(text):
    """(name, first line, line count) of each function body in C-like text."""
    s = strip_c(text)
    out, depth, stack = [], 0, []
    for i, ch in enumerate(s):
        if ch == "{":
            head = s[max(0, i - 400):i]
            # a function body: the text before `{` ends with `)` plus qualifiers
            m = re.search(r"(~?[A-Za-z_][\w:<>~]*)\s*\([^;{}]*\)\s*(const|override|noexcept|final|"
                          r"mutable|->\s*[\w:<>*& ]+|:\s*[^;{}]*|\s)*$", head)
            is_func = bool(m) and m.group(1) not in ("if", "for", "while", "switch", "catch",
                                                      "return", "sizeof", "defined")
            stack.append((is_func and not any(f for f, _, _ in stack), m.group(1) if m else "",
                          s.count("\n", 0, i) + 1))
        elif ch == "}" and stack:
            is_func, name, line = stack.pop()
            if is_func:
                out.append((name, line, s.count("\n", 0, i) + 1 - line + 1))
    return out


def py_functions(text):
    out = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            out.append((node.name, node.lineno, node.end_lineno - node.lineno + 1))
    return out


def main():
    exc_path = os.path.join(ROOT, "scripts", "size_exceptions.txt")
    exceptions = {}
    for line in open(exc_path):
        line = line.strip()
        if line and not line.startswith("#"):
            key, _, why = line.partition(" ")
            exceptions[key] = why.strip()
    bad, used = [], set()
    for f in tracked():
        text = open(os.path.join(ROOT, f), errors="replace").read()
        n = text.count("\n")
        if n > MAX_FILE:
            (used.add(f) if f in exceptions else bad.append(f"{f}: {n} lines (> {MAX_FILE})"))
        funcs = py_functions(text) if f.endswith(".py") else c_functions(text)
        for name, line, length in funcs:
            if length > MAX_FUNC:
                key = f"{f}:{name}"
                if key in exceptions:
                    used.add(key)
                else:
                    bad.append(f"{f}:{line}: function {name} is {length} lines (> {MAX_FUNC})")
    for key in sorted(set(exceptions) - used):
        bad.append(f"scripts/size_exceptions.txt: '{key}' is within the limits now: remove it")
    if "--list" in sys.argv or bad:
        print("\n".join(bad) if bad else "no violations")
    print(f"check_sizes: {len(bad)} violation(s), {len(used)} listed exception(s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
