#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""app_replay_compare.py KERNEL_DIR APP_DIR: the counters of kernel replay and
of application replay (HROOF_REPLAY=application) agree, per kernel and launch
shape, on the profiles of test/gpu/runtime/app-replay.sh. Exact: FLOPs,
tensor FLOPs and requested bytes (SASS-patched, data independent); within
5 %: L1 and L2 bytes; within 25 %: DRAM bytes (cache contents differ between
launches). The application records must be assembled from two or more
one-pass groups, none incomplete, and every range of that run one pass.
Exit 1 on any failure."""
import glob, json, sys


def load(d):
    files = glob.glob(d + "/*.json")
    if len(files) != 1:
        sys.exit("expected one profile in %s, found %d" % (d, len(files)))
    return json.load(open(files[0]))


def shape(l):
    return (l["kernel"], tuple(l["grid"]), tuple(l["block"]))


def first_counters(p):
    out = {}
    for l in p.get("launches", []):
        c = l.get("counters")
        if c and "counters_incomplete" not in l and shape(l) not in out:
            out[shape(l)] = (l, c)
    return out


def leaves(j, prefix=""):
    if isinstance(j, dict):
        for k, v in j.items():
            yield from leaves(v, prefix + "." + k if prefix else k)
    elif isinstance(j, (int, float)) and not isinstance(j, bool):
        yield prefix, float(j)


def main():
    k, a = load(sys.argv[1]), load(sys.argv[2])
    fails = 0
    def bad(msg):
        nonlocal fails
        fails += 1
        print("FAIL " + msg)
    K, A = first_counters(k), first_counters(a)
    if not K:
        bad("kernel replay: no launch with counters")
    for s, (kl, kc) in sorted(K.items()):
        if s not in A:
            bad("%s: no complete application-replay counters" % (s,))
            continue
        al, ac = A[s]
        groups = ac.get("replay_groups", 0)
        if groups < 2:
            bad("%s: replay_groups %s (want 2 or more)" % (s, groups))
        kv = dict(leaves({x: kc[x] for x in ("flops", "tensor_flops", "bytes") if x in kc}))
        av = dict(leaves({x: ac[x] for x in ("flops", "tensor_flops", "bytes") if x in ac}))
        if not kv:
            bad("%s: kernel replay gave no FLOP or byte keys" % (s,))
        for key, v in kv.items():
            if av.get(key) != v:
                bad("%s %s: kernel %s, application %s" % (s, key, v, av.get(key)))
        for key, tol in (("l1_bytes", 0.05), ("l2_bytes", 0.05), ("dram_bytes", 0.25)):
            x, y = kc.get(key), ac.get(key)
            if x is None or y is None:
                bad("%s %s missing (kernel %s, application %s)" % (s, key, x, y))
            elif abs(x - y) > tol * max(abs(x), 1024):
                bad("%s %s: kernel %s, application %s (tolerance %d %%)" % (s, key, x, y, tol * 100))
        print("%s: %d groups; flops %s; l2 %s vs %s; dram %s vs %s; time_ns %s vs %s" % (
            s[0], groups, kc.get("flops"), kc.get("l2_bytes"), ac.get("l2_bytes"),
            kc.get("dram_bytes"), ac.get("dram_bytes"), kc.get("time_ns"), ac.get("time_ns")))
    inc = [l for l in a.get("launches", []) if "counters_incomplete" in l]
    if inc:
        bad("%d application records incomplete: %s" % (len(inc), inc[0]["counters_incomplete"]))
    notes = " ".join(a.get("notes", []))
    if "ranges by replay passes:" not in notes:
        bad("no 'ranges by replay passes' note")
    else:
        passes = notes.split("ranges by replay passes:")[1].split(";")[0].split()
        counts = [passes[i + 2] for i in range(0, len(passes) - 2, 3)]
        if any(c != "1" for c in counts):
            bad("application replay ran ranges of more than one pass: %s" % " ".join(passes))
    print("compared %d shape(s), %d failure(s)" % (len(K), fails))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
