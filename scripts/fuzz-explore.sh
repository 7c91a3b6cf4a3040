#!/usr/bin/env bash
# Exploratory fuzzing, by hand or on a schedule, never as a gate: random (or given) seeds and
# a time budget per target, so every session walks somewhere new. What it finds is turned into
# committed corpus entries, which the deterministic gate (scripts/fuzz-smoke.sh, run by
# scripts/test.sh) replays on every landing. See fuzz/README.md.
#
#   scripts/fuzz-explore.sh [--time SECONDS] [--seed N] [--merge-into-corpus] [TARGET...]
#                           [-- LIBFUZZER_FLAG...]
#
#   --time SECONDS        budget per target (libFuzzer -max_total_time; default 300)
#   --seed N              libFuzzer -seed for every target (default: a new random one per
#                         target, printed; a time budget and the grown working corpus make
#                         a rerun with the same seed similar, not identical)
#   --merge-into-corpus   afterwards, merge (libFuzzer -merge=1 -use_counters=0) the inputs
#                         that reach code not reached by fuzz/corpus/<target>/ and the
#                         target's SEEDS into fuzz/corpus/<target>/, for review and commit
#   TARGET...             only these targets (default: every target in targets.txt)
#   -- FLAG...            extra libFuzzer flags, e.g. -- -use_value_profile=1 -fork=2
#
# The working corpus of each target persists in <build>/fuzz/explore/<target>/, so sessions
# build on each other; delete it to start over. Crash, timeout, leak and out-of-memory inputs
# are kept in <build>/fuzz/artifacts/<target>-{crash,timeout,leak,oom,slow-unit}-<sha1>.
# Exits 1 if any target produced such an input, 2 on usage or build errors, else 0.
# Environment as for scripts/fuzz-smoke.sh (KTUNE_FUZZ_BUILD_DIR, FUZZ_CC, FUZZ_CXX, FUZZ_JOBS).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${KTUNE_FUZZ_BUILD_DIR:-$root/build-fuzz}"

usage() { sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"; }

seconds=300
fixed_seed=""
merge=0
only=()
extra=()
while (($# > 0)); do
  case "$1" in
    --time) seconds="${2:-}"; shift 2 || { usage >&2; exit 2; } ;;
    --time=*) seconds="${1#*=}"; shift ;;
    --seed) fixed_seed="${2:-}"; shift 2 || { usage >&2; exit 2; } ;;
    --seed=*) fixed_seed="${1#*=}"; shift ;;
    --merge-into-corpus) merge=1; shift ;;
    -h|--help) usage; exit 0 ;;
    --) shift; extra=("$@"); break ;;
    -*) echo "fuzz-explore: unknown option $1" >&2; usage >&2; exit 2 ;;
    *) only+=("$1"); shift ;;
  esac
done
if [[ ! "$seconds" =~ ^[1-9][0-9]*$ ]]; then
  echo "fuzz-explore: --time wants a positive number of seconds, got '$seconds'" >&2; exit 2
fi
if [[ -n "$fixed_seed" && ! "$fixed_seed" =~ ^[1-9][0-9]*$ ]]; then
  echo "fuzz-explore: --seed wants a positive integer, got '$fixed_seed'" >&2; exit 2
fi

# The same build as the gate's.
"$root/scripts/fuzz-smoke.sh" --build-only

targets="$build/fuzz/targets.txt"
for t in "${only[@]}"; do
  if ! awk -v t="$t" '$1 == t { found = 1 } END { exit !found }' "$targets"; then
    echo "fuzz-explore: no fuzz target '$t' in $targets (have: $(cut -d' ' -f1 "$targets" | tr '\n' ' '))" >&2
    exit 2
  fi
done

export ASAN_OPTIONS="${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-halt_on_error=1:abort_on_error=1:print_stacktrace=1}"

artifacts="$build/fuzz/artifacts"
mkdir -p "$artifacts"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT

random_seed() { echo $(( ($(od -An -N4 -tu4 /dev/urandom) % 2147483646) + 1 )); }

finds=()        # "<target> <artifact path>"
merged_total=0
summary=()
while read -r name exe corpus dict extra_seeds _; do
  [[ -n "$name" ]] || continue
  if ((${#only[@]} > 0)) && [[ " ${only[*]} " != *" $name "* ]]; then continue; fi
  seed="${fixed_seed:-$(random_seed)}"
  work="$build/fuzz/explore/$name"
  mkdir -p "$work"

  seed_files=()
  if [[ -n "${extra_seeds:-}" && "$extra_seeds" != "-" ]]; then
    IFS=',' read -r -a seed_files <<<"$extra_seeds"
  fi
  # libFuzzer writes new inputs only to the first folder (the working corpus); the committed
  # corpus folder and the SEEDS files are read, never written.
  args=(-seed="$seed" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048
        -print_final_stats=1 -artifact_prefix="$artifacts/$name-")
  ((${#seed_files[@]} > 0)) && args+=(-seed_inputs="$extra_seeds")
  [[ "$dict" != "-" ]] && args+=(-dict="$dict")
  dirs=("$work")
  [[ -d "$corpus" ]] && dirs+=("$corpus")

  before="$scratch/$name.artifacts-before"
  find "$artifacts" -maxdepth 1 -type f -name "$name-*" | sort >"$before"
  echo "=== exploring $name for ${seconds}s, seed $seed (same seed again: scripts/fuzz-explore.sh --seed $seed --time $seconds $name)"
  rc=0
  "$exe" "${args[@]}" "${extra[@]}" "${dirs[@]}" || rc=$?
  new_finds=()
  while IFS= read -r f; do new_finds+=("$f"); done \
    < <(find "$artifacts" -maxdepth 1 -type f -name "$name-*" | sort | comm -13 "$before" -)
  for f in "${new_finds[@]}"; do finds+=("$name $f"); done
  if ((rc != 0 && ${#new_finds[@]} == 0)); then
    echo "=== $name: libFuzzer exited $rc without leaving an input in $artifacts" >&2
    finds+=("$name (exit $rc, no input saved)")
  fi
  line="$name: seed $seed, ${#new_finds[@]} find(s), $(find "$work" -type f | wc -l) inputs in $work"

  if ((merge)); then
    # Merge against the committed corpus plus the SEEDS test data, so only inputs that add
    # coverage beyond what CI already replays are kept, and the test data is not copied in.
    base="$scratch/$name.base"
    mkdir -p "$base"
    [[ -d "$corpus" ]] && find "$corpus" -maxdepth 1 -type f -exec cp -t "$base" {} +
    ((${#seed_files[@]} > 0)) && cp -t "$base" "${seed_files[@]}"
    find "$base" -maxdepth 1 -type f -printf '%f\n' | sort >"$scratch/$name.base-before"
    echo "=== merging new coverage of $name into $corpus"
    # -use_counters=0: keep inputs that reach new code (edges), not every new hit count of
    # code already reached; measured on a first 5 s session: 75 instead of 180 new amdgpu_elf
    # inputs, with the same 487 new edges.
    if "$exe" -merge=1 -use_counters=0 -timeout=10 -rss_limit_mb=2048 \
         -artifact_prefix="$artifacts/$name-" "$base" "$work"; then
      added=0
      while IFS= read -r f; do
        mkdir -p "$corpus"
        cp "$base/$f" "$corpus/$f"
        added=$((added + 1))
      done < <(find "$base" -maxdepth 1 -type f -printf '%f\n' | sort | comm -13 "$scratch/$name.base-before" -)
      merged_total=$((merged_total + added))
      line+=", $added merged into $corpus"
    else
      echo "=== $name: merge failed; the committed corpus is unchanged" >&2
      line+=", merge FAILED"
    fi
  fi
  summary+=("$line")
done <"$targets"

echo
echo "fuzz-explore: summary"
for s in "${summary[@]}"; do echo "  $s"; done

if ((merge)); then
  echo
  if ((merged_total > 0)); then
    cat <<EOF
fuzz-explore: $merged_total new corpus input(s) were added under fuzz/corpus/. Review them
  (git status fuzz/corpus), run scripts/fuzz-smoke.sh to see the gate still passes with them,
  and commit them: CI replays every committed input on every run.
EOF
  else
    echo "fuzz-explore: no input added coverage beyond the committed corpus."
  fi
elif ((${#summary[@]} > 0)); then
  echo "  (rerun with --merge-into-corpus to add the inputs that cover new code to fuzz/corpus/)"
fi

if ((${#finds[@]} == 0)); then
  echo "fuzz-explore: no crash, timeout, leak or out-of-memory input found."
  exit 0
fi

echo
echo "fuzz-explore: FOUND ${#finds[@]} problem input(s):"
for entry in "${finds[@]}"; do
  name="${entry%% *}"
  f="${entry#* }"
  if [[ ! -f "$f" ]]; then echo "  $name: $f"; continue; fi
  sha="$(sha1sum "$f" | cut -c1-12)"
  exe="$(awk -v t="$name" '$1 == t { print $2 }' "$targets")"
  cat <<EOF

  $name: $f
    reproduce: $exe $f
    once fixed, keep it as a corpus entry, which the CI gate replays on every run:
      cp $f $root/fuzz/corpus/$name/regress-$sha
    and add a regression test with the same input beside the parser's tests, named after
    the bug (see fuzz/README.md).
EOF
done
exit 1
