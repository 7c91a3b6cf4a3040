#!/bin/bash
# Issue 10 on the lent GPU: `ktune model tune` on the IREE examples, end to end (profile, tune the
# hottest dispatches through the tuning loop, rebuild, time the whole model against IREE's
# default build in the same session), plus torch.matmul on the seed shapes in the same run.
# Everything it needs is carried in .carry/iree_model (bench/iree_model_prepare.sh makes it):
# the static ktune, IREE's runtime tools and iree-compile with libIREECompiler.so (xz).
#   bench/iree_model_gpu.sh OUT "MODEL[:TOP[:MAXCAND[:MAXOBJECTS[:MAXTRANSFORMS[:TAG]]]]] ..."
# Writes OUT/<model>.json (ktune's --json answer), OUT/<model>.progress, OUT/<model>_tuned/,
# OUT/torch.json, OUT/model.db.
set -u
OUT=${1:?usage: iree_model_gpu.sh OUT "MODEL[:TOP[:MAXCAND]] ..."}
MODELS=${2:-matmul_2048x10240x1280_f16:1:32}
C=.carry/iree_model
T=/tmp/ktune_iree_tools
mkdir -p "$OUT" "$T"
if [ ! -x "$T/iree-compile" ]; then
  python3 -c "import lzma, tarfile, sys; tarfile.open(fileobj=lzma.open(sys.argv[1])).extractall(sys.argv[2])" "$C/tools.tar.xz" "$T"
  chmod +x "$T"/*
  python3 -c "import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], 'wb'))" \
    "$C/libIREECompiler.so.xz" "$T/libIREECompiler.so"
fi
K=/tmp/ktune_iree_tools/ktune
if [ ! -x "$K" ]; then
  python3 -c "import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], 'wb'))" "$C/ktune.xz" "$K"
  chmod +x "$K"
fi
"$K" --json devices > "$OUT/devices.json" 2>&1
# GPU tests carried by bench/iree_model_prepare.sh (GPU_TESTS=...), before the tuning; their
# testdata is read from this checkout.
for x in "$C"/*_test.xz; do
  [ -e "$x" ] || continue
  t=$(basename "$x" .xz)
  python3 -c "import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], 'wb'))" "$x" "/tmp/$t"
  chmod +x "/tmp/$t"
  KTUNE_SOURCE_DIR=$PWD timeout 300 "/tmp/$t" > "$OUT/$t.log" 2>&1
  echo "$t rc=$?"; tail -25 "$OUT/$t.log"
done
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv > "$OUT/gpu.csv" 2>&1
for spec in $MODELS; do
  IFS=: read -r name top maxc maxobj maxtd tag <<< "$spec"
  out_name=$name${tag:+_$tag}
  start=$(date +%s.%N)
  "$K" --db "$OUT/model.db" --json model tune "examples/iree/$name.mlir" --target cuda:sm_80 --iree-tools "$T" \
    --out "/tmp/ktune_work/$out_name" --top "${top:-5}" --max-candidates "${maxc:-32}" --max-objects "${maxobj:-8}" \
    --max-transforms "${maxtd:-6}" -o "$OUT/${out_name}_tuned" --progress json > "$OUT/$out_name.json" 2> "$OUT/$out_name.progress"
  echo "$out_name rc=$? wall=$(python3 -c "import time; print(round(time.time() - $start, 1))") s"
  # The -o answer as a user applies it: compile.sh with the carried iree-compile.
  if [ -x "$OUT/${out_name}_tuned/compile.sh" ]; then
    IREE_COMPILE="$T/iree-compile" "$OUT/${out_name}_tuned/compile.sh" "examples/iree/$name.mlir" "/tmp/${out_name}_recompiled.vmfb" \
      > "$OUT/${out_name}_recompile.log" 2>&1
    echo "$out_name compile.sh rc=$?"
  fi
  rm -f "$OUT/${out_name}_tuned/tuned.vmfb"  # large; compile.sh rebuilds it
done
python3 - "$OUT/torch.json" <<'PY'
import json, sys
try:
    import torch
    from triton.testing import do_bench
    res = {"device": torch.cuda.get_device_name()}
    for m, n, k in [(2048, 10240, 1280), (32, 2048, 1024), (512, 4096, 1024), (512, 1024, 4096)]:
        a = torch.randn(m, k, device="cuda", dtype=torch.float16)
        b = torch.randn(k, n, device="cuda", dtype=torch.float16)
        res[f"{m}x{n}x{k}"] = do_bench(lambda: a @ b, return_mode="median") * 1e-3
        # The IREE dispatches keep f32 results: cuBLAS with an f32 output, where this torch has it.
        try:
            res[f"{m}x{n}x{k}_f32_out"] = do_bench(lambda: torch.mm(a, b, out_dtype=torch.float32), return_mode="median") * 1e-3
        except Exception as e:  # noqa: BLE001
            res[f"{m}x{n}x{k}_f32_out"] = repr(e)
except Exception as e:  # noqa: BLE001
    res = {"error": repr(e)}
json.dump(res, open(sys.argv[1], "w"), indent=1)
PY
cat "$OUT/torch.json"; echo
# The device tool brings back a limited number of files: everything travels as one archive.
# (written outside OUT, so tar does not read its own growing archive)
tar czf /tmp/iree_model_answers.tgz -C "$OUT" . && (cd "$OUT" && find . -mindepth 1 -exec rm -rf {} +) && mv /tmp/iree_model_answers.tgz "$OUT/answers.tgz"
