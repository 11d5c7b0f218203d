# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# common.sh - sourced by learned-types.sh, type-cache-cost.sh and cost_decomposition.sh (repository root, machine with the GPU):
# the copied paths, a fresh work directory, the summary log, the timer, and
# at exit one tarball $OUT/NAME-MODE.tgz with the summary printed last.
#   hw_start NAME MODE   W=/tmp/NAME (emptied), S=$W/summary.txt, device line
#   say TEXT...          to stdout and the summary
#   t LABEL CMD...       wall seconds and exit status of CMD (output in $W/LABEL.log)
HR=$PWD/build/bin/hroof; H=$PWD/.gpu-inputs/hw/bin; HW=$PWD/test/gpu/runtime/hw
OUT=${OUT:-$PWD/out}
say() { echo "$*" | tee -a "$S"; }
t() { local n=$1; shift; local s=$(date +%s.%N); "$@" > "$W/$n.log" 2>&1; local rc=$?
      say "$(printf '%-22s %8.2f s rc=%d' "$n" "$(awk "BEGIN{print $(date +%s.%N) - $s}")" $rc)  $(echo "$*" | sed "s|$PWD/||g; s|$W/||g" | cut -c1-150)"
      return $rc; }
hw_finish() { tar czf "$OUT/$HW_NAME-$MODE.tgz" -C "$W" . ; echo "==== SUMMARY ($MODE)"; cat "$S"; }
hw_start() {
  HW_NAME=$1; MODE=$2; W=/tmp/$1; rm -rf "$W"; mkdir -p "$W/p" "$OUT"
  S=$W/summary.txt; : > "$S"
  trap hw_finish EXIT
  say "date: $(date -u)  mode: $MODE"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader | tee -a "$S"
}
