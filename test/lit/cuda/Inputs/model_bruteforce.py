"""Shared by the brute-force lit tests (shift_bruteforce.py,
iteration_sum_bruteforce.py): evaluates a static model with `hroof static`
for seeded random launches (2 blocks, a = arg0, b = arg1) and compares each
kernel's f32 FLOPs with what the caller's loops give; every kernel must be
exact and equal. Prints one line per mismatch and 'OK N' at the end."""
import json
import random
import subprocess


def check(hroof, model, cases, seed, want, picks):
    """want(name, a, b, block) -> expected f32 FLOPs of kernel `name`;
    picks(rng) -> a random argument value, 0 to 2^32 - 1, given to hroof as
    its bits in hexadecimal (whether the model reads it signed or unsigned).
    Returns the exit status."""
    rng = random.Random(seed)
    checked, bad = 0, 0
    for _ in range(cases):
        a, b, block = picks(rng), picks(rng), rng.choice([1, 7, 32, 96, 256])
        out = subprocess.run([hroof, "static", model, "--grid", "2", "--block", str(block),
                              "--arg", f"arg0={a:#x}", "--arg", f"arg1={b:#x}", "--json"],
                             capture_output=True, text=True, check=True).stdout
        for k in json.loads(out)["kernels"]:
            name = k["name"].split("(")[0]
            expected = want(name, a, b, block)
            got = k["total"]["flops"].get("f32", 0)
            checked += 1
            if not k["exact"] or got != expected:
                bad += 1
                print(f"MISMATCH {name} a={a} b={b} block={block}: "
                      f"model {got} (exact={k['exact']}, {k.get('unknown')}), loops {expected}")
    print(f"OK {checked}" if not bad else f"FAILED {bad} of {checked}")
    return 1 if bad else 0
