#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""nofp_launch_share.py PROFILE.json... - per PyTorch profile, the share of
kernel launches (all launches of the process, from the kernel aggregates)
that belong to kernels with zero FLOPs, CUDA-core and tensor, in the sum of
their profiled launches' hardware counters: the measure comparable to the
V100 DeepCAM printout "N out of M" (docs/case-studies/README.md, papers vs
H100). Time shares are in summarize.py's table."""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "scripts"))
import profile_schema  # noqa: E402  (the keys of common/include/hroof/ProfileKeys.h)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    K = profile_schema.keys()
    for f in sys.argv[1:]:
        p = json.load(open(f))
        total = nofp = 0
        for k in p[K.kernels]:
            n = k.get(K.launches, 0)
            total += n
            c = k.get(K.counters) or {}
            if not c.get(K.launches):
                continue
            t = c[K.total]
            flops = sum((t.get(K.flops) or {}).values()) + sum((t.get(K.tensor_flops) or {}).values())
            if flops == 0:
                nofp += n
        print("%-22s launches %5d  no-FP launches %5d (%.1f%%)" % (
            os.path.basename(f), total, nofp, 100.0 * nofp / total if total else 0))


if __name__ == "__main__":
    main()
