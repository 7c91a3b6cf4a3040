#!/usr/bin/env bash
# Builds bench/generated/sm80_harness.cu: one object per kernel configuration below (each with
# its own -D knob and problem macros), plus the driver, linked with static cudart into
# $OUT_DIR/sm80_harness (default /work/main/.carry-sm80, carried to the GPU machine).
#   bench/generated/build_sm80_harness.sh [instance-name-filter-regex]
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
OUT_DIR="${OUT_DIR:-$ROOT/.carry-sm80}"
NVCC="${NVCC:-/usr/local/cuda/bin/nvcc}"
ARCH="${ARCH:-sm_90}"
JOBS="${JOBS:-2}"
FILTER="${1:-.}"
rm -rf "$OUT_DIR/obj"
mkdir -p "$OUT_DIR/obj"

# name | problem macros | knob macros. Problem: IN OUT A_K B_K READS_C BIAS ACT SPLIT.
# Knobs: TILE_M TILE_N TILE_K SUBGROUP_M SUBGROUP_N STAGES VECTOR_BYTES [TIMED].
CONFIGS=(
  # correctness: every layout with 16- and 2-byte copies, 8 and 4 bytes on two, every epilogue
  "c_nn_v16 |1 1 1 0 1 1 1 1|128 128 32 2 2 3 16"
  "c_nn_v2  |0 2 1 0 0 0 2 1|64 64 32 2 2 2 2"
  "c_nt_v16 |0 0 1 1 1 0 0 1|128 256 32 2 4 4 16"
  "c_nt_v2  |1 1 1 1 0 1 1 1|128 128 64 2 2 3 2"
  "c_tn_v16 |1 2 0 0 1 0 2 1|128 128 32 2 4 3 16"
  "c_tn_v2  |0 0 0 0 0 1 0 1|256 128 32 4 2 3 2"
  "c_tt_v16 |1 1 0 1 1 1 2 1|64 128 16 1 4 4 16"
  "c_tt_v2  |0 2 0 1 1 1 1 1|128 64 32 2 2 3 2"
  "c_nn_v8  |1 1 1 0 1 0 0 1|128 128 32 2 2 3 8"
  "c_tn_v8  |0 2 0 0 0 1 2 1|64 256 32 1 4 3 8"
  "c_tt_v4  |0 0 0 1 0 0 2 1|128 128 32 2 2 4 4"
  "c_nt_v4  |1 2 1 1 0 1 1 1|128 128 64 4 2 3 4"
  # the epilogue's staging area outgrows the 2-stage ring here
  "c_nt_v16_thin |0 1 1 1 1 1 2 1|16 256 16 1 4 2 16"
  # timed: plain D = A B, nn
  "t_b_128x256x32_s3 |1 1 1 0 0 0 0 0|128 256 32 2 4 3 16 1"
  "t_b_128x256x32_s4 |1 1 1 0 0 0 0 0|128 256 32 2 4 4 16 1"
  "t_b_128x256x64_s3 |1 1 1 0 0 0 0 0|128 256 64 2 4 3 16 1"
  "t_b_128x256x64_s4 |1 1 1 0 0 0 0 0|128 256 64 2 4 4 16 1"
  "t_b_256x128x64_s3 |1 1 1 0 0 0 0 0|256 128 64 4 2 3 16 1"
  "t_b_128x128x32_s4 |1 1 1 0 0 0 0 0|128 128 32 2 2 4 16 1"
  "t_b_128x128x64_s3 |1 1 1 0 0 0 0 0|128 128 64 2 2 3 16 1"
  "t_h_128x256x32_s4 |0 0 1 0 0 0 0 0|128 256 32 2 4 4 16 1"
  "t_h_128x256x64_s3 |0 0 1 0 0 0 0 0|128 256 64 2 4 3 16 1"
  "t_h_128x128x64_s3 |0 0 1 0 0 0 0 0|128 128 64 2 2 3 16 1"
  "t_h_128x128x32_s4 |0 0 1 0 0 0 0 0|128 128 32 2 2 4 16 1"
  "t_h_64x256x64_s3  |0 0 1 0 0 0 0 0|64 256 64 1 4 3 16 1"
)

INC="$OUT_DIR/obj/sm80_instances.inc"
: > "$INC.tmp"
COMMANDS=()
for line in "${CONFIGS[@]}"; do
  IFS='|' read -r name problem knobs <<< "$line"
  name="$(echo $name)"
  [[ "$name" =~ $FILTER ]] || continue
  read -r in out ak bk rc bias act split <<< "$problem"
  read -r tm tn tk sgm sgn stages vec timed <<< "$knobs"
  defs="-DKT_HARNESS_INSTANCE=$name -DKT_IN_TYPE=$in -DKT_OUT_TYPE=$out -DKT_A_K_CONTIGUOUS=$ak"
  defs+=" -DKT_B_K_CONTIGUOUS=$bk -DKT_READS_C=$rc -DKT_HAS_BIAS=$bias -DKT_ACTIVATION=$act -DKT_SPLIT_K=$split"
  defs+=" -DKT_TILE_M=$tm -DKT_TILE_N=$tn -DKT_TILE_K=$tk -DKT_SUBGROUP_M=$sgm -DKT_SUBGROUP_N=$sgn"
  defs+=" -DKT_STAGES=$stages -DKT_VECTOR_BYTES=$vec -DKT_MIN_BLOCKS=1 -DKT_THREADS=$((32 * sgm * sgn))"
  defs+=" -DKT_HARNESS_TIMED=${timed:-0}"
  echo "KT_INSTANCE($name)" >> "$INC.tmp"
  COMMANDS+=("$NVCC -std=c++17 -O3 -arch=$ARCH -Xptxas -v $defs -c $HERE/sm80_harness.cu -o $OUT_DIR/obj/$name.o > $OUT_DIR/obj/$name.log 2>&1 || { cat $OUT_DIR/obj/$name.log; exit 1; }")
done
mv "$INC.tmp" "$INC"

printf '%s\n' "${COMMANDS[@]}" | xargs -P "$JOBS" -I{} bash -c '{}'
objects=()
for line in "${CONFIGS[@]}"; do
  name="$(echo ${line%%|*})"
  [[ "$name" =~ $FILTER ]] && objects+=("$OUT_DIR/obj/$name.o")
done
"$NVCC" -std=c++17 -O2 -arch="$ARCH" -I"$OUT_DIR/obj" -c "$HERE/sm80_harness.cu" -o "$OUT_DIR/obj/driver.o"
"$NVCC" -arch="$ARCH" -cudart static "$OUT_DIR/obj/driver.o" "${objects[@]}" -o "$OUT_DIR/sm80_harness"
# Register use and spills per kernel, from ptxas.
grep -h -E "Compiling entry|Used|spill" "$OUT_DIR"/obj/*.log | sed -E "s/ptxas info *: //" | paste - - - | \
  awk "{print \$4, \$10, \$11, \$12, \$13, \$19, \$20}" > "$OUT_DIR/ptxas_summary.txt" || true
echo "built $OUT_DIR/sm80_harness (${#objects[@]} kernels)"
