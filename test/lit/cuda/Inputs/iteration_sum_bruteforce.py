#!/usr/bin/env python3
"""Checks the static model of Inputs/iteration-sums.cu against the loops run
here, for seeded random a, b and block sizes (2 blocks): every kernel must be
exact and its f32 FLOPs (one add per innermost execution) equal the loops'.
Usage: iteration_sum_bruteforce.py HROOF MODEL.json CASES
Prints one line per mismatch and 'OK N' at the end (N cases x kernels)."""
import sys

from model_bruteforce import check

M32 = 0xFFFFFFFF


def runs(kernel, a, b, tid, ctaid, ntid, nctaid):
    n = 0
    if kernel == "triangular":
        n = sum(i for i in range(a % 40))
    elif kernel == "nested_stride":
        lim = a % 300
        for i in range(tid, 64, ntid):
            n += len(range(i, lim, 64))
    elif kernel == "remainder_branch":
        m = b % 5 + 1
        n = sum(1 for k in range(a % 100) if k % m == 0)
    elif kernel == "parity_branch":
        n = sum(1 for k in range(a % 50) if (k + tid) & 1)
    elif kernel == "halving_remainder":
        s = 1 << (a % 8)
        while s > 0:
            n += tid % (2 * s) == 0
            s >>= 1
    elif kernel == "unsigned_grid_stride":
        lim = a % 5000
        i = (ctaid * ntid * 2 + tid) & M32
        grid = (ntid * 2 * nctaid) & M32
        while i < lim:
            n += 1 + (((i + ntid) & M32) < lim)
            i = (i + grid) & M32
    elif kernel == "triangular_unrolled":
        n = sum(i for i in range(a % 40))
    elif kernel == "slice_unrolled":
        lim, g, N = a % 5000, ctaid * ntid + tid, ntid * nctaid
        n = max(0, lim * (g + 1) // N - lim * g // N)
    elif kernel == "tile_edge_unrolled":
        lim, tiles = a % 1000, b % 40
        n = sum(1 for t in range(tiles) if t * 32 + tid < lim)
    elif kernel == "two_variables":
        lim = a % 300
        n = sum(1 for i in range(lim) if i < lim - 1 - i)
    elif kernel == "downward_triangular":
        for i in range(a % 50, 0, -1):
            n += len(range(i, 50, 3))
    elif kernel == "int_vs_size_t":
        n = len(range(ctaid * ntid + tid, a, ntid * nctaid))
    elif kernel == "int_vs_size_t_widened":
        n = len(range(tid + ntid + ctaid, a, ntid * nctaid))
    elif kernel == "int_vs_size_t_negative_do":
        i = (b - (1 << 32) if b >= 1 << 31 else b) >> 1
        st = ntid * nctaid
        n = 1 + (len(range(i + st, a >> 2, st)) if i + st >= 0 else 0)
    elif kernel == "int_vs_size_t_negative_for":
        i = (b - (1 << 32) if b >= 1 << 31 else b) >> 1
        n = len(range(i, a >> 2, ntid * nctaid)) if i >= 0 else 0
    return n


def main():
    hroof, model, cases = sys.argv[1], sys.argv[2], int(sys.argv[3])
    picks = lambda rng: rng.choice([rng.randrange(0, 64), rng.randrange(0, 1 << 20),
                                    rng.randrange(0, 1 << 32), (1 << rng.randrange(1, 32)) - 1])
    want = lambda name, a, b, block: sum(runs(name, a, b, t, c, block, 2)
                                         for c in range(2) for t in range(block))
    return check(hroof, model, cases, 20261126, want, picks)


if __name__ == "__main__":
    sys.exit(main())
