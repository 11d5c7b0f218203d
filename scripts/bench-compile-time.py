#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Compile-time cost of the hroof plugin on the bundled examples.

For each example: full CUDA compile (host + device, -O2, sm_90, -c) without the
plugin, with the plugin in static mode (-mllvm -hroof-mode=static: analysis and
embedded model only) and with the plugin in its default dynamic mode
(analysis + instrumentation). Median of --runs runs each, interleaved so that
machine noise hits all three alike. Prints a Markdown table.

    python3 scripts/bench-compile-time.py [--runs 7] [--build build]
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
ap.add_argument("--runs", type=int, default=7)
ap.add_argument("--build", default="build")
ap.add_argument("--clang", default="/usr/lib/llvm-22/bin/clang++")
ap.add_argument("--cuda", default=os.environ.get("CUDA_HOME", "/usr/local/cuda"))
args = ap.parse_args()

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
plugin = os.path.join(root, args.build, "lib", "hroof.so")
if not os.path.exists(plugin):
    sys.exit(f"bench-compile-time: plugin missing at {plugin}; run scripts/setup.sh")
examples = sorted(f for f in os.listdir(os.path.join(root, "examples")) if f.endswith(".cu"))
base = [args.clang, "-O2", "-x", "cuda", "--cuda-gpu-arch=sm_90", f"--cuda-path={args.cuda}",
        "-Wno-unknown-cuda-version", "-c", "-o", "/dev/null"]
modes = {
    "plain": [],
    "static": [f"-fpass-plugin={plugin}", "-mllvm", "-hroof-mode=static"],
    "dynamic": [f"-fpass-plugin={plugin}"],
}
print(f"# {len(examples)} examples x {len(modes)} modes x {args.runs} runs", file=sys.stderr)
times = {(e, m): [] for e in examples for m in modes}
for r in range(args.runs):
    for e in examples:
        for m, extra in modes.items():
            src = os.path.join(root, "examples", e)
            t0 = time.perf_counter()
            p = subprocess.run(base + extra + [src], capture_output=True, text=True)
            dt = time.perf_counter() - t0
            if p.returncode != 0:
                sys.exit(f"bench-compile-time: {e} ({m}) failed:\n{p.stderr}")
            times[(e, m)].append(dt)
    print(f"  run {r + 1}/{args.runs} done", file=sys.stderr)

print("| example | plain (s) | + plugin, static (s) | + plugin, dynamic (s) | static overhead | dynamic overhead |")
print("|---|---|---|---|---|---|")
ratios_s, ratios_d = [], []
for e in examples:
    p, s, d = (statistics.median(times[(e, m)]) for m in modes)
    ratios_s.append(s / p)
    ratios_d.append(d / p)
    print(f"| {e} | {p:.3f} | {s:.3f} | {d:.3f} | {100 * (s / p - 1):+.1f}% | {100 * (d / p - 1):+.1f}% |")
g = lambda xs: statistics.geometric_mean(xs)
print(f"| geomean | | | | {100 * (g(ratios_s) - 1):+.1f}% | {100 * (g(ratios_d) - 1):+.1f}% |")
