#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Summarizes the case-study profiles (stdlib only; runs on the machine with the
GPU after run.sh's hroof runs, and anywhere later on the unpacked case.tgz).

Usage: summarize.py OUTDIR [MACHINE.json]
Reads  OUTDIR/kernels/<prog>.{plain,inst}.json   (hroof run profiles)
       OUTDIR/kernels/<prog>.plain.stdout        (CASE lines: hand FLOPs, times)
       OUTDIR/static/<prog>.json                 (build-time static totals)
       OUTDIR/torch/<model>-<precision>.json     (hroof run profiles)
Writes OUTDIR/summary.md (and prints it): per custom kernel and size the
hand / static / dynamic / counter FLOPs, AI at L1, L2, HBM, GFLOP/s and % of
the ERT ceiling of its precision; per PyTorch run the share of kernel time in
kernels without floating-point work, in Tensor-Core kernels, and the top
kernels. Numbers come only from the files; missing data prints '-'."""
import glob
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "scripts"))
import profile_schema  # noqa: E402  (the keys of common/include/hroof/ProfileKeys.h)


def load(path):
    try:
        with open(path) as f:
            p = json.load(f)
    except Exception as e:  # noqa: BLE001
        print("summarize: cannot read %s: %s" % (path, e), file=sys.stderr)
        return None
    note = profile_schema.unknown_keys_note(p, path) if isinstance(p, dict) and "hroof_profile" in p else ""
    if note:
        print("summarize: " + note, file=sys.stderr)
    return p


def flat(d, prefix=""):
    out = {}
    for k, v in (d or {}).items():
        if isinstance(v, dict):
            out.update(flat(v, prefix + k + "."))
        elif isinstance(v, (int, float)) and not isinstance(v, bool):
            out[prefix + k] = float(v)
    return out


def psum(f, prefix):
    return sum(v for k, v in f.items() if k.startswith(prefix))


def base(name):
    """'void f<1>(int, ...)' -> 'f<1>': the name without return type and
    parameter list (also used by static_totals.py)."""
    name = re.sub(r"^void ", "", name)
    depth = 0
    for i, ch in enumerate(name):
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth -= 1
        elif ch == "(" and depth == 0:
            return name[:i]
    return name


def short(name):
    return base(name.replace("(anonymous namespace)", "{anon}"))


def fmt_t(ns):
    if ns is None:
        return "-"
    if ns >= 1e9:
        return "%.3g s" % (ns * 1e-9)
    if ns >= 1e6:
        return "%.3g ms" % (ns * 1e-6)
    return "%.3g us" % (ns * 1e-3)


def fmt(v, unit=""):
    if v is None:
        return "-"
    a = abs(v)
    for div, s in ((1e15, "P"), (1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")):
        if a >= div:
            return "%.3g%s%s" % (v / div, s, unit)
    return "%.3g%s" % (v, unit)


class Kern:
    """One kernel aggregate of a profile, per-launch quantities."""

    def __init__(self, agg):
        self.name = agg.get("kernel") or agg.get("mangled") or "?"
        self.short = short(self.name)
        self.launches = agg.get("launches", 0) or 0
        d = agg.get("duration_ns") or {}
        tl = d.get("timed_launches") or 0
        self.t_ns = (d.get("total", 0) / tl) if tl else None
        self.total_ns = self.t_ns * self.launches if self.t_ns is not None else None
        c = agg.get("counters") or {}
        self.c = None
        self.c_launches = 0
        if c.get("launches"):
            n = float(c["launches"])
            self.c_launches = int(n)
            self.c = {k: v / n for k, v in flat(c.get("total")).items()}
            if self.t_ns is None and self.c.get("time_ns"):
                self.t_ns = self.c["time_ns"]
                self.total_ns = self.t_ns * self.launches
        # time of the launches that have counters: rates (GFLOP/s, GB/s, % of
        # attainable) divide counter FLOPs/bytes by THIS time, so that numerator
        # and denominator come from the same launches (under --launch-limit the
        # other launches of a kernel may have other sizes)
        self.rate_t_ns = (self.c.get("time_ns") if self.c else None) or self.t_ns

        self.dyn = self.stat = None
        for key in ("dynamic", "static"):
            s = agg.get(key) or {}
            if s.get("launches"):
                n = float(s["launches"])
                setattr(self, "dyn" if key == "dynamic" else "stat",
                        {k: v / n for k, v in flat(s.get("total")).items()})

    def size_varies(self):
        """the profiled launches' mean time differs from all launches' by >25%"""
        return bool(self.c and self.c.get("time_ns") and self.t_ns and
                    abs(self.c["time_ns"] / self.t_ns - 1) > 0.25)

    @staticmethod
    def flops(f):
        if f is None:
            return None
        return psum(f, "flops.") + psum(f, "tensor_flops.")

    def hw_flops(self):
        return self.flops(self.c)

    def tensor(self):
        return psum(self.c, "tensor_flops.") if self.c else None

    def levels(self):
        if not self.c:
            return {}
        return {"L1": self.c.get("l1_bytes"), "L2": self.c.get("l2_bytes"),
                "HBM": self.c.get("dram_bytes")}


FAKE = []
# data-movement kernels by name (PyTorch/cuDNN): layout transforms, copies, casts, fills
MOVE_RE = re.compile(r"nchwToNhwc|nhwcToNchw|copy_kernel|RNN_copy|FillFunctor|region_transform|_init|init_device_workspace", re.I)


def kernels_of(path):
    p = load(path)
    if not p:
        return None, []
    if str(p.get("command", "")).startswith("FAKE"):
        FAKE.append(path)
    return p, [Kern(a) for a in p.get("kernels", [])]


def ceilings(machine):
    """{'f32': GFLOP/s, 'tensor_f16': ..}, {'l1': GB/s, 'l2': .., 'hbm': ..}"""
    m = load(machine) if machine else None
    if not m:
        return {}, {}
    c = m.get("ceilings", {})
    fl = {k: v["value"] for k, v in c.get("flops", {}).items() if isinstance(v, dict)}
    bw = {k: v["value"] for k, v in c.get("bandwidth", {}).items() if isinstance(v, dict)}
    return fl, bw


def bound(k, fl, bw):
    """(attainable GFLOP/s, what bounds it, % of it achieved) from the
    counters of kernel k: min over the dominant precision's compute ceiling
    and AI_level x bandwidth_level at L1, L2, HBM."""
    if not k.c or not fl or not k.rate_t_ns:
        return None, "-", None
    f = k.hw_flops()
    if not f:
        return None, "no FLOPs", None
    key = precision_of(k, k.c)  # flops.f32 / tensor_flops.f16 ...
    prec = key.split(".", 1)[1]
    ck = ("tensor_" + prec) if key.startswith("tensor_") else prec
    cands = []
    if ck in fl:
        cands.append((fl[ck], "compute " + ck))
    for lvl, b in (("l1", k.c.get("l1_bytes")), ("l2", k.c.get("l2_bytes")),
                   ("hbm", k.c.get("dram_bytes"))):
        if b and lvl in bw:
            cands.append((f / b * bw[lvl], lvl.upper() + " bandwidth"))
    if not cands:
        return None, "-", None
    att, what = min(cands)
    return att, what, 100.0 * (f / k.rate_t_ns) / att


def precision_of(k, f):
    """dominant precision key of a per-launch count dict"""
    best, key = 0, None
    for kk, v in f.items():
        if (kk.startswith("flops.") or kk.startswith("tensor_flops.")) and v > best:
            best, key = v, kk
    return key


def read_case_lines(out, prog, tim_reps, tim_warm):
    """The CASE lines of <prog>.plain.stdout (hand FLOPs, self-check) and
    <prog>.time.stdout (no-profiler times), each as {(kernel, size): line};
    collects the timing settings ("reps", "warmup") of the latter."""
    cases, times = {}, {}
    for suffix, dst in ((".plain.stdout", cases), (".time.stdout", times)):
        so = os.path.join(out, "kernels", prog + suffix)
        if not os.path.exists(so):
            continue
        for line in open(so):
            if line.startswith("CASE "):
                try:
                    c = json.loads(line[5:])
                    dst[(c["kernel"], c["size"])] = c
                    if dst is times:
                        tim_reps.add(c.get("reps"))
                        tim_warm.add(c.get("warmup"))
                except ValueError:
                    pass
    return cases, times


def timing_texts(tim_reps, tim_warm):
    """(repetitions, warm-up) wording of the no-profiler timing, from the
    settings the CASE lines gave."""
    known_reps = sorted(r for r in tim_reps if r is not None)
    reps_txt = "/".join(str(r) for r in known_reps) if known_reps else "20"
    known_warm = sorted(x for x in tim_warm if x is not None)
    if known_warm and None not in tim_warm and known_warm[0] > 0:
        warm_txt = ("after %s untimed warm-up launch(es) per kernel and size (case.h)"
                    % "/".join(str(x) for x in known_warm))
    elif known_warm:
        warm_txt = ("with warm-up launches %s per kernel and size, or none in some programs "
                    "(CASE lines' \"warmup\")" % "/".join(str(x) for x in known_warm))
    else:
        warm_txt = ("without a warm-up launch: the first kernel a program times "
                    "carries one-time costs in that mean")
    return reps_txt, warm_txt


def custom_kernel_rows(w, out, prog, fl, bw, opt, tim_reps, tim_warm):
    """One table line per launch shape of prog's build-time listing; records
    each kernel's times, GFLOP/s and bound in opt for the before/after table."""
    st = load(os.path.join(out, "static", prog + ".json")) if os.path.exists(
        os.path.join(out, "static", prog + ".json")) else None
    if st is None:
        return
    _, plain = kernels_of(os.path.join(out, "kernels", prog + ".plain.json"))
    _, inst = kernels_of(os.path.join(out, "kernels", prog + ".inst.json"))
    cases, times = read_case_lines(out, prog, tim_reps, tim_warm)
    P = {k.short: k for k in plain}
    I = {k.short: k for k in inst}
    for row in st:
        name = row["kernel"]
        kp, ki = P.get(name), I.get(name)
        # the CASE lines name a kernel without its size tag (and half
        # precisions without the tag next to the type)
        case_name = re.sub(r"<(__half|__nv_bfloat16), \d+>", r"<\1>", name)
        case_name = re.sub(r"<\d+>$", "", case_name)
        case = cases.get((case_name, row["size"])) or cases.get((name, row["size"]))
        tcase = times.get((case_name, row["size"])) or times.get((name, row["size"]))
        hf = kp.hw_flops() if kp else None
        t = kp.t_ns if kp else None
        lv = kp.levels() if kp else {}
        ai = {l: (hf / b if hf and b else None) for l, b in lv.items()}
        tsh = (kp.tensor() / hf) if kp and hf else None
        att, what, pc = bound(kp, fl, bw) if kp else (None, "-", None)
        opt[name] = (t, tcase["ms"] * 1e6 if tcase else None,
                     hf / t if hf and t else None, what, pc)
        w("| `%s` | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            name, row["size"], fmt(row["hand_flops"]), fmt(row["static_flops"]),
            fmt(Kern.flops(ki.dyn) if ki else None), fmt(hf),
            fmt_t(t), fmt_t(tcase["ms"] * 1e6) if tcase else "-",
            "%.0f" % (hf / t) if hf and t else "-",
            *("%.2f" % ai[l] if ai.get(l) else "-" for l in ("L1", "L2", "HBM")),
            "%.0f%%" % (100 * tsh) if tsh is not None else "-",
            what, "%.0f%%" % pc if pc is not None else "-",
            case["check"] if case else "-"))


def custom_kernels_section(w, out, fl, bw):
    """The custom-kernel table; returns opt ({kernel short name: (time
    counters ns, time no-profiler ns, GFLOP/s, bound, pct)}) and the timing
    wording (repetitions, warm-up)."""
    w("## Custom kernels (plugin-built): hand vs static vs dynamic vs counters\n")
    opt = {}
    w("| kernel | size | hand FLOPs | static | dynamic | counters (plain) | time/launch (counters) | time/launch (no profiler) | GFLOP/s | AI L1 | AI L2 | AI HBM | tensor share | bound (ERT) | % of attainable | check |")
    w("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    # no-profiler timing settings as the CASE lines of *.time.stdout give them
    # ("reps", "warmup": case.h; absent in runs made before the warm-up existed)
    tim_reps, tim_warm = set(), set()
    for prog in ("conv2d", "lstm", "lstm_fused"):
        custom_kernel_rows(w, out, prog, fl, bw, opt, tim_reps, tim_warm)
    reps_txt, warm_txt = timing_texts(tim_reps, tim_warm)
    w("")
    w("counters (plain) = the hardware counters of the uninstrumented binary (FLOPs incl. tensor ops "
      "as sm__ops_path_tensor_* report them; see docs/validation/counters.md for their factor "
      "against 2*M*N*K); AI = counter FLOPs / counter bytes at that level; GFLOP/s = counter FLOPs / "
      "time (counters); time (no profiler) = CUDA-event mean of %s launches of the plain binary, "
      "no runtime attached (GFLOP/s from it: hand FLOPs / that time). check = the program's "
      "self-check against the CPU reference.\n" % reps_txt)
    return opt, reps_txt, warm_txt


def optimizations_section(w, opt, reps_txt, warm_txt):
    """Before / after of each optimization per size, from opt."""
    w("## Optimizations: before / after (per size)\n")
    w("| optimization | size tag | before: time (no profiler) | after: time (no profiler) | speed-up | before: time (counters) | after: time (counters) | speed-up (counters) | before: bound, % of attainable | after: bound, % of attainable |")
    w("|---|---|---|---|---|---|---|---|---|---|")

    def add(a, b):
        return None if a is None or b is None else a + b

    for z in (1, 2, 3):
        pairs = [
            ("conv2d direct -> tiled", ["conv2d_direct_f32<%d>" % z], ["conv2d_tiled_f32<%d>" % z]),
            ("LSTM f16 GEMM + pointwise -> fused",
             ["lstm_gemm_wmma<__half, %d>" % z, "lstm_pointwise_f32<%d>" % z], ["lstm_fused_wmma<%d>" % z]),
        ]
        for what, before, after in pairs:
            if not all(k in opt for k in before + after):
                continue
            tb = tbn = 0.0
            for k in before:
                tb = add(tb, opt[k][0])
                tbn = add(tbn, opt[k][1])
            ta, tan = opt[after[0]][0], opt[after[0]][1]
            sp = (tbn / tan) if tbn and tan else ((tb / ta) if tb and ta else None)
            desc = (lambda k: "%s, %s" % (opt[k][3], "%.0f%%" % opt[k][4] if opt[k][4] is not None else "-"))
            spc = (tb / ta) if tb and ta else None
            w("| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s |" % (
                what, z, fmt_t(tbn), fmt_t(tan), "%.2fx" % sp if sp else "-",
                fmt_t(tb), fmt_t(ta), "%.2fx" % spc if spc else "-",
                "; ".join(desc(k) for k in before), desc(after[0])))
    w("")
    w("speed-up from the no-profiler times where present, else from the counter times; "
      "speed-up (counters) from the gpu__time_duration of the profiled launches; the LSTM "
      "'before' is the sum of its two kernels. The no-profiler time is the mean of %s "
      "back-to-back launches %s.\n" % (reps_txt, warm_txt))


def top_kernels_table(run, ks, pct, fl, bw):
    """The lines of one PyTorch run's table of its 12 longest-running kernels."""
    top = sorted(ks, key=lambda k: -(k.total_ns or 0))[:12]
    details = []
    details.append("### %s: top kernels by time\n" % run)
    details.append("| kernel | launches | time share | FLOPs/launch | GFLOP/s | tensor | AI L1 | AI L2 | AI HBM | HBM GB/s | bound (ERT) | % of attainable |")
    details.append("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for k in top:
        hf = k.hw_flops()
        lv = k.levels()
        ai = {l: (hf / b if hf and b else None) for l, b in lv.items()}
        hbm = lv.get("HBM")
        att, what, pc = bound(k, fl, bw)
        details.append("| `%s` | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            k.short[:90], k.launches, pct(k.total_ns or 0), fmt(hf),
            ("%.0f" % (hf / k.rate_t_ns) if hf and k.rate_t_ns else ("0" if hf == 0 else "-"))
            + (" †" if k.size_varies() else ""),
            "yes" if (k.tensor() or 0) > 0 else ("no" if k.c else "-"),
            *("%.2f" % ai[l] if ai.get(l) else "-" for l in ("L1", "L2", "HBM")),
            "%.0f" % (hbm / k.rate_t_ns) if hbm and k.rate_t_ns else "-",
            what, "%.0f%%" % pc if pc is not None else "-"))
    details.append("")
    return details


def pytorch_run_row(w, run, ks):
    """One PyTorch run's line of the overview table; returns its pct (time
    as a share of the run's kernel time) for the top-kernel table."""
    tot = sum(k.total_ns or 0 for k in ks)
    nofp = sum(k.total_ns or 0 for k in ks if k.c is not None and (k.hw_flops() or 0) == 0)
    tc = sum(k.total_ns or 0 for k in ks if k.c is not None and (k.tensor() or 0) > 0)
    noc = sum(k.total_ns or 0 for k in ks if k.c is None)
    mov = sum(k.total_ns or 0 for k in ks if MOVE_RE.search(k.short))
    byp = {}
    for k in ks:
        if k.c:
            for kk, v in k.c.items():
                if (kk.startswith("flops.") or kk.startswith("tensor_flops.")) and v:
                    byp[kk] = byp.get(kk, 0) + v * k.launches
    pct = (lambda x: "%.1f%%" % (100 * x / tot) if tot else "-")
    allf = sum(byp.values())
    tcf = sum(v for kk, v in byp.items() if kk.startswith("tensor_flops."))
    w("| %s | %d | %d | %s | %s | %s | %s | %s | %s | %s |" % (
        run, len(ks), sum(k.launches for k in ks), fmt_t(tot),
        pct(nofp), pct(mov), pct(tc), pct(noc),
        "%.1f%%" % (100 * tcf / allf) if allf else "-",
        ", ".join("%s %s" % (kk, fmt(v)) for kk, v in sorted(byp.items(), key=lambda x: -x[1]))))
    return pct


def pytorch_section(w, out, fl, bw):
    """The PyTorch overview table (one line per run); returns the lines of
    the per-run top-kernel tables, which go at the end of the summary."""
    w("## PyTorch training steps (counters only)\n")
    w("| run | kernels | launches | kernel time | no-FP kernels: time share | data-movement kernels (by name): time share | Tensor-Core kernels: time share | kernels without counters: time share | Tensor-Core share of FLOPs | FLOPs by precision (counters, all launches est.) |")
    w("|---|---|---|---|---|---|---|---|---|---|")
    details = []
    for path in sorted(glob.glob(os.path.join(out, "torch", "*.json"))):
        p, ks = kernels_of(path)
        if p is None:
            continue
        run = os.path.basename(path)[:-5]
        pct = pytorch_run_row(w, run, ks)
        details.extend(top_kernels_table(run, ks, pct, fl, bw))
    w("")
    w("no-FP kernels = kernels whose hardware counters show zero FLOPs (CUDA-core and tensor) "
      "in every profiled launch; their time includes all launches (launches beyond the "
      "launch limit have durations but no counters and are assumed to behave like the profiled ones). "
      "A kernel whose only 'FLOPs' are HFMA2.MMA constant loads (counted as f16 by the counters) "
      "is not in this column. data-movement kernels = kernels whose name matches `%s` "
      "(layout transforms, copies and casts (`*_copy_kernel_cuda`), fills, workspace/state init), whatever their counters say. "
      "Tensor-Core share of FLOPs = tensor_flops / all counter FLOPs (per-launch counters x launches).\n"
      "In the top-kernel tables, GFLOP/s, HBM GB/s and %% of attainable divide the counters by the "
      "time of the same (profiled) launches; time share uses all launches. † = the profiled launches' "
      "mean time differs from all launches' mean by more than 25%% (launches of other sizes beyond "
      "the launch limit).\n" % MOVE_RE.pattern)
    return details


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    machine = sys.argv[2] if len(sys.argv) > 2 else None
    fl, bw = ceilings(machine)
    L = []
    w = L.append
    w("# hroof case study: measured summary (generated by case-studies/summarize.py)\n")
    w("Every number below was read from the profiles in this directory; '-' = not measured.\n")
    if fl:
        w("ERT ceilings (`%s`): %s; bandwidth %s\n" % (
            machine, ", ".join("%s %.0f GFLOP/s" % kv for kv in sorted(fl.items())),
            ", ".join("%s %.0f GB/s" % kv for kv in sorted(bw.items()))))
    opt, reps_txt, warm_txt = custom_kernels_section(w, out, fl, bw)
    optimizations_section(w, opt, reps_txt, warm_txt)
    L.extend(pytorch_section(w, out, fl, bw))
    if FAKE:
        L.insert(1, "**FAKE DATA: %d profile(s) here were fabricated by "
                 "selftest_fake_profiles.py for testing; these numbers mean nothing.**\n" % len(FAKE))
    text = "\n".join(L) + "\n"
    with open(os.path.join(out, "summary.md"), "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main()
