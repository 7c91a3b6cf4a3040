# `cmake --install` rules and the `ktune` CMake package, so that an application can write
#
#   find_package(ktune 0.1 REQUIRED)
#   target_link_libraries(app PRIVATE ktune::runtime)
#
# and call the runtime API of include/ktune/ktune.h (look up a tuned configuration). Included
# from the top-level CMakeLists.txt after every module exists. Installed layout (GNUInstallDirs):
#
#   bin/ktune                                   the CLI (also exported as ktune::ktune)
#   include/ktune/ktune.h                       the public API: standard types only
#   include/ktune/ktune_gemm.h                  the C ABI that runs GEMM picks (ktune::gemm)
#   lib/libktune_gemm.so                        its shared library (depends on libc only)
#   lib/libktune_{runtime,db,core}.a            the runtime and the internal modules it links
#   lib/cmake/ktune/ktune{Config,ConfigVersion,Targets,Targets-<config>}.cmake
#
# tests/package_consumer/ installs a build tree into a scratch prefix and builds a small
# application against it (CTest test package_consumer_test), so these rules stay working.

include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# ktune's modules are static libraries (ktune_module in cmake/KtuneTargets.cmake). ktune_runtime
# reaches SQLite through ktune_db, which builds on ktune_core, so all three are installed and
# exported: a static library's dependencies are linked by its consumer. Their internal headers
# are not installed (their include directories are BUILD_INTERFACE only): ktune.h needs none of
# them, and only ktune::runtime is meant to be named by applications.
set(KTUNE_PACKAGE_LIBRARIES ktune_core ktune_db ktune_runtime)
foreach(lib IN LISTS KTUNE_PACKAGE_LIBRARIES)
  string(REGEX REPLACE "^ktune_" "" export_name ${lib})
  set_target_properties(${lib} PROPERTIES EXPORT_NAME ${export_name})
endforeach()

# The libraries of a sanitized build (KTUNE_SANITIZE, KTUNE_FUZZ) call into the ASan/UBSan
# runtimes, so an application linking them must link those runtimes too. Inside the build tree
# the global add_link_options of cmake/KtuneTargets.cmake does that; an installed consumer gets
# the flag from ktune::core's interface instead (INSTALL_INTERFACE: nothing changes here).
if(KTUNE_SANITIZE OR KTUNE_FUZZ)
  target_link_options(ktune_core INTERFACE $<INSTALL_INTERFACE:-fsanitize=address,undefined>)
endif()

# ktune::Runtime (ktune.h) runs the CLI for online tuning; without $KTUNE_BIN or a ktune on PATH
# it takes the one installed with the library. A static library cannot find its own install
# location at run time, so the package tells the application's build: ktune.h reads this define.
# $<INSTALL_PREFIX> becomes the prefix the package was found in, so a relocated install works.
target_compile_definitions(ktune_runtime INTERFACE
  "$<INSTALL_INTERFACE:KTUNE_INSTALLED_KTUNE=\"$<INSTALL_PREFIX>/${CMAKE_INSTALL_BINDIR}/ktune\">")

# libktune_gemm.so runs `ktune tune gemm`'s picks inside an application (include/ktune/ktune_gemm.h).
# A shared library whose static modules are private to it: the consumer links it alone.
set_target_properties(ktune_gemm PROPERTIES EXPORT_NAME gemm)
target_include_directories(ktune_gemm INTERFACE $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
if(KTUNE_SANITIZE OR KTUNE_FUZZ)
  target_link_options(ktune_gemm INTERFACE $<INSTALL_INTERFACE:-fsanitize=address,undefined>)
endif()

install(TARGETS ${KTUNE_PACKAGE_LIBRARIES} ktune_gemm EXPORT ktuneTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
# The CLI, exported too so that a consumer's build can run it (add_custom_command(COMMAND ktune::ktune ...)).
install(TARGETS ktune EXPORT ktuneTargets RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/ktune DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.h")

set(KTUNE_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/ktune)
install(EXPORT ktuneTargets NAMESPACE ktune:: DESTINATION ${KTUNE_INSTALL_CMAKEDIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/ktuneConfig.cmake.in
  ${PROJECT_BINARY_DIR}/ktuneConfig.cmake INSTALL_DESTINATION ${KTUNE_INSTALL_CMAKEDIR})
# 0.x releases promise nothing across minor versions either, but SameMajorVersion is what the
# version says once 1.0 exists; until then consumers should ask for the version they tested.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/ktuneConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/ktuneConfig.cmake ${PROJECT_BINARY_DIR}/ktuneConfigVersion.cmake
  DESTINATION ${KTUNE_INSTALL_CMAKEDIR})
