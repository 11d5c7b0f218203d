#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The plugin's compile-time cost on a list of CUDA files, and a check that a
faster plugin builds the same models.

  scripts/plugin-cost.py time --files LIST [--runs 3] [--plugin P] [--before OLD.so] [--ptxas]
  scripts/plugin-cost.py same --files LIST --before OLD.so --after NEW.so
  scripts/plugin-cost.py exact --files LIST --before OLD.so --after NEW.so

LIST has one .cu path a line (relative to --root, '#' starts a comment).
Every compile is the device side only (`-x cuda --cuda-device-only -O2
--cuda-gpu-arch=sm_90`), with the include paths of scripts/corpus.py (the
file's folder and ../include, CUDA 13's cccl, -I options, cuda-samples'
Common/ when the file is under a cuda-samples tree).

`time` compiles each file plain, with the plugin in static mode and with it
instrumenting, the three modes interleaved, --runs times each; it prints
the medians, their ratios to plain and the totals as a Markdown table; with
--before, the old plugin's two modes are interleaved with them as well. By
default it stops at the PTX (`-S`: the clang process the plugin runs in);
--ptxas goes on through ptxas (`-c`), as a build does.

`same` compiles each file with both plugins and compares, byte for byte, the
static-model JSON (-hroof-static-json) and the PTX of both modes: a change
meant only to be faster must leave all three identical. Exit status 1 if any
file differs.

`exact` compares what two plugins model: per file, the kernels whose static
model is exact with each, and the kernels that changed from inexact to
exact (or back), and how many branches each reports as "on data or on a
loop variable".
"""
import argparse
import filecmp
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODES = {"plain": None, "static": ["-mllvm", "-hroof-mode=static"], "instr": []}


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=["time", "same", "exact"])
    ap.add_argument("--files", required=True, help="list of .cu files, one a line")
    ap.add_argument("--root", default=".", help="the paths in --files are relative to this")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--plugin", default=os.path.join(ROOT, "build", "lib", "hroof.so"))
    ap.add_argument("--before", help="the plugin before the change (same: required)")
    ap.add_argument("--after", help="same: the plugin after the change")
    ap.add_argument("--ptxas", action="store_true", help="time: compile through ptxas (-c)")
    ap.add_argument("--clang", default="clang++-22")
    ap.add_argument("--cuda-path", default=os.environ.get("CUDA_HOME", "/usr/local/cuda"))
    ap.add_argument("-I", dest="includes", action="append", default=[])
    a = ap.parse_args()
    if a.what in ("same", "exact") and not (a.before and a.after):
        ap.error(a.what + " needs --before and --after")
    return a


def read_list(a):
    with open(a.files) as f:
        names = [line.split("#")[0].strip() for line in f]
    return [os.path.abspath(os.path.join(a.root, n)) for n in names if n]


def base_argv(a, path, output_flag, out):
    d = os.path.dirname(path)
    argv = [a.clang, "-x", "cuda", "--cuda-device-only", "--cuda-gpu-arch=sm_90",
            f"--cuda-path={a.cuda_path}", "-Wno-unknown-cuda-version", "-w", "-std=c++17",
            "-O2", output_flag, "-o", out, "-I", d, "-I", os.path.join(d, "..", "include")]
    cccl = os.path.join(a.cuda_path, "include", "cccl")  # CUDA 13: Thrust, CUB, libcu++
    if os.path.isdir(cccl):
        argv += ["-I", cccl]
    if "/Samples/" in path:  # cuda-samples: helper headers in <tree>/Common
        argv += ["-I", os.path.join(path.split("/Samples/")[0], "Common")]
    for inc in a.includes:
        argv += ["-I", os.path.abspath(inc)]
    return argv + [path]


def plugin_flags(plugin, mode):
    return [] if MODES[mode] is None else ["-fpass-plugin=" + plugin] + MODES[mode]


def compile_once(argv, cwd):
    t0 = time.perf_counter()
    p = subprocess.run(argv, cwd=cwd, capture_output=True, text=True)
    dt = time.perf_counter() - t0
    if p.returncode != 0:
        sys.exit(f"plugin-cost: failed ({p.returncode}): {' '.join(argv)}\n{p.stderr[-2000:]}")
    return dt


def timed_modes(a):
    """(label, plugin, mode) of every compile of a file, in the order run."""
    modes = [("plain", None, "plain"), ("static", a.plugin, "static"),
             ("instr", a.plugin, "instr")]
    if a.before:
        modes += [("static, before", a.before, "static"), ("instr, before", a.before, "instr")]
    return modes


def run_time(a, files):
    flag = "-c" if a.ptxas else "-S"
    modes = timed_modes(a)
    times = {(f, m[0]): [] for f in files for m in modes}
    for r in range(a.runs):
        for f in files:
            for label, plugin, mode in modes:  # interleaved: noise hits every mode alike
                argv = base_argv(a, f, flag, "/dev/null") + plugin_flags(plugin, mode)
                times[(f, label)].append(compile_once(argv, os.path.dirname(f)))
        print(f"  run {r + 1}/{a.runs} done", file=sys.stderr)
    labels = [m[0] for m in modes]
    print("| file | " + " | ".join(f"{l} (s)" for l in labels) + " | "
          + " | ".join(f"{l} / plain" for l in labels[1:]) + " |")
    print("|---" * (2 * len(labels)) + "|")
    tot = dict.fromkeys(labels, 0.0)
    for f in files:
        med = {l: statistics.median(times[(f, l)]) for l in labels}
        for l in labels:
            tot[l] += med[l]
        name = os.path.relpath(f, os.path.abspath(a.root))
        print(f"| {name} | " + " | ".join(f"{med[l]:.2f}" for l in labels) + " | "
              + " | ".join(f"{med[l] / med['plain']:.2f}" for l in labels[1:]) + " |")
    print(f"| total ({len(files)} files) | " + " | ".join(f"{tot[l]:.2f}" for l in labels)
          + " | " + " | ".join(f"{tot[l] / tot['plain']:.3f}" for l in labels[1:]) + " |")


def outputs(a, plugin, path, tmp):
    """The static JSON and the PTX of both modes, written by \\p plugin."""
    js = os.path.join(tmp, "model.json")
    got = {"json": js, "static.ptx": os.path.join(tmp, "static.ptx"),
           "instr.ptx": os.path.join(tmp, "instr.ptx")}
    cwd = os.path.dirname(path)
    compile_once(base_argv(a, path, "-S", got["static.ptx"]) + plugin_flags(plugin, "static")
                 + ["-mllvm", "-hroof-static-json=" + js], cwd)
    compile_once(base_argv(a, path, "-S", got["instr.ptx"]) + plugin_flags(plugin, "instr"), cwd)
    return got


def run_same(a, files):
    differ = 0
    for f in files:
        with tempfile.TemporaryDirectory() as t1, tempfile.TemporaryDirectory() as t2:
            old, new = outputs(a, a.before, f, t1), outputs(a, a.after, f, t2)
            bad = [k for k in old if not filecmp.cmp(old[k], new[k], shallow=False)]
            size = os.path.getsize(old["json"])
        differ += bool(bad)
        name = os.path.relpath(f, os.path.abspath(a.root))
        print(f"{'DIFFERS ' + ','.join(bad) if bad else 'same'}  {name}  (model {size} bytes)")
    print(f"{len(files) - differ} of {len(files)} files identical (JSON, static PTX, instr PTX)")
    return 1 if differ else 0


def exact_kernels(a, plugin, path, tmp):
    """{mangled name: (exact, branches on data or a loop variable)} of the
    static model that \p plugin writes."""
    js = os.path.join(tmp, "model.json")
    compile_once(base_argv(a, path, "-S", "/dev/null") + plugin_flags(plugin, "static")
                 + ["-mllvm", "-hroof-static-json=" + js], os.path.dirname(path))
    with open(js) as f:
        text = f.read()
    if '"@iter' in text:  # an internal marker of the modeler must never get out
        sys.exit(f"plugin-cost: {plugin} left an iteration marker in the model of {path}")
    branch = "branch on data or on a loop variable"
    return {k["mangled"]: (k["exact"], sum(u.startswith(branch) for u in k["unknown"]))
            for k in json.loads(text)["kernels"]}


def run_exact(a, files):
    n = ex_old = ex_new = br_old = br_new = 0
    for f in files:
        with tempfile.TemporaryDirectory() as tmp:
            old, new = exact_kernels(a, a.before, f, tmp), exact_kernels(a, a.after, f, tmp)
        name = os.path.relpath(f, os.path.abspath(a.root))
        for k in sorted(old):
            (was, b_old), (now, b_new) = old[k], new.get(k, (False, 0))
            n, ex_old, ex_new = n + 1, ex_old + was, ex_new + now
            br_old, br_new = br_old + b_old, br_new + b_new
            if was != now:
                print(f"{'now exact' if now else 'NO LONGER exact'}  {name}  {k}")
    print(f"{n} kernels: {ex_old} exact before, {ex_new} exact after; "
          f"branches on data or a loop variable reported: {br_old} before, {br_new} after")
    return 0 if ex_new >= ex_old else 1


def main():
    a = parse_args()
    files = read_list(a)
    if a.what == "time":
        run_time(a, files)
        return 0
    if a.what == "exact":
        return run_exact(a, files)
    return run_same(a, files)


if __name__ == "__main__":
    sys.exit(main())
