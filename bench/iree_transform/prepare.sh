#!/usr/bin/env bash
# Builds, on this machine, everything bench/iree_transform/gpu.sh times on the lent GPU:
# IREE's default build of a matmul model, the best IREE-knob configuration found in sessions
# 11-12, and transform-dialect strategies (make_strategy.py), each as the whole model and as
# the dispatch's benchmark module. Output: .carry/iree_transform (git-ignored).
#   bash bench/iree_transform/prepare.sh [MODEL.mlir] ["TILE:WARPS:DEPTH ..."]
set -euo pipefail
cd "$(dirname "$0")/../.."
MODEL=${1:-examples/iree/matmul_2048x10240x1280_f16.mlir}
VARIANTS=${2:-"128x128x32:2x2:3 128x128x32:2x2:4 128x128x64:2x2:3 128x256x32:2x4:3 256x128x32:4x2:3 128x128x32:2x4:3 128x256x64:2x4:3 256x128x64:4x2:3"}
B=.venv/bin
OUT=.carry/iree_transform
rm -rf "$OUT" && mkdir -p "$OUT/default"
FLAGS=(--iree-hal-target-device=cuda --iree-cuda-target=sm_80)
$B/iree-compile "$MODEL" "${FLAGS[@]}" --iree-hal-dump-executable-files-to="$OUT/default/dump" -o "$OUT/default/model.vmfb"
CONF=$(ls "$OUT"/default/dump/configured_*.mlir)
BENCH=$(ls "$OUT"/default/dump/*_benchmark.mlir)
EXE=$(basename "$CONF" .mlir); EXE=${EXE#configured_module_}
$B/iree-compile "$BENCH" "${FLAGS[@]}" -o "$OUT/default/bench.vmfb"
# IREE's own knobs at their best (sessions 11-12: sg4x8/wg2x2/r4, 1.46-1.49x the default).
mkdir -p "$OUT/knobs"
python3 - "$CONF" "$OUT/knobs/configured.mlir" <<'PY'
import re, sys
s = open(sys.argv[1]).read()
s, n = re.subn(r"reduction = \[[^]]*\], subgroup = \[[^]]*\], workgroup = \[[^]]*\]",
               "reduction = [0, 0, 4], subgroup = [4, 8, 0], workgroup = [128, 128, 0]", s)
s, m = re.subn(r"workgroup_size = \[\d+, 1, 1\]", "workgroup_size = [128, 1, 1]", s)
assert n == 1 and m == 1, (n, m)
open(sys.argv[2], "w").write(s)
PY
SUB="--iree-hal-substitute-executable-configuration=$EXE=$OUT/knobs/configured.mlir"
$B/iree-compile "$MODEL" "${FLAGS[@]}" "$SUB" -o "$OUT/knobs/model.vmfb"
$B/iree-compile "$BENCH" "${FLAGS[@]}" "$SUB" -o "$OUT/knobs/bench.vmfb"
for v in $VARIANTS; do
  IFS=: read -r tile warps depth <<<"$v"
  d="$OUT/td_${tile}_w${warps}_d${depth}"
  python3 bench/iree_transform/make_strategy.py "$CONF" "$d" --tile "$tile" --warps "$warps" --depth "$depth"
  SUB=(--iree-hal-substitute-executable-configuration="$EXE=$d/configured.mlir" --iree-codegen-transform-dialect-library="$d/spec.mlir")
  if $B/iree-compile "$MODEL" "${FLAGS[@]}" "${SUB[@]}" --iree-hal-dump-executable-files-to="$d/dump" -o "$d/model.vmfb" >"$d/compile.log" 2>&1 &&
     $B/iree-compile "$BENCH" "${FLAGS[@]}" "${SUB[@]}" -o "$d/bench.vmfb" >>"$d/compile.log" 2>&1; then
    ptx=$(ls "$d"/dump/*.ptx)
    echo "$v: ok, PTX: $(grep -c 'mma.sync' "$ptx") mma.sync, $(grep -c ldmatrix "$ptx") ldmatrix, $(grep -c 'cp.async.cg' "$ptx") cp.async, $(grep -c 'ld.shared.b16' "$ptx") ld.shared.b16"
  else
    echo "$v: compile failed ($d/compile.log)"; rm -rf "$d"
  fi
done
SITE=$(ls -d .venv/lib/python3*/site-packages/iree/_runtime_libs)
mkdir -p "$OUT/tools" && cp "$SITE"/iree-run-module "$SITE"/iree-benchmark-module "$OUT/tools/"
cp bench/iree_transform/gpu.sh "$OUT/"
du -sh "$OUT"
