# gpu-run-common.sh - sourced by run.sh and run-addendum.sh (the case study's
# GPU-machine scripts): the start checks and the packing of the run
# directory, which the device returns as one archive. Needs OUT, W (=$OUT/NAME),
# C (the carried .carry/case) and el (seconds since start) from the caller.

# case_pack SCRIPT NAME EXTRA: $OUT/NAME.tgz from $W; a file comes back from
# the device only up to 16 MiB, so above 15 MB the HTML pages (each embeds
# vega; report.sh remakes them here from the profiles) are left out; then the
# working directory goes. EXTRA names further results for the last line.
case_pack() {
  local script=$1 name=$2 extra=$3
  tar czf "$OUT/$name.tgz" -C "$OUT" "$name"
  if [ "$(stat -c %s "$OUT/$name.tgz")" -gt 15000000 ]; then
    echo "$script: $name.tgz over 15 MB: HTML pages left out (rerun report.sh here)" | tee -a "$W/run.log"
    rm -f "$W"/report/*.html
    tar czf "$OUT/$name.tgz" -C "$OUT" "$name"
  fi
  rm -rf "$W"
  echo "$script: $(el) s in all; results: $OUT/$name.tgz ($(du -h "$OUT/$name.tgz" | cut -f1)), $extra"
}

# case_preflight SCRIPT: exits 1 without the carried binaries, 0 (SKIP)
# without a GPU.
case_preflight() {
  local script=$1
  if [ ! -x "$C/build/bin/hroof" ]; then
    echo "$script: $C missing: run 'bash case-studies/build.sh' here and carry .carry/case" | tee "$W/run.log"
    exit 1
  fi
  if ! nvidia-smi >/dev/null 2>&1; then
    echo "SKIP: no GPU (nvidia-smi failed)" | tee "$W/run.log"
    exit 0
  fi
}
