#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Compares the GPU suite's counts: analytic (hand-derived, printed by the
programs), static (hroof static at build time), dynamic (hroof runtime
profile of the instrumented binary) and Nsight Compute (plain binary), plus
the instrumentation overhead. Writes OUT/table.md and prints a short table.

Usage: compare.py [--out DIR] [--inputs DIR] [PROG...]
Inputs, per program P (written by test/gpu/run.sh):
  DIR/P.inst.stdout     stdout of the instrumented run (HROOF_EXPECT lines)
  DIR/P.profile*.json / DIR/P.profile/ hroof-*.json   runtime profile(s)
  DIR/P.ncu.csv         `ncu --csv --page raw --print-units base` output
  DIR/P.time.plain.txt, DIR/P.time.inst.txt   HROOF_TIME lines
  INPUTS/static/P.json  analytic + static per launch (test/gpu/build.sh; INPUTS is
                        the GPU test inputs of the suite, default .gpu-inputs/gpu)
The ncu export is read with INPUTS/bin/hroof (`hroof ncu`): flops.f64/f32 and
bytes.* are hroof's own metric mapping, the same as the runtime's.
Exit status: 0 when every dynamic == analytic cell and every exact ncu cell
passes, 1 otherwise.

Nsight Compute conversion (thread-level SASS instruction counts, predicated
on, of the PLAIN binary):
  flops.f64 = dadd + dmul + 2*dfma
  flops.f32 = fadd + fmul + 2*ffma
  flops.f16+bf16 = (hadd + hmul + 2*hfma) * L, L = the kernel's
      ncu_half_lanes (2 where the code is packed half2/bf162, else 1): an
      HFMA2 counts once per thread whether it works on 1 or 2 lanes, and
      bf16 HFMA2.BF16 shares the h* metrics, so f16 and bf16 are compared
      summed.
  tensor_flops.f16 = (warp-level HMMA instructions) * 4096: on sm_90 each
      HMMA.16816 is one m16n8k16 (2*16*8*16 FLOPs); a wmma m16n16k16 is two.
  bytes.S.load/store = sm__sass_data_bytes_mem_S_op_{ld,st}.sum,
  bytes.global.atomic = ..._global_op_atom + ..._global_op_red,
  bytes.shared.atomic = ..._shared_op_atom.
  FLOPs are compared exactly only in kernels without special operations
  (div/sqrt/rcp/rsqrt/transcendental expand into FFMA/MUFU sequences on the
  GPU); there the ratio ncu/analytic is shown instead."""
import glob
import json
import math
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gpulib  # noqa: E402
from gpulib import base_name, flatten, nonzero, parse_tagged  # noqa: E402

# ---------------------------------------------------------------- profile --
# ADAPTER, written before docs/profile-format.md existed and checked against
# it afterwards (hroof_profile 1: "launches": [{"kernel", "mangled", "index",
# "dynamic": {nested counts} | null, "static": {...}}], "kernels": aggregates
# whose "dynamic" is {"launches", "total"}, skipped here). Accepts a
# JSON document or JSON lines; finds every object that looks like one launch
# record: it has a kernel name ("kernel" | "name" | "mangled" | "demangled",
# or inherited from an enclosing kernel object) and a counts object under
# "dynamic" | "counts" | "dynamic_counts" (nested {"flops": {"f32": N}} or
# dotted {"flops.f32": N}). The launch index is "launch" | "launch_index"
# when present (per kernel, 0-based), else the order of appearance. A per-launch "static" object, when present, is kept too.
COUNT_KEYS = ("dynamic", "counts", "dynamic_counts")
NAME_KEYS = ("kernel", "mangled", "name", "demangled")
# Not "index": in docs/profile-format.md that is the completion order over
# ALL kernels; the per-kernel launch number is the order of appearance.
INDEX_KEYS = ("launch", "launch_index")
COUNTER_PREFIXES = ("flops.", "tensor_flops.", "special.", "other.", "bytes.")


def _counts(obj):
    flat = flatten(obj)
    return {k: int(v) for k, v in flat.items() if k.startswith(COUNTER_PREFIXES)}


def _walk(obj, inherited, out):
    if isinstance(obj, list):
        for x in obj:
            _walk(x, inherited, out)
        return
    if not isinstance(obj, dict):
        return
    name = inherited
    for k in NAME_KEYS:
        if isinstance(obj.get(k), str):
            name = obj[k]
            break
    names = [obj[k] for k in NAME_KEYS if isinstance(obj.get(k), str)]
    for ck in COUNT_KEYS:
        c = obj.get(ck)
        if isinstance(c, dict) and name:
            counts = _counts(c)
            if counts or not c:
                idx = None
                for ik in INDEX_KEYS:
                    if isinstance(obj.get(ik), int):
                        idx = obj[ik]
                        break
                st = obj.get("static")
                out.append({"kernel": name, "names": names or [name], "launch": idx,
                            "counts": counts,
                            "static": _counts(st) if isinstance(st, dict) else None})
                break
    for k, v in obj.items():
        if k in COUNT_KEYS or k == "static":
            continue
        if isinstance(v, (list, dict)):
            _walk(v, name, out)


def load_profile(paths):
    recs = []
    for p in paths:
        try:
            text = open(p).read()
        except OSError:
            continue
        docs = []
        try:
            docs = [json.loads(text)]
        except ValueError:
            for line in text.splitlines():
                line = line.strip().rstrip(",")
                if line.startswith("{"):
                    try:
                        docs.append(json.loads(line))
                    except ValueError:
                        pass
        for d in docs:
            _walk(d, None, recs)
    seen = {}
    for r in recs:
        b = base_name(r["kernel"])
        if r["launch"] is None:
            r["launch"] = seen.get(b, 0)
        seen[b] = max(seen.get(b, 0), r["launch"] + 1)
    return recs


def find_dynamic(recs, kernel, launch):
    b = base_name(kernel)
    for r in recs:
        if r["launch"] == launch and any(base_name(n) == b or n == kernel for n in r["names"]):
            return r
    return None


# -------------------------------------------------------------------- ncu --
def load_ncu(path, hroof):
    """Rows of `ncu --csv --page raw` as `hroof ncu` reads them: [{"kernel",
    "launch", "counters": {key: value}, metric: value}]; the counter keys
    come from hroof's own metric table (common/include/hroof/CounterMetrics.h)."""
    if not os.path.exists(path) or not hroof:
        return []
    try:
        text = subprocess.run([hroof, "ncu", path], stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, check=True).stdout
        rows = json.loads(text)
    except (OSError, subprocess.CalledProcessError, ValueError):
        return []
    out = []
    count = {}
    for r in rows:
        name = r["kernel"]
        b = base_name(name)
        rec = dict(r["metrics"], kernel=name, launch=count.get(b, 0), counters=r["counters"])
        count[b] = count.get(b, 0) + 1
        out.append(rec)
    return out


def find_ncu(rows, kernel, launch):
    b = base_name(kernel)
    for r in rows:
        if base_name(r["kernel"]) == b and r["launch"] == launch:
            return r
    return None


def M(r, name):
    """Metric value or None when ncu did not collect it."""
    for k in (name, name + ".sum"):
        if k in r and r[k] is not None:
            return r[k]
    return None


def ncu_values(r, half_lanes):
    def s(*names, w=None):
        vals = [M(r, "sm__sass_thread_inst_executed_op_%s_pred_on.sum" % n) for n in names]
        if all(v is None for v in vals):
            return None
        w = w or [1] * len(names)
        return sum((v or 0) * k for v, k in zip(vals, w))

    # hroof's own mapping (the keys of the profile's "counters" object) ...
    c = r["counters"]
    out = {k: c.get(k) for k in ("flops.f64", "flops.f32", "bytes.global.load",
                                 "bytes.global.store", "bytes.global.atomic",
                                 "bytes.shared.load", "bytes.shared.store",
                                 "bytes.shared.atomic", "bytes.local.load",
                                 "bytes.local.store")}
    # ... and this suite's own rules for half and Tensor Core math (unpacked
    # half instructions, HMMA instruction counts; see the module docstring).
    out["flops.f16+bf16"] = None
    h = s("hadd", "hmul", "hfma", w=[1, 1, 2])
    if h is not None:
        out["flops.f16+bf16"] = h * half_lanes
    hm = None
    for n in ("sm__inst_executed_pipe_tensor_op_hmma.sum",
              "smsp__inst_executed_pipe_tensor_op_hmma.sum",
              "sm__inst_executed_pipe_tensor_op_hmma_type_hfma2.sum"):
        hm = M(r, n)
        if hm is not None:
            break
    out["tensor_flops.f16"] = hm * 4096 if hm is not None else None
    return {k: (int(round(v)) if v is not None else None) for k, v in out.items()}


# ------------------------------------------------------------------ table --
ROWS = ["flops.f64", "flops.f32", "flops.f16", "flops.bf16", "flops.f16+bf16",
        "tensor_flops.f16", "bytes.global.load", "bytes.global.store",
        "bytes.global.atomic", "bytes.shared.load", "bytes.shared.store",
        "bytes.shared.atomic", "bytes.local.load", "bytes.local.store"]
NCU_ROWS = {"flops.f64", "flops.f32", "flops.f16+bf16", "tensor_flops.f16",
            "bytes.global.load", "bytes.global.store", "bytes.global.atomic",
            "bytes.shared.load", "bytes.shared.store", "bytes.shared.atomic",
            "bytes.local.load", "bytes.local.store"}


def get(d, key):
    if d is None:
        return None
    if key == "flops.f16+bf16":
        return d.get("flops.f16", 0) + d.get("flops.bf16", 0)
    return d.get(key, 0)


def fmt(v):
    if v is None:
        return "-"
    return "{:,}".format(v) if isinstance(v, int) else str(v)


def load_times(path):
    t = {}
    try:
        for r in parse_tagged(open(path).read(), "HROOF_TIME"):
            t[base_name(r["kernel"])] = r["median_ms"]
    except OSError:
        pass
    return t


class Results:
    """What the comparison gathers over all programs: the Markdown table's
    lines, one short row per launch (kernel, dyn verdict, ncu verdict,
    plain ms, inst ms, overhead ratio), notes, failure counts and the
    overhead ratios for the geomean."""

    def __init__(self):
        self.md = []
        self.short = []
        self.notes = []
        self.fails = 0
        self.missing_dyn = 0
        self.ratios = []


def parse_args(argv):
    """(out_dir, inputs, progs, hroof) from the command line; progs defaults to
    every program with a build-time listing in INPUTS/static."""
    out_dir = os.environ.get("OUT", "gpu-out")
    inputs = ".gpu-inputs/gpu"
    progs = []
    i = 0
    while i < len(argv):
        if argv[i] == "--out":
            out_dir = argv[i + 1]
            i += 2
        elif argv[i] == "--inputs":
            inputs = argv[i + 1]
            i += 2
        else:
            progs.append(argv[i])
            i += 1
    hroof = os.path.join(inputs, "bin", "hroof")
    if not os.access(hroof, os.X_OK):
        hroof = shutil.which("hroof")
    if not progs:
        progs = sorted(os.path.basename(p)[:-5] for p in glob.glob(os.path.join(inputs, "static", "*.json"))
                       if not p.endswith(".model.json"))
    return out_dir, inputs, progs, hroof


def load_program(prog, out_dir, inputs, hroof, res):
    """Every input of one program (see the module docstring) as a dict;
    notes a missing or failed instrumented run in res."""
    try:
        static_rows = json.load(open(os.path.join(inputs, "static", prog + ".json")))
    except (OSError, ValueError):
        static_rows = []
    try:
        stdout = open(os.path.join(out_dir, prog + ".inst.stdout")).read()
    except OSError:
        stdout = ""
    expects = parse_tagged(stdout, "HROOF_EXPECT")
    if not expects:  # instrumented run missing: fall back to build-time values
        expects = [dict(r, counts=r["analytic"]) for r in static_rows]
        res.notes.append("%s: no HROOF_EXPECT lines in %s.inst.stdout (the run failed?); "
                         "analytic values from the build-time listing" % (prog, prog))
        res.fails += 1
    if stdout and "all checks passed" not in stdout:
        res.notes.append("%s: the instrumented run's own result checks did NOT all pass" % prog)
        res.fails += 1
    pf = sorted(set(glob.glob(os.path.join(out_dir, prog + ".profile*.json")) +
                    glob.glob(os.path.join(out_dir, prog + ".profile", "*.json"))))
    return {"static_rows": static_rows, "expects": expects,
            "dyn": load_profile(pf),
            "ncu": load_ncu(os.path.join(out_dir, prog + ".ncu.csv"), hroof),
            "tp": load_times(os.path.join(out_dir, prog + ".time.plain.txt")),
            "ti": load_times(os.path.join(out_dir, prog + ".time.inst.txt"))}


def check_dynamic(k, an, st, dc, res):
    """dynamic == analytic over every counter either side names: True/False,
    None without dynamic counts; a failing counter outside ROWS gets its own
    table line here (those in ROWS are marked in their row)."""
    if dc is None:
        res.missing_dyn += 1
        return None
    keys = set(an) | {x for x, v in dc.items() if v}
    bad = [x for x in sorted(keys) if an.get(x, 0) != dc.get(x, 0)]
    if bad:
        res.fails += 1
        for x in bad:
            if x not in ROWS:
                res.md.append("| %s | %s | %s | %s | %s | - | FAIL | |" % (
                    k, x, fmt(an.get(x, 0)), fmt(get(st, x)), fmt(dc.get(x, 0))))
    return not bad


def counter_rows(k, an, st, dc, nv, special, md):
    """One table line per counter of ROWS that any column names; returns
    (ncu cells that fail, ncu cells compared exactly)."""
    ncu_bad = 0
    ncu_cells = 0
    for row in ROWS:
        a = get(an, row)
        s_ = get(st, row)
        d = get(dc, row)
        n = nv.get(row) if row in NCU_ROWS else None
        if not any([a, s_, d, n]):
            continue
        if row == "flops.f16+bf16" and not (an.get("flops.f16") and an.get("flops.bf16")) \
                and not n and not a:
            continue
        if row in ("flops.f16", "flops.bf16"):
            dv = "-" if d is None else ("PASS" if d == a else "FAIL")
            md.append("| %s | %s | %s | %s | %s | | %s | |" % (k, row, fmt(a), fmt(s_), fmt(d), dv))
            continue
        dv = "-" if d is None or row == "flops.f16+bf16" else ("PASS" if d == a else "FAIL")
        if n is None:
            nvd = "-"
        elif special and row.startswith("flops"):
            nvd = "info x%.3f" % (n / a) if a else "info"
        elif row.startswith("bytes.local") and n > a:
            nvd = "FAIL (spills?)"
            ncu_bad += 1
        else:
            ncu_cells += 1
            nvd = "PASS" if n == a else "FAIL"
            if n != a:
                ncu_bad += 1
        md.append("| %s | %s | %s | %s | %s | %s | %s | %s |" % (
            k, row, fmt(a), fmt(s_), fmt(d), fmt(n), dv, nvd))
    return ncu_bad, ncu_cells


def compare_launch(e, inp, res):
    """The table lines, notes and short row of one expected launch."""
    k, L = e["kernel"], e.get("launch", 0)
    an = e["counts"]
    st_row = next((r for r in inp["static_rows"] if base_name(r["kernel"]) == base_name(k)
                   and r["launch"] == L), None)
    st = st_row["static"] if st_row else None
    dr = find_dynamic(inp["dyn"], k, L)
    dc = dr["counts"] if dr else None
    nr = find_ncu(inp["ncu"], k, L)
    nv = ncu_values(nr, e.get("ncu_half_lanes", 1)) if nr else {}
    special = any(key.startswith("special.") and v for key, v in an.items())
    dyn_ok = check_dynamic(k, an, st, dc, res)
    ncu_bad, ncu_cells = counter_rows(k, an, st, dc, nv, special, res.md)
    if ncu_bad:
        res.fails += 1
    if e.get("note"):
        res.notes.append("%s: %s" % (k, e["note"]))
    if st_row and st_row.get("exact") is False:
        res.notes.append("%s: static model inexact (data-dependent control flow)" % k)
    b = base_name(k)
    tp, ti = inp["tp"], inp["ti"]
    ov = None
    if b in tp and b in ti and tp[b] > 0:
        ov = ti[b] / tp[b]
        res.ratios.append(ov)
    res.short.append((k, "-" if dyn_ok is None else ("PASS" if dyn_ok else "FAIL"),
                      "-" if not nr else ("FAIL %d" % ncu_bad if ncu_bad else "PASS %d" % ncu_cells),
                      tp.get(b), ti.get(b), ov))


def write_table(res, geo, out_dir):
    """OUT/table.md: the header with the conversion rules, the per-program
    tables gathered in res.md, the overhead table and the notes."""
    md = res.md
    md.append("\n### Overhead (instrumented / plain kernel time, CUDA events, median)\n")
    md.append("| kernel | plain ms | inst ms | ratio |")
    md.append("|---|---:|---:|---:|")
    for k, _, _, a, b2, ov in res.short:
        md.append("| %s | %s | %s | %s |" % (k, "-" if a is None else "%.4f" % a,
                                            "-" if b2 is None else "%.4f" % b2,
                                            "-" if ov is None else "%.3f" % ov))
    md.append("| **geomean** | | | %s |" % ("-" if geo is None else "%.3f" % geo))
    if res.notes:
        md.append("\n### Notes\n")
        md.extend("- " + n for n in res.notes)
    rules = __doc__[__doc__.index("Nsight Compute conversion"):]
    md.insert(0, "# hroof GPU suite: analytic vs static vs dynamic vs Nsight Compute\n\n"
              "dyn: dynamic == analytic exactly; ncu: Nsight Compute on the plain "
              "binary == analytic exactly (FLOPs only without special ops).\n\n```\n" +
              rules.strip() + "\n```\n")
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "table.md"), "w") as f:
        f.write("\n".join(md) + "\n")


def print_summary(res, geo, out_dir):
    """The short table on stdout: notes, one line per launch, the overhead
    geomean and the verdict."""
    short = res.short
    over = [k for k, _, _, _, _, ov in short if ov is not None and ov > 1.25]
    print("\n".join("NOTE " + n for n in res.notes))
    print("%-16s %-8s %-10s %10s %10s %7s" % ("kernel", "dyn=ana", "ncu", "plain_ms", "inst_ms", "ratio"))
    for k, dv, nvd, a, b2, ov in short:
        print("%-16s %-8s %-10s %10s %10s %7s" % (
            k, dv, nvd, "-" if a is None else "%.4f" % a, "-" if b2 is None else "%.4f" % b2,
            "-" if ov is None else "%.3f" % ov))
    print("overhead geomean: %s%s" % ("-" if geo is None else "%.3f" % geo,
                                       "; over 25%%: %s" % ", ".join(over) if over else ""))
    if res.missing_dyn:
        print("dynamic counts missing for %d launch(es) (no profile found / runtime absent)" % res.missing_dyn)
    print("%s; full table: %s" % ("FAILURES: %d" % res.fails if res.fails else "all compared cells PASS",
                                  os.path.join(out_dir, "table.md")))


def main():
    out_dir, inputs, progs, hroof = parse_args(sys.argv[1:])
    res = Results()
    for prog in progs:
        inp = load_program(prog, out_dir, inputs, hroof, res)
        res.md.append("\n### %s\n" % prog)
        res.md.append("| kernel | counter | analytic | static | dynamic | ncu | dyn | ncu |")
        res.md.append("|---|---|---:|---:|---:|---:|---|---|")
        for e in inp["expects"]:
            compare_launch(e, inp, res)
    ratios = res.ratios
    geo = math.exp(sum(math.log(r) for r in ratios) / len(ratios)) if ratios else None
    write_table(res, geo, out_dir)
    print_summary(res, geo, out_dir)
    return 1 if res.fails or res.missing_dyn else 0


sys.exit(main())
