# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# CarryPrograms.cmake - targets that build the CUDA programs the GPU scripts run
# (that machine has no compiler) into HROOF_CARRY_DIR (default <source>/.carry,
# git-ignored), all through hroof_add_cuda_program (cmake/HroofCuda.cmake). Not built by
# default; test/gpu/build.sh and case-studies/build.sh build them and add the rest
# (static totals, tools, libraries, manifest).
#   hroof-carry-gpu[-PROG]  GPU validation suite (test/gpu/kernels/*.cu), shared cudart:
#                           gpu/bin/PROG.plain, gpu/bin/PROG.inst,
#                           gpu/static/PROG.model.json, gpu/logs/PROG.ll
#   hroof-carry-case[-PROG] case study (case-studies/kernels/*.cu), static cudart:
#                           case/bin/PROG.plain, case/bin/PROG.inst, case/static/PROG.model.json
#   hroof-carry-hw          hardware-counter validation (test/gpu/runtime/hw/README.md):
#                           hw/bin/EXAMPLE.inst|.plain, hw/bin/many.plain, big/bigstream
#   hroof-carry-kill        kill tests (test/gpu/runtime/kill_test.sh): kill/bin/kill_target.inst|.plain
#   hroof-carry-launchcost  per-launch host cost (test/gpu/runtime/launch-cost.sh):
#                           launchcost/many.inst|.plain
#   hroof-carry-warp        warp-level traffic vs Nsight Compute and the dynamic counts
#                           (test/gpu/warp/run.sh): warp/bin/warp_traffic, warp_traffic.inst

set(HROOF_CARRY_DIR ${CMAKE_SOURCE_DIR}/.carry CACHE PATH "where the GPU test programs are built")
set(HROOF_CARRY_ARCH sm_90 CACHE STRING "GPU architecture of the GPU test programs")

# hroof_carry_suite(NAME KERNEL_DIR CUDART [DEVICE_IR]): one target per KERNEL_DIR/*.cu
# (hroof-carry-NAME-PROG) and hroof-carry-NAME for all.
function(hroof_carry_suite NAME KERNEL_DIR CUDART)
  cmake_parse_arguments(S "DEVICE_IR" "" "" ${ARGN})
  set(out ${HROOF_CARRY_DIR}/${NAME})
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
      ARCH ${HROOF_CARRY_ARCH} CUDART ${CUDART} INCLUDES ${KERNEL_DIR} DEPENDS ${headers}
      STATIC_MODEL ${out}/static/${prog}.model.json ${ir}
      OUTPUTS_VAR files)
    add_custom_target(hroof-carry-${NAME}-${prog} DEPENDS ${files})
    list(APPEND all ${files})
  endforeach()
  add_custom_target(hroof-carry-${NAME} DEPENDS ${all})
endfunction()

hroof_carry_suite(gpu ${CMAKE_SOURCE_DIR}/test/gpu/kernels shared DEVICE_IR)
hroof_carry_suite(case ${CMAKE_SOURCE_DIR}/case-studies/kernels static)

# Hardware-counter validation: six examples, both variants, and two plain helpers.
set(_hw_files)
foreach(e saxpy reduce sgemm_tiled stencil2d half2_bf16 mma_gemm)
  hroof_add_cuda_program(${e} SOURCES ${CMAKE_SOURCE_DIR}/examples/${e}.cu BOTH
    OUTPUT_DIR ${HROOF_CARRY_DIR}/hw/bin INSTRUMENTED_SUFFIX .inst PLAIN_SUFFIX .plain
    ARCH ${HROOF_CARRY_ARCH} DEPENDS ${CMAKE_SOURCE_DIR}/examples/common.h OUTPUTS_VAR _hw_files)
endforeach()
hroof_add_cuda_program(many SOURCES ${CMAKE_SOURCE_DIR}/test/gpu/runtime/hw/many_launches.cu PLAIN
  OUTPUT_DIR ${HROOF_CARRY_DIR}/hw/bin ARCH ${HROOF_CARRY_ARCH} OUTPUTS_VAR _hw_files)
hroof_add_cuda_program(bigstream SOURCES ${CMAKE_SOURCE_DIR}/test/gpu/runtime/hw/bigstream.cu PLAIN
  OUTPUT_DIR ${HROOF_CARRY_DIR}/big PLAIN_SUFFIX NONE ARCH ${HROOF_CARRY_ARCH} OUTPUTS_VAR _hw_files)
add_custom_target(hroof-carry-hw DEPENDS ${_hw_files})

# Kill tests (test/gpu/runtime/kill_test.sh): kill/bin/kill_target.inst|.plain.
set(_kill_files)
hroof_add_cuda_program(kill_target SOURCES ${CMAKE_SOURCE_DIR}/test/gpu/runtime/kill_target.cu BOTH
  OUTPUT_DIR ${HROOF_CARRY_DIR}/kill/bin INSTRUMENTED_SUFFIX .inst PLAIN_SUFFIX .plain
  ARCH ${HROOF_CARRY_ARCH} OUTPUTS_VAR _kill_files)
add_custom_target(hroof-carry-kill DEPENDS ${_kill_files})

# Per-launch host cost (test/gpu/runtime/launch-cost.sh): launchcost/many.inst|.plain.
set(_launchcost_files)
hroof_add_cuda_program(many SOURCES ${CMAKE_SOURCE_DIR}/test/gpu/runtime/hw/many_launches.cu BOTH
  OUTPUT_DIR ${HROOF_CARRY_DIR}/launchcost INSTRUMENTED_SUFFIX .inst PLAIN_SUFFIX .plain
  ARCH ${HROOF_CARRY_ARCH} OUTPUTS_VAR _launchcost_files)
add_custom_target(hroof-carry-launchcost DEPENDS ${_launchcost_files})

# Warp-level traffic against Nsight Compute and the dynamic counts (test/gpu/warp/run.sh):
# warp/bin/warp_traffic (plain), warp/bin/warp_traffic.inst (instrumented, with the
# opt-in warp-level counts).
set(_warp_files)
hroof_add_cuda_program(warp_traffic SOURCES ${CMAKE_SOURCE_DIR}/test/gpu/warp/warp_traffic.cu BOTH
  PLUGIN_FLAGS -mllvm -hroof-warp-counts
  OUTPUT_DIR ${HROOF_CARRY_DIR}/warp/bin PLAIN_SUFFIX NONE INSTRUMENTED_SUFFIX .inst
  ARCH ${HROOF_CARRY_ARCH} OUTPUTS_VAR _warp_files)
add_custom_target(hroof-carry-warp DEPENDS ${_warp_files})
