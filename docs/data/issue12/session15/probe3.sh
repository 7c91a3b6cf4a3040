#!/bin/bash
# Session 15 run 6: split-K's batched take-back: GPU tests, then the long-K grids.
OUT=$1
x() { python3 -c "import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], 'wb'))" $1 $2; chmod +x $2; }
x .carry/s15/ktune.xz /tmp/k; x .carry/s15/generated_gpu_test.xz /tmp/ggt
KTUNE_SOURCE_DIR=$PWD timeout 200 /tmp/ggt --gtest_filter='*SplitK*:*Epilogues*:*Misaligned*:*Fp8AndTf32*' > $OUT/ggt.log 2>&1; echo "ggt rc=$?"
grep -E "^\[  (FAILED|PASSED)|OK \]|Failure" $OUT/ggt.log | head
export PYTHONPATH=python:bench KTUNE_GEMM_LIB=.carry/s15/libktune_gemm.so
/tmp/k --json tune gemm --m 256 --n 128 --k 16384 --layout nt --dtype bf16 --dry-run > /tmp/lk1.json
/tmp/k --json tune gemm --m 128 --n 256 --k 32768 --layout nn --dtype f16 --dry-run > /tmp/lk2.json
timeout 150 python3 bench/generated/pair_probe.py /tmp/lk1.json --shape longk_256x128x16384 --select file:.carry/s15/grid_lk1.json --out $OUT/grid_lk1.json > /dev/null 2>$OUT/grid.err; echo "grid1 rc=$?"
timeout 120 python3 bench/generated/pair_probe.py /tmp/lk2.json --shape longk_128x256x32768 --select file:.carry/s15/grid_lk2.json --out $OUT/grid_lk2.json > /dev/null 2>>$OUT/grid.err; echo "grid2 rc=$?"
python3 - $OUT <<'PY'
import json, sys
for f in ("grid_lk1", "grid_lk2"):
    try:
        rows = json.load(open(f"{sys.argv[1]}/{f}.json"))["rows"]
    except Exception as e:
        print(f, e); continue
    for r in sorted(rows, key=lambda r: r.get("us", 1e9))[:10]:
        c = r["config"]; print(f, c["workgroup"], c["pipeline_stages"], c["split_k"], round(r.get("us", 0), 1), r.get("err"), r.get("error", "")[:80])
PY
cd $OUT && tar czf probe3.tgz --exclude='*.tgz' * && find . -type f ! -name '*.tgz' -delete; ls
