#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""ctest report.step-timing: `hroof report --by rank` takes per-step time from a
profile's "timing" section (hroof run --timing-range, docs/runtime.md "Timing
ranges") when every rank has one.

Two fake ranks. In the profiled step the counters' replays distort time: rank 0
shows the most compute there. The timing section holds steps 4-7: step 4 has a
replayed launch on rank 0 and step 5 follows it (both left out on both ranks), steps 6 and 7 are clean and say rank 1 computes
more (it had the larger batch) while rank 0 waits in NCCL. Expected numbers are
derived here from the entries written; then one rank without a timing section
sends the verdict back to the profiled step.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from make_fixtures import checked, hw, kernel, profile  # noqa: E402

NCCL = "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)"


def rank_profile(pid, rank, profiled_compute_ms, profiled_comm_ms, steps):
    """steps: {name: (compute ns per launch, comm ns per launch, replayed?)}."""
    ks = [kernel("gemm", "gemm", 4, profiled_compute_ms * 1e6 / 4,
                 ctr=hw({"f32": 1e9}, l1=1e9, l2=5e8, dram=2e8, t=profiled_compute_ms * 1e6)),
          kernel(NCCL, NCCL, 2, profiled_comm_ms * 1e6 / 2)]
    for k in ks:
        k["device"] = 0
    p = profile(pid, rank, ks)
    p["ranges"] = [{"range": "step 3/forward", "kernels": [ks[0]], "transfers": []},
                   {"range": "step 3/backward", "kernels": [ks[1]], "transfers": []}]
    p["ranges_dropped"] = 0
    p["settings"]["range"] = "step 3(/|$)"
    p["settings"]["timing_range"] = "^step [4-7]"
    if steps is not None:
        entries = []
        t = 1000
        for name, (compute, comm, replayed) in steps.items():
            for rg, k, ns, n in ((name + "/forward", "gemm", compute, 4),
                                 (name + "/backward", NCCL, comm, 2)):
                entries.append({"range": rg, "kernel": k, "device": 0, "launches": n,
                                "replayed": 1 if replayed and k == "gemm" else 0,
                                "total_ns": ns * n, "first_start_ns": t,
                                "last_end_ns": t + ns * n, "communication": k == NCCL})
                t += 10 ** 9
        p["timing"] = {"range_filter": "^step [4-7]", "entries": entries, "dropped": 0}
    return p


def run(hroof, d, names):
    out = os.path.join(d, "rank.json")
    r = subprocess.run([hroof, "report", "--by", "rank", "--rank-json", out, "--any-machine"]
                       + [os.path.join(d, n) for n in names],
                       capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("hroof report failed:\n" + r.stdout + r.stderr)
    with open(out) as f:
        return json.load(f), r.stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hroof", required=True)
    a = ap.parse_args()
    ms = 10 ** 6
    steps0 = {"step 4": (9 * ms, 80 * ms, True), "step 5": (5 * ms, 40 * ms, False),
              "step 6": (2 * ms, 2 * ms, False), "step 7": (2 * ms, 3 * ms, False)}
    # Rank 1 replayed nothing in step 4 but waited there for rank 0's
    # replays: step 4 is left out of rank 1's steps too.
    steps1 = {"step 4": (3 * ms, 70 * ms, False), "step 5": (3 * ms, 30 * ms, False),
              "step 6": (3 * ms, ms // 2, False), "step 7": (3 * ms, ms // 2, False)}
    # Step 5 follows rank 0's replayed step 4 (the round's host work): out
    # too. Per step over steps 6 and 7: 4 launches of compute, 2 of NCCL.
    want = {"0": (4 * (2 + 2) * ms / 2, 2 * (2 + 3) * ms / 2),
            "1": (4 * (3 + 3) * ms / 2, 2 * (0.5 + 0.5) * ms / 2)}
    fails = []
    with tempfile.TemporaryDirectory() as d:
        for name, obj in (("r0.json", rank_profile(7000, "0", 12, 60, steps0)),
                          ("r1.json", rank_profile(7001, "1", 10, 5, steps1)),
                          ("r1-untimed.json", rank_profile(7002, "1", 10, 5, None))):
            with open(os.path.join(d, name), "w") as f:
                json.dump(checked(obj), f)
        j, text = run(a.hroof, d, ["r0.json", "r1.json"])
        if not j.get("verdict_from_unprofiled_steps"):
            fails.append("verdict not taken from the unprofiled steps")
        for row in j["rows"]:
            u = row.get("unprofiled_steps")
            if not u:
                fails.append("%s: no unprofiled_steps" % row["label"])
                continue
            c, w = want[row["rank"]]
            if abs(u["compute_ns_per_step"] - c) > 1 or abs(u["communication_ns_per_step"] - w) > 1:
                fails.append("%s: per step compute %s comm %s, want %s %s" % (
                    row["label"], u["compute_ns_per_step"], u["communication_ns_per_step"], c, w))
            if u["steps"] != ["step 6", "step 7"] or sorted(u["left_out"]) != ["step 4", "step 5"]:
                fails.append("%s: steps %s left out %s" % (row["label"], u["steps"], u["left_out"]))
        notes = "\n".join(j["notes"])
        if "straggler: rank 1" not in notes:
            fails.append("straggler is not rank 1:\n" + notes)
        if "rank 0 has the most communication time" not in notes or "waiting for the straggler" not in notes:
            fails.append("rank 0 not named the waiter:\n" + notes)
        if "step 6 .. step 7 (2 unprofiled steps)" not in notes:
            fails.append("the note does not say which steps:\n" + notes)
        # --by range on rank 0 alone: per range, kernel time per step over
        # steps 6 and 7 (forward: 4 x 2 ms each; backward: 2 x 2 ms, 2 x 3 ms).
        out = os.path.join(d, "range.json")
        r = subprocess.run([a.hroof, "report", "--by", "range", "--range-json", out,
                            "--any-machine", os.path.join(d, "r0.json")],
                           capture_output=True, text=True)
        if r.returncode != 0:
            sys.exit("hroof report --by range failed:\n" + r.stdout + r.stderr)
        with open(out) as f:
            rows = {x["range"]: x for x in json.load(f)["ranges"]}
        for rg, want_ns in (("step 3/forward", 4 * 2 * ms), ("step 3/backward", (4 + 6) * ms / 2)):
            got = rows.get(rg, {}).get("unprofiled_ns_per_step")
            if got is None or abs(got - want_ns) > 1:
                fails.append("--by range %s: unprofiled %s ns per step, want %s" % (rg, got, want_ns))
        if "unprof ms/step" not in r.stdout:
            fails.append("--by range prints no unprof ms/step column")
        # One rank without timing: the profiled step decides (rank 0 computes
        # 12 ms there against 10 ms).
        j, _ = run(a.hroof, d, ["r0.json", "r1-untimed.json"])
        if j.get("verdict_from_unprofiled_steps"):
            fails.append("verdict from unprofiled steps although rank 1 has none")
        if "straggler: rank 0" not in "\n".join(j["notes"]):
            fails.append("without timing the straggler is not the profiled step's rank 0")
    if fails:
        print("\n".join(fails))
        return 1
    print("report.step-timing: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
