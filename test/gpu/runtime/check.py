#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Checks the profiles that run.sh produced with fake_instrumented.

check.py SCENARIO PROFILE_DIR [extra]  -> prints PASS/FAIL lines, exit 1 on a FAIL.
"""
import glob, json, sys

fails = []


def check(cond, what):
    print(("PASS " if cond else "FAIL ") + what)
    if not cond:
        fails.append(what)


def load(d):
    files = sorted(glob.glob(d + "/*.json"))
    check(len(files) == 1, "%s: one profile (found %d)" % (d, len(files)))
    if not files:
        sys.exit(1)
    with open(files[0]) as f:
        return json.load(f)


def saxpy_expect(r):
    n = r["args"]["n"]
    threads = 1
    for g, b in zip(r["grid"], r["block"]):
        threads *= g * b
    e = min(n, threads)
    return {"f32": 2 * e, "load": 8 * e, "store": 4 * e}


def counts_ok(r):
    e = saxpy_expect(r)
    d = r["dynamic"]
    s = r["static"]
    got = (d["flops"]["f32"], d["bytes"]["global"]["load"], d["bytes"]["global"]["store"])
    # Dynamic counts also carry the warp-level keys (zero here: this program
    # counts no warp-level traffic); static ones only the thread-level keys
    # (docs/profile-format.md).
    thread = {k: v for k, v in d.items() if k not in ("warp_bytes", "sectors", "wavefronts")}
    return got == (e["f32"], e["load"], e["store"]) and s == thread


def kernel(p, name):
    for k in p["kernels"]:
        if k["kernel"] == name:
            return k
    return None


scenario, d = sys.argv[1], sys.argv[2]
p = load(d)
launches = p["launches"]
check(p["complete"] is True, "profile complete")
sax = [r for r in launches if r["kernel"] == "fake_saxpy" and not r["graph"]]

if scenario in ("main", "limit"):
    k = kernel(p, "fake_saxpy")
    check(k is not None and k["launches"] == 40, "fake_saxpy: 40 launches in the aggregate (38 direct + 2 in graphs): %s" % (k and k["launches"]))
    check(k["graph_launches"] == 2, "fake_saxpy: 2 graph launches")
    check(k["dynamic"]["launches"] == 38, "fake_saxpy: 38 counted launches (%d)" % k["dynamic"]["launches"])
    check(k["static"]["matches_dynamic"] == 38 and k["static"]["differs_from_dynamic"] == 0,
          "fake_saxpy: static == dynamic on every counted launch")
    exp_total = 0
    sizes = [(1 << 20, 4096 * 256), (1000, 1024), (5000, 1024), (12345, 49 * 256)]
    for t in range(4):
        for l in range(8):
            n = 1000 * (t + 1) + 7 * l
            sizes.append((n, (n + 127) // 128 * 128))
    sizes += [(500, 512), (777, 1024)]
    exp_total = sum(2 * min(n, th) for n, th in sizes)
    check(k["dynamic"]["total"]["flops"]["f32"] == exp_total,
          "fake_saxpy: aggregate flops.f32 = %d (hand-derived %d)" % (k["dynamic"]["total"]["flops"]["f32"], exp_total))
    check(k["duration_ns"]["timed_launches"] == 40, "fake_saxpy: 40 timed launches (%d)" % k["duration_ns"]["timed_launches"])
    pl = kernel(p, "plain_scale")
    check(pl is not None and pl["launches"] == 5 and not pl["instrumented"]
          and pl["duration_ns"]["timed_launches"] == 5,
          "plain_scale: 5 launches (3 direct + 2 graph), uninstrumented, timed")
    check(p["graph_launches"] == 2, "2 cuGraphLaunch calls")
    check(any(d["name"] for d in p["devices"]), "device: %s" % [d["name"] for d in p["devices"]])
    if scenario == "main":
        check(len(sax) == 38, "38 direct fake_saxpy launch records (%d)" % len(sax))
        bad = [r["index"] for r in sax if not counts_ok(r)]
        check(not bad, "every fake_saxpy record: dynamic == static == hand-derived (bad: %s)" % bad[:5])
        check(all(r["duration_ns"] for r in sax), "every fake_saxpy record has a duration")
        apis = sorted(set(r["api"] for r in sax))
        print("INFO apis seen: %s" % apis)
        check(len(set(r["thread"] for r in sax)) >= 5, "launches from >= 5 host threads")
        check(len(set(r["stream"] for r in sax)) >= 5, "launches on >= 5 streams")
        g = [r for r in launches if r["graph"]]
        check(len(g) == 4, "4 graph kernel records (%d)" % len(g))
    else:
        check(k["recorded_launches"] == 2 and len(sax) == 2, "launch limit 2: 2 records of fake_saxpy")
        check(p["launch_records"]["dropped"] > 0, "dropped records counted")

if scenario == "fault":
    check(len(sax) == 1 and counts_ok(sax[0]), "the launch before the fault is kept with exact counts")
    f = [r for r in launches if r["kernel"] == "fake_fault"]
    check(len(f) == 1 and "error" in f[0], "the faulting launch is recorded with its error: %s" % (f and f[0].get("error")))
    check(any("failed" in n for n in p["notes"]), "a note says counting stopped")

if scenario == "noperm":
    # Counters refused (LD_PRELOAD shim): everything else as in "main".
    check(not any(r.get("counters") for r in launches), "noperm: no launch has counters")
    check(any("not permitted" in n and "NVreg_RestrictProfilingToAdminUsers" in n for n in p["notes"]),
          "noperm: a note names the driver setting")
    check(len(sax) == 38 and all(counts_ok(r) and r["duration_ns"] for r in sax),
          "noperm: 38 fake_saxpy records with exact counts and durations")

if scenario == "cache":
    # cache1 learned the types (every type at first launches), cache2 took
    # them from the file: no first launch at the full pass count, same values.
    p2 = load(sys.argv[3])
    notes1 = " ".join(p["notes"]); notes2 = " ".join(p2["notes"])
    check("0 kernel(s) taken from it" in notes1 and "learned and saved" in notes1,
          "cache1: nothing taken, types learned and saved")
    import re
    m = re.search(r"(\d+) kernel\(s\) taken from it, 0 learned", notes2)
    check(m is not None and int(m.group(1)) >= 2, "cache2: every kernel's types taken from the cache (%s)" % (m and m.group(1)))
    pp1 = re.search(r"ranges by replay passes:([^;]*)", notes1); pp2 = re.search(r"ranges by replay passes:([^;]*)", notes2)
    print("INFO cache1 ranges by passes:%s; cache2:%s" % (pp1 and pp1.group(1), pp2 and pp2.group(1)))
    c2 = [int(x) for x in re.findall(r" x (\d+)", pp2.group(1))] if pp2 else []
    c1 = [int(x) for x in re.findall(r" x (\d+)", pp1.group(1))] if pp1 else []
    check(c1 and c2 and max(c2) < max(c1), "cache2 never runs the first-launch pass count of cache1 (%s vs %s)" % (c2, c1))
    # Launches from several threads come in any order: match by size.
    s2 = [r for r in p2["launches"] if r["kernel"] == "fake_saxpy" and not r["graph"]]
    key = lambda r: (r["args"].get("n"), r["grid"], json.dumps((r.get("counters") or {}).get("flops"), sort_keys=True))
    k1, k2 = sorted(map(key, sax)), sorted(map(key, s2))
    check(len(k1) == 38 and k1 == k2 and all(k[2] != "null" for k in k1),
          "cache1 and cache2: equal counter FLOPs on every fake_saxpy launch (matched by n and grid)")

if scenario == "nosync":
    check(len(sax) == 1 and counts_ok(sax[0]), "nosync: the instrumented launch is counted")
    pl = kernel(p, "plain_scale")
    print("INFO nosync: plain_scale launches recorded: %s" % (pl and pl["launches"]))

# Hardware counters (default --counters roofline): one range per recorded
# direct launch; its duration is the range's gpu__time_duration.
if scenario in ("main", "limit") and p["settings"].get("counters", "none") != "none":
    k = kernel(p, "fake_saxpy")
    want = 38 if scenario == "main" else 2
    got = k.get("counters", {}).get("launches", 0)
    check(got == want, "fake_saxpy: %d launches with hardware counters (%d)" % (want, got))
    hw = [r for r in sax if r.get("counters")]
    check(all(r["counters"].get("time_ns", 0) > 0 and r["duration_ns"] == r["counters"]["time_ns"] for r in hw),
          "launches with counters: time_ns > 0 and duration_ns from it")
    check(all(r["counters"]["bytes"]["global"]["atomic"] > 0 for r in hw),
          "fake_saxpy counters see the counter-array atomics")
if scenario == "fault" and p["settings"].get("counters", "none") != "none":
    check(any("hardware counters off" in n for n in p["notes"]), "fault: hardware counters off, one note")

sys.exit(1 if fails else 0)
