# Shared compile settings and helpers for ktune's modules.
# Each module directory calls ktune_module(...) for its library and ktune_test(...) per test.

add_library(ktune_warnings INTERFACE)
target_compile_options(ktune_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Werror -Wshadow -Wnon-virtual-dtor -Wold-style-cast
  -Wcast-align -Woverloaded-virtual -Wimplicit-fallthrough)
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  # GCC 12 emits false positives for std::variant/std::optional moves at -O2, and for a string
  # moved into a vector (stringop-overread, seen once the standard headers came precompiled).
  target_compile_options(ktune_warnings INTERFACE -Wno-maybe-uninitialized -Wno-restrict -Wno-array-bounds
    -Wno-stringop-overflow -Wno-stringop-overread)
endif()

if(KTUNE_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
endif()
if(KTUNE_FUZZ)
  add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined)
endif()

# Precompiled headers. Parsing the standard library, nlohmann/json and GoogleTest was most of a
# typical translation unit's compile time: those headers alone took 5.7 s on a CI-like 2-core
# machine (GCC 12, -O2 -g1; clang 14 with ASan 5.8 s), 2.5 s and 2.0 s with them precompiled, and
# CI compiles the tree three times (scripts/test.sh). One precompiled header per kind of target,
# shared through REUSE_FROM (a header per target would cost a 5-13 s precompile for each of the
# ~110 test executables): one position-independent for the modules' static libraries, one for
# the test executables (these headers plus gtest). A precompiled header is only used by a
# compile with the flags it was made with, so the modules that ktune_optimize_when_sanitized
# compiles at another -O level go without it.
#   KTUNE_PCH=ALL (default): modules and tests; TESTS: tests only; OFF: none.
# TESTS is for a tree whose module objects ccache must share with another build (ccache does not
# cache a compile that uses a precompiled header). A source that forgets an include can compile
# here and not with KTUNE_PCH=OFF.
set(KTUNE_PCH "ALL" CACHE STRING "Precompiled headers: ALL (modules and tests), TESTS, OFF")
set_property(CACHE KTUNE_PCH PROPERTY STRINGS ALL TESTS OFF)
if(NOT KTUNE_PCH MATCHES "^(ALL|TESTS|OFF)$")
  message(FATAL_ERROR "KTUNE_PCH must be ALL, TESTS or OFF, got '${KTUNE_PCH}'")
endif()
set(KTUNE_PCH_HEADERS <algorithm> <chrono> <cmath> <cstdint> <cstdio> <filesystem> <fstream>
  <functional> <map> <memory> <optional> <set> <sstream> <stdexcept> <string> <vector>
  <nlohmann/json.hpp>)

# _ktune_pch_target(NAME PIC HEADERS...): the target whose precompiled header others reuse,
# made the first time one is asked for (after the top level has found the packages).
function(_ktune_pch_target name pic)
  if(TARGET ${name})
    return()
  endif()
  set(anchor ${PROJECT_BINARY_DIR}/ktune_pch/${name}.cc)
  if(NOT EXISTS ${anchor})
    file(WRITE ${anchor} "// Compiled only to make the precompiled header that ${name} gives to others.\n")
  endif()
  add_library(${name} OBJECT ${anchor})
  target_precompile_headers(${name} PRIVATE ${ARGN})
  target_link_libraries(${name} PRIVATE nlohmann_json::nlohmann_json ktune_warnings)
  set_target_properties(${name} PROPERTIES POSITION_INDEPENDENT_CODE ${pic})
endfunction()

# ktune_module(NAME SOURCES a.cc b.cc DEPS other_modules...)
function(ktune_module name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS" ${ARGN})
  add_library(ktune_${name} STATIC ${ARG_SOURCES})
  # BUILD_INTERFACE: the source tree's paths and the warning flags are for building ktune only;
  # the modules that cmake/KtunePackage.cmake installs must export neither (an installed target
  # cannot name the source tree, and ktune_warnings is not installed).
  target_include_directories(ktune_${name} PUBLIC $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/src>
                                                  $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>)
  target_link_libraries(ktune_${name} PUBLIC ${ARG_DEPS} PRIVATE $<BUILD_INTERFACE:ktune_warnings>)
  set_target_properties(ktune_${name} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  if(KTUNE_PCH STREQUAL "ALL")
    _ktune_pch_target(ktune_pch_module ON ${KTUNE_PCH_HEADERS})
    target_precompile_headers(ktune_${name} REUSE_FROM ktune_pch_module)
  endif()
endfunction()

# ktune_optimize_when_sanitized(TARGET): compiles TARGET at -O1 in the sanitized Debug build
# (scripts/test.sh's second stage), every sanitizer check kept (-O1 is ASan's recommended level).
# For the modules whose loops are most of that stage's test time at -O0: the search strategies'
# Gaussian process, the simulator's random-search timelines, the space's sampling. `strategies
# score` over the committed recordings took 24.7 s at -O2 and over 600 s at -O0 under ASan
# (simulate_commands_test, CI's longest test, session 43), most of it in those modules' calls
# into the standard library that -O0 leaves out of line.
function(ktune_optimize_when_sanitized target)
  if(KTUNE_SANITIZE AND CMAKE_BUILD_TYPE STREQUAL "Debug")
    target_compile_options(${target} PRIVATE -O1)
    # The precompiled header was made at -O0: clang refuses it at -O1.
    set_target_properties(${target} PROPERTIES DISABLE_PRECOMPILE_HEADERS ON)
  endif()
endfunction()

# ktune_test(NAME SOURCES x_test.cc DEPS modules... [LABELS l1 l2] [TIMEOUT s] [COST s]
#            [NVRTC_CASES gtest-pattern])
# COST: about how many seconds the test takes (2-core machine, ASan build). `ctest -j` starts the
# costliest tests first when it has no timings of its own (a fresh clone, as in CI), so that a
# long test does not start last and run alone.
# NVRTC_CASES: the cases (a gtest filter, e.g. "Sm90Nvrtc.*") whose time is NVRTC compiling CUDA
# C++ run as a second test, NAME_nvrtc, labelled nvrtc; NAME runs the others. NVRTC's own work
# is the same in every build and NVRTC is not instrumented, so the sanitizer stage of
# scripts/test.sh leaves the label out (-LE nvrtc): what of ktune those cases run (emitting the
# source, NVRTC's wrapper, reading its resource report) the host-only cases and nvrtc_test run
# there too.
function(ktune_test name)
  if(NOT KTUNE_BUILD_TESTS)
    return()
  endif()
  cmake_parse_arguments(ARG "" "TIMEOUT;COST;NVRTC_CASES" "SOURCES;DEPS;LABELS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_DEPS} GTest::gtest GTest::gtest_main ktune_warnings)
  target_compile_definitions(${name} PRIVATE
    KTUNE_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
    KTUNE_BINARY_DIR="${PROJECT_BINARY_DIR}"
    KTUNE_CUDA_HOME="${KTUNE_CUDA_HOME}")
  if(NOT KTUNE_PCH STREQUAL "OFF")
    # The same definitions as the tests', which the precompiled header must be made with.
    if(NOT TARGET ktune_pch_test)
      _ktune_pch_target(ktune_pch_test OFF ${KTUNE_PCH_HEADERS} <gtest/gtest.h>)
      target_link_libraries(ktune_pch_test PRIVATE GTest::gtest)
      target_compile_definitions(ktune_pch_test PRIVATE
        KTUNE_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
        KTUNE_BINARY_DIR="${PROJECT_BINARY_DIR}"
        KTUNE_CUDA_HOME="${KTUNE_CUDA_HOME}")
    endif()
    target_precompile_headers(${name} REUSE_FROM ktune_pch_test)
  endif()
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 300)
  endif()
  set(tests ${name})
  if(ARG_NVRTC_CASES)
    add_test(NAME ${name} COMMAND ${name} --gtest_filter=-${ARG_NVRTC_CASES})
    add_test(NAME ${name}_nvrtc COMMAND ${name} --gtest_filter=${ARG_NVRTC_CASES})
    set(nvrtc_labels nvrtc ${ARG_LABELS})
    set_tests_properties(${name}_nvrtc PROPERTIES TIMEOUT ${ARG_TIMEOUT} LABELS "${nvrtc_labels}")
    list(APPEND tests ${name}_nvrtc)
  else()
    add_test(NAME ${name} COMMAND ${name})
  endif()
  set_tests_properties(${name} PROPERTIES TIMEOUT ${ARG_TIMEOUT} LABELS "${ARG_LABELS}")
  if(ARG_COST)
    set_tests_properties(${tests} PROPERTIES COST ${ARG_COST})
  endif()
endfunction()
