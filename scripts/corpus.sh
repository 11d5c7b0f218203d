#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Compiles every .cu under a directory with and without the hroof plugin and
# prints a robustness table (scripts/corpus.py --help). Fetches nothing.
#   scripts/corpus.sh ~/src/HeCBench/src --runs 10 --asan --out corpus.md
exec python3 "$(dirname "$0")/corpus.py" "$@"
