#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The addendum run's short table (case-studies/run-addendum.sh; stdlib only;
runs on the machine with the GPU and here on the unpacked addendum.tgz).

Usage: addendum_table.py DIR
Reads  DIR/kernels/{lstm,lstm_fused}.time.r<i>.stdout  (CASE lines of the
       plain programs, repetition i)
       DIR/torch/<run>.json, <run>.stdout            (hroof profiles, TRAIN line)
Prints (a) the no-profiler time of every kernel and size per repetition and
its spread, the LSTM fusion speed-up per size and repetition; (b) per PyTorch
run the dtypes of the TRAIN line, tensor and CUDA-core FLOPs by type
(per-launch counters x launches, as summarize.py) and the kernels with
bf16/half in their names or with tensor FLOPs: launches, time, tensor FLOPs
per launch by type."""
import glob, json, os, re, sys
W = sys.argv[1]

def cases(path):
    out = {}
    try:
        for line in open(path):
            if line.startswith("CASE "):
                c = json.loads(line[5:])
                out[(c["kernel"], c["size"])] = c
    except (OSError, ValueError) as e:
        print("  (cannot read %s: %s)" % (path, e))
    return out

def us(ms):
    return "%.1f" % (ms * 1e3) if ms is not None else "-"

# ---- a. timing ----
reps = sorted(int(m.group(1)) for f in glob.glob(os.path.join(W, "kernels", "lstm.time.r*.stdout"))
              for m in [re.search(r"\.r(\d+)\.stdout$", f)] if m)
T = {r: {} for r in reps}
for r in reps:
    for p in ("lstm", "lstm_fused"):
        T[r].update(cases(os.path.join(W, "kernels", "%s.time.r%d.stdout" % (p, r))))
print("== a. no-profiler CUDA-event mean per timed launch (us), per repetition of the program")
keys = []
for r in reps:
    for k in T[r]:
        if k not in keys:
            keys.append(k)
warm = sorted({str(T[r][k].get("warmup", "absent")) for r in reps for k in T[r]})
print("   warm-up launches per kernel and size (CASE \"warmup\"): %s; timed launches (\"reps\"): %s" % (
    ", ".join(warm), ", ".join(sorted({str(T[r][k].get("reps", "absent")) for r in reps for k in T[r]}))))
print("%-32s %-33s %s  %s" % ("kernel", "size", "  ".join("r%-7d" % r for r in reps), "spread (max/min-1)"))
for k in keys:
    v = [T[r].get(k, {}).get("ms") for r in reps]
    ok = [x for x in v if x]
    sp = "%.1f%%" % (100 * (max(ok) / min(ok) - 1)) if len(ok) > 1 else "-"
    chk = ",".join(sorted({T[r][k].get("check", "?") for r in reps if k in T[r]}))
    print("%-32s %-33s %s  %s  check %s" % (k[0], k[1], "  ".join("%-8s" % us(x) for x in v), sp, chk))
print()
print("== LSTM fusion: before = lstm_gemm_wmma<__half> + lstm_pointwise_f32, after = lstm_fused_wmma (us)")
sizes = []
for k in keys:
    if k[0] == "lstm_fused_wmma" and k[1] not in sizes:
        sizes.append(k[1])
for s in sizes:
    cells = []
    for r in reps:
        g = T[r].get(("lstm_gemm_wmma<__half>", s), {}).get("ms")
        pw = T[r].get(("lstm_pointwise_f32", s), {}).get("ms")
        fu = T[r].get(("lstm_fused_wmma", s), {}).get("ms")
        if g and pw and fu:
            cells.append("r%d %s -> %s = %.2fx" % (r, us(g + pw), us(fu), (g + pw) / fu))
        else:
            cells.append("r%d -" % r)
    print("%-33s %s" % (s, " | ".join(cells)))
print()

# ---- b. PyTorch ----
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from summarize import flat, profile_schema  # noqa: E402  (one flattening for both tables)

def g(v):
    if v is None:
        return "-"
    for d, s in ((1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(v) >= d:
            return "%.3g%s" % (v / d, s)
    return "%.3g" % v

# by name only (cuBLAS nvjet: hsh = half, tst = bf16, as far as known); the
# tensor FLOPs by type are the counters' word
BF = re.compile(r"bf16|bfloat16|tst", re.I)
HF = re.compile(r"__half|c10::Half|float16|f16|hsh|hhs|Half")
print("== b. PyTorch runs (hroof run --counters roofline --launch-limit 2); FLOPs = per-launch counters x launches")
for path in sorted(glob.glob(os.path.join(W, "torch", "*.json"))):
    run = os.path.basename(path)[:-5]
    train = {}
    try:
        for line in open(path[:-5] + ".stdout"):
            if line.startswith("TRAIN "):
                train = json.loads(line[6:])
    except (OSError, ValueError):
        pass
    print("-- %s: params %s, input %s, output %s (%s), cudnn_enabled %s, fallback %s, wall_s %s" % (
        run, train.get("param_dtype"), train.get("input_dtype"), train.get("out_dtype"),
        train.get("out_grad_fn"), train.get("cudnn_enabled"), train.get("fallback"), train.get("wall_s")))
    try:
        prof = json.load(open(path))
    except (OSError, ValueError) as e:
        print("   cannot read profile: %s" % e)
        continue
    note = profile_schema.unknown_keys_note(prof, path)
    if note:
        print("   " + note)
    rows, byp, tot = [], {}, 0.0
    for k in prof.get("kernels", []):
        name = k.get("kernel") or k.get("mangled") or "?"
        n = k.get("launches", 0) or 0
        d = k.get("duration_ns") or {}
        tl = d.get("timed_launches") or 0
        t = d.get("total", 0) / tl * n if tl else None
        c = k.get("counters") or {}
        per = {}
        if c.get("launches"):
            allc = {kk: v / float(c["launches"]) for kk, v in flat(c.get("total")).items()}
            per = {kk: v for kk, v in allc.items()
                   if (kk.startswith("flops.") or kk.startswith("tensor_flops.")) and v}
            if t is None and allc.get("time_ns"):
                t = allc["time_ns"] * n
        for kk, v in per.items():
            byp[kk] = byp.get(kk, 0) + v * n
        tot += t or 0
        typ = "bf16" if BF.search(name) else ("half" if HF.search(name) else "")
        tens = {kk.split(".", 1)[1]: v for kk, v in per.items() if kk.startswith("tensor_flops.")}
        rows.append((t or 0, name, n, typ, tens))
    tens_all = {kk: v for kk, v in byp.items() if kk.startswith("tensor_flops.")}
    print("   kernel time %.3f ms; tensor FLOPs by type: %s; CUDA-core FLOPs: %s" % (
        tot * 1e-6, ", ".join("%s %s" % (kk.split(".", 1)[1], g(v)) for kk, v in sorted(tens_all.items(), key=lambda x: -x[1])) or "none",
        ", ".join("%s %s" % (kk.split(".", 1)[1], g(v)) for kk, v in sorted(byp.items(), key=lambda x: -x[1]) if kk.startswith("flops.")) or "none"))
    nb = sum(1 for r in rows if r[3] == "bf16"); nh = sum(1 for r in rows if r[3] == "half")
    print("   kernels: %d; with bf16 in the name: %d; with half/f16 in the name: %d" % (len(rows), nb, nh))
    sel = [r for r in rows if r[3] or r[4]]
    sel.sort(key=lambda r: -r[0])
    print("   %-5s %-8s %9s %6s  %-28s %s" % ("name", "launches", "time us", "share", "tensor FLOPs/launch", "kernel"))
    for t, name, n, typ, tens in sel[:18]:
        print("   %-5s %-8d %9.1f %5.1f%%  %-28s %s" % (
            typ or "-", n, t * 1e-3, 100 * t / tot if tot else 0,
            ", ".join("%s %s" % (kk, g(v)) for kk, v in sorted(tens.items())) or "-", name[:110]))
    if len(sel) > 18:
        print("   ... %d more (report/torch-%s.csv)" % (len(sel) - 18, run))
    print()
