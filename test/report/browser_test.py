#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""hroof report in a real browser: headless Chromium loads the HTML, the page writes
what Vega drew into #hroof-summary (--dump-dom), and this checks it against the
report's own CSV: one point per kernel and memory level, the expected ceilings, the
kernel labels. Also checks the standalone SVG (node-rendered) holds the same marks.

  browser_test.py --hroof build/bin/hroof [--screenshot out.png]
Exit 0 pass, 1 fail. Chromium comes from scripts/setup.sh (Debian package).
"""
import argparse
import csv
import html
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
INPUTS = os.path.join(HERE, "Inputs")

failures = []


def check(cond, what):
    print(("PASS " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def chromium():
    for n in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        p = shutil.which(n)
        if p:
            return p
    sys.exit("browser_test: chromium not found (scripts/setup.sh installs it)")


def browser(args, tmp):
    base = [chromium(), "--headless", "--no-sandbox", "--disable-gpu",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--no-first-run", "--user-data-dir=" + tempfile.mkdtemp(dir=tmp),
            "--virtual-time-budget=10000"]
    return subprocess.run(base + args, capture_output=True, text=True, timeout=120)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hroof", required=True)
    ap.add_argument("--screenshot")
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="hroof-browser-")
    out_html, out_svg, out_csv = (os.path.join(tmp, "r." + e) for e in ("html", "svg", "csv"))
    inputs = [os.path.join(INPUTS, "demo-rank0.json"), os.path.join(INPUTS, "demo-rank1.json")]
    r = subprocess.run([a.hroof, "report", *inputs, "--html", out_html, "--svg", out_svg,
                        "--csv", out_csv], capture_output=True, text=True)
    check(r.returncode == 0, "hroof report exits 0 (%s)" % r.stderr.strip()[:300])
    if r.returncode:
        return 1
    rows = list(csv.DictReader(open(out_csv)))
    expected = []
    for row in rows:
        for lv, key in (("L1", "ai_l1"), ("L2", "ai_l2"), ("HBM", "ai_hbm")):
            if row[key] and float(row["gflops"]) > 0:
                expected.append((row["kernel"], lv, float(row[key]), float(row["gflops"])))
    check(len(expected) == 18, "CSV: 6 kernels with FLOPs x 3 levels = 18 points (%d)" % len(expected))

    # The HTML opens offline (no http(s) script or stylesheet).
    page = open(out_html).read()
    check(not re.search(r'<(script|link)[^>]+(src|href)="https?:', page),
          "HTML loads nothing from the network")

    d = browser(["--dump-dom", "file://" + out_html], tmp)
    m = re.search(r'<pre id="hroof-summary">(.*?)</pre>', d.stdout, re.S)
    check(m is not None and m.group(1).strip() != "", "the page wrote #hroof-summary")
    if not m or not m.group(1).strip():
        print(d.stderr[-2000:])
        return 1
    s = json.loads(html.unescape(m.group(1)))
    check(s.get("rendered") is True, "vega-embed rendered the chart (%s)" % s.get("error", ""))
    pts = s.get("points", [])
    check(len(pts) == len(expected), "chart data: %d points (expected %d)" % (len(pts), len(expected)))
    check(s.get("svg_symbols") == len(expected),
          "rendered SVG: %s point marks (expected %d)" % (s.get("svg_symbols"), len(expected)))
    full = {row["kernel"] for row in rows}
    for k, lv, ai, gf in expected:
        hit = [p for p in pts if p["level"] == lv and abs(p["ai"] - ai) <= 1e-4 * ai
               and abs(p["gflops"] - gf) <= 1e-4 * gf]
        check(len(hit) == 1, "point %s @ %s: AI %.4g, %.4g GFLOP/s" % (k[:40], lv, ai, gf))
    ceilings = set(s.get("ceilings", []))
    want = {"L1 32.7 TB/s", "L2 7.27 TB/s", "HBM 3.05 TB/s", "f32 66.5 TFLOP/s", "f64 33.5 TFLOP/s",
            "f16 Tensor 882 TFLOP/s", "tf32 Tensor 474 TFLOP/s"}
    check(ceilings == want, "ceilings drawn: %s" % sorted(ceilings))
    texts = s.get("svg_texts", [])
    check(all(c in texts for c in want), "every ceiling is labelled in the SVG")
    check(s.get("svg_lines") == len(want) + 6,
          "lines: 7 ceilings + 6 kernel connectors (%s)" % s.get("svg_lines"))
    for name in ("saxpy", "sgemm_tiled", "softmax_rows", "spmv_csr", "wmma_gemm_f16"):
        check(name in texts, "kernel label %s" % name)
    check(s.get("svg_legend_entries", 0) >= 6 + 3, "legend: kernels and memory levels")

    # The standalone SVG (node + vega) holds the same marks.
    svg = open(out_svg).read()
    check(svg.startswith("<svg") and "http" not in re.sub(r'xmlns(:\w+)?="[^"]*"', "", svg),
          "SVG stands alone (no external references)")
    sym = re.search(r'<g class="mark-symbol role-mark[^"]*"[^>]*>(.*?)</g>', svg, re.S)
    check(sym is not None and sym.group(1).count("<path") == len(expected),
          "SVG file: %d point marks" % (sym.group(1).count("<path") if sym else -1))
    check(all(c in svg for c in want), "SVG file: every ceiling labelled")

    # Dynamic counts only: one "global (requested)" point per kernel with FLOPs.
    dyn_html = os.path.join(tmp, "dyn.html")
    r = subprocess.run([a.hroof, "report", os.path.join(INPUTS, "dynamic-only.json"), "--html", dyn_html],
                       capture_output=True, text=True)
    check(r.returncode == 0, "hroof report (dynamic only) exits 0")
    d = browser(["--dump-dom", "file://" + dyn_html], tmp)
    m = re.search(r'<pre id="hroof-summary">(.*?)</pre>', d.stdout, re.S)
    s = json.loads(html.unescape(m.group(1))) if m and m.group(1).strip() else {}
    levels = [p["level"] for p in s.get("points", [])]
    check(s.get("rendered") is True and levels == ["global (requested)"] * 5 and s.get("svg_symbols") == 5,
          "dynamic-only chart: 5 requested-bytes points rendered (%s)" % levels)

    if a.screenshot:
        shot = browser(["--screenshot=" + a.screenshot, "--window-size=1400,1000",
                        "file://" + out_html], tmp)
        check(os.path.exists(a.screenshot), "screenshot written to " + a.screenshot)
    shutil.rmtree(tmp, ignore_errors=True)
    print("%d failure(s)" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
