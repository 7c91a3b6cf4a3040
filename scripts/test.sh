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
# others: build 12 min, tests 4.3, ASan build 14, ASan tests 10.3. CI allows 90.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
jobs=${KTUNE_JOBS:-$(nproc)}

# CI's builds keep line tables only (-g1), enough for backtraces and sanitizer reports: full
# debug info was ~40% of every compile (tune_command.cc, 2 cores: 17.7 s at -O2 -g, 10.0 s at
# -O2 -g1), and this script compiles the tree three times. With ccache (scripts/install-deps.sh)
# the Python stage's build, configured with the same flags (KTUNE_PY_MATCH_BUILD below), reuses
# the objects of build/ instead of compiling the CLI and its libraries once more.
relwithdebinfo_flags="-O2 -g1 -DNDEBUG"
launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  # Two build trees, one cache: the build directory (the compiler's working directory, which
  # -g records) must not be part of the cache key.
  export CCACHE_NOHASHDIR=true
  # In the checkout unless the caller has a cache of its own: a CI machine's home may not be
  # writable, and a failed cache write must not fail the build.
  export CCACHE_DIR="${CCACHE_DIR:-$PWD/build-ccache}"
  export KTUNE_PY_MATCH_BUILD="$relwithdebinfo_flags"
  # One compiler path for every build: ccache keys on the compiler's name, and pip's build
  # environment found g++ where CMake had found c++ (session 33: 8 hits in 791).
  CXX="${CXX:-$(command -v c++ || command -v g++)}"
  export CXX
fi

echo "== build (RelWithDebInfo, -g1) and test"
./scripts/build.sh build "${launcher[@]}" "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=$relwithdebinfo_flags"
(cd build && ctest --output-on-failure -j "$jobs")

if [ "${KTUNE_TEST_PYTHON:-1}" = 1 ]; then
  echo "== Python package: pip install . in a fresh venv (build-python/), pytest python/tests"
  ./scripts/test-python.sh
fi

if [ "${KTUNE_TEST_QUICK:-0}" = 1 ]; then exit 0; fi

echo "== build with AddressSanitizer + UndefinedBehaviorSanitizer and test"
KTUNE_BUILD_TYPE=Debug ./scripts/build.sh build-asan -DKTUNE_SANITIZE=ON "${launcher[@]}" -DCMAKE_CXX_FLAGS_DEBUG=-g1
(cd build-asan && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --output-on-failure -j "$jobs" -LE bench)

echo "== fuzz smoke run (deterministic)"
./scripts/fuzz-smoke.sh ${KTUNE_FUZZ_RUNS:+"$KTUNE_FUZZ_RUNS"}
