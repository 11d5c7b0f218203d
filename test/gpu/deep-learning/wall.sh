# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Sourced by gemm-check.sh and cost-check.sh: timed_run LIMIT_S DIR NAME CMD...
# runs CMD under `timeout LIMIT_S` with its output in DIR/NAME.log and appends
# "NAME<TAB>exit status<TAB>wall seconds" to DIR/times.txt (and stdout).
timed_run() {
  local limit=$1 dir=$2 name=$3; shift 3
  local t0 t1 rc
  t0=$(date +%s%N)
  timeout "$limit" "$@" >"$dir/$name.log" 2>&1
  rc=$?
  t1=$(date +%s%N)
  printf '%s\t%s\t%d.%03d\n' "$name" "$rc" $(((t1 - t0) / 1000000000)) \
    $((((t1 - t0) / 1000000) % 1000)) | tee -a "$dir/times.txt"
}
