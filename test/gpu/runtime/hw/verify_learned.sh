#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# verify_learned.sh - learned tensor types vs --counters roofline-full on
# many_launches 40 and torch_train.py 3 (machine with the GPU, repository root; needs
# .gpu-inputs/exp/many.plain and .gpu-inputs/exp/torch_train.py, build/bin, build/lib).
HR=build/bin/hroof; E=.gpu-inputs/exp; W=/tmp/v; rm -rf $W; mkdir -p $W/{ml,mf,tl,tf}
date -u
$HR run --no-summary --verbose 1 --output $W/ml -- $E/many.plain 40 2>&1 | grep ranges | cut -c1-260
$HR run --no-summary --counters roofline-full --output $W/mf -- $E/many.plain 40 > /dev/null 2>&1
python3 test/gpu/runtime/hw/compare_learned.py $W/ml $W/mf | tail -3
$HR run --no-summary --verbose 1 --output $W/tl -- python3 $E/torch_train.py 3 2>&1 | grep ranges | cut -c1-260
$HR run --no-summary --counters roofline-full --output $W/tf -- python3 $E/torch_train.py 3 > /dev/null 2>&1
python3 test/gpu/runtime/hw/compare_learned.py $W/tl $W/tf | tail -4
