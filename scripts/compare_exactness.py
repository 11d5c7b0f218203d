#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Static-model exactness of two plugin builds on the same CUDA files.

Compiles each file of LIST device-only in static mode (-mllvm
-hroof-mode=static, the model written through HROOF_STATIC_JSON) once with
OLD and once with NEW, with the flags of scripts/corpus.py, and compares each
kernel's `exact` flag. Prints the totals, then the kernels NEW made exact
("gained") and those it no longer models exactly ("lost"). Files that fail
to compile or time out with either plugin are left out (named on stdout).
Fetches nothing; LIST names files of a checkout you made.

  compare_exactness.py OLD.so NEW.so LIST [-I DIR ...] [--jobs N] [--timeout S]
"""
import argparse
import concurrent.futures as cf
import json
import os
import subprocess
import tempfile


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("list", help="file with one .cu path per line")
    ap.add_argument("-I", dest="includes", action="append", default=[])
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=600)
    ap.add_argument("--clang", default="clang++-22")
    ap.add_argument("--cuda-path", default=os.environ.get("CUDA_PATH", "/usr/local/cuda"))
    a = ap.parse_args()
    base = [a.clang, "-x", "cuda", "--cuda-device-only", "--cuda-gpu-arch=sm_90",
            f"--cuda-path={a.cuda_path}", "-Wno-unknown-cuda-version", "-w", "-std=c++17",
            "-O2", "-c", "-o", "/dev/null", "-I", os.path.join(a.cuda_path, "include", "cccl")]
    for inc in a.includes:
        base += ["-I", os.path.abspath(inc)]

    def model(plugin, path):
        d = os.path.dirname(path)
        with tempfile.TemporaryDirectory() as tmp:
            js = os.path.join(tmp, "model.json")
            argv = base + ["-I", d, "-I", os.path.join(d, "..", "include"),
                           "-fpass-plugin=" + os.path.abspath(plugin), "-mllvm", "-hroof-mode=static", path]
            try:
                p = subprocess.run(argv, cwd=d, env=dict(os.environ, HROOF_STATIC_JSON=js),
                                   capture_output=True, timeout=a.timeout)
            except subprocess.TimeoutExpired:
                print(f"timeout: {plugin} {path}", flush=True)
                return None
            if p.returncode or not os.path.exists(js):
                return None
            with open(js) as f:
                return {k["name"]: bool(k.get("exact")) for k in json.load(f).get("kernels", [])}

    with open(a.list) as f:
        files = [l.strip() for l in f if l.strip()]
    total = old_exact = new_exact = 0
    gained, lost = [], []
    with cf.ThreadPoolExecutor(a.jobs) as ex:
        for path, old, new in ex.map(lambda p: (p, model(a.old, p), model(a.new, p)), files):
            if old is None or new is None:
                continue
            for k, exact in new.items():
                was = old.get(k, False)
                total += 1
                old_exact += was
                new_exact += exact
                if exact and not was:
                    gained.append(f"{path} {k}")
                if was and not exact:
                    lost.append(f"{path} {k}")
    pct = lambda n: 100 * n / max(1, total)
    print(f"kernels {total}: exact old {old_exact} ({pct(old_exact):.1f}%), "
          f"new {new_exact} ({pct(new_exact):.1f}%)")
    print("gained:", len(gained))
    for g in gained:
        print("  +", g)
    print("lost:", len(lost))
    for l in lost:
        print("  -", l)


if __name__ == "__main__":
    main()
