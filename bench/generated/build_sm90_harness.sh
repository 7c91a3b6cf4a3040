#!/usr/bin/env bash
# Builds bench/generated/sm90_harness.cu and one cubin per kernel variant it lists, into
# /work/main/.carry-sm90/ (git-ignored via .git/info/exclude), for the GPU machine. Driver calls
# go through cudaGetDriverEntryPointByVersion, so nothing links libcuda and --list-builds runs here:
#   run: .carry-sm90/sm90_harness .carry-sm90/cubins   (carry: [".carry-sm90"])
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
out="${OUT_DIR:-$root/.carry-sm90}"
nvcc=/usr/local/cuda/bin/nvcc
kernels="$root/src/ktune/families/generated/kernels"
mkdir -p "$out/cubins"

"$nvcc" -std=c++20 -O2 -gencode=arch=compute_90a,code=sm_90a -cudart static -I"$root/src" \
  -o "$out/sm90_harness" "$root/bench/generated/sm90_harness.cu" "$root/src/ktune/families/generated/sm90_path.cc" -ldl

# One translation unit, compiled once per variant with its defines header (-include: what the
# emitter puts before the sources it concatenates for NVRTC).
tu="$out/sm90_kernel.cu"
printf '#include "%s/gemm_params.h"\n#include "%s/gemm_common.cuh"\n#include "%s/gemm_sm90.cuh"\n' \
  "$kernels" "$kernels" "$kernels" > "$tu"
mkdir -p "$out/defines"
"$out/sm90_harness" --list-builds "$out/defines" > "$out/builds.txt"
rm -f "$out"/cubins/*.cubin "$out"/cubins/*.log "$out/ptxas.log"
build_one() {
  local name="$1"; shift
  "$nvcc" -std=c++17 -cubin -gencode=arch=compute_90a,code=sm_90a -Xptxas -v "$@" -o "$out/cubins/$name.cubin" "$tu" \
    > "$out/cubins/$name.log" 2>&1 || { echo "build failed: $name"; cat "$out/cubins/$name.log"; return 1; }
}
export -f build_one; export nvcc out tu
xargs -P 2 -L 1 bash -c 'build_one "$@"' _ < "$out/builds.txt"
for f in "$out"/cubins/*.log; do
  echo "$(basename "$f" .log): $(grep -o 'Used [0-9]* registers' "$f"), $(grep -o '[0-9]* bytes spill stores' "$f")"
done > "$out/ptxas.log"
rm -f "$out"/cubins/*.log
echo "built $(ls "$out"/cubins/*.cubin | wc -l) cubins into $out/cubins"
grep -v ' 0 bytes spill stores' "$out/ptxas.log" || true
