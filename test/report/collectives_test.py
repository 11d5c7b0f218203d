#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""ctest report.collectives: the collectives table of `hroof report --by rank`.

Writes small synthetic runs (2 and 4 ranks on one host, 2 ranks on two hosts,
2 ranks whose records have no NCCL payload) with NCCL launch records, runs
`hroof report --by rank --rank-json`, and checks every row's calls, size,
kernel time, algBw, busBw, skew and transfer against numbers derived by hand
in the comments below (GB/s = bytes per ns).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from make_fixtures import kernel, profile  # noqa: E402

AR = "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)"
AG = "ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)"
FAILS = []


def check(what, got, want, tol=1e-6):
    if abs(got - want) > tol * max(1.0, abs(want)):
        FAILS.append(f"{what}: got {got}, want {want}")


def launch(i, name, start, dur, call=None, comm=None, nbytes=None):
    rec = {"index": i, "kernel": name, "mangled": name, "api": "cuLaunchKernelEx", "device": 0,
           "stream": 7, "range": "", "start_ns": start, "duration_ns": dur}
    if call:
        rec["collective"] = {"call": call, "bytes": nbytes, "calls": 1}
        if comm:
            rec["collective"]["comm"] = comm
    return rec


def rank_profile(rank, launches, host="gpu-node-07"):
    by_kernel = {}
    for l in launches:
        by_kernel.setdefault(l["kernel"], []).append(l["duration_ns"])
    ks = [kernel(k, k, len(v), sum(v) / len(v)) for k, v in sorted(by_kernel.items())]
    p = profile(6000 + rank, str(rank), ks)
    p["host"] = host
    p["launches"] = launches
    p["launch_records"]["written"] = len(launches)
    return p


def run(hroof, tmp, name, profiles):
    paths = []
    for r, p in enumerate(profiles):
        path = os.path.join(tmp, f"{name}-rank{r}.json")
        with open(path, "w") as f:
            json.dump(p, f)
        paths.append(path)
    out = os.path.join(tmp, f"{name}-by-rank.json")
    res = subprocess.run([hroof, "report", *paths, "--by", "rank", "--rank-json", out],
                         capture_output=True, text=True)
    if res.returncode != 0:
        FAILS.append(f"{name}: exit {res.returncode}: {res.stderr}")
        return None, ""
    with open(out) as f:
        return json.load(f)["collectives"], res.stdout


def row(c, coll, label):
    for r in c["rows"]:
        if r["collective"] == coll and r["row"] == label:
            return r
    FAILS.append(f"no {coll} row for {label}")
    return None


def two_ranks(hroof, tmp):
    # AllReduce of 64 MiB (67108864 B) twice on communicator 0xaa.
    # First AllReduce: rank 0 starts at 1.0 ms, rank 1 at 1.5 ms; both end at 3.0 ms.
    #   last start 1.5 ms: rank 0 skew 0.5 ms, transfer 1.5 ms; rank 1 skew 0, transfer 1.5 ms.
    # Second AllReduce: both start at 10.0 ms and run 1.5 ms: skew 0, transfer 1.5 ms.
    comm, b = "0x00000000000000aa", 67108864
    r0 = [launch(0, AR, 1_000_000, 2_000_000, "ncclAllReduce", comm, b),
          launch(1, AR, 10_000_000, 1_500_000, "ncclAllReduce", comm, b)]
    r1 = [launch(0, AR, 1_500_000, 1_500_000, "ncclAllReduce", comm, b),
          launch(1, AR, 10_000_000, 1_500_000, "ncclAllReduce", comm, b)]
    c, text = run(hroof, tmp, "two", [rank_profile(0, r0), rank_profile(1, r1)])
    if c is None:
        return
    if "collectives per rank:" not in text:
        FAILS.append("two: no collectives table in the text output")
    check("two: split", c["split"], True)
    # n = 2; AllReduce busBw factor 2(n-1)/n = 1. Size per rank: 2 x 67108864 = 134217728 B.
    # rank 0: kernel 3.5 ms; algBw = 134217728 / 3.5e6 ns = 38.347922 GB/s = busBw;
    #         skew 0.5 ms, transfer 3.0 ms, busBw@transfer = 134217728 / 3.0e6 = 44.739243 GB/s.
    # rank 1: kernel 3.0 ms; algBw = busBw = 44.739243 GB/s; skew 0, transfer 3.0 ms.
    want = {"rank 0": (3_500_000, 38.347922, 500_000, 3_000_000, 44.739243),
            "rank 1": (3_000_000, 44.739243, 0, 3_000_000, 44.739243)}
    for label, (ns, bw, skew, xfer, bwx) in want.items():
        r = row(c, "AllReduce", label)
        if not r:
            continue
        check(f"two {label} ranks", r["ranks"], 2)
        check(f"two {label} calls", r["calls"], 2)
        check(f"two {label} size", r["size_bytes"], 134217728)
        check(f"two {label} kernel_ns", r["kernel_ns"], ns)
        check(f"two {label} algBw", r["alg_bw_gbs"], bw, 1e-6)
        check(f"two {label} busBw", r["bus_bw_gbs"], bw, 1e-6)
        check(f"two {label} skew", r["skew_ns"], skew)
        check(f"two {label} transfer", r["transfer_ns"], xfer)
        check(f"two {label} busBw@transfer", r["bus_bw_transfer_gbs"], bwx, 1e-6)


def four_ranks(hroof, tmp):
    # Communicator 0xbb, 4 ranks: an AllGather, then an AllReduce.
    # AllGather: NCCL's payload is the per-rank send part, 1000000 B; S = n x 1000000 = 4000000 B.
    #   starts 1.0, 1.4, 1.2, 2.0 ms; all end at 3.0 ms. Last start 2.0 ms:
    #   skew 1.0, 0.6, 0.8, 0 ms; transfer 1.0 ms each.
    #   algBw = 4e6 B / kernel time: 2.0, 2.5, 2.222222, 4.0 GB/s; busBw x (n-1)/n = 0.75:
    #   1.5, 1.875, 1.666667, 3.0 GB/s; busBw@transfer 4e6 / 1e6 x 0.75 = 3.0 GB/s each.
    # AllReduce of 8000000 B: every rank starts at 5.0 ms and runs 2.0 ms: skew 0, transfer 2.0 ms,
    #   algBw 4.0 GB/s, busBw x 2(n-1)/n = 1.5: 6.0 GB/s.
    comm = "0x00000000000000bb"
    starts = [1_000_000, 1_400_000, 1_200_000, 2_000_000]
    profs = []
    for r, s in enumerate(starts):
        profs.append(rank_profile(r, [
            launch(0, AG, s, 3_000_000 - s, "ncclAllGather", comm, 1_000_000),
            launch(1, AR, 5_000_000, 2_000_000, "ncclAllReduce", comm, 8_000_000)]))
    c, _ = run(hroof, tmp, "four", profs)
    if c is None:
        return
    ag = {0: (2_000_000, 2.0, 1.5, 1_000_000), 1: (1_600_000, 2.5, 1.875, 600_000),
          2: (1_800_000, 2.222222, 1.666667, 800_000), 3: (1_000_000, 4.0, 3.0, 0)}
    for rk, (ns, alg, bus, skew) in ag.items():
        r = row(c, "AllGather", f"rank {rk}")
        if not r:
            continue
        check(f"four AG rank {rk} ranks", r["ranks"], 4)
        check(f"four AG rank {rk} size", r["size_bytes"], 4_000_000)
        check(f"four AG rank {rk} kernel_ns", r["kernel_ns"], ns)
        check(f"four AG rank {rk} algBw", r["alg_bw_gbs"], alg, 1e-6)
        check(f"four AG rank {rk} busBw", r["bus_bw_gbs"], bus, 1e-6)
        check(f"four AG rank {rk} skew", r["skew_ns"], skew)
        check(f"four AG rank {rk} transfer", r["transfer_ns"], 1_000_000)
        check(f"four AG rank {rk} busBw@transfer", r["bus_bw_transfer_gbs"], 3.0, 1e-6)
        a = row(c, "AllReduce", f"rank {rk}")
        if a:
            check(f"four AR rank {rk} algBw", a["alg_bw_gbs"], 4.0, 1e-6)
            check(f"four AR rank {rk} busBw", a["bus_bw_gbs"], 6.0, 1e-6)
            check(f"four AR rank {rk} skew", a["skew_ns"], 0)
            check(f"four AR rank {rk} transfer", a["transfer_ns"], 2_000_000)


BC = "ncclDevKernel_Broadcast_RING_LL(ncclDevKernelArgsStorage<4096ul>)"


def early_root(hroof, tmp):
    # Broadcast of 16 B from rank 0, whose kernel (1.0 to 1.2 ms) ends before rank 1's starts
    # (2.0 ms, runs 0.3 ms): last start 2.0 ms. Rank 0 did not wait for rank 1: skew 0,
    # transfer its 0.2 ms (not 1.2 - 2.0 = -0.8 ms). Rank 1: skew 0, transfer 0.3 ms.
    comm = "0x00000000000000cc"
    r0 = [launch(0, BC, 1_000_000, 200_000, "ncclBroadcast", comm, 16)]
    r1 = [launch(0, BC, 2_000_000, 300_000, "ncclBroadcast", comm, 16)]
    c, _ = run(hroof, tmp, "early", [rank_profile(0, r0), rank_profile(1, r1)])
    if c is None:
        return
    for label, xfer in (("rank 0", 200_000), ("rank 1", 300_000)):
        r = row(c, "Broadcast", label)
        if r:
            check(f"early {label} skew", r["skew_ns"], 0)
            check(f"early {label} transfer", r["transfer_ns"], xfer)
            # busBw factor 1: 16 B / 0.2 ms = 8e-05 GB/s, 16 B / 0.3 ms = 5.333333e-05 GB/s.
            check(f"early {label} busBw", r["bus_bw_gbs"], 16 / xfer, 1e-6)
    if not any("did not wait" in n or "does not wait" in n for n in c["notes"]):
        FAILS.append(f"early: no note on the early root: {c['notes']}")


def two_hosts(hroof, tmp):
    # The two-rank run of two_ranks(), rank 1 on another host: no split, with a note.
    comm, b = "0x00000000000000aa", 67108864
    r0 = [launch(0, AR, 1_000_000, 2_000_000, "ncclAllReduce", comm, b)]
    r1 = [launch(0, AR, 1_500_000, 1_500_000, "ncclAllReduce", comm, b)]
    c, _ = run(hroof, tmp, "hosts", [rank_profile(0, r0, "node-a"), rank_profile(1, r1, "node-b")])
    if c is None:
        return
    check("hosts: split", c["split"], False)
    if not any("several hosts" in n for n in c["notes"]):
        FAILS.append(f"hosts: no note on the hosts: {c['notes']}")
    r = row(c, "AllReduce", "rank 0")
    if r:
        check("hosts: matched", r["matched"], 0)
        # Bytes still count: 67108864 B / 2.0e6 ns = 33.554432 GB/s.
        check("hosts: algBw", r["alg_bw_gbs"], 33.554432, 1e-6)


def no_payload(hroof, tmp):
    # Records without "collective": time (2.0 and 1.5 ms), no bytes, with the reason; the
    # kernels are matched by order all the same: rank 0 skew 0.5 ms, transfer 1.5 ms.
    r0 = [launch(0, AR, 1_000_000, 2_000_000)]
    r1 = [launch(0, AR, 1_500_000, 1_500_000)]
    c, text = run(hroof, tmp, "nopayload", [rank_profile(0, r0), rank_profile(1, r1)])
    if c is None:
        return
    r = row(c, "AllReduce", "rank 0")
    if r:
        check("nopayload: calls", r["calls"], 1)
        check("nopayload: with bytes", r["calls_with_bytes"], 0)
        check("nopayload: kernel_ns", r["kernel_ns"], 2_000_000)
        check("nopayload: algBw", r["alg_bw_gbs"], 0)
        check("nopayload: skew", r["skew_ns"], 500_000)
        check("nopayload: transfer", r["transfer_ns"], 1_500_000)
    if not any("no collective payloads" in n for n in c["notes"]):
        FAILS.append(f"nopayload: no reason for the missing bytes: {c['notes']}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hroof", required=True)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        two_ranks(a.hroof, tmp)
        four_ranks(a.hroof, tmp)
        early_root(a.hroof, tmp)
        two_hosts(a.hroof, tmp)
        no_payload(a.hroof, tmp)
    for f in FAILS:
        print("FAIL:", f)
    print("collectives_test:", "FAILED" if FAILS else "passed")
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main())
