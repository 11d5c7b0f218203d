#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Compile a corpus of CUDA sources with and without the hroof plugin.

Usage (from anywhere; fetches nothing, the corpus is yours):
  scripts/corpus.sh DIR [--runs N] [--jobs J] [--asan] [--limit K] [--modes static,instr,warp]
                     [-I INC] [--out FILE.md]

For every .cu file under DIR (device side only, sm_90, -O2, through ptxas):
  plain     clang++ without the plugin (a file that fails here is skipped: the
            corpus itself does not compile with clang, not hroof's business);
  static    N runs with -fpass-plugin and -mllvm -hroof-mode=static, the
            static model written to JSON each time (it must be the same bytes
            every run);
  instr     N runs with -fpass-plugin in the default (instrumenting) mode,
            through ptxas (-c), so a plugin that emits bad PTX shows up;
  warp      the same with the opt-in -mllvm -hroof-warp-counts (the
            warp-level instrumentation: block splits, shuffles, votes).
--asan loads build/lib/hroof-asan.so (ASan + UBSan) with the shared ASan
runtime preloaded into clang; any sanitizer report counts as a crash.
--from-ir runs the front end once per file (device IR before optimisation,
-Xclang -disable-llvm-passes; the plain compile is that IR through the back
end and ptxas without the plugin) and starts every plugin compile from it:
the same -O2 pipeline, plugin and back end through ptxas, without parsing the
CUDA headers again; each instrumenting mode goes through ptxas once, and its
`runs` compiles stop after the optimizer (-emit-llvm), their output IR
compared (a nondeterministic instrumentation counts as a nondeterministic
model); static runs stop there too. Ten runs of every file under ASan then
fit in an hour or two. The models then
name values by the names the passes give them (clang drops names when it
compiles from source); the counts are the same.

The table: files, plain ok, plugin ok, crashes, plugin-introduced errors,
ptxas failures, nondeterministic static models, compile-time ratio (median
over files of plugin/plain), exact/inexact kernels and the top reasons.
Exit status 1 when any crash, plugin-introduced error, ptxas failure or
nondeterministic model is found; 0 otherwise.
"""
import argparse
import collections
import concurrent.futures as cf
import hashlib
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CRASH_MARKERS = ("PLEASE submit a bug report", "Stack dump", "ERROR: AddressSanitizer",
                 "runtime error:", "terminate called", "UndefinedBehaviorSanitizer")


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dir", help="directory searched recursively for .cu files")
    ap.add_argument("--runs", type=int, default=3, help="plugin compiles per file and mode (3)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="parallel files")
    ap.add_argument("--asan", action="store_true", help="use build/lib/hroof-asan.so")
    ap.add_argument("--from-ir", action="store_true",
                    help="front end once per file, plugin runs from its device IR (faster)")
    ap.add_argument("--limit", type=int, default=0, help="only the first K files (sorted)")
    ap.add_argument("--modes", default="static,instr,warp",
                    help="plugin modes, comma-separated (static,instr,warp: all three)")
    ap.add_argument("--timeout", type=int, default=300, help="seconds per compile (300)")
    ap.add_argument("--build", default=os.environ.get("HROOF_BUILD", os.path.join(ROOT, "build")))
    ap.add_argument("--clang", default=os.environ.get("HROOF_CLANG", "clang++-22"))
    ap.add_argument("--cuda-path", default=os.environ.get("CUDA_PATH", "/usr/local/cuda"))
    ap.add_argument("-I", dest="includes", action="append", default=[],
                    help="extra include directory (repeatable; cuda-samples: -I Common)")
    ap.add_argument("--out", help="also write the table (Markdown) and per-file rows here")
    ap.add_argument("--rows", help="append each file's row (JSON) here as it completes: a run "
                    "stopped part way keeps what it did")
    a = ap.parse_args()
    if not os.path.isdir(a.dir):
        ap.error(f"'{a.dir}' is not a directory")
    if a.runs < 1 or a.jobs < 1:
        ap.error("--runs and --jobs take a whole number >= 1")
    a.modes = [m.strip() for m in a.modes.split(",") if m.strip()]
    bad = [m for m in a.modes if m not in ("static", "instr", "warp")]
    if bad or not a.modes:
        ap.error(f"--modes takes static, instr and/or warp, not {', '.join(bad) or 'nothing'}")
    return a


def asan_runtime(clang):
    out = subprocess.run([clang, "-print-file-name=libclang_rt.asan-x86_64.so"],
                         capture_output=True, text=True).stdout.strip()
    if not os.path.isfile(out):
        sys.exit("corpus: no shared ASan runtime next to " + clang)
    return out


class Compiler:
    def __init__(self, a):
        name = "hroof-asan.so" if a.asan else "hroof.so"
        self.plugin = os.path.join(a.build, "lib", name)
        if not os.path.isfile(self.plugin):
            sys.exit(f"corpus: {self.plugin} is missing (build it first)")
        self.clang, self.timeout, self.from_ir = a.clang, a.timeout, a.from_ir
        # Device IR in, through the same pipeline and ptxas (--from-ir).
        self.ir_base = [a.clang, "--target=nvptx64-nvidia-cuda", "-march=sm_90",
                        f"--cuda-path={a.cuda_path}", "-w", "-O2", "-x", "ir", "-c",
                        "-o", "/dev/null"]
        self.base = [a.clang, "-x", "cuda", "--cuda-device-only", "--cuda-gpu-arch=sm_90",
                     f"--cuda-path={a.cuda_path}", "-Wno-unknown-cuda-version", "-w",
                     "-std=c++17", "-O2", "-c", "-o", "/dev/null"]
        cccl = os.path.join(a.cuda_path, "include", "cccl")  # CUDA 13: Thrust, CUB, libcu++
        if os.path.isdir(cccl):
            self.base += ["-I", cccl]
        for inc in a.includes:
            self.base += ["-I", os.path.abspath(inc)]
        self.env = dict(os.environ)
        if a.asan:
            self.env["LD_PRELOAD"] = asan_runtime(a.clang)
            self.env["ASAN_OPTIONS"] = "detect_leaks=0:abort_on_error=0"
            self.env["UBSAN_OPTIONS"] = "print_stacktrace=1"

    def run(self, path, extra, env_extra=None):
        """Compiles `path` (a .cu file, or device IR when it ends in .bc)."""
        d = os.path.dirname(path)
        if path.endswith(".bc"):
            argv = self.ir_base + extra + [path]
        else:
            argv = self.base + ["-I", d, "-I", os.path.join(d, "..", "include")] + extra + [path]
        env = dict(self.env, **(env_extra or {}))
        t0 = time.monotonic()
        try:
            p = subprocess.run(argv, cwd=d, env=env, capture_output=True, text=True,
                               timeout=self.timeout)
            rc, err = p.returncode, p.stderr
        except subprocess.TimeoutExpired:
            rc, err = -1, "timeout"
        return rc, err, time.monotonic() - t0


def first_line(err, *keys):
    for line in err.splitlines():
        if any(k in line for k in keys):
            return line.strip()[:200]
    return err.strip().splitlines()[-1][:200] if err.strip() else ""


def compile_file(cc, path, runs, modes=("static", "instr", "warp")):
    """One file: plain once, then `runs` compiles in each plugin mode of `modes`."""
    row = {"file": path, "plain_ok": False, "crash": "", "plugin_error": "", "ptxas": "",
           "nondeterministic": False, "ratio": None, "kernels": []}
    with tempfile.TemporaryDirectory() as tmp:
        js = os.path.join(tmp, "model.json")
        source = path
        if cc.from_ir:  # plain: the front end's device IR, through the back end and ptxas
            source = os.path.join(tmp, "device.bc")
            rc, err, _ = cc.run(path, ["-emit-llvm", "-Xclang", "-disable-llvm-passes",
                                       "-o", source])
            if rc == 0:
                rc, err, t_plain = cc.run(source, [])
        else:
            rc, err, t_plain = cc.run(path, [])
        if rc != 0:
            row["plain_error"] = first_line(err, "error")
            return row
        row["plain_ok"] = True
        digests, model, times = set(), None, []
        code_digests = collections.defaultdict(set)  # --from-ir: mode -> output IR hashes
        bc = os.path.join(tmp, "out.bc")
        for mode in modes:
            # --from-ir: one compile through ptxas per code-changing mode, then
            # `runs` that stop after the optimizer, their output compared.
            through_ptxas = [True] if cc.from_ir and mode != "static" else []
            for to_ptxas in through_ptxas + [not cc.from_ir] * runs:
                extra = ["-fpass-plugin=" + cc.plugin]
                if mode == "static":
                    extra += ["-mllvm", "-hroof-mode=static"]
                if mode == "warp":
                    extra += ["-mllvm", "-hroof-warp-counts"]
                if not to_ptxas:
                    extra += ["-emit-llvm", "-o", bc]
                if os.path.exists(js):
                    os.unlink(js)
                rc, err, t = cc.run(source, extra, {"HROOF_STATIC_JSON": js})
                if to_ptxas:  # the compile-time ratio compares like with like
                    times.append(t)
                if err == "timeout":  # not a crash: a slow compile on a busy machine
                    row["timeout"] = row.get("timeout") or f"{mode}: over --timeout"
                    continue
                if any(m in err for m in CRASH_MARKERS) or rc < 0 or rc > 1:
                    row["crash"] = row["crash"] or f"{mode}: " + first_line(err, *CRASH_MARKERS)
                    continue
                if rc != 0:
                    key = "ptxas" if "ptxas" in err else "plugin_error"
                    row[key] = row[key] or f"{mode}: " + first_line(err, "error")
                    continue
                if mode == "static" and os.path.exists(js):
                    data = open(js, "rb").read()
                    digests.add(hashlib.sha256(data).hexdigest())
                    model = model or data
                if not to_ptxas and mode != "static" and os.path.exists(bc):
                    code_digests[mode].add(hashlib.sha256(open(bc, "rb").read()).hexdigest())
                    os.unlink(bc)
    row["nondeterministic"] = len(digests) > 1 or any(len(d) > 1 for d in code_digests.values())
    if times:
        row["ratio"] = statistics.median(times) / max(t_plain, 1e-3)
    if model:
        try:
            for k in json.loads(model).get("kernels", []):
                row["kernels"].append({"name": k.get("name", "?"), "exact": bool(k.get("exact")),
                                       "unknown": k.get("unknown", [])})
        except ValueError:
            row["plugin_error"] = row["plugin_error"] or "static: unreadable model JSON"
    return row


REASON_PATTERNS = [  # reason text -> short class, for the top-reasons list
    # loops first: their reasons name branches and exits too
    (r"trip count .*(several exits|several back edges|no exit|not rotated)",
     "trip count not expressible (several exits or back edges)"),
    (r"trip count .*(data loaded|an atomic|result of a call|exit test compares data)",
     "trip count not expressible (bound or exit test on data)"),
    (r"trip count .*enclosing loop", "trip count not expressible (an enclosing loop's variable)"),
    (r"(branch|switch) on (data|an atomic)", "branch on data"),
    (r"(branch|switch) on the result of a call", "branch on a call's result"),
    (r"(branch|switch) on a floating-point", "branch on a floating-point value"),
    (r"(branch|switch) on a loop'?s? (variable|value)", "branch on a loop variable"),
    (r"branch|switch|condition", "branch on another value"),
    (r"trip count", "trip count not expressible"),
    (r"indirect call|calls? ", "call not modelled"),
    (r"irreducible", "irreducible control flow"),
    (r"paths", "too many paths"),
    (r"atomic", "atomic not modelled"),
    (r"asm", "inline asm not modelled"),
]


def reason_class(text):
    for pat, name in REASON_PATTERNS:
        if re.search(pat, text, re.I):
            return name
    return re.sub(r" (in|at) \S+.*$", "", text)[:60]


def table(rows, a, seconds):
    compiled = [r for r in rows if r["plain_ok"]]
    kernels = [k for r in compiled for k in r["kernels"]]
    exact = sum(k["exact"] for k in kernels)
    reasons = collections.Counter()
    for k in kernels:
        for c in {reason_class(u) for u in k["unknown"]}:
            reasons[c] += 1
    ratios = [r["ratio"] for r in compiled if r["ratio"]]
    bad = lambda key: [r for r in compiled if r[key]]
    lines = [
        f"corpus: {a.dir} ({len(rows)} .cu files), {a.runs} run(s) per mode "
        f"({', '.join(a.modes)}), "
        f"plugin {'hroof-asan.so' if a.asan else 'hroof.so'}"
        f"{', from device IR' if a.from_ir else ''}, {seconds:.0f} s",
        "",
        "| files | plain ok | plugin ok | crashes | plugin-introduced errors | ptxas failures "
        "| nondeterministic models | compile-time ratio (median / worst) |",
        "|---|---|---|---|---|---|---|---|",
        f"| {len(rows)} | {len(compiled)} | "
        f"{len([r for r in compiled if not (r['crash'] or r['plugin_error'] or r['ptxas'])])} | "
        f"{len(bad('crash'))} | {len(bad('plugin_error'))} | {len(bad('ptxas'))} | "
        f"{len(bad('nondeterministic'))} | "
        + (f"{statistics.median(ratios):.2f} / {max(ratios):.2f} |" if ratios else "- |"),
        "",
        f"kernels: {len(kernels)}, exact {exact}"
        + (f" ({100.0 * exact / len(kernels):.0f}%)" if kernels else "")
        + f", inexact {len(kernels) - exact}",
    ]
    for c, n in reasons.most_common(8):
        lines.append(f"  {n:5d}  {c}")
    for r in compiled:
        if r.get("timeout"):
            lines.append(f"timeout: {os.path.relpath(r['file'], a.dir)}: {r['timeout']}")
    for key in ("crash", "plugin_error", "ptxas"):
        for r in bad(key):
            lines.append(f"{key}: {os.path.relpath(r['file'], a.dir)}: {r[key]}")
    for r in bad("nondeterministic"):
        lines.append(f"nondeterministic: {os.path.relpath(r['file'], a.dir)}")
    return "\n".join(lines)


def main():
    a = parse_args()
    files = sorted(os.path.join(d, f) for d, _, fs in os.walk(a.dir, followlinks=True) for f in fs
                   if f.endswith(".cu"))
    if a.limit:
        files = files[:a.limit]
    if not files:
        sys.exit(f"corpus: no .cu files under '{a.dir}'")
    cc = Compiler(a)
    t0, rows = time.monotonic(), []
    with cf.ThreadPoolExecutor(a.jobs) as pool:
        futs = {pool.submit(compile_file, cc, f, a.runs, a.modes): f for f in files}
        for i, fut in enumerate(cf.as_completed(futs), 1):
            r = fut.result()
            rows.append(r)
            status = ("CRASH" if r["crash"] else "ERROR" if r["plugin_error"] or r["ptxas"]
                      else "NONDETERMINISTIC" if r["nondeterministic"]
                      else "TIMEOUT" if r.get("timeout")
                      else "ok" if r["plain_ok"] else "skip (plain fails)")
            if a.rows:
                with open(a.rows, "a") as f:
                    f.write(json.dumps(r) + "\n")
            print(f"[{i}/{len(files)} {time.monotonic() - t0:.0f}s] "
                  f"{os.path.relpath(r['file'], a.dir)}: {status}", file=sys.stderr, flush=True)
    rows.sort(key=lambda r: r["file"])
    text = table(rows, a, time.monotonic() - t0)
    print(text)
    if a.out:
        with open(a.out, "w") as f:
            f.write(text + "\n\n<!-- per-file rows -->\n")
            for r in rows:
                f.write(json.dumps({k: v for k, v in r.items() if k != "kernels"}
                                   | {"kernels": len(r["kernels"]),
                                      "exact": sum(k["exact"] for k in r["kernels"])}) + "\n")
    failed = any(r["crash"] or r["plugin_error"] or r["ptxas"] or r["nondeterministic"]
                 for r in rows if r["plain_ok"])
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
