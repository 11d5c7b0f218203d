#!/bin/bash
# usage: run.sh HROOF OUTDIR ; times each big-grid command
H=$1; O=$2; mkdir -p $O
L=test/lit/cuda
G="--grid 2147483647,65535,65535 --block 1024"
i=0
while IFS= read -r line; do
  i=$((i+1))
  echo "\$ hroof static $line" > $O/$i.txt
  s=$(date +%s.%N)
  eval timeout 300 $H static $line >> $O/$i.txt 2>&1; rc=$?
  e=$(date +%s.%N)
  echo "rc=$rc wall_s=$(echo "$e - $s" | bc)" >> $O/$i.txt
  echo "$i rc=$rc wall=$(echo "$e - $s" | bc) : $line"
done <<LIST
$L/guarded-elementwise-1d.cu $G --arg n=1000 --arg lo=3
$L/grid-stride-loop.cu $G --arg n=10007
$L/warp-global-sectors.cu --kernel copy_f32 $G --arg n=1000000
$L/warp-2d-blocks.cu $G --arg w=64
LIST
