#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""hroof report in a real browser: headless Chromium loads the HTML, the page writes
what Vega drew into #hroof-summary (--dump-dom), and this checks it against the
report's own CSV: one point per kernel and memory level, the expected ceilings, the
kernel labels. Also checks the standalone SVG (node-rendered) holds the same marks.
On the demo profile and on a profile of 136 kernels: at most DEFAULT_TOP kernels
(and "other") in the default chart, no two texts of the plot overlapping, every
ceiling labelled once, the legend complete.

  browser_test.py --hroof build/bin/hroof [--screenshots DIR]
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
# The chart's documented default of --top (docs/report.md).
DEFAULT_TOP = 10


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


def summary(html_path, tmp):
    d = browser(["--dump-dom", "file://" + html_path], tmp)
    m = re.search(r'<pre id="hroof-summary">(.*?)</pre>', d.stdout, re.S)
    if not m or not m.group(1).strip():
        print(d.stderr[-2000:])
        return {}
    return json.loads(html.unescape(m.group(1)))


def overlap(p, q):
    """Whether two convex polygons (lists of [x, y]) overlap by more than half
    a pixel (separating axis test)."""
    for poly in (p, q):
        for i in range(len(poly)):
            (x1, y1), (x2, y2) = poly[i], poly[(i + 1) % len(poly)]
            nx, ny = y2 - y1, x1 - x2
            norm = (nx * nx + ny * ny) ** 0.5
            if norm == 0:
                continue
            a = [(x * nx + y * ny) / norm for x, y in p]
            b = [(x * nx + y * ny) / norm for x, y in q]
            if min(max(a), max(b)) - max(min(a), min(b)) <= 0.5:
                return False
    return True


def check_scaling(s, name):
    """The chart of the default options: few kernels, labels apart, ceilings
    labelled once, a complete legend."""
    kernels = {p["kernel"] for p in s.get("points", [])}
    check(0 < len(kernels) <= DEFAULT_TOP + 1,
          "%s: %d kernels drawn (at most %d and 'other')" % (name, len(kernels), DEFAULT_TOP))
    check(s.get("svg_symbols", 0) <= 3 * (DEFAULT_TOP + 1),
          "%s: %s point marks" % (name, s.get("svg_symbols")))
    boxes = [b for b in s.get("text_boxes", []) if b["text"]]
    clashes = [(a["text"], b["text"]) for i, a in enumerate(boxes) for b in boxes[i + 1:]
               if overlap(a["corners"], b["corners"])]
    check(boxes and not clashes, "%s: %d texts on the plot, none overlapping %s"
          % (name, len(boxes), clashes[:5]))
    texts = [b["text"] for b in boxes]
    for c in set(s.get("ceilings", [])):
        check(texts.count(c) == 1, "%s: ceiling '%s' labelled once (%d)" % (name, c, texts.count(c)))
    legend = s.get("legend_labels", [])
    check(not any("entries" in t for t in legend) and
          all(any(t.startswith(k + " ") or t == k for t in legend) for k in kernels if k != "other"),
          "%s: legend lists every kernel drawn, no '...N entries'" % name)


def expected_ceiling_labels():
    """The ceilings the demo chart labels. The bandwidth labels follow the
    bundled machine file (3 significant digits in TB/s), so a re-measured
    ceiling does not break the test."""
    machine = json.load(open(os.path.join(HERE, "..", "..", "docs", "machines",
                                          "h100-80gb-hbm3.json")))
    bw = machine["ceilings"]["bandwidth"]
    want = {"%s %.3g TB/s" % (name, bw[key]["value"] / 1000)
            for name, key in (("L1", "l1"), ("L2", "l2"), ("HBM", "hbm"))}
    return want | {"f32 66.5 TFLOP/s", "f64 33.5 TFLOP/s", "f16 Tensor 882 TFLOP/s",
                   "tf32 Tensor 474 TFLOP/s"}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hroof", required=True)
    ap.add_argument("--screenshots", help="write report-demo.png and report-many-kernels.png here")
    a = ap.parse_args()
    a.hroof = os.path.abspath(a.hroof)
    tmp = tempfile.mkdtemp(prefix="hroof-browser-")
    out_html, out_svg, out_csv = (os.path.join(tmp, "r." + e) for e in ("html", "svg", "csv"))
    # Run in Inputs/ so that the page (and the screenshots) name the inputs
    # without this machine's paths.
    inputs = ["demo-rank0.json", "demo-rank1.json"]
    r = subprocess.run([a.hroof, "report", *inputs, "--html", out_html, "--svg", out_svg,
                        "--csv", out_csv], capture_output=True, text=True, cwd=INPUTS)
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
    want = expected_ceiling_labels()
    check(ceilings == want, "ceilings drawn: %s" % sorted(ceilings))
    texts = s.get("svg_texts", [])
    check(all(c in texts for c in want), "every ceiling is labelled in the SVG")
    check(s.get("svg_lines") == len(want) + 6,
          "lines: 7 ceilings + 6 kernel connectors (%s)" % s.get("svg_lines"))
    for row in rows:
        if row["ai_l1"] and float(row["gflops"] or 0) > 0:
            check(row["id"] in texts, "kernel label %s (%s)" % (row["id"], row["kernel"][:30]))
    check(s.get("svg_legend_entries", 0) >= 6 + 3, "legend: kernels and memory levels")
    check_scaling(s, "demo")

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

    # An application-sized profile (136 kernels, test/report/make_fixtures.py).
    many_html = os.path.join(tmp, "many.html")
    r = subprocess.run([a.hroof, "report", "many-kernels.json", "--html", many_html],
                       capture_output=True, text=True, cwd=INPUTS)
    check(r.returncode == 0, "hroof report (136 kernels) exits 0")
    many = summary(many_html, tmp)
    check(many.get("rendered") is True, "136 kernels: chart rendered")
    check_scaling(many, "136 kernels")
    check(any(p["kernel"] == "other" for p in many.get("points", [])),
          "136 kernels: the rest drawn as 'other'")

    # --baseline: one arrow (a rule) per level of each kernel that moved.
    base_html = os.path.join(tmp, "base.html")
    r = subprocess.run([a.hroof, "report", "--baseline", "demo-before.json", "demo-rank0.json",
                        "--html", base_html, "--json", os.path.join(tmp, "base.json")],
                       capture_output=True, text=True, cwd=INPUTS)
    check(r.returncode == 0, "hroof report --baseline exits 0")
    pairs = json.load(open(os.path.join(tmp, "base.json")))["baseline"]["kernels"] if r.returncode == 0 else []
    moved = sum(1 for k in pairs for lv in ("L1", "L2", "HBM") if lv in k["ai"]
                and k["ai"][lv]["old"] and k["ai"][lv]["new"] and k["gflops"]["old"]
                and (k["ai"][lv]["old"] != k["ai"][lv]["new"] or k["gflops"]["old"] != k["gflops"]["new"]))
    base = summary(base_html, tmp)
    check(base.get("rendered") is True and moved > 0 and base.get("svg_rules") == moved,
          "baseline chart: %s arrows for %d moved points" % (base.get("svg_rules"), moved))

    if a.screenshots:
        for page, png in ((out_html, "report-demo.png"), (many_html, "report-many-kernels.png")):
            path = os.path.join(a.screenshots, png)
            browser(["--screenshot=" + path, "--window-size=1400,1000", "file://" + page], tmp)
            check(os.path.exists(path), "screenshot written to " + path)
    shutil.rmtree(tmp, ignore_errors=True)
    print("%d failure(s)" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
