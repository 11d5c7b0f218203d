# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# HroofInstall.cmake - the data hroof finds next to its executable, in the
# build tree and in the install tree alike, and `cmake --install`.
#
# Layout (PREFIX: the install prefix, or the build folder):
#   bin/hroof, bin/hroof-ert
#   lib/hroof.so (plugin), lib/libhroof_rt.so (runtime)
#   share/hroof/machines/*.json      measured ceilings (docs/machines/)
#   share/hroof/report/              chart.html, render-svg.mjs (tools/report/)
#   share/hroof/report-js/node_modules/  vega, vega-lite, vega-embed (npm, build/report-js;
#                                    the build tree uses build/report-js/node_modules)
#   share/hroof/examples/            the demo's example kernels and demo.json
#   include/hroof/cuda_compat.h      what nvcc's CUDA headers have and clang's lack
#                                    (`hroof static` and hroof_target_cuda_plugin()
#                                    compile with -include hroof/cuda_compat.h)
#   lib/cmake/hroof/                 find_package(hroof): hroofConfig.cmake
# The tools look only relative to themselves (<bin>/../share/hroof), so an
# installed tree can be moved.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

file(GLOB HROOF_MACHINE_FILES ${PROJECT_SOURCE_DIR}/docs/machines/*.json)
set(HROOF_REPORT_ASSET_FILES ${PROJECT_SOURCE_DIR}/tools/report/chart.html
    ${PROJECT_SOURCE_DIR}/tools/report/render-svg.mjs)
set(HROOF_PUBLIC_HEADERS ${PROJECT_SOURCE_DIR}/common/include/hroof/cuda_compat.h)
file(GLOB HROOF_EXAMPLE_FILES ${PROJECT_SOURCE_DIR}/examples/*.cu ${PROJECT_SOURCE_DIR}/examples/*.h
     ${PROJECT_SOURCE_DIR}/examples/demo.json)

# The build tree's share/hroof: copies, refreshed at every build.
set(_share ${PROJECT_BINARY_DIR}/share/hroof)
add_custom_target(hroof-share ALL
  COMMAND ${CMAKE_COMMAND} -E make_directory ${_share}/machines ${_share}/report ${_share}/examples
  COMMAND ${CMAKE_COMMAND} -E copy_if_different ${HROOF_MACHINE_FILES} ${_share}/machines
  COMMAND ${CMAKE_COMMAND} -E copy_if_different ${HROOF_REPORT_ASSET_FILES} ${_share}/report
  COMMAND ${CMAKE_COMMAND} -E copy_if_different ${HROOF_EXAMPLE_FILES} ${_share}/examples
  COMMAND ${CMAKE_COMMAND} -E make_directory ${PROJECT_BINARY_DIR}/include/hroof
  COMMAND ${CMAKE_COMMAND} -E copy_if_different ${HROOF_PUBLIC_HEADERS} ${PROJECT_BINARY_DIR}/include/hroof
  COMMENT "hroof: data files into ${_share}")

install(TARGETS hroof-cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# As built: its run path (the CUDA toolkit's) is set by its own link flags,
# which CMake's install-time rewrite does not recognize.
install(PROGRAMS $<TARGET_FILE:hroof-ert> DESTINATION ${CMAKE_INSTALL_BINDIR})
# The runtime keeps finding CUPTI where it was found at build time.
set_target_properties(hroof_rt PROPERTIES INSTALL_RPATH_USE_LINK_PATH TRUE)
install(TARGETS hroof hroof_rt LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(FILES ${HROOF_MACHINE_FILES} DESTINATION ${CMAKE_INSTALL_DATADIR}/hroof/machines)
install(FILES ${HROOF_REPORT_ASSET_FILES} DESTINATION ${CMAKE_INSTALL_DATADIR}/hroof/report)
install(FILES ${HROOF_EXAMPLE_FILES} DESTINATION ${CMAKE_INSTALL_DATADIR}/hroof/examples)
install(FILES ${HROOF_PUBLIC_HEADERS} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/hroof)
# The chart libraries exist once scripts/setup.sh has run npm (after the
# configure step), so they are looked for when installing. They keep the
# folder name node_modules: node resolves vega's own imports through it.
install(CODE "
  set(_js \"${PROJECT_BINARY_DIR}/report-js/node_modules\")
  if(EXISTS \"\${_js}/vega/build/vega.min.js\")
    file(INSTALL DESTINATION \"\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_DATADIR}/hroof/report-js/node_modules\"
         TYPE DIRECTORY FILES \"\${_js}/\")
  else()
    message(WARNING \"hroof: no \${_js} (run scripts/setup.sh): the installed hroof report has no --html/--svg\")
  endif()")

configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/hroofConfig.cmake.in
  ${PROJECT_BINARY_DIR}/hroofConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/hroof
  PATH_VARS CMAKE_INSTALL_BINDIR CMAKE_INSTALL_LIBDIR CMAKE_INSTALL_INCLUDEDIR)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/hroofConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/hroofConfig.cmake ${PROJECT_BINARY_DIR}/hroofConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/hroof)
