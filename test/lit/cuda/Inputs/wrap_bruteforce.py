#!/usr/bin/env python3
"""Checks the static model of Inputs/wrap-loops.cu against the loops run
here in 32-bit arithmetic, for seeded random a and b (arg0, arg1) from 2^27
to 2^32: bounds either side of 2^31, positive and negative int starts,
steps that read positive and negative as int. Every kernel must be exact and its f32 FLOPs
(one add per iteration, per thread) equal to the loop's.
Usage: wrap_bruteforce.py HROOF MODEL.json CASES
Prints one line per mismatch and 'OK N' at the end (N cases x kernels)."""
import sys

from model_bruteforce import check

STARTS = {"wrap_lt": lambda a: a >> 3, "wrap_le": lambda a: a >> 3, "wrap_any_start": lambda a: a}


def s32(v):
    v &= 0xFFFFFFFF
    return v - (1 << 32) if v >= 1 << 31 else v


def iters(kernel, a, b):
    n, inclusive = 2 * a + 12345, kernel == "wrap_le"
    i, count = s32(STARTS[kernel](a)), 0
    # The test reads i sign-extended to 64 bits, compared unsigned.
    passes = lambda v: (v % (1 << 64) <= n) if inclusive else (v % (1 << 64) < n)
    while passes(i):
        count += 1
        i = s32(i + b)
        if count > 1 << 12:
            raise SystemExit(f"{kernel} a={a} b={b}: runaway loop")
    return count


def main():
    hroof, model, cases = sys.argv[1], sys.argv[2], int(sys.argv[3])
    picks = lambda rng: rng.choice([rng.randrange(1 << 27, 1 << 31),
                                    rng.randrange(1 << 31, 1 << 32)])
    want = lambda name, a, b, block: 2 * block * iters(name, a, b)
    return check(hroof, model, cases, 20261127, want, picks)


if __name__ == "__main__":
    sys.exit(main())
