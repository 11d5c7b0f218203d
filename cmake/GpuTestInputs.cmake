# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# GpuTestInputs.cmake - the GPU test inputs: the CUDA programs (and their static models)
# that the GPU scripts run, built here for the machine with the GPU, which has no
# compiler. They go into HROOF_GPU_INPUTS_DIR (default <source>/.gpu-inputs, git-ignored),
# all through hroof_add_cuda_program (cmake/HroofCuda.cmake). Not built by default;
# scripts/gpu/build-gpu-inputs.sh builds them for test/gpu/build.sh and
# case-studies/build.sh, which add the rest (static totals, tools, libraries, manifest).
#   hroof-gpu-inputs-gpu[-PROG]    GPU validation suite (test/gpu/kernels/*.cu), shared cudart:
#                                  gpu/bin/PROG.plain, gpu/bin/PROG.inst,
#                                  gpu/static/PROG.model.json, gpu/logs/PROG.ll
#   hroof-gpu-inputs-case[-PROG]   case study (case-studies/kernels/*.cu), static cudart:
#                                  case/bin/PROG.plain, case/bin/PROG.inst,
#                                  case/static/PROG.model.json
#   hroof-gpu-inputs-hw            hardware-counter validation (test/gpu/runtime/hw/README.md):
#                                  hw/bin/EXAMPLE.inst|.plain, hw/bin/many.plain, big/bigstream
#   hroof-gpu-inputs-kill          kill tests (test/gpu/runtime/kill_test.sh):
#                                  kill/bin/kill_target.inst|.plain
#   hroof-gpu-inputs-launchcost    per-launch host cost (test/gpu/runtime/launch-cost.sh):
#                                  launchcost/many.inst|.plain
#   hroof-gpu-inputs-warp          warp-level traffic vs Nsight Compute and the dynamic counts
#                                  (test/gpu/warp/run.sh): warp/bin/warp_traffic, warp_traffic.inst

set(HROOF_GPU_INPUTS_DIR ${CMAKE_SOURCE_DIR}/.gpu-inputs CACHE PATH
    "where the GPU test inputs (programs and files for the machine with the GPU) are built")
set(HROOF_GPU_INPUTS_ARCH sm_90 CACHE STRING "GPU architecture of the GPU test inputs")

# hroof_gpu_inputs_suite(NAME KERNEL_DIR CUDART [DEVICE_IR]): one target per KERNEL_DIR/*.cu
# (hroof-gpu-inputs-NAME-PROG) and hroof-gpu-inputs-NAME for all.
function(hroof_gpu_inputs_suite NAME KERNEL_DIR CUDART)
  cmake_parse_arguments(S "DEVICE_IR" "" "" ${ARGN})
  set(out ${HROOF_GPU_INPUTS_DIR}/${NAME})
  file(GLOB sources CONFIGURE_DEPENDS ${KERNEL_DIR}/*.cu)
  file(GLOB headers CONFIGURE_DEPENDS ${KERNEL_DIR}/*.h)
  set(all)
  foreach(src ${sources})
    get_filename_component(prog ${src} NAME_WE)
    set(files)
    set(ir)
    if(S_DEVICE_IR)
      set(ir DEVICE_IR ${out}/logs/${prog}.ll)
    endif()
    hroof_add_cuda_program(${prog} SOURCES ${src} BOTH
      OUTPUT_DIR ${out}/bin INSTRUMENTED_SUFFIX .inst PLAIN_SUFFIX .plain
      ARCH ${HROOF_GPU_INPUTS_ARCH} CUDART ${CUDART} INCLUDES ${KERNEL_DIR} DEPENDS ${headers}
      STATIC_MODEL ${out}/static/${prog}.model.json ${ir}
      OUTPUTS_VAR files)
    add_custom_target(hroof-gpu-inputs-${NAME}-${prog} DEPENDS ${files})
    list(APPEND all ${files})
  endforeach()
  add_custom_target(hroof-gpu-inputs-${NAME} DEPENDS ${all})
endfunction()

hroof_gpu_inputs_suite(gpu ${CMAKE_SOURCE_DIR}/test/gpu/kernels shared DEVICE_IR)
hroof_gpu_inputs_suite(case ${CMAKE_SOURCE_DIR}/case-studies/kernels static)

# Hardware-counter validation: six examples, both variants, and two plain helpers.
set(_hw_files)
foreach(e saxpy reduce sgemm_tiled stencil2d half2_bf16 mma_gemm)
  hroof_add_cuda_program(${e} SOURCES ${CMAKE_SOURCE_DIR}/examples/${e}.cu BOTH
    OUTPUT_DIR ${HROOF_GPU_INPUTS_DIR}/hw/bin INSTRUMENTED_SUFFIX .inst PLAIN_SUFFIX .plain
    ARCH ${HROOF_GPU_INPUTS_ARCH} DEPENDS ${CMAKE_SOURCE_DIR}/examples/common.h OUTPUTS_VAR _hw_files)
endforeach()
hroof_add_cuda_program(many SOURCES ${CMAKE_SOURCE_DIR}/test/gpu/runtime/hw/many_launches.cu PLAIN
  OUTPUT_DIR ${HROOF_GPU_INPUTS_DIR}/hw/bin ARCH ${HROOF_GPU_INPUTS_ARCH} OUTPUTS_VAR _hw_files)
hroof_add_cuda_program(bigstream SOURCES ${CMAKE_SOURCE_DIR}/test/gpu/runtime/hw/bigstream.cu PLAIN
  OUTPUT_DIR ${HROOF_GPU_INPUTS_DIR}/big PLAIN_SUFFIX NONE ARCH ${HROOF_GPU_INPUTS_ARCH} OUTPUTS_VAR _hw_files)
add_custom_target(hroof-gpu-inputs-hw DEPENDS ${_hw_files})

# Kill tests (test/gpu/runtime/kill_test.sh): kill/bin/kill_target.inst|.plain.
set(_kill_files)
hroof_add_cuda_program(kill_target SOURCES ${CMAKE_SOURCE_DIR}/test/gpu/runtime/kill_target.cu BOTH
  OUTPUT_DIR ${HROOF_GPU_INPUTS_DIR}/kill/bin INSTRUMENTED_SUFFIX .inst PLAIN_SUFFIX .plain
  ARCH ${HROOF_GPU_INPUTS_ARCH} OUTPUTS_VAR _kill_files)
add_custom_target(hroof-gpu-inputs-kill DEPENDS ${_kill_files})

# Per-launch host cost (test/gpu/runtime/launch-cost.sh): launchcost/many.inst|.plain.
set(_launchcost_files)
hroof_add_cuda_program(many SOURCES ${CMAKE_SOURCE_DIR}/test/gpu/runtime/hw/many_launches.cu BOTH
  OUTPUT_DIR ${HROOF_GPU_INPUTS_DIR}/launchcost INSTRUMENTED_SUFFIX .inst PLAIN_SUFFIX .plain
  ARCH ${HROOF_GPU_INPUTS_ARCH} OUTPUTS_VAR _launchcost_files)
add_custom_target(hroof-gpu-inputs-launchcost DEPENDS ${_launchcost_files})

# Warp-level traffic against Nsight Compute and the dynamic counts (test/gpu/warp/run.sh):
# warp/bin/warp_traffic (plain), warp/bin/warp_traffic.inst (instrumented, with the
# opt-in warp-level counts).
set(_warp_files)
hroof_add_cuda_program(warp_traffic SOURCES ${CMAKE_SOURCE_DIR}/test/gpu/warp/warp_traffic.cu BOTH
  PLUGIN_FLAGS -mllvm -hroof-warp-counts
  OUTPUT_DIR ${HROOF_GPU_INPUTS_DIR}/warp/bin PLAIN_SUFFIX NONE INSTRUMENTED_SUFFIX .inst
  ARCH ${HROOF_GPU_INPUTS_ARCH} OUTPUTS_VAR _warp_files)
add_custom_target(hroof-gpu-inputs-warp DEPENDS ${_warp_files})
