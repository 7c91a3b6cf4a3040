# CTest package_consumer_test (cmake -P): is ktune installable and usable as a CMake package?
#
#   1. cmake --install the build tree into WORK_DIR/prefix, and check the layout;
#   2. configure this directory's consumer project against the prefix only (find_package(ktune),
#      ktune::runtime), with the build's generator, compiler and build type, and build it;
#   3. tune scale.yaml with the *installed* bin/ktune into a scratch database;
#   4. run the consumer: a found configuration, "not found" answers, and a missing database;
#   5. run gemm_consumer (ktune::gemm, the C ABI of include/ktune/ktune_gemm.h).
# Any failing step fails the test. Nothing is downloaded. WORK_DIR is deleted on success.
#
# Defined by tests/CMakeLists.txt: KTUNE_BINARY_DIR, KTUNE_EXE (optional), CONSUMER_SOURCE_DIR, WORK_DIR, GENERATOR,
# MAKE_PROGRAM, CXX_COMPILER, CXX_FLAGS, BUILD_TYPE.

foreach(var KTUNE_BINARY_DIR CONSUMER_SOURCE_DIR WORK_DIR GENERATOR CXX_COMPILER BUILD_TYPE)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "run_consumer_test.cmake: -D${var}=... is required")
  endif()
endforeach()

# Runs a command; fails the test (showing its output) unless it exits with EXPECT (default 0).
# The output is left in ${OUT_VAR} when given.
function(step name)
  cmake_parse_arguments(ARG "" "EXPECT;OUT_VAR" "COMMAND" ${ARGN})
  if(NOT DEFINED ARG_EXPECT)
    set(ARG_EXPECT 0)
  endif()
  message(STATUS "[package_consumer] ${name}")
  execute_process(COMMAND ${ARG_COMMAND} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT "${rc}" STREQUAL "${ARG_EXPECT}")
    message(FATAL_ERROR "${name}: exit ${rc}, expected ${ARG_EXPECT}\n  command: ${ARG_COMMAND}\n${out}")
  endif()
  if(ARG_OUT_VAR)
    set(${ARG_OUT_VAR} "${out}" PARENT_SCOPE)
  endif()
endfunction()

function(expect_match name text regex)
  if(NOT text MATCHES "${regex}")
    message(FATAL_ERROR "${name}: output does not match '${regex}':\n${text}")
  endif()
endfunction()

set(prefix ${WORK_DIR}/prefix)
set(consumer_build ${WORK_DIR}/consumer-build)
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})

# 1. Install. Needs the installed targets built (a full `ninja` does it; `ninja ktune
#    ktune_runtime` at least).
if(KTUNE_EXE AND NOT EXISTS ${KTUNE_EXE})
  message(FATAL_ERROR "${KTUNE_EXE} is not built: build ktune (and ktune_runtime) before this test")
endif()
step("install into ${prefix}" COMMAND ${CMAKE_COMMAND} --install ${KTUNE_BINARY_DIR} --prefix ${prefix})
file(GLOB_RECURSE config_file LIST_DIRECTORIES false ${prefix}/*/cmake/ktune/ktuneConfig.cmake)
file(GLOB_RECURSE gemm_library LIST_DIRECTORIES false ${prefix}/*/libktune_gemm.so)
if(NOT gemm_library)
  message(FATAL_ERROR "install: no lib*/libktune_gemm.so under ${prefix}")
endif()
foreach(f bin/ktune include/ktune/ktune.h include/ktune/ktune_gemm.h)
  if(NOT EXISTS ${prefix}/${f})
    message(FATAL_ERROR "install: ${prefix}/${f} is missing")
  endif()
endforeach()
if(NOT config_file)
  message(FATAL_ERROR "install: no lib*/cmake/ktune/ktuneConfig.cmake under ${prefix}")
endif()
# Only the public header: the modules' internal headers are not part of the package.
file(GLOB_RECURSE headers RELATIVE ${prefix}/include ${prefix}/include/*)
list(SORT headers)
if(NOT headers STREQUAL "ktune/ktune.h;ktune/ktune_gemm.h")
  message(FATAL_ERROR "install: unexpected headers under ${prefix}/include: ${headers}")
endif()

# 2. Configure and build the consumer against the prefix alone: no package registry, and no
#    other ktune on the default search paths can satisfy find_package.
set(configure_args -S ${CONSUMER_SOURCE_DIR} -B ${consumer_build} -G ${GENERATOR}
    -DCMAKE_BUILD_TYPE=${BUILD_TYPE} -DCMAKE_CXX_COMPILER=${CXX_COMPILER}
    -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF
    -DCMAKE_FIND_USE_SYSTEM_PACKAGE_REGISTRY=OFF)
if(MAKE_PROGRAM)
  list(APPEND configure_args -DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM})
endif()
if(CXX_FLAGS)  # the build's CMAKE_CXX_FLAGS (an ABI-changing flag such as -stdlib= must match)
  list(APPEND configure_args "-DCMAKE_CXX_FLAGS=${CXX_FLAGS}")
endif()
step("configure the consumer" COMMAND ${CMAKE_COMMAND} ${configure_args} OUT_VAR out)
get_filename_component(expected_dir ${config_file} DIRECTORY)
string(REGEX MATCH "ktune [0-9.]+ from [^\n]*" found "${out}")
message(STATUS "[package_consumer] found ${found}")
if(NOT found MATCHES " from ${expected_dir}$")
  message(FATAL_ERROR "find_package(ktune) did not use ${expected_dir}:\n${out}")
endif()
step("build the consumer" COMMAND ${CMAKE_COMMAND} --build ${consumer_build})
set(consumer ${consumer_build}/consumer)
set(gemm_consumer ${consumer_build}/gemm_consumer)

# 3. A database from the installed CLI (a CPU tuning session, two configurations).
set(db ${WORK_DIR}/tuned.db)
step("tune scale.yaml with the installed ktune"
  COMMAND ${CMAKE_COMMAND} -E env KTUNE_CACHE_DIR=${WORK_DIR}/cache
          ${prefix}/bin/ktune --db ${db} tune ${CONSUMER_SOURCE_DIR}/scale.yaml --progress none)

# 4. The runtime API through the installed library.
# Without $KTUNE_BIN or a ktune on PATH, ktune::Runtime must find the installed bin/ktune (the
# package's KTUNE_INSTALLED_KTUNE).
step("consumer: the tuned configuration"
  COMMAND ${CMAKE_COMMAND} -E env --unset=KTUNE_BIN PATH=/usr/bin:/bin
          ${consumer} ${db} package_consumer_scale N=4096 OUT_VAR out)
message(STATUS "${out}")
expect_match("consumer: the tuned configuration" "${out}" "param UNROLL=(1|4)\n")
expect_match("consumer: the tuned configuration" "${out}" "size N=4096\n")
expect_match("consumer: the tuned configuration" "${out}" "consistent")
if(NOT EXISTS /usr/bin/ktune AND NOT EXISTS /bin/ktune)
  expect_match("consumer: the tuned configuration" "${out}" "runtime: same answer; ktune at ${prefix}/bin/ktune\n")
endif()
step("consumer: sizes that were not tuned" EXPECT 3
  COMMAND ${consumer} ${db} package_consumer_scale N=7 OUT_VAR out)
expect_match("consumer: sizes that were not tuned" "${out}" "^not found")
step("consumer: a problem that was not tuned" EXPECT 3 COMMAND ${consumer} ${db} no_such_problem OUT_VAR out)
expect_match("consumer: a problem that was not tuned" "${out}" "^not found")
step("consumer: a missing database" EXPECT 2
  COMMAND ${consumer} ${WORK_DIR}/missing/ktune.db package_consumer_scale OUT_VAR out)
expect_match("consumer: a missing database" "${out}" "^cannot open: ")
message(STATUS "[package_consumer] ${out}")

# 5. The GEMM executor's C ABI through the installed shared library: it loads and answers; where
#    no CUDA driver exists (CI) creating an executor fails with the reason, not a crash.
step("gemm_consumer" COMMAND ${gemm_consumer} OUT_VAR out)
expect_match("gemm_consumer" "${out}" "^ktune_gemm ABI 1\n")
expect_match("gemm_consumer" "${out}" "\n(device 0: ready|no executor: CUDA driver not available)")
message(STATUS "[package_consumer] ${out}")

file(REMOVE_RECURSE ${WORK_DIR})
message(STATUS "[package_consumer] passed")
