# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# gpu-run-common.sh - sourced by run.sh and run-addendum.sh (the case study's
# GPU scripts, run from the repository root ROOT): the run directory,
# the start checks, logging, and the packing of the run directory, which the
# device returns as one archive.

# case_start SCRIPT NAME: C (the copied .gpu-inputs/case), OUT (default
# ROOT/case-out), W=$OUT/NAME made fresh with kernels/ torch/ static/ logs/,
# and the start time for el/log.
case_start() {
  CASE_SCRIPT=$1
  C=$ROOT/.gpu-inputs/case
  OUT=${OUT:-$ROOT/case-out}
  mkdir -p "$OUT"; OUT=$(cd "$OUT" && pwd)
  W=$OUT/$2
  rm -rf "$W"; mkdir -p "$W/kernels" "$W/torch" "$W/static" "$W/logs"
  T0=$(date +%s)
}
el() { echo $(( $(date +%s) - T0 )); }
log() { echo "[$CASE_SCRIPT +$(el)s] $*" | tee -a "$W/run.log"; }

# case_pack NAME EXTRA: $OUT/NAME.tgz from $W; a file comes back from
# the device only up to 16 MiB, so above 15 MB the HTML pages (each embeds
# vega; report.sh remakes them here from the profiles) are left out; then the
# working directory goes. EXTRA names further results for the last line.
case_pack() {
  local script=$CASE_SCRIPT name=$1 extra=$2
  tar czf "$OUT/$name.tgz" -C "$OUT" "$name"
  if [ "$(stat -c %s "$OUT/$name.tgz")" -gt 15000000 ]; then
    echo "$script: $name.tgz over 15 MB: HTML pages left out (rerun report.sh here)" | tee -a "$W/run.log"
    rm -f "$W"/report/*.html
    tar czf "$OUT/$name.tgz" -C "$OUT" "$name"
  fi
  rm -rf "$W"
  echo "$script: $(el) s in all; results: $OUT/$name.tgz ($(du -h "$OUT/$name.tgz" | cut -f1)), $extra"
}

# case_preflight: exits 1 without the copied binaries, 0 (SKIP)
# without a GPU.
case_preflight() {
  local script=$CASE_SCRIPT
  if [ ! -x "$C/build/bin/hroof" ]; then
    echo "$script: $C missing: run 'bash case-studies/build.sh' here and copy .gpu-inputs/case to this machine" | tee "$W/run.log"
    exit 1
  fi
  if ! nvidia-smi >/dev/null 2>&1; then
    echo "SKIP: no GPU (nvidia-smi failed)" | tee "$W/run.log"
    exit 0
  fi
}
