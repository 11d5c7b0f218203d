#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Checks in the SASS of hroof-ert that each benchmark kernel's inner loop does the work it claims.

Usage: cuobjdump --dump-sass build/bin/hroof-ert > sass.txt; python3 ert/check_sass.py sass.txt [--arch sm_90]
For every kernel of the chosen architecture it finds the loops (a backward BRA to a label),
takes the loop with the most instructions of the kernel's claimed class, and prints that
loop's instruction count, the count of the claimed instruction and other notable ones
(local memory, extra barriers). It exits non-zero if a kernel's loop lacks the claimed work.
"""
import re
import sys
from collections import Counter

# kernel-name substring -> (claimed opcode prefix, expected count per loop iteration or None)
CLAIMS = [
    ("k_fmaIdE", "DFMA", 8 * 32),
    ("k_fmaIfE", "FFMA", 8 * 32),
    ("k_fmaI7__half2E", "HFMA2", 8 * 32),
    ("k_fmaI14__nv_bfloat162E", "HFMA2", 8 * 32),
    ("k_wgmmaILi0E", "HGMMA", 8, "sm_90"),
    ("k_wgmmaILi1E", "HGMMA", 8, "sm_90"),
    ("k_wgmmaILi2E", "HGMMA", 8, "sm_90"),
    ("k_wgmmaILi3E", "QGMMA", 8, "sm_90"),
    ("k_wgmmaILi4E", "IGMMA", 8, "sm_90"),
    ("k_mmaILi0E", "HMMA", 32),
    ("k_mmaILi1E", "HMMA", 32),
    ("k_mmaILi2E", "HMMA", 32),
    ("k_mmaILi3E", "QMMA", 32, "sm_89"),  # sm_90 emulates fp8 mma.sync: timed on sm_89 only
    ("k_mmaILi4E", "IMMA", 32),
    ("k_mmaILi5E", "DMMA", 32),
    ("k_mmaILi6E", "DMMA", 16, "sm_90"),
    ("k_readILi0E", "LDG", None),
    ("k_readILi1E", "LDG", None),
    ("k_readILi2E", "LDG", None),
    ("k_readILi3E", "LDG", None),
    ("k_shared", "LDS", None),
    ("k_copy", "LDG", None),
    ("k_ridgeILi64E", "FFMA", 4 * 64),
]


def parse(path, arch):
    funcs = {}
    cur_arch = None
    name = None
    for line in open(path, errors="replace"):
        m = re.search(r"arch = (sm_\w+)", line)
        if m:
            cur_arch = m.group(1)
            continue
        m = re.search(r"Function : (\S+)", line)
        if m:
            name = m.group(1) if cur_arch == arch else None
            if name:
                funcs[name] = []
            continue
        if not name:
            continue
        m = re.match(r"\s*(\.L_x_\d+):", line)
        if m:
            funcs[name].append(("label", m.group(1)))
            continue
        m = re.match(r"\s*/\*([0-9a-f]{4,})\*/\s+(.*?);", line)
        if m:
            funcs[name].append(("insn", (int(m.group(1), 16), m.group(2).strip())))
    return funcs


def opcode(insn):
    t = insn.split()
    if t and t[0].startswith("@"):
        t = t[1:]
    return t[0] if t else ""


def loops(body):
    """Loops = backward branches: BRA to an address (or label) at or before the branch."""
    labels = {}
    insns, addrs = [], []
    for kind, v in body:
        if kind == "label":
            labels[v] = len(insns)
        else:
            addrs.append(v[0])
            insns.append(v[1])
    index_of = {a: i for i, a in enumerate(addrs)}
    out = []
    for i, s in enumerate(insns):
        if opcode(s).split(".")[0] != "BRA":
            continue
        m = re.search(r"BRA(?:\.\S+)?\s+(?:`\((\.L_x_\d+)\)|(0x[0-9a-f]+))", s)
        if not m:
            continue
        tgt = labels.get(m.group(1)) if m.group(1) else index_of.get(int(m.group(2), 16))
        if tgt is not None and tgt <= i:
            out.append(insns[tgt: i + 1])
    return out, insns


def main():
    path = sys.argv[1]
    arch = "sm_90a" if "--arch" not in sys.argv else sys.argv[sys.argv.index("--arch") + 1]
    funcs = parse(path, arch)
    if not funcs:
        # cuobjdump names the Hopper cubin sm_90a or sm_90 depending on version
        for alt in ("sm_90", "sm_90a"):
            funcs = parse(path, alt)
            if funcs:
                arch = alt
                break
    print(f"SASS check of {path}, arch {arch}: {len(funcs)} kernels")
    bad = 0
    for claim in CLAIMS:
        sub, op, expect = claim[:3]
        if len(claim) > 3 and not arch.startswith(claim[3]):
            print(f"SKIP     {sub}: checked on {claim[3]} only")
            continue
        names = [n for n in funcs if sub in n]
        if not names:
            print(f"MISSING  {sub}: no such kernel in {arch}")
            bad += 1
            continue
        for n in names:
            lps, insns = loops(funcs[n])
            total = Counter(opcode(s).split(".")[0] for s in insns)
            best = None
            for lp in lps:
                c = Counter(opcode(s).split(".")[0] for s in lp)
                if best is None or c[op] > best[1][op]:
                    best = (lp, c)
            if best is None or best[1][op] == 0:
                print(f"FAIL     {n}: no loop with {op} (whole kernel: {dict(total.most_common(8))})")
                bad += 1
                continue
            lp, c = best
            local = c["LDL"] + c["STL"]
            claimed = c[op]
            widths = Counter(opcode(s) for s in lp if opcode(s).startswith(op))
            status = "OK"
            if expect is not None and claimed % expect != 0:
                status = "FAIL"
            if local:
                status = "FAIL"
            if status == "FAIL":
                bad += 1
            print(f"{status:8} {n}: inner loop {len(lp)} instructions, {claimed} {op} "
                  f"({', '.join(f'{k} x{v}' for k, v in sorted(widths.items()))})"
                  + (f", expected a multiple of {expect}" if expect else "")
                  + f"; local-memory ops {local}; other: "
                  + ", ".join(f"{k} {v}" for k, v in c.most_common(6) if k != op))
    print(f"{bad} problem(s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
