#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""crosscheck.py DIR [NCU_SUFFIX...] - tables of docs/validation/counters.md.

DIR holds p/<example>.plain/, p/<example>.inst/ (hroof profiles) and
ncu-<example><suffix>.csv (ncu --csv --page raw --log-file). For each
example and kernel: hroof (plain build) vs ncu, metric by metric (first
launch of each kernel, launches matched in order), and for the instrumented
build: dynamic FLOPs/bytes vs counter FLOPs/bytes.
"""
import csv, glob, json, sys

D = sys.argv[1]
SUFFIXES = sys.argv[2:] or [""]
EX = ["saxpy", "reduce", "sgemm_tiled", "stencil2d", "half2_bf16", "mma_gemm", "torch"]
MAXL = {"torch": 20}


def profile(path):
    f = glob.glob(path + "/*.json")
    return json.load(open(f[0])) if f else None


def ncu_rows(path):
    try:
        r = list(csv.reader(open(path)))
    except OSError:
        return []
    h = [i for i, x in enumerate(r) if x and x[0] == "ID"]
    if not h:
        return []
    hdr = r[h[0]]
    out = []
    for row in r[h[0] + 2:]:
        if len(row) != len(hdr):
            continue
        d = dict(zip(hdr, row))
        out.append(d)
    return out


def num(s):
    try:
        return float(s.replace(",", ""))
    except Exception:
        return None


def rel(a, b):
    if a == b:
        return "0"
    if not b:
        return "n/a"
    return "%+.2f%%" % (100.0 * (a - b) / b)


for ex in EX:
    p = profile(f"{D}/p/{ex}.plain") or profile(f"{D}/p/{ex}")
    if not p:
        print(f"## {ex}: no hroof profile\n")
        continue
    launches = [L for L in p["launches"] if L.get("counters")]
    for sfx in SUFFIXES:
        rows = ncu_rows(f"{D}/ncu-{ex}{sfx}.csv")
        print(f"### {ex}: hroof (plain build) vs ncu{sfx}\n")
        print("| launch | metric | hroof | ncu | diff |\n|---|---|---|---|---|")
        for i, L in enumerate(launches[:MAXL.get(ex, 3)]):
            if i >= len(rows):
                break
            n = rows[i]
            raw = L["counters"]["raw"]
            for m in sorted(raw):
                if "peak_sustained" in m or "per_second" in m:
                    continue
                v = num(n.get(m, ""))
                if v is None:
                    continue
                if raw[m] == 0 and v == 0:
                    continue
                if ex == "torch" and not (m.startswith("sm__") or m == "gpu__time_duration.sum" or m == "l1tex__t_bytes.sum"):
                    continue
                print(f"| {i} {L['kernel'][:28]} | `{m}` | {raw[m]:.0f} | {v:.0f} | {rel(raw[m], v)} |")
        print()
    q = profile(f"{D}/p/{ex}.inst")
    if not q:
        continue
    # Dynamic counts (instrumented build) vs counters of the plain build (the
    # real code, without the instrumentation's own instructions); in
    # parentheses the counters of the instrumented build.
    print(f"### {ex}: dynamic counts (instrumented) vs counters (plain build; instrumented build in parentheses)\n")
    print("| kernel | quantity | dynamic | counters plain | (counters inst) |\n|---|---|---|---|---|")
    plain_first = {}
    for L in launches:
        plain_first.setdefault(L["kernel"], L["counters"])
    seen = set()
    for L in q["launches"]:
        if L["kernel"] in seen or not L.get("counters") or not L.get("dynamic"):
            continue
        seen.add(L["kernel"])
        ci, d = L["counters"], L["dynamic"]
        c = plain_first.get(L["kernel"], {})
        def row(name, dv, cv, civ):
            if dv or cv or civ:
                print(f"| {L['kernel'][:30]} | {name} | {dv} | {cv} | ({civ}) |")
        for prec in ["f64", "f32", "f16"]:
            dv = d["flops"].get(prec, 0) + (d["flops"].get("bf16", 0) if prec == "f16" else 0)
            row("flops." + prec, dv, c.get("flops", {}).get(prec), ci["flops"].get(prec))
        for k in ci.get("tensor_flops", {}):
            row("tensor_flops." + k, d["tensor_flops"].get(k, 0),
                c.get("tensor_flops", {}).get(k), ci["tensor_flops"][k])
        sp = 0
        for v in d.get("special", {}).values():
            if isinstance(v, dict):
                sp += sum(x for x in v.values() if isinstance(x, (int, float)))
        if sp:
            print(f"| {L['kernel'][:30]} | special ops (dynamic only) | {sp} | - | |")
        for sp_ in ["global", "shared", "local"]:
            for op in ["load", "store", "atomic"]:
                civ = ci["bytes"].get(sp_, {}).get(op)
                if civ is None:
                    continue
                row(f"bytes.{sp_}.{op}", d["bytes"][sp_][op],
                    c.get("bytes", {}).get(sp_, {}).get(op), civ)
    print()
