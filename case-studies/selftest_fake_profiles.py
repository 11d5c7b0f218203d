# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""FAKE profiles for testing the report pipeline only: every number is made up
(derived from the static totals with invented times and cache ratios). Used by
case-studies/selftest.sh; never a result. Usage: selftest_fake_profiles.py DIR"""
import json, os, subprocess, sys, random
root=os.path.dirname(os.path.dirname(os.path.abspath(__file__))); D=sys.argv[1]
os.makedirs(D+"/kernels",exist_ok=True); os.makedirs(D+"/torch",exist_ok=True); os.makedirs(D+"/static",exist_ok=True)
def nest(flat):
    out={}
    for k,v in flat.items():
        cur=out; parts=k.split(".")
        for p in parts[:-1]: cur=cur.setdefault(p,{})
        cur[parts[-1]]=v
    return out
sys.path.insert(0, root+"/scripts"); import profile_schema  # the keys of hroof/ProfileKeys.h
_pid = [100]
def prof(kernels):
    _pid[0] += 1
    return checked({"hroof_profile":1,"command":"FAKE (case-studies/selftest_fake_profiles.py)","counters":49,"host":"FAKE","pid":_pid[0],"rank":None,"run_id":"","settings":{},"start_time":0,
            "launches":[],"kernels":kernels,"devices":[{"ordinal":0,"name":"NVIDIA H100 80GB HBM3","compute_capability":"9.0","sms":132}],
            "graph_launches":0,"launch_records":{"written":0,"dropped":0,"limit_per_kernel":100},"notes":[],"complete":True})
def checked(p):  # FAKE, but in the format the runtime writes: every key in the key table
    n, problems = profile_schema.check(p, types=False)
    if problems: sys.exit("selftest_fake_profiles: "+"; ".join(problems[:5]))
    return p
for p in ["conv2d","lstm","lstm_fused"]:
    rows=json.load(open(root+"/.gpu-inputs/case/static/%s.json"%p))
    subprocess.run("cp %s/.gpu-inputs/case/static/%s.json %s/static/"%(root,p,D),shell=True)
    plain=[];inst=[];lines=[]
    for r in rows:
        n=3; st=r["static"]; f=r["static_flops"]; t=f/ (20e3 if r["tensor"] else 5e3)  # ns
        gb=st.get("bytes.global.load",0)+st.get("bytes.global.store",0)
        cnt={k:v for k,v in st.items() if k.startswith("flops.") or k.startswith("tensor_flops.")}
        cnt.update({"l1_bytes":gb*1.2,"l2_bytes":gb*0.5,"dram_bytes":gb*0.1,"time_ns":t})
        name="void %s(int)"%r["kernel"]
        plain.append({"kernel":name,"mangled":r["mangled"],"instrumented":False,"launches":n,"recorded_launches":n,
            "duration_ns":{"timed_launches":n,"total":t*n},"counters":{"launches":n,"total":nest({k:v*n for k,v in cnt.items()})}})
        inst.append({"kernel":name,"mangled":r["mangled"],"instrumented":True,"launches":n,"recorded_launches":n,
            "duration_ns":{"timed_launches":n,"total":t*n*1.05},"dynamic":{"launches":n,"total":nest({k:v*n for k,v in st.items()})},
            "static":{"launches":n,"exact":r["exact"],"total":nest({k:v*n for k,v in st.items()}),"matches_dynamic":n,"differs_from_dynamic":0,"problems":[]}})
        base=r["kernel"].replace(", 1>",">").replace(", 2>",">").replace(", 3>",">")
        import re; base=re.sub(r"<\d>$","",base)
        lines.append("CASE "+json.dumps({"program":p,"kernel":base,"size":r["size"],"flops":r["hand_flops"],"tensor":r["tensor"],"ms":t*1e-6,"gflops":0,"checked":1,"max_abs_err":0,"check":"ok"}))
    json.dump(prof(plain),open(D+"/kernels/%s.plain.json"%p,"w")); json.dump(prof(inst),open(D+"/kernels/%s.inst.json"%p,"w"))
    open(D+"/kernels/%s.plain.stdout"%p,"w").write("\n".join(lines)+"\n")
    # the no-profiler timing lines carry case.h's "reps"/"warmup" (since the warm-up)
    tl=[l[:-1]+',"reps":20,"warmup":1}' for l in lines]
    open(D+"/kernels/%s.time.stdout"%p,"w").write("\n".join(tl)+"\n")
for run in ["lstm-fp32","conv-bf16","lstm-bf16w"]:
    ks=[]
    for i,(nm,fl,tf) in enumerate([("void cudnn::fake_gemm(int)",1e9,0),("void at::native::elementwise_kernel<128, 2>(int)",0,0),("sm90_xmma_fake",0,2e9),("void at::native::reduce_kernel(int)",1e5,0)]):
        n=10; t=1e4*(i+1)
        c={"flops.f32":fl,"tensor_flops.bf16":tf,"l1_bytes":1e7,"l2_bytes":5e6,"dram_bytes":2e6,"time_ns":t}
        ks.append({"kernel":nm,"mangled":nm,"instrumented":False,"launches":n*3,"recorded_launches":n,"duration_ns":{"timed_launches":n*3,"total":t*n*3},
                   "counters":{"launches":2,"total":nest({k:v*2 for k,v in c.items()})}})
    ks.append({"kernel":"nocounters","mangled":"x","instrumented":False,"launches":5,"recorded_launches":5,"duration_ns":{"timed_launches":5,"total":5e4}})
    json.dump(prof(ks),open(D+"/torch/%s.json"%run,"w"))
    m,pr=run.split("-")
    open(D+"/torch/%s.stdout"%run,"w").write("TRAIN "+json.dumps({"model":m,"precision":pr,"FAKE":True,
        "param_dtype":["torch.bfloat16" if pr=="bf16w" else "torch.float32"],"fallback":None})+"\n")
