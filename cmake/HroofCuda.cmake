# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# HroofCuda.cmake - the one way hroof builds CUDA programs: clang 22 in CUDA mode
# (HROOF_CLANG), with the hroof plugin for the instrumented variant. Included by the
# top-level CMakeLists.txt; used by examples/, ert/ and cmake/GpuTestInputs.cmake.
#
# hroof_add_cuda_program(NAME
#     SOURCES a.cu [b.cu ...]          compiled and linked in one clang call
#     [INSTRUMENTED | PLAIN | BOTH]    default BOTH
#     [OUTPUT_DIR dir]                 default ${CMAKE_BINARY_DIR}/bin
#     [INSTRUMENTED_SUFFIX s]          default NONE (dir/NAME)
#     [PLAIN_SUFFIX s]                 default ".plain" (dir/NAME.plain); NONE: no suffix
#                                      (an empty argument would read as not given)
#     [ARCH sm_XX]                     default sm_90
#     [INCLUDES dir ...] [DEPENDS file ...]
#     [PLUGIN_FLAGS flag ...]          more flags of the instrumented compile only
#                                      (e.g. -mllvm -hroof-warp-counts)
#     [EXACT_BY_MODEL]                 leave kernels with an exact static model
#                                      uninstrumented, the plugin's default; without it the
#                                      programs built here (validation, examples) instrument
#                                      every kernel (-mllvm -hroof-instrument-exact), so their
#                                      dynamic counts stay a measurement
#     [CUDART static | shared]         default static (shared: rpath $ORIGIN/../lib and
#                                      the toolkit's lib64, as the GPU suite carries it)
#     [STATIC_MODEL file.json]         also writes the plugin's static model of the device
#                                      code, as `hroof static FILE.cu` computes it
#     [DEVICE_IR file.ll]              also writes the -O2 device IR (for build-time checks)
#     [OUTPUTS_VAR var])               the files built, appended to var in the caller's scope
# Adds no target: put the OUTPUTS_VAR files into a custom target's DEPENDS.
#
# hroof_cuda_objects(VAR SOURCES a.cu ... ARCHS sm_80 ... [INCLUDES dir ...]
#     [DEPENDS file ...] [FLAGS flag ...])
#   Compiles each source to an object file (-O3 -fPIC, no plugin) for host programs
#   that link CUDA kernels (hroof-ert); VAR gets the object files.

if(NOT HROOF_CLANG)
  find_program(HROOF_CLANG NAMES clang++-22 clang++ REQUIRED)
endif()
if(NOT HROOF_CUDA_PATH)
  get_filename_component(HROOF_CUDA_PATH ${CUDAToolkit_BIN_DIR} DIRECTORY)
endif()

# Toolkit flags of every CUDA compilation (the GPU architecture comes next to them).
set(HROOF_CUDA_TOOLKIT_FLAGS --cuda-path=${HROOF_CUDA_PATH} -Wno-unknown-cuda-version)
# CUDA 13 keeps Thrust, CUB and libcu++ under include/cccl (nvcc searches it, clang does not).
if(EXISTS ${HROOF_CUDA_PATH}/include/cccl)
  list(APPEND HROOF_CUDA_TOOLKIT_FLAGS -isystem ${HROOF_CUDA_PATH}/include/cccl)
endif()

function(hroof_add_cuda_program NAME)
  cmake_parse_arguments(P "INSTRUMENTED;PLAIN;BOTH;EXACT_BY_MODEL"
    "OUTPUT_DIR;INSTRUMENTED_SUFFIX;PLAIN_SUFFIX;ARCH;CUDART;STATIC_MODEL;DEVICE_IR;OUTPUTS_VAR"
    "SOURCES;INCLUDES;DEPENDS;PLUGIN_FLAGS" ${ARGN})
  if(NOT P_SOURCES)
    message(FATAL_ERROR "hroof_add_cuda_program(${NAME}): SOURCES missing")
  endif()
  if(NOT P_INSTRUMENTED AND NOT P_PLAIN)
    set(P_INSTRUMENTED ON)
    set(P_PLAIN ON)
  endif()
  if(P_BOTH)
    set(P_INSTRUMENTED ON)
    set(P_PLAIN ON)
  endif()
  if(NOT DEFINED P_OUTPUT_DIR)
    set(P_OUTPUT_DIR ${CMAKE_BINARY_DIR}/bin)
  endif()
  if(NOT DEFINED P_INSTRUMENTED_SUFFIX OR P_INSTRUMENTED_SUFFIX STREQUAL "NONE")
    set(P_INSTRUMENTED_SUFFIX "")
  endif()
  if(NOT DEFINED P_PLAIN_SUFFIX)
    set(P_PLAIN_SUFFIX ".plain")
  elseif(P_PLAIN_SUFFIX STREQUAL "NONE")
    set(P_PLAIN_SUFFIX "")
  endif()
  if(NOT P_ARCH)
    set(P_ARCH sm_90)
  endif()
  if(NOT P_CUDART)
    set(P_CUDART static)
  endif()

  set(includes)
  foreach(dir ${P_INCLUDES})
    list(APPEND includes -I${dir})
  endforeach()
  set(compile -O2 -x cuda --cuda-gpu-arch=${P_ARCH} ${HROOF_CUDA_TOOLKIT_FLAGS} ${includes})
  if(P_CUDART STREQUAL "shared")
    # $ORIGIN/../lib: the copied libcudart next to the binaries on the machine with the GPU.
    set(link -L${HROOF_CUDA_PATH}/lib64 -lcudart "-Wl,-rpath,$ORIGIN/../lib"
        -Wl,-rpath,${HROOF_CUDA_PATH}/lib64)
  else()
    # Static cudart: the binary runs wherever a driver is.
    set(link -L${CUDAToolkit_LIBRARY_DIR} -lcudart_static -ldl -lrt -lpthread)
  endif()
  set(deps ${P_SOURCES} ${P_DEPENDS})
  set(outputs)

  if(NOT P_EXACT_BY_MODEL)
    list(APPEND P_PLUGIN_FLAGS -mllvm -hroof-instrument-exact)
  endif()
  if(P_INSTRUMENTED)
    set(out ${P_OUTPUT_DIR}/${NAME}${P_INSTRUMENTED_SUFFIX})
    add_custom_command(OUTPUT ${out}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${P_OUTPUT_DIR}
      COMMAND ${HROOF_CLANG} ${compile} -fpass-plugin=$<TARGET_FILE:hroof> ${P_PLUGIN_FLAGS}
              ${P_SOURCES} -o ${out} ${link}
      DEPENDS ${deps} hroof
      COMMENT "hroof CUDA program ${NAME} (instrumented, ${P_ARCH})" VERBATIM)
    list(APPEND outputs ${out})
  endif()
  if(P_PLAIN)
    set(out ${P_OUTPUT_DIR}/${NAME}${P_PLAIN_SUFFIX})
    add_custom_command(OUTPUT ${out}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${P_OUTPUT_DIR}
      COMMAND ${HROOF_CLANG} ${compile} ${P_SOURCES} -o ${out} ${link}
      DEPENDS ${deps}
      COMMENT "hroof CUDA program ${NAME} (plain, ${P_ARCH})" VERBATIM)
    list(APPEND outputs ${out})
  endif()
  if(P_STATIC_MODEL)
    # Device-only, parameter names kept (so `--arg NAME=VALUE` works), as `hroof static`.
    get_filename_component(dir ${P_STATIC_MODEL} DIRECTORY)
    add_custom_command(OUTPUT ${P_STATIC_MODEL}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${dir}
      COMMAND ${CMAKE_COMMAND} -E env HROOF_STATIC_JSON=${P_STATIC_MODEL}
              ${HROOF_CLANG} -x cuda --cuda-device-only --cuda-gpu-arch=${P_ARCH} ${HROOF_CUDA_TOOLKIT_FLAGS}
              ${includes} -fno-discard-value-names -fpass-plugin=$<TARGET_FILE:hroof>
              -S -o /dev/null -O2 ${P_SOURCES}
      DEPENDS ${deps} hroof
      COMMENT "hroof static model of ${NAME}" VERBATIM)
    list(APPEND outputs ${P_STATIC_MODEL})
  endif()
  if(P_DEVICE_IR)
    get_filename_component(dir ${P_DEVICE_IR} DIRECTORY)
    add_custom_command(OUTPUT ${P_DEVICE_IR}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${dir}
      COMMAND ${HROOF_CLANG} ${compile} --cuda-device-only -S -emit-llvm -o ${P_DEVICE_IR} ${P_SOURCES}
      DEPENDS ${deps}
      COMMENT "device IR of ${NAME}" VERBATIM)
    list(APPEND outputs ${P_DEVICE_IR})
  endif()
  if(P_OUTPUTS_VAR)
    set(${P_OUTPUTS_VAR} ${${P_OUTPUTS_VAR}} ${outputs} PARENT_SCOPE)
  endif()
endfunction()

function(hroof_cuda_objects VAR)
  cmake_parse_arguments(P "" "" "SOURCES;ARCHS;INCLUDES;DEPENDS;FLAGS" ${ARGN})
  set(flags -x cuda -std=c++17 -O3 -fPIC)
  foreach(a ${P_ARCHS})
    list(APPEND flags --cuda-gpu-arch=${a})
  endforeach()
  list(APPEND flags ${HROOF_CUDA_TOOLKIT_FLAGS} ${P_FLAGS})
  foreach(dir ${P_INCLUDES})
    list(APPEND flags -I${dir})
  endforeach()
  string(JOIN " " archs ${P_ARCHS})
  set(objects)
  foreach(src ${P_SOURCES})
    get_filename_component(name ${src} NAME_WE)
    set(obj ${CMAKE_CURRENT_BINARY_DIR}/${name}.o)
    add_custom_command(OUTPUT ${obj}
      COMMAND ${HROOF_CLANG} ${flags} -c ${src} -o ${obj}
      DEPENDS ${src} ${P_DEPENDS}
      COMMENT "clang CUDA ${name} (${archs})" VERBATIM)
    list(APPEND objects ${obj})
  endforeach()
  set_source_files_properties(${objects} PROPERTIES EXTERNAL_OBJECT TRUE GENERATED TRUE)
  set(${VAR} ${objects} PARENT_SCOPE)
endfunction()
