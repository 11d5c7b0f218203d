#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Writes the report test fixtures into Inputs/ (run once; the outputs are committed).

FIXTURES, NOT MEASUREMENTS: the profiles follow docs/profile-format.md (plus the
"counters" object of the hardware-counter work) and the ncu CSV follows the layout
of `ncu --csv --page raw` (header row, units row, one row per launch), with
plausible H100 numbers made up for the tests and the demo screenshot.
"""
import copy
import json
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts"))
import profile_schema  # noqa: E402  (the keys of common/include/hroof/ProfileKeys.h)

OUT = os.path.join(HERE, "Inputs")
PRECS = ["f64", "f32", "f16", "bf16"]
TENSOR = ["f16", "bf16", "tf32", "fp8", "int8", "f64"]
SPECIAL = ["div", "sqrt", "rcp", "rsqrt", "transcendental"]
SPACES = ["global", "shared", "local", "constant", "generic"]
DIRS = ["load", "store", "atomic"]


def counts(**kv):
    """A full count object; kv keys like flops_f32=..., bytes_global_load=..."""
    c = {"flops": {p: 0 for p in PRECS}, "tensor_flops": {t: 0 for t in TENSOR},
         "special": {p: {o: 0 for o in SPECIAL} for p in PRECS},
         "other": {p: 0 for p in PRECS},
         "bytes": {s: {d: 0 for d in DIRS} for s in SPACES}}
    for k, v in kv.items():
        parts = k.split("_")
        if parts[0] == "tensor":
            c["tensor_flops"][parts[1]] = int(v)
        elif parts[0] == "flops":
            c["flops"][parts[1]] = int(v)
        elif parts[0] == "special":
            c["special"][parts[1]][parts[2]] = int(v)
        elif parts[0] == "other":
            c["other"][parts[1]] = int(v)
        elif parts[0] == "bytes":
            c["bytes"][parts[1]][parts[2]] = int(v)
    return c


def scale(c, n):
    if isinstance(c, dict):
        return {k: scale(v, n) for k, v in c.items()}
    return c * n


def hw(flops=None, tensor=None, gl=0, gs=0, sl=0, ss=0, l1=0, l2=0, dram=0, t=0):
    j = {"flops": {"f64": 0, "f32": 0, "f16": 0}, "tensor_flops": {k: 0 for k in TENSOR},
         "bytes": {"global": {"load": int(gl), "store": int(gs), "atomic": 0},
                   "shared": {"load": int(sl), "store": int(ss)}, "local": {"load": 0, "store": 0}},
         "l1_bytes": int(l1), "l2_bytes": int(l2), "dram_bytes": int(dram), "time_ns": int(t)}
    for k, v in (flops or {}).items():
        j["flops"][k] = int(v)
    for k, v in (tensor or {}).items():
        j["tensor_flops"][k] = int(v)
    return j


def kernel(name, mangled, launches, ns, dyn=None, sta=None, exact=True, ctr=None,
           differs=0, problems=None):
    a = {"kernel": name, "mangled": mangled, "instrumented": dyn is not None,
         "launches": launches, "recorded_launches": launches, "graph_launches": 0, "errors": 0,
         "duration_ns": {"timed_launches": launches, "total": int(ns * launches),
                         "min": int(ns * 0.97), "max": int(ns * 1.05), "mean": float(ns)}}
    if ctr is not None:
        a["counters"] = {"launches": launches, "total": scale(ctr, launches)}
    if dyn is not None:
        a["dynamic"] = {"launches": launches, "total": scale(dyn, launches)}
        st = sta if sta is not None else dyn
        a["static"] = {"launches": launches, "exact": exact, "total": scale(st, launches),
                       "matches_dynamic": launches - differs if st == dyn else 0,
                       "differs_from_dynamic": differs if st != dyn else 0,
                       "problems": problems or []}
    return a


N = 1 << 24  # saxpy elements
G = 2048     # sgemm size
H = 4096     # hgemm size
R, C = 8192, 1024  # softmax rows, cols
E = 1 << 26  # fill elements


def kernels(rank=0, with_counters=True):
    j = 1.0 + 0.01 * rank  # ranks differ a little
    ks = []
    sax = counts(flops_f32=2 * N, bytes_global_load=8 * N, bytes_global_store=4 * N)
    ks.append(kernel("saxpy(int, float, float const*, float*)", "_Z5saxpyifPKfPf", 40, 69400 * j,
                     dyn=sax,
                     ctr=hw({"f32": 2 * N}, gl=8 * N, gs=4 * N, l1=12 * N, l2=12.2 * N, dram=12.05 * N,
                            t=70100 * j) if with_counters else None))
    # Tiled SGEMM (32x32 tiles through shared memory).
    sg = counts(flops_f32=2 * G ** 3, bytes_global_load=2 * G ** 3 // 32 * 4,
                bytes_global_store=G * G * 4, bytes_shared_load=2 * G ** 3 * 4,
                bytes_shared_store=2 * G ** 3 // 32 * 4)
    ks.append(kernel("sgemm_tiled(int, float const*, float const*, float*)",
                     "_Z11sgemm_tilediPKfS0_Pf", 10, 1.21e6 * j, dyn=sg,
                     ctr=hw({"f32": 2 * G ** 3}, gl=2 * G ** 3 // 32 * 4, gs=G * G * 4,
                            sl=2 * G ** 3 * 4, ss=2 * G ** 3 // 32 * 4,
                            l1=2 * G ** 3 // 32 * 4 * 1.02, l2=2 * G ** 3 // 32 * 4 * 0.55,
                            dram=3 * G * G * 4 * 1.6, t=1.23e6 * j) if with_counters else None))
    # Softmax: expf is a special op; the hardware counts its FFMA expansion.
    sm = counts(flops_f32=3 * R * C, special_f32_transcendental=R * C, special_f32_div=R * C,
                bytes_global_load=2 * R * C * 4, bytes_global_store=R * C * 4)
    ks.append(kernel("softmax_rows(float const*, float*, int, int)", "_Z12softmax_rowsPKfPfii",
                     20, 24500 * j, dyn=sm,
                     ctr=hw({"f32": 3 * R * C + 9 * R * C}, gl=2 * R * C * 4, gs=R * C * 4,
                            l1=3 * R * C * 4, l2=2.02 * R * C * 4, dram=2 * R * C * 4,
                            t=24900 * j) if with_counters else None))
    # Tensor-core GEMM (wmma f16 -> f32).
    hg = counts(tensor_f16=2 * H ** 3, bytes_global_load=2 * H ** 3 // 64 * 2,
                bytes_global_store=H * H * 4, bytes_shared_load=2 * H ** 3 // 16 * 2)
    ks.append(kernel("wmma_gemm_f16(int, __half const*, __half const*, float*)",
                     "_Z13wmma_gemm_f16iPK6__halfS2_Pf", 5, 0.41e6 * j, dyn=hg,
                     ctr=hw(tensor={"f16": 2 * H ** 3}, gl=2 * H ** 3 // 64 * 2, gs=H * H * 4,
                            sl=2 * H ** 3 // 16 * 2, l1=2 * H ** 3 // 64 * 2 * 1.05,
                            l2=2 * H ** 3 // 64 * 2 * 0.6, dram=4 * H * H * 2 * 1.3,
                            t=0.42e6 * j) if with_counters else None))
    # CSR SpMV: data-dependent row loop, the static model is not exact.
    nnz, rows = 40_000_000, 1_000_000
    spd = counts(flops_f64=2 * nnz, bytes_global_load=nnz * 12 + rows * 8 * 2,
                 bytes_global_store=rows * 8)
    sps = counts(flops_f64=2 * rows * 32, bytes_global_load=rows * 32 * 12 + rows * 16,
                 bytes_global_store=rows * 8)
    ks.append(kernel("spmv_csr(int, int const*, int const*, double const*, double const*, double*)",
                     "_Z8spmv_csriPKiS0_PKdS2_Pd", 8, 215000 * j, dyn=spd, sta=sps, exact=False,
                     differs=8,
                     ctr=hw({"f64": 2 * nnz}, gl=nnz * 12 + rows * 16, gs=rows * 8,
                            l1=nnz * 12 * 1.9, l2=nnz * 12 * 1.7, dram=nnz * 12 * 1.08,
                            t=219000 * j) if with_counters else None))
    # A zero-FLOP fill kernel.
    fz = counts(bytes_global_store=4 * E)
    ks.append(kernel("fill_zero(float*, int)", "_Z9fill_zeroPfi", 4, 92000 * j, dyn=fz,
                     ctr=hw(gs=4 * E, l1=4 * E, l2=4 * E, dram=4 * E, t=92500 * j)
                     if with_counters else None))
    if with_counters:
        # An uninstrumented library kernel (cuBLAS): counters only.
        M3 = 4096
        ks.append(kernel("sm90_xmma_gemm_f32f32_tf32f32_f32_tn_n_tilesize128x128x32_cublas",
                         "sm90_xmma_gemm_f32f32_tf32f32_f32_tn_n_tilesize128x128x32_cublas", 3,
                         0.36e6 * j, ctr=hw(tensor={"tf32": 2 * M3 ** 3}, gl=3 * M3 * M3 * 4 * 9,
                                            gs=M3 * M3 * 4, l1=3 * M3 * M3 * 4 * 9,
                                            l2=3 * M3 * M3 * 4 * 6, dram=3 * M3 * M3 * 4 * 1.4,
                                            t=0.365e6 * j)))
    return ks


def checked(p):
    """\p p, once every key of it is one the runtime writes (the key table
    common/include/hroof/ProfileKeys.h, as share/hroof/profile-schema.json):
    a fixture with a key of its own would test a format nobody writes."""
    n, problems = profile_schema.check(p, types=False)
    if problems:
        sys.exit("fixture: keys not in the profile key table: " + "; ".join(problems[:5]))
    return p


def profile(pid, rank, ks, device="NVIDIA H100 80GB HBM3"):
    return {"hroof_profile": 1, "command": "./demo_app --size large", "counters": 49,
            "host": "gpu-node-07", "pid": pid, "rank": rank, "run_id": "4242",
            "settings": {"counters": "roofline", "counting": True, "enable": True, "eval_limit": 67108864,
                         "kernel_filter": "", "flush_ms": 200, "launch_limit": 100, "output": ".",
                         "static_eval": True, "verbose": 0},
            "start_time": 1795330000, "launches": [],
            "kernels": ks,
            "devices": [{"ordinal": 0, "name": device, "compute_capability": "9.0", "sms": 132}] if ks else [],
            "graph_launches": 0,
            "launch_records": {"written": 0, "dropped": 0, "limit_per_kernel": 100},
            "notes": ["fixture written by test/report/make_fixtures.py, not a measurement"],
            "complete": True}


def write(name, obj):
    if "hroof_profile" in obj:
        checked(obj)
    with open(os.path.join(OUT, name), "w") as f:
        json.dump(obj, f, indent=1)
        f.write("\n")


def main():
    os.makedirs(OUT, exist_ok=True)
    write("demo-rank0.json", profile(5101, "0", kernels(0)))
    write("demo-rank1.json", profile(5102, "1", kernels(1)))
    write("dynamic-only.json", profile(5200, None, kernels(0, with_counters=False)))
    write("empty.json", profile(5300, None, []))
    text = json.dumps(profile(5101, "0", kernels(0)), indent=1)
    with open(os.path.join(OUT, "truncated.json"), "w") as f:
        f.write(text[: len(text) // 2])
    write("foreign.json", {"name": "some-package", "version": "1.0.0", "dependencies": {}})
    # A machine file of another GPU (fixture numbers of A100 magnitude).
    m = json.load(open(os.path.join(HERE, "..", "..", "docs", "machines", "h100-80gb-hbm3.json")))
    a100 = {"schema": "hroof-machine/1", "tool": "hroof-ert", "date": "2026-01-01T00:00:00Z",
            "command": "fixture", "quick": True,
            "device": {"name": "NVIDIA A100-SXM4-80GB", "sm_count": 108, "clock_mhz": 1410.0,
                       "compute_capability": "8.0"},
            "ceilings": {"flops": {k: {"value": v, "unit": "GFLOP/s", "method": "fixture"} for k, v in
                                   {"f64": 9700, "f32": 19500, "f16": 78000, "bf16": 39000,
                                    "tensor_f16": 300000, "tensor_bf16": 300000, "tensor_tf32": 150000,
                                    "tensor_f64": 19000}.items()},
                         "bandwidth": {k: {"value": v, "unit": "GB/s", "method": "fixture"} for k, v in
                                       {"l1": 19000, "shared": 19000, "l2": 4800, "hbm": 1900}.items()}}}
    write("a100-machine.json", a100)
    assert m["device"]["name"] == "NVIDIA H100 80GB HBM3"
    write_ncu()
    write_ncu_roofline_set()
    write_ncu_other_names()
    write("many-kernels.json", profile(5400, None, many_kernels()))
    write("demo-before.json", profile(5050, "0", kernels_before()))


def kernels_before():
    """demo-rank0.json's kernels before an optimization (the --baseline
    fixture): sgemm_tiled 3x slower and moving 4x the bytes at every level,
    no wmma_gemm_f16 yet, and a transpose that is gone afterwards."""
    ks = [copy.deepcopy(k) for k in kernels(0) if not k["kernel"].startswith("wmma_gemm_f16")]
    for k in ks:
        if k["kernel"].startswith("sgemm_tiled"):
            for key in ("total", "min", "max", "mean"):
                k["duration_ns"][key] *= 3
            c = k["counters"]["total"]
            c["time_ns"] *= 3
            for key in ("l1_bytes", "l2_bytes", "dram_bytes"):
                c[key] *= 4
    n = 1 << 22
    ks.append(kernel("transpose_naive(float const*, float*, int)", "_Z15transpose_naivePKfPfi", 10,
                     51000, ctr=hw(gl=4 * n, gs=4 * n, l1=8 * n, l2=10 * n, dram=6 * n, t=51500)))
    return ks


def write_ncu_other_names():
    """ncu-raw.csv with the names `--print-kernel-base function` and `mangled`
    give: the saxpy rows as the bare "saxpy" and as "_Z5saxpyifPKfPf"."""
    text = open(os.path.join(OUT, "ncu-raw.csv")).read()
    sig = '"saxpy(int, float, const float *, float *)"'
    first = text.index(sig)
    text = text[:first] + '"saxpy"' + text[first + len(sig):]
    text = text.replace(sig, '"_Z5saxpyifPKfPf"')
    with open(os.path.join(OUT, "ncu-other-names.csv"), "w") as f:
        f.write(text)


# Shapes of a deep-learning run's kernels: (name template, precision, FLOPs per
# byte at HBM). Eleven elementwise kernels share a long PyTorch prefix.
ELEMENTWISE = ["FillFunctor<float>", "AddFunctor<float>", "MulFunctor<float>",
               "CUDAFunctor_add<c10::Half>", "GeluCUDAKernelImpl<float>", "sigmoid_kernel<float>",
               "BUnaryFunctor<float, float, float, MulFunctor<float> >", "tanh_kernel<float>",
               "where_kernel<float>", "AbsFunctor<float>", "CompareEqFunctor<float>"]


def many_kernels(count=136):
    """A profile of `count` kernels with counters (an application-sized run:
    GEMMs, convolutions, reductions, eleven elementwise kernels of one
    template, at odd ranks), time shares falling off like a real run's; one
    kernel among the first ten whose L1 moved fewer bytes than HBM (an
    inverted hierarchy)."""
    rnd = random.Random(15)
    ks = []
    for i in range(count):
        if i % 2 == 1 and i // 2 < len(ELEMENTWISE):
            f = ELEMENTWISE[i // 2]
            name = ("void at::native::vectorized_elementwise_kernel<4, at::native::%s, "
                    "at::detail::Array<char*, 2> >(int, at::native::%s, at::detail::Array<char*, 2>)"
                    % (f, f))
            mangled = "_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_%dEE" % i
            prec, ai = "f32", rnd.uniform(0.05, 0.3)
        elif i % 3 == 0:
            name = "ampere_sgemm_%dx%d_tn_%d" % (32 << (i % 3), 64 << (i % 2), i)
            mangled = name
            prec, ai = ("tensor_f16" if i % 2 else "f32"), rnd.uniform(20, 400)
        else:
            name = "void layer_%d::reduce_kernel<%d>(float const*, float*, int)" % (i, 128 << (i % 3))
            mangled = "_ZN8layer_%d13reduce_kernelILi%dEEvPKfPfi" % (i, 128 << (i % 3))
            prec, ai = ("f64" if i % 7 == 0 else "f32"), rnd.uniform(0.5, 8)
        launches = rnd.randint(1, 400)
        # Time per launch falls off with the rank; the FLOP rate is a fraction
        # of the roofline of the kernel's AI (H100 ceilings, GFLOP/s and GB/s).
        ns = 2e6 / (i + 1) ** 1.1 * rnd.uniform(0.8, 1.2) / launches * 50
        peak = {"f32": 66539, "f64": 33500, "tensor_f16": 882110}[prec]
        gflops = rnd.uniform(0.15, 0.9) * min(peak, ai * 3050)
        flops = int(gflops * ns)
        dram = int(flops / ai)
        l2 = int(dram * rnd.uniform(1.1, 3))
        l1 = int(l2 * rnd.uniform(1.1, 4))
        if i == 6:
            l1 = dram // 4  # inverted: bulk copies that bypass L1
        fl = {"tensor": {prec[7:]: flops}} if prec.startswith("tensor") else {"flops": {prec: flops}}
        ctr = hw(gl=dram, l1=l1, l2=l2, dram=dram, t=ns, **fl)
        ks.append(kernel(name, mangled, launches, ns, ctr=ctr))
    return ks


def write_ncu_roofline_set():
    """`ncu --set roofline --csv --page raw --print-units base` layout: rates per
    second and instruction counts per elapsed cycle instead of totals."""
    ident = ["ID", "Process ID", "Process Name", "Host Name", "Kernel Name", "Context", "Stream",
             "Block Size", "Grid Size", "Device", "CC"]
    n = 1 << 24
    t = 70.0e-6                       # seconds
    hz = 1.755e9                      # smsp cycles per second
    cols = [("device__attribute_display_name", "", "NVIDIA H100 80GB HBM3"),
            ("dram__bytes.sum.per_second", "byte/second", 12.0 * n / t),
            ("gpu__time_duration.sum", "nsecond", 70000),
            ("l1tex__t_bytes.sum.per_second", "byte/second", 12.0 * n / t),
            ("lts__t_bytes.sum.per_second", "byte/second", 12.2 * n / t),
            ("smsp__cycles_elapsed.avg.per_second", "cycle/second", hz)]
    for op in ["dadd", "dfma", "dmul", "fadd", "ffma", "fmul", "hadd", "hfma", "hmul"]:
        v = n / (t * hz) if op == "ffma" else 0.0
        cols.append((f"smsp__sass_thread_inst_executed_op_{op}_pred_on.sum.per_cycle_elapsed",
                     "inst/cycle", v))

    def q(s):
        return '"' + s + '"'

    def fmt(v):
        return v if isinstance(v, str) else (f"{v:,}" if isinstance(v, int) else f"{v:,.4f}")

    lines = ["==PROF== Connected to process 70001 (/home/user/saxpy_app)",
             "==PROF== Disconnected from process 70001",
             ",".join(q(h) for h in ident + [c for c, _, _ in cols]),
             ",".join(q("") for _ in ident) + "," + ",".join(q(u) for _, u, _ in cols),
             ",".join(q(x) for x in ["0", "70001", "saxpy_app", "127.0.0.1", "saxpy", "1", "7",
                                     "(256, 1, 1)", "(65536, 1, 1)", "0", "9.0"]
                      + [fmt(v) for _, _, v in cols])]
    with open(os.path.join(OUT, "ncu-roofline-set.csv"), "w") as f:
        f.write("\n".join(lines) + "\n")


def write_ncu():
    """`ncu --csv --page raw --metrics <roofline set>` layout, default (scaled) units."""
    ident = ["ID", "Process ID", "Process Name", "Host Name", "Kernel Name", "Context", "Stream",
             "Block Size", "Grid Size", "Device", "CC"]
    metrics = [
        ("device__attribute_display_name", ""),
        ("dram__bytes_read.sum", "Mbyte"), ("dram__bytes_write.sum", "Mbyte"),
        ("gpu__time_duration.sum", "usecond"),
        ("l1tex__t_bytes.sum", "Mbyte"), ("lts__t_bytes.sum", "Mbyte"),
        ("sm__cycles_elapsed.avg.per_second", "Ghz"),
        ("sm__ops_path_tensor_src_fp16.sum", ""), ("sm__ops_path_tensor_src_tf32_dst_fp32.sum", ""),
        ("sm__sass_data_bytes_mem_global_op_ld.sum", "Mbyte"),
        ("sm__sass_data_bytes_mem_global_op_st.sum", "Mbyte"),
    ] + [(f"sm__sass_thread_inst_executed_op_{op}_pred_on.sum", "inst")
         for op in ["dadd", "dfma", "dmul", "fadd", "ffma", "fmul", "hadd", "hfma", "hmul"]]

    def q(s):
        return '"' + s.replace('"', '""') + '"'

    def fmt(v):  # ncu's thousands separators
        return f"{v:,}" if isinstance(v, int) else f"{v:,.2f}"

    n = 1 << 24
    rows = []
    for i in range(2):
        t = 70.12 + 0.4 * i
        vals = {"device__attribute_display_name": "NVIDIA H100 80GB HBM3",
                "dram__bytes_read.sum": 134.28, "dram__bytes_write.sum": 67.11,
                "gpu__time_duration.sum": t, "l1tex__t_bytes.sum": 201.33,
                "lts__t_bytes.sum": 204.52, "sm__cycles_elapsed.avg.per_second": 1.76,
                "sm__ops_path_tensor_src_fp16.sum": 0, "sm__ops_path_tensor_src_tf32_dst_fp32.sum": 0,
                "sm__sass_data_bytes_mem_global_op_ld.sum": 134.22,
                "sm__sass_data_bytes_mem_global_op_st.sum": 67.11}
        ops = {"ffma": n, "fadd": 0, "fmul": 0, "dadd": 0, "dfma": 0, "dmul": 0, "hadd": 0, "hfma": 0, "hmul": 0}
        rows.append(([str(i), "61234", "saxpy_app", "127.0.0.1", "saxpy(int, float, const float *, float *)",
                      "1", "7", "(256, 1, 1)", "(65536, 1, 1)", "0", "9.0"], vals, ops))
    m3 = 4096
    vals = {"device__attribute_display_name": "NVIDIA H100 80GB HBM3",
            "dram__bytes_read.sum": 271.87, "dram__bytes_write.sum": 67.11,
            "gpu__time_duration.sum": 362.5, "l1tex__t_bytes.sum": 1812.0, "lts__t_bytes.sum": 1208.1,
            "sm__cycles_elapsed.avg.per_second": 1.74,
            "sm__ops_path_tensor_src_fp16.sum": 0, "sm__ops_path_tensor_src_tf32_dst_fp32.sum": 2 * m3 ** 3,
            "sm__sass_data_bytes_mem_global_op_ld.sum": 1812.0,
            "sm__sass_data_bytes_mem_global_op_st.sum": 67.11}
    ops = {"ffma": 0, "fadd": 16_777_216, "fmul": 16_777_216, "dadd": 0, "dfma": 0, "dmul": 0,
           "hadd": 0, "hfma": 0, "hmul": 0}
    rows.append((["2", "61234", "saxpy_app", "127.0.0.1",
                  "sm90_xmma_gemm_f32f32_tf32f32_f32_tn_n_tilesize128x128x32_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas",
                  "1", "7", "(128, 1, 1)", "(32, 32, 1)", "0", "9.0"], vals, ops))
    lines = ["==PROF== Connected to process 61234 (/home/user/saxpy_app)",
             "==PROF== Profiling \"saxpy\" - 0: 0%....50%....100% - 9 passes",
             "==PROF== Profiling \"saxpy\" - 1: 0%....50%....100% - 9 passes",
             "==PROF== Profiling \"sm90_xmma_gemm_f32f32_tf32f32...\" - 2: 0%....50%....100% - 9 passes",
             "==PROF== Disconnected from process 61234"]
    lines.append(",".join(q(h) for h in ident + [m for m, _ in metrics]))
    lines.append(",".join(q("") for _ in ident) + "," + ",".join(q(u) for _, u in metrics))
    for idv, vals, ops in rows:
        cells = list(idv)
        for m, _ in metrics:
            if m.startswith("sm__sass_thread_inst"):
                op = m.split("_op_")[1].split("_pred")[0]
                cells.append(fmt(ops[op]))
            elif m == "device__attribute_display_name":
                cells.append(vals[m])
            else:
                cells.append(fmt(vals[m]))
        lines.append(",".join(q(c) for c in cells))
    with open(os.path.join(OUT, "ncu-raw.csv"), "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
