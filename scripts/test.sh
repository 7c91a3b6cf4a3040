#!/usr/bin/env bash
# The whole test suite: installs dependencies, builds, runs every CTest test (GPU tests skip
# with a printed reason where no GPU exists), then the same suite under ASan+UBSan, then a
# short deterministic fuzzing run of every fuzz target (fixed seed, fixed number of executions,
# the committed corpus; KTUNE_FUZZ_RUNS / KTUNE_FUZZ_SEED change them, see fuzz/README.md).
# KTUNE_TEST_QUICK=1 skips the sanitizer and fuzz stages. Between the first stage and the
# sanitizers, the Python package: `pip install .` into a fresh venv and its pytest tests
# (scripts/test-python.sh; KTUNE_TEST_PYTHON=0 skips it).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
jobs=${KTUNE_JOBS:-$(nproc)}

echo "== build (RelWithDebInfo) and test"
./scripts/build.sh build
(cd build && ctest --output-on-failure -j "$jobs")

if [ "${KTUNE_TEST_PYTHON:-1}" = 1 ]; then
  echo "== Python package: pip install . in a fresh venv (build-python/), pytest python/tests"
  ./scripts/test-python.sh
fi

if [ "${KTUNE_TEST_QUICK:-0}" = 1 ]; then exit 0; fi

echo "== build with AddressSanitizer + UndefinedBehaviorSanitizer and test"
KTUNE_BUILD_TYPE=Debug ./scripts/build.sh build-asan -DKTUNE_SANITIZE=ON
(cd build-asan && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --output-on-failure -j "$jobs" -LE bench)

echo "== fuzz smoke run (deterministic)"
./scripts/fuzz-smoke.sh ${KTUNE_FUZZ_RUNS:+"$KTUNE_FUZZ_RUNS"}
