#!/usr/bin/env bash
# The deterministic fuzz gate CI runs (scripts/test.sh): builds every libFuzzer target with
# clang, replays every committed corpus input of each target, then mutates from a fixed seed
# for a fixed number of executions. The same tree and the same clang make the same inputs,
# however fast the machine (address randomisation off, see below), so a landing is refused only
# for a bug that the committed corpus or this fixed walk reaches, never for a lucky new find.
# Looking for new bugs is the job of scripts/fuzz-explore.sh (random seeds, a time budget); its
# finds become corpus entries here.
# Exits non-zero if any target crashes, hangs, leaks, trips a sanitizer or fails to build.
#
#   scripts/fuzz-smoke.sh [RUNS_PER_TARGET] [TARGET...]
#   scripts/fuzz-smoke.sh --build-only
#
# RUNS_PER_TARGET: executions per target, the corpus replay included (libFuzzer -runs). Default:
# $KTUNE_FUZZ_RUNS, else the target's RUNS in fuzz/CMakeLists.txt (sized for 10-20 s on a
# 2-core machine), else 50000. A number given here or in KTUNE_FUZZ_RUNS applies to every
# target. TARGET: only these targets (default: all in targets.txt).
#
# Environment: KTUNE_FUZZ_RUNS, KTUNE_FUZZ_SEED (libFuzzer -seed, default 1), KTUNE_FUZZ_FLAGS
# (extra libFuzzer flags, appended, e.g. -use_value_profile=1),
# KTUNE_FUZZ_ASLR=1 (leave address space randomisation on; by default setarch -R turns it off),
# ASAN_OPTIONS / UBSAN_OPTIONS (passed on; no other variable reaches the fuzzer),
# KTUNE_FUZZ_BUILD_DIR (default <repo>/build-fuzz), FUZZ_CC / FUZZ_CXX (default clang-14 /
# clang++-14, else clang / clang++), FUZZ_JOBS (build parallelism).
# Crash, timeout and leak inputs are written to <build>/fuzz/artifacts/<target>-crash-* (etc.);
# new corpus entries go to a scratch directory that is deleted afterwards, so the committed
# corpus never changes here.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${KTUNE_FUZZ_BUILD_DIR:-$root/build-fuzz}"

build_only=0
runs="${KTUNE_FUZZ_RUNS:-}"
only=()
for arg in "$@"; do
  case "$arg" in
    "") ;;
    --build-only) build_only=1 ;;
    -h|--help) sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"; exit 0 ;;
    -*) echo "fuzz-smoke: unknown option $arg" >&2; exit 2 ;;
    *)
      if [[ -z "${runs_arg_seen:-}" && "$arg" =~ ^[0-9]+$ ]]; then
        runs="$arg"; runs_arg_seen=1
      else
        only+=("$arg")
      fi ;;
  esac
done
seed="${KTUNE_FUZZ_SEED:-1}"
if [[ -n "${KTUNE_FUZZ_SECONDS:-}" ]]; then
  echo "fuzz-smoke: KTUNE_FUZZ_SECONDS is ignored: this run is sized in executions" \
       "(KTUNE_FUZZ_RUNS); for a time budget use scripts/fuzz-explore.sh --time" >&2
fi
if [[ -n "$runs" && ! "$runs" =~ ^[1-9][0-9]*$ ]]; then
  echo "fuzz-smoke: RUNS_PER_TARGET must be a positive integer, got '$runs'" >&2; exit 2
fi
if [[ ! "$seed" =~ ^[1-9][0-9]*$ ]]; then
  # -seed=0 would make libFuzzer pick a random seed.
  echo "fuzz-smoke: KTUNE_FUZZ_SEED must be a positive integer, got '$seed'" >&2; exit 2
fi

pick() {
  for c in "$@"; do
    if command -v "$c" >/dev/null 2>&1; then echo "$c"; return 0; fi
  done
  return 1
}
cc="${FUZZ_CC:-$(pick clang-14 clang)}" || { echo "fuzz-smoke: clang not found" >&2; exit 2; }
cxx="${FUZZ_CXX:-$(pick clang++-14 clang++)}" || { echo "fuzz-smoke: clang++ not found" >&2; exit 2; }

# Line tables only: enough for the sanitizers' stack traces, and debug info does not change the
# code (so neither the coverage nor the inputs it leads to), only how long the build takes.
CC="$cc" CXX="$cxx" cmake -S "$root" -B "$build" -G Ninja \
  -DKTUNE_FUZZ=ON -DKTUNE_BUILD_TESTS=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -gline-tables-only -DNDEBUG" >/dev/null
cmake --build "$build" --target ktune_fuzz_all -j "${FUZZ_JOBS:-$(nproc)}"

targets="$build/fuzz/targets.txt"
if [[ ! -s "$targets" ]]; then
  echo "fuzz-smoke: no fuzz targets listed in $targets" >&2
  exit 2
fi
((build_only)) && exit 0

for t in "${only[@]}"; do
  if ! awk -v t="$t" '$1 == t { found = 1 } END { exit !found }' "$targets"; then
    echo "fuzz-smoke: no fuzz target '$t' in $targets" >&2; exit 2
  fi
done

# Sanitizer findings must stop the run, not scroll past.
asan_options="${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1}"
ubsan_options="${UBSAN_OPTIONS:-halt_on_error=1:abort_on_error=1:print_stacktrace=1}"

# Which inputs libFuzzer tries next depends on which earlier ones reached new coverage, and a
# little of that coverage depends on where the stack and heap lie: stack depth is a coverage
# feature and frames are realigned, and the table of compared values that guides mutations also
# records compared addresses. Measured: with address space layout randomisation on, two runs of
# the same tree diverged after a few thousand executions (spec even with -use_cmp=0 and no
# stack-depth coverage, so some heap addresses matter too), and with it off, so did a run whose
# environment was 16 bytes longer. So the fuzzer runs with randomisation off (setarch -R, where
# the kernel allows it), with a fixed environment, a fixed stack limit and only relative paths
# on its command line, from the folder it was built in. With all that, runs are identical,
# compare tracing included.
no_aslr=()
if [[ "${KTUNE_FUZZ_ASLR:-0}" != 1 ]]; then
  if setarch "$(uname -m)" -R true 2>/dev/null; then
    no_aslr=(setarch "$(uname -m)" -R)
  else
    echo "fuzz-smoke: WARNING: cannot turn off address space randomisation (setarch -R);" \
         "the mutation walk may differ between runs (the corpus replay does not)" >&2
  fi
fi
fixed_env=(env -i PATH=/usr/local/bin:/usr/bin:/bin
           ASAN_OPTIONS="$asan_options" UBSAN_OPTIONS="$ubsan_options")

artifacts="$build/fuzz/artifacts"
mkdir -p "$artifacts"
# New corpus entries go here and are thrown away; the committed corpus is only read.
scratch_name="smoke.tmp"
scratch="$build/fuzz/$scratch_name"
rm -rf "$scratch"
trap 'rm -rf "$scratch"' EXIT

failed=()
summary=()
while read -r name exe corpus dict extra_seeds target_runs; do
  [[ -n "$name" ]] || continue
  if ((${#only[@]} > 0)) && [[ " ${only[*]} " != *" $name "* ]]; then continue; fi
  n="$runs"
  [[ -z "$n" && -n "${target_runs:-}" && "$target_runs" != "-" ]] && n="$target_runs"
  n="${n:-50000}"
  dir="$(dirname "$exe")"

  # Every committed input, in a fixed order: the corpus folder sorted by path, then the test
  # data named by SEEDS. libFuzzer runs each of them before it mutates anything, so a committed
  # crash reproducer fails this run. They are handed over as -seed_inputs, not as a folder,
  # because the order of a folder listing depends on the file system and libFuzzer breaks ties
  # between same-size seeds by that order. The only folder it gets is the empty scratch one.
  seed_list=()
  if [[ -d "$corpus" ]]; then
    while IFS= read -r -d '' f; do seed_list+=("$f"); done \
      < <(find "$corpus" -type f -print0 | LC_ALL=C sort -z)
  fi
  if [[ -n "${extra_seeds:-}" && "$extra_seeds" != "-" ]]; then
    IFS=',' read -r -a seed_files <<<"$extra_seeds"
    seed_list+=("${seed_files[@]}")
  fi
  mkdir -p "$scratch/$name"
  # -reload=0: never re-read the scratch folder on a timer.
  args=(-seed="$seed" -runs="$n" -reload=0 -timeout=10 -rss_limit_mb=2048
        -print_final_stats=1 -artifact_prefix="$(realpath -m --relative-to="$dir" "$artifacts")/$name-")
  if ((${#seed_list[@]} > 0)); then
    # Comma-separated with no trailing newline: libFuzzer silently skips a name it cannot open.
    realpath -m --relative-to="$dir" "${seed_list[@]}" | paste -sd, - | tr -d '\n' \
      >"$scratch/$name.seeds"
    args+=(-seed_inputs=@"$scratch_name/$name.seeds")
  fi
  [[ "$dict" != "-" ]] && args+=(-dict="$(realpath -m --relative-to="$dir" "$dict")")
  # Extra flags for a one-off run (later flags win), e.g. KTUNE_FUZZ_FLAGS=-use_cmp=0.
  read -r -a flags <<<"${KTUNE_FUZZ_FLAGS:-}"
  args+=("${flags[@]}")

  echo "=== fuzzing $name: ${#seed_list[@]} corpus inputs, then mutations to $n runs, seed $seed"
  start=$SECONDS
  if (cd "$dir" && ulimit -s 8192 2>/dev/null;
      "${fixed_env[@]}" "${no_aslr[@]}" "./$(basename "$exe")" "${args[@]}" "$scratch_name/$name"); then
    echo "=== $name: ok ($((SECONDS - start)) s)"
    summary+=("$(printf '%-16s ok      %8d runs %4d s' "$name" "$n" "$((SECONDS - start))")")
  else
    echo "=== $name: FAILED after $((SECONDS - start)) s (inputs in $artifacts/$name-*)" >&2
    summary+=("$(printf '%-16s FAILED  %8d runs %4d s' "$name" "$n" "$((SECONDS - start))")")
    failed+=("$name")
  fi
done <"$targets"

echo "fuzz-smoke: seed $seed"
for s in "${summary[@]}"; do echo "  $s"; done

if ((${#failed[@]} > 0)); then
  echo "fuzz-smoke: failures in: ${failed[*]}" >&2
  echo "fuzz-smoke: reproduce one with <build>/fuzz/<target>_fuzz <input>; see fuzz/README.md" >&2
  exit 1
fi
echo "fuzz-smoke: all targets ok"
