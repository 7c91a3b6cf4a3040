#!/usr/bin/env bash
# The whole test suite: installs dependencies, builds, runs every CTest test (GPU tests skip
# with a printed reason where no GPU exists), then the same suite under ASan+UBSan, then a
# short deterministic fuzzing run of every fuzz target (fixed seed, fixed number of executions,
# the committed corpus; KTUNE_FUZZ_RUNS / KTUNE_FUZZ_SEED change them, see fuzz/README.md).
# KTUNE_TEST_QUICK=1 skips the sanitizer and fuzz stages. Between the first stage and the
# sanitizers, the Python package: `pip install .` into a fresh venv and its pytest tests
# (scripts/test-python.sh; KTUNE_TEST_PYTHON=0 skips it).
#
# Time on a 2-core machine (session 33, a fresh clone): .ci/run took 57 min in all, then the
# Python stage 0.5 min instead of 7.5 once its compiler path matched build/'s (CXX below) and
# the fuzz stage 5.7 instead of about 8.5 with line tables only, each measured alone; the
# others: build 12 min, tests 4.3, ASan build 14, ASan tests 10.3. CI allows 90. CI's last four
# landings took 53, 59, 60 and 78 min, and the next try ran past 90; session 43 measured the
# sanitized stage alone at 26.7 min of build (GCC) and, built by clang, 14.4 min of tests; the
# tests the session then changed (-O1 modules, the nvrtc label, a lighter smoke test) took 405 s
# less CPU. Then .ci/run in a fresh clone (2 cores, session 43): tests 6.3 min, Python 0.8,
# ASan build 16.0 (clang), ASan tests 10.0, fuzz 7.9, and the build about 22 (measured in two
# parts): about 62 min in all. A whole fresh-clone run (session 44, one piece): 65.4 min; build
# 18.4, tests 6.2, Python 0.8, ASan build 17.2, ASan tests 11.7, fuzz 10.6. Stop 53's CI try ran
# past 90 min on a slower machine (84.5 min by the end of its ASan tests, which took 15.4 against
# 11.7). Session 48 then, on this machine that day: the first build 1910 s without precompiled
# headers for the modules (tests had them), 1480 s with (the Python stage building in build/
# instead of sharing objects through ccache), tests 618 s, Python 59 s, ASan build 975 s (with
# precompiled headers, linked by lld: then e2e_test's SEGV candidate read as a timeout under ASan, so
# lld is not used here until that is understood); the fuzz build 131 steps to 73 (3.5 min). Each stage prints its
# time (stage_done).
set -euo pipefail
cd "$(dirname "$0")/.."
# Each stage's wall time, printed as it ends: the CI log says where a slow run's time went.
stage_start=$SECONDS
stage_done() {
  echo "== $1 took $((SECONDS - stage_start)) s (total $SECONDS s)"
  stage_start=$SECONDS
}
./scripts/install-deps.sh
stage_done "install-deps"
jobs=${KTUNE_JOBS:-$(nproc)}

# CI's builds keep line tables only (-g1), enough for backtraces and sanitizer reports: full
# debug info was ~40% of every compile (tune_command.cc, 2 cores: 17.7 s at -O2 -g, 10.0 s at
# -O2 -g1). Every tree precompiles the standard, JSON and GoogleTest headers (KTUNE_PCH,
# cmake/KtuneTargets.cmake). No ccache: CI's clone starts with an empty cache, ccache caches no
# compile that uses a precompiled header, and the Python stage builds in build/ itself.
relwithdebinfo_flags="-O2 -g1 -DNDEBUG"

echo "== build (RelWithDebInfo, -g1) and test"
# Tests on and the Python module off, whatever the Python stage of an earlier run left in
# build/'s cache (it builds there with the tests off).
./scripts/build.sh build "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=$relwithdebinfo_flags" \
  -DKTUNE_BUILD_TESTS=ON -DKTUNE_PYTHON=OFF
stage_done "build"
(cd build && ctest --output-on-failure --no-tests=error -j "$jobs")
stage_done "tests"

if [ "${KTUNE_TEST_PYTHON:-1}" = 1 ]; then
  echo "== Python package: pip install . in a fresh venv (build-python/), pytest python/tests"
  # In build/, whose objects the first stage compiled: only the extension module is new.
  KTUNE_PY_BUILD_DIR=build ./scripts/test-python.sh
  stage_done "Python package"
fi

if [ "${KTUNE_TEST_QUICK:-0}" = 1 ]; then exit 0; fi

# The sanitized build is compiled by clang (scripts/install-deps.sh installs clang-14 and its
# sanitizer runtimes for the fuzz stage) where it is there: GCC 12 took 26.7 min on 2 cores for
# this tree's -O0 ASan+UBSan build, the largest stage of a CI run that ran past its 90 minutes
# (session 43); clang 14's compile jobs summed 21% less (2528 s against 3202; gemm_command.cc
# 13.0 s of CPU against 22.5). The first stage and the Python package stay on the default
# compiler (GCC on Debian), so both compilers build and test the whole tree every run.
# KTUNE_ASAN_CXX overrides the choice. The sanitizers leave out the tests labelled nvrtc (the
# cases whose time is NVRTC's, cmake/KtuneTargets.cmake's NVRTC_CASES): the first stage runs them.
asan_cxx="${KTUNE_ASAN_CXX:-$(command -v clang++-14 || command -v clang++ || command -v "${CXX:-c++}")}"
echo "== build with AddressSanitizer + UndefinedBehaviorSanitizer ($asan_cxx) and test"
KTUNE_BUILD_TYPE=Debug ./scripts/build.sh build-asan -DKTUNE_SANITIZE=ON \
  "-DCMAKE_CXX_COMPILER=$asan_cxx" -DCMAKE_CXX_FLAGS_DEBUG=-g1
stage_done "ASan build"
(cd build-asan && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --output-on-failure --no-tests=error -j "$jobs" -LE "bench|nvrtc")
stage_done "ASan tests"

echo "== fuzz smoke run (deterministic)"
./scripts/fuzz-smoke.sh ${KTUNE_FUZZ_RUNS:+"$KTUNE_FUZZ_RUNS"}
stage_done "fuzz"
