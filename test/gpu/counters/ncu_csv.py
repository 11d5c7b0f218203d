#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The rows of an `ncu --csv --print-units base` report as
{kernel: {metric: value}}, kernels in launch order (a kernel launched twice
keeps its last values), kernel names cut at "(": shared by the counter
probe scripts (pipe-types.sh, printf-bytes.sh, tex-bytes.sh).
As a script: ncu_csv.py CSV prints one line per metric with every kernel's
value (the probes' default view)."""
import collections
import csv
import sys


def by_kernel(path):
    rows = [r for r in csv.reader(open(path)) if len(r) > 10]
    if not rows:
        return collections.OrderedDict()
    head, rows = rows[0], rows[1:]
    K, N, V = head.index("Kernel Name"), head.index("Metric Name"), head.index("Metric Value")
    out = collections.OrderedDict()
    for r in rows:
        out.setdefault(r[K].split("(")[0], {})[r[N]] = float(r[V].replace(",", ""))
    return out


def main():
    by = by_kernel(sys.argv[1])
    metrics = list(dict.fromkeys(m for v in by.values() for m in v))
    for m in metrics:
        print(f"{m:56s} " + "  ".join(f"{k}={v[m]:.0f}" for k, v in by.items() if m in v))


if __name__ == "__main__":
    main()
