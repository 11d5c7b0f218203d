# lit configuration of the hroof suites.
#   ir/    LLVM IR through opt -load-pass-plugin (%opt-hroof)
#   cuda/  CUDA sources through `hroof static` (%hroof-static)
# Substitutions: %hroof (plugin), %opt, %hroof-bin (the hroof tool),
# %clang, %cuda_path, %cuda-compat (common/include/hroof/cuda_compat.h).
# Feature "gpu" when an NVIDIA GPU is visible.
import os
import shutil
import subprocess

import lit.formats

config.name = "hroof"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".ll", ".cu", ".test"]
config.excludes = ["Inputs", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.hroof_obj_root, "test", "lit")

config.environment["PATH"] = os.pathsep.join(
    [config.llvm_tools_dir, config.hroof_bin, config.environment.get("PATH", "")])
for var in ("HOME", "TMPDIR"):
    if var in os.environ:
        config.environment[var] = os.environ[var]

# --param plugin=asan: every compile loads hroof-asan.so (ASan + UBSan) with
# the shared ASan runtime preloaded into opt and clang; any sanitizer report
# aborts the compile and fails the test (the ctest "lit.asan").
if lit_config.params.get("plugin") == "asan":
    if not config.hroof_asan_runtime or not os.path.isfile(config.hroof_asan_plugin):
        lit_config.fatal("plugin=asan needs build/lib/hroof-asan.so and the shared ASan runtime")
    config.hroof_plugin = config.hroof_asan_plugin
    config.environment["HROOF_PLUGIN"] = config.hroof_asan_plugin
    config.environment["LD_PRELOAD"] = config.hroof_asan_runtime
    config.environment["ASAN_OPTIONS"] = "detect_leaks=0"
    config.environment["UBSAN_OPTIONS"] = "print_stacktrace=1"
    config.name = "hroof (ASan plugin)"
    # ctest runs "lit" and "lit.asan" side by side: each needs its own
    # Output/ (scripts and %t files), or one overwrites the other's script
    # while bash is reading it.
    config.test_exec_root = os.path.join(config.hroof_obj_root, "test", "lit-asan")

opt = os.path.join(config.llvm_tools_dir, "opt")
config.substitutions.append(("%opt-hroof", f"{opt} -load-pass-plugin={config.hroof_plugin} -disable-output"))
config.substitutions.append(("%opt", opt))
config.substitutions.append(("%hroof-static", os.path.join(config.hroof_bin, "hroof") + " static"))
config.substitutions.append(("%hroof-bin", os.path.join(config.hroof_bin, "hroof")))
config.substitutions.append(("%hroof", config.hroof_plugin))
config.substitutions.append(("%clang", os.path.join(config.llvm_tools_dir, "clang++")))
config.substitutions.append(("%cuda_path", config.cuda_path))
config.substitutions.append(("%examples", os.path.join(config.hroof_src_root, "examples")))
config.substitutions.append(
    ("%cuda-compat", os.path.join(config.hroof_src_root, "common", "include", "hroof", "cuda_compat.h")))

def has_gpu():
    smi = shutil.which("nvidia-smi")
    if not smi:
        return False
    try:
        return subprocess.run([smi, "-L"], capture_output=True, timeout=20).returncode == 0
    except Exception:
        return False

if has_gpu():
    config.available_features.add("gpu")

# Whether the CUDA driver library loads here (tests of the no-driver messages).
def has_cuda_driver():
    import ctypes
    try:
        ctypes.CDLL("libcuda.so.1")
        return True
    except OSError:
        return False

if has_cuda_driver():
    config.available_features.add("cuda-driver")
