#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The profile JSON's keys are spelled once, in common/include/hroof/ProfileKeys.h:
the runtime's writer (runtime/src/profile/) and the report's reader
(tools/report/) use its constants, never a string literal.

  - runtime/src/profile/*: no profile key as a string literal where JSON is
    written or read: {"k", v}, J["k"], \\"k\\" in hand-written JSON text,
    and the reads below (a value such as "counters" in
    "duration_source": "counters" is no key);
  - tools/report/*: no profile key as a string literal where JSON is read:
    .contains("k"), .find("k"), .value("k", ...), .at("k"), J["k"] not
    assigned to, ProfileFields' text/count/number/flag(..., "k"),
    key() == "k", or \\"k\\" in JSON text. The report's own output (--json,
    --range-json, --rank-json) writes keys of its own format, some spelled
    like profile keys ({"launches", N}, Row["range"] = ...): those are not
    reads.

Also: each key declared once in ProfileKeys.h, and each of its constants in
a row of ProfileKeyTable (its object, type and meaning). Prints each
violation as FILE:LINE: KEY: the line, and a summary; exits 1 on any. --root DIR checks another tree (the self-test plants violations in a
copy); --selftest does that and checks that each kind is caught.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def profile_keys(root):
    text = open(os.path.join(root, "common/include/hroof/ProfileKeys.h")).read()
    return set(re.findall(r'inline constexpr const char \*\w+ = "([^"]+)";', text))


def code_lines(path):
    """(line number, code) with comments blanked (string literals kept)."""
    text = open(path, errors="replace").read()
    out, in_block = [], False
    for n, line in enumerate(text.split("\n"), 1):
        code, i, in_str = "", 0, False
        while i < len(line):
            c = line[i]
            if in_block:
                if line.startswith("*/", i):
                    in_block = False
                    i += 2
                    continue
                i += 1
                continue
            if in_str:
                code += c
                if c == "\\" and i + 1 < len(line):
                    code += line[i + 1]
                    i += 2
                    continue
                if c == '"':
                    in_str = False
                i += 1
                continue
            if line.startswith("//", i):
                break
            if line.startswith("/*", i):
                in_block = True
                i += 2
                continue
            if c == '"':
                in_str = True
            if c == "'" and i + 2 < len(line):  # a char literal ('"')
                end = line.find("'", i + 1 + (line[i + 1] == "\\"))
                if end > 0:
                    code += line[i:end + 1]
                    i = end + 1
                    continue
            code += c
            i += 1
        out.append((n, code))
    return out


WRITES = [
    r'\{\s*"([a-z_0-9]+)"\s*,',
    r'\[\s*"([a-z_0-9]+)"\s*\]',
]


READS = [
    r'\.(?:contains|find|value|at|erase)\(\s*"([a-z_0-9]+)"',
    r'\[\s*"([a-z_0-9]+)"\s*\](?!\s*=[^=])',
    r'\b(?:text|count|number|flag)\([^;]*,\s*"([a-z_0-9]+)"\s*[,)]',
    r'key\(\)\s*[!=]=\s*"([a-z_0-9]+)"',
    r'\\"([a-z_0-9]+)\\"',
]


def writer_violations(code, keys):
    return [k for pat in WRITES + READS for k in re.findall(pat, code) if k in keys]


def reader_violations(code, keys):
    return [k for pat in READS for k in re.findall(pat, code) if k in keys]


def table_problems(root):
    """Each key declared once, each constant in some row of the table."""
    text = open(os.path.join(root, "common/include/hroof/ProfileKeys.h")).read()
    consts = re.findall(r'inline constexpr const char \*(\w+) = "([^"]+)";', text)
    rows = set(re.findall(r'\{"\w+", (\w+), "', text))
    out, seen = [], {}
    for name, key in consts:
        if key in seen:
            out.append(f"ProfileKeys.h: '{key}' declared twice ({seen[key]}, {name})")
        seen[key] = name
        if name not in rows:
            out.append(f"ProfileKeys.h: {name} ('{key}') is in no row of ProfileKeyTable")
    return out


def check(root):
    keys = profile_keys(root)
    bad = table_problems(root)
    files = 0
    for folder, rule in (("runtime/src/profile", writer_violations),
                         ("tools/report", reader_violations)):
        d = os.path.join(root, folder)
        for name in sorted(os.listdir(d)):
            if not name.endswith((".cpp", ".h")):
                continue
            files += 1
            path = os.path.join(d, name)
            for n, code in code_lines(path):
                for k in rule(code, keys):
                    bad.append(f"{folder}/{name}:{n}: {k}: {code.strip()}")
    for b in bad:
        print(b)
    print(f"check_profile_keys: {files} files, {len(keys)} keys, {len(bad)} violation(s)")
    return 1 if bad else 0


def selftest():
    root = os.path.dirname(HERE)
    tmp = tempfile.mkdtemp(prefix="hroof-keys-")
    try:
        for sub in ("common/include/hroof", "runtime/src/profile", "tools/report"):
            shutil.copytree(os.path.join(root, sub), os.path.join(tmp, sub))
        me = [sys.executable, os.path.abspath(__file__), "--root", tmp]
        if subprocess.run(me, capture_output=True).returncode != 0:
            print("FAIL: the real tree does not pass")
            return 1
        plants = [("runtime/src/profile/Transfers.cpp", '\nstatic nlohmann::json K = {{"bytes", 1}};\n',
                   "Transfers.cpp:"),
                  ("common/include/hroof/ProfileKeys.h",
                   '\ninline constexpr const char *Orphan = "orphan";\n', "Orphan"),
                  ("tools/report/ProfileReader.cpp",
                   '\nstatic bool f(const nlohmann::json &J) { return J["kernels"].empty(); }\n',
                   "ProfileReader.cpp:")]
        for path, line, where in plants:
            p = os.path.join(tmp, path)
            keep = open(p).read()
            open(p, "a").write(line)
            r = subprocess.run(me, capture_output=True, text=True)
            open(p, "w").write(keep)
            if r.returncode == 0 or where not in r.stdout:
                print(f"FAIL: a key literal planted in {path} was not caught: {r.stdout}")
                return 1
        print("PASS: key literals in the writer and in a reader, and a key in no table row, "
              "are caught")
        return 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", default=os.path.dirname(HERE))
    ap.add_argument("--selftest", action="store_true")
    a = ap.parse_args()
    return selftest() if a.selftest else check(a.root)


if __name__ == "__main__":
    sys.exit(main())
