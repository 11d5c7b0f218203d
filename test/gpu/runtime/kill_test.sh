#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Kill tests, on the machine with the GPU from the repository root; builds nothing.
# Needs (copied there): .gpu-inputs/kill/bin/kill_target.inst (cmake --build build
# --target hroof-gpu-inputs-kill) and .gpu-inputs/gpu/{bin/hroof,lib/libhroof_rt.so}
# (test/gpu/build.sh). For each counters mode (none, roofline) and each way
# of dying, kill_target.inst runs under `hroof run` with one launch record per
# launch kept, and the profile is checked against what the program printed:
#   TERM   SIGTERM to hroof run after 6 s (forwarded to the program)
#   KILL   SIGKILL to the program after 6 s (no exit handler runs)
#   fault  a device fault at launch 3000 (300 with counters; FAULT_AT,
#          FAULT_AT_COUNTERS): the program exits with an error
# Pass: every launch the program reported complete at least 1 s before it
# died is in the profile (the runtime delivers completed records every
# HROOF_FLUSH_MS = 200 ms), and no more launches than it made.
# Writes $OUT/kill/<mode>-<way>/{stdout,stderr,profile.json} and
# $OUT/kill/summary.txt; exits 1 on any failure. Env: MODES, WAYS, WAIT_S.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$ROOT"
if ! nvidia-smi >/dev/null 2>&1; then echo "SKIP: no GPU (nvidia-smi failed)"; exit 0; fi
HROOF=$ROOT/.gpu-inputs/gpu/bin/hroof
PROG=$ROOT/.gpu-inputs/kill/bin/kill_target.inst
for f in "$HROOF" "$PROG"; do
  [ -x "$f" ] || { echo "kill_test.sh: $f missing (see the header)" >&2; exit 1; }
done
export LD_LIBRARY_PATH="$ROOT/.gpu-inputs/gpu/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
O=${OUT:-$ROOT/gpu-out}/kill
mkdir -p "$O"
: >"$O/summary.txt"
WAIT_S=${WAIT_S:-6}
FAIL=0
for MODE in ${MODES:-none roofline}; do
  for WAY in ${WAYS:-TERM KILL fault}; do
    D=$O/$MODE-$WAY
    mkdir -p "$D"
    rm -f "$D/profile.json"
    # Counted ranges make launches ~100x slower: fault earlier there.
    AT=${FAULT_AT:-3000}; [ "$MODE" != none ] && AT=${FAULT_AT_COUNTERS:-300}
    ARGS=(run); [ "$WAY" = fault ] && ARGS=(fault "$AT")
    timeout 180 "$HROOF" run --counters "$MODE" --launch-limit 1000000 --type-cache none \
      --output "$D/profile.json" -- "$PROG" "${ARGS[@]}" >"$D/stdout" 2>"$D/stderr" &
    HP=$!
    if [ "$WAY" != fault ]; then
      sleep "$WAIT_S"
      if [ "$WAY" = TERM ]; then kill -TERM "$HP"
      else pkill -KILL -f "kill_target.inst run"; fi
    fi
    wait "$HP"; RC=$?
    python3 - "$D" "$MODE" "$WAY" "$RC" <<'PY' >>"$O/summary.txt"
import json, re, sys
d, mode, way, rc = sys.argv[1:]
lines = open(f"{d}/stdout").read().splitlines()
done = [(int(m[1]), float(m[2])) for m in (re.match(r"completed (\d+) at (\d+) ms", l) for l in lines) if m]
fail = [l for l in lines if l.startswith("failed at launch")]
# the program's end: its failure, else its last report
end_t = float(re.search(r"at (\d+) ms", fail[0])[1]) if fail else (done[-1][1] if done else 0.0)
# what had completed 1 s before the end (5 flush periods)
need = max([n for n, t in done if t <= end_t - 1000] + [0])
made = (done[-1][0] + 100) if done else 0
try:
    p = json.load(open(f"{d}/profile.json"))
    recs = len(p.get("launches", []))
    note = "complete" if p.get("complete") else "incomplete (no final write)"
except Exception as e:
    recs, note = -1, f"unreadable: {e}"
ok = recs >= need and recs <= max(made, need + 1)
print(f"{'PASS' if ok else 'FAIL'} counters={mode:9s} {way:5s} rc={rc:3s} records={recs:6d} "
      f"needed>={need:6d} reported_completed={done[-1][0] if done else 0:6d} profile {note}")
PY
    tail -1 "$O/summary.txt"
    grep -q '^FAIL' <(tail -1 "$O/summary.txt") && FAIL=1
  done
done
exit $FAIL
