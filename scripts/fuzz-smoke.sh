#!/usr/bin/env bash
# Builds every libFuzzer target with clang and runs each on its seed corpus for a while.
# Exits non-zero if any target crashes, leaks, trips a sanitizer or fails to build.
#
#   scripts/fuzz-smoke.sh [SECONDS_PER_TARGET]    (default 30)
#
# Environment: KTUNE_FUZZ_BUILD_DIR (default <repo>/build-fuzz), FUZZ_CC / FUZZ_CXX
# (default clang-14 / clang++-14, else clang / clang++), FUZZ_JOBS (build parallelism).
# Crash inputs are written to <build>/fuzz/artifacts/<target>-crash-*; new corpus entries
# go to a scratch directory so the committed seed corpus stays small.
set -euo pipefail

seconds="${1:-30}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${KTUNE_FUZZ_BUILD_DIR:-$root/build-fuzz}"

pick() {
  for c in "$@"; do
    if command -v "$c" >/dev/null 2>&1; then echo "$c"; return 0; fi
  done
  return 1
}
cc="${FUZZ_CC:-$(pick clang-14 clang)}" || { echo "fuzz-smoke: clang not found" >&2; exit 2; }
cxx="${FUZZ_CXX:-$(pick clang++-14 clang++)}" || { echo "fuzz-smoke: clang++ not found" >&2; exit 2; }

CC="$cc" CXX="$cxx" cmake -S "$root" -B "$build" -G Ninja \
  -DKTUNE_FUZZ=ON -DKTUNE_BUILD_TESTS=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" --target ktune_fuzz_all -j "${FUZZ_JOBS:-$(nproc)}"

targets="$build/fuzz/targets.txt"
if [[ ! -s "$targets" ]]; then
  echo "fuzz-smoke: no fuzz targets listed in $targets" >&2
  exit 2
fi

# Sanitizer findings must stop the run, not scroll past.
export ASAN_OPTIONS="${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-halt_on_error=1:abort_on_error=1:print_stacktrace=1}"

artifacts="$build/fuzz/artifacts"
mkdir -p "$artifacts"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT

failed=()
while read -r name exe corpus dict extra_seeds; do
  [[ -n "$name" ]] || continue
  echo "=== fuzzing $name for ${seconds}s"
  mkdir -p "$scratch/$name"
  # Test data that doubles as seeds lives with its tests; libFuzzer reads seeds from folders.
  if [[ -n "${extra_seeds:-}" && "$extra_seeds" != "-" ]]; then
    IFS=',' read -r -a seed_files <<<"$extra_seeds"
    cp "${seed_files[@]}" "$scratch/$name/"
  fi
  args=(-max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1
        -artifact_prefix="$artifacts/$name-")
  [[ "$dict" != "-" ]] && args+=(-dict="$dict")
  seeds=()
  [[ -d "$corpus" ]] && seeds+=("$corpus")
  if "$exe" "${args[@]}" "$scratch/$name" "${seeds[@]}"; then
    echo "=== $name: ok"
  else
    echo "=== $name: FAILED (inputs in $artifacts)" >&2
    failed+=("$name")
  fi
done <"$targets"

if ((${#failed[@]} > 0)); then
  echo "fuzz-smoke: failures in: ${failed[*]}" >&2
  exit 1
fi
echo "fuzz-smoke: all targets ok"
