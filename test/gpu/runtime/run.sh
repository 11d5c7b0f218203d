#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# test/gpu/runtime/run.sh [BUILD_DIR] - the runtime's GPU smoke test.
# Builds nothing: runs BUILD_DIR/bin/hroof-rt-fake (test/gpu/runtime/
# fake_instrumented.cu, instrumentation symbols written by hand) under
# BUILD_DIR/lib/libhroof_rt.so and checks the profiles (check.py).
# Exit 77 (ctest: skipped) without an NVIDIA GPU or without the binaries.
# Logs go to $HROOF_RT_LOGS (default: a temporary directory).
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
B=${1:-$HERE/../../../build}
HROOF=$B/bin/hroof
LIB=$B/lib/libhroof_rt.so
FAKE=${HROOF_RT_FAKE:-$B/bin/hroof-rt-fake}
if ! nvidia-smi -L >/dev/null 2>&1; then
  echo "runtime-gpu-smoke: no NVIDIA GPU here: skipped"; exit 77
fi
for f in "$HROOF" "$LIB" "$FAKE"; do
  [ -x "$f" ] || [ -f "$f" ] || { echo "runtime-gpu-smoke: $f missing: skipped"; exit 77; }
done
command -v python3 >/dev/null || { echo "runtime-gpu-smoke: python3 missing: skipped"; exit 77; }
W=${HROOF_RT_LOGS:-$(mktemp -d)}
mkdir -p "$W"
SHIM=$B/lib/libhroof-cupti-fail-shim.so
# The learned tensor types go to this run's own cache, not the user's.
export HROOF_TYPE_CACHE=$W/tensor-types.tsv
rm -f "$HROOF_TYPE_CACHE"
FAILS=0
step() { echo; echo "=== $*"; }
expect_rc() { # NAME WANT GOT
  if [ "$2" = "$3" ]; then echo "PASS $1: exit status $3"; else echo "FAIL $1: exit status $3, expected $2"; FAILS=$((FAILS+1)); fi
}
run_check() { python3 "$HERE/check.py" "$@" || FAILS=$((FAILS+1)); }

step "main: launches of every kind, 4 threads, graph, uninstrumented kernel"
mkdir -p "$W/main"
"$HROOF" run --runtime-lib "$LIB" --output "$W/main" -- "$FAKE" main >"$W/main.out" 2>"$W/main.err"
expect_rc main 0 $?
cat "$W/main.out" "$W/main.err"
run_check main "$W/main"

step "launch limit 2"
mkdir -p "$W/limit"
"$HROOF" run --runtime-lib "$LIB" --output "$W/limit" --launch-limit 2 --no-summary -- "$FAKE" main >"$W/limit.out" 2>&1
expect_rc limit 0 $?
run_check limit "$W/limit"

step "fault: a kernel traps"
mkdir -p "$W/fault"
"$HROOF" run --runtime-lib "$LIB" --output "$W/fault" -- "$FAKE" fault >"$W/fault.out" 2>"$W/fault.err"
expect_rc fault 3 $?
cat "$W/fault.out" "$W/fault.err"
run_check fault "$W/fault"

step "graphfirst: the module's first launch is captured into a graph"
mkdir -p "$W/graphfirst"
"$HROOF" run --runtime-lib "$LIB" --output "$W/graphfirst" -- "$FAKE" graphfirst >"$W/graphfirst.out" 2>"$W/graphfirst.err"
expect_rc graphfirst 0 $?
cat "$W/graphfirst.out" "$W/graphfirst.err"

step "nosync: exit without synchronizing"
mkdir -p "$W/nosync"
"$HROOF" run --runtime-lib "$LIB" --output "$W/nosync" -- "$FAKE" nosync >"$W/nosync.out" 2>"$W/nosync.err"
expect_rc nosync 0 $?
cat "$W/nosync.out" "$W/nosync.err"
run_check nosync "$W/nosync"

step "unwritable output: one message, application unchanged"
CUDA_INJECTION64_PATH=$LIB HROOF_OUTPUT=/proc/hroof-nonexistent/x.json "$FAKE" main >"$W/unwritable.out" 2>"$W/unwritable.err"
expect_rc unwritable 0 $?
cat "$W/unwritable.err"
N=$(grep -c '^hroof:' "$W/unwritable.err")
if [ "$N" = 1 ] && grep -q 'main done' "$W/unwritable.out"; then echo "PASS unwritable: one hroof: line, program finished"; else echo "FAIL unwritable: $N hroof: lines"; FAILS=$((FAILS+1)); fi

step "direct injection (no hroof run), file template"
mkdir -p "$W/direct"
CUDA_INJECTION64_PATH=$LIB HROOF_OUTPUT="$W/direct/p-%p.json" HROOF_KERNEL_FILTER='^plain' "$FAKE" main >"$W/direct.out" 2>&1
expect_rc direct 0 $?
python3 - "$W/direct" <<'PY' || FAILS=$((FAILS+1))
import glob, json, sys
f = glob.glob(sys.argv[1] + "/p-*.json")
ok = len(f) == 1
if ok:
    p = json.load(open(f[0]))
    names = sorted(k["kernel"] for k in p["kernels"])
    ok = names == ["plain_scale"]
print(("PASS" if ok else "FAIL") + " direct injection with HROOF_KERNEL_FILTER=^plain: kernels %s" % (names if f else None))
sys.exit(0 if ok else 1)
PY

for at in availability enable; do
  step "counters not permitted (simulated: $at answers CUPTI_ERROR_INSUFFICIENT_PRIVILEGES)"
  if [ ! -f "$SHIM" ]; then echo "FAIL noperm-$at: $SHIM missing"; FAILS=$((FAILS+1)); continue; fi
  mkdir -p "$W/noperm-$at"
  LD_PRELOAD=$SHIM HROOF_SHIM_FAIL=$at "$HROOF" run --runtime-lib "$LIB" --output "$W/noperm-$at" --no-summary -- "$FAKE" main >"$W/noperm-$at.out" 2>"$W/noperm-$at.err"
  expect_rc noperm-$at 0 $?
  cat "$W/noperm-$at.err"
  N=$(grep -c '^hroof: .*not permitted' "$W/noperm-$at.err")
  if [ "$N" = 1 ] && grep -q 'main done' "$W/noperm-$at.out"; then echo "PASS noperm-$at: one 'not permitted' line, program finished"; else echo "FAIL noperm-$at: $N 'not permitted' lines"; FAILS=$((FAILS+1)); fi
  run_check noperm "$W/noperm-$at"
done

step "tensor-type cache: a second run takes the learned types from the first"
for i in 1 2; do
  mkdir -p "$W/cache$i"
  "$HROOF" run --runtime-lib "$LIB" --output "$W/cache$i" --no-summary --verbose 1 --type-cache "$W/cache.tsv" -- "$FAKE" main >"$W/cache$i.out" 2>"$W/cache$i.err"
  expect_rc cache$i 0 $?
  grep '^hroof: .*\(tensor-type cache\|ranges by replay\)' "$W/cache$i.err"
done
run_check cache "$W/cache1" "$W/cache2"

step "disabled: HROOF_ENABLE=0 writes nothing"
mkdir -p "$W/off"
"$HROOF" run --runtime-lib "$LIB" --output "$W/off" --enable 0 -- "$FAKE" main >"$W/off.out" 2>&1
expect_rc off 0 $?
if [ -z "$(ls "$W/off")" ]; then echo "PASS off: no profile"; else echo "FAIL off: profile written"; FAILS=$((FAILS+1)); fi

step "timing: plain vs under the runtime (wall seconds, informational)"
for mode in plain hroof; do
  S=$(date +%s.%N)
  if [ $mode = plain ]; then "$FAKE" main >/dev/null 2>&1; else CUDA_INJECTION64_PATH=$LIB HROOF_OUTPUT=$W/off "$FAKE" main >/dev/null 2>&1; fi
  E=$(date +%s.%N)
  echo "INFO $mode: $(echo "$E - $S" | bc 2>/dev/null || python3 -c "print($E-$S)") s"
done
rm -f "$W"/off/*.json

# Extra programs (e.g. examples built with the real hroof plugin): run and
# show their summaries; informational, never a FAIL here.
for X in ${HROOF_RT_EXTRA:-}; do
  step "extra: $X"
  mkdir -p "$W/extra"
  "$HROOF" run --runtime-lib "$LIB" --output "$W/extra" -- "$X" 2>&1 | tail -n 30
  echo "INFO extra $X: exit status ${PIPESTATUS[0]}"
done

echo
if [ $FAILS = 0 ]; then echo "runtime-gpu-smoke: all checks passed"; exit 0; fi
echo "runtime-gpu-smoke: $FAILS failure(s)"; exit 1
