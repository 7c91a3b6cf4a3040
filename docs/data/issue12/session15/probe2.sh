#!/bin/bash
# Session 15 run 5: cuBLAS's kernels on the losing shapes; a split-K grid on the long-K shapes; ncu of
# the short-K and long-K kernels.
OUT=$1
x() { python3 -c "import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], 'wb'))" $1 $2; chmod +x $2; }
x .carry/s15/ktune.xz /tmp/k
export PYTHONPATH=python:bench KTUNE_GEMM_LIB=.carry/s15/libktune_gemm.so
timeout 90 python3 bench/generated/cublas_kernels.py --out $OUT/cublas_kernels.json --shapes longk_256x128x16384 \
  longk_128x256x32768 shortk_4096x16384x256 shortk_2048x2048x96 shortk_8192x8192x64 shortk_16384x4096x128 odd_1000x1000x1000 \
  odd_3000x3000x3000 bmm_qk_b32_512x512x64 bmm_b8_1024x1024x1024 l13b_down_m512 l70b_qkv_prefill_m1024 fp8_decode_16x8192x8192 \
  > /dev/null 2> $OUT/cublas.err; echo "cublas rc=$?"
/tmp/k --json tune gemm --m 256 --n 128 --k 16384 --layout nt --dtype bf16 --dry-run > /tmp/lk1.json
/tmp/k --json tune gemm --m 128 --n 256 --k 32768 --layout nn --dtype f16 --dry-run > /tmp/lk2.json
/tmp/k --json tune gemm --m 4096 --n 16384 --k 256 --layout nt --dtype bf16 --dry-run > /tmp/sk.json
timeout 150 python3 bench/generated/pair_probe.py /tmp/lk1.json --shape longk_256x128x16384 --select file:.carry/s15/grid_longk.json --out $OUT/grid_lk1.json > /dev/null 2>$OUT/grid.err; echo "grid1 rc=$?"
timeout 150 python3 bench/generated/pair_probe.py /tmp/lk2.json --shape longk_128x256x32768 --select file:.carry/s15/grid_longk.json --out $OUT/grid_lk2.json > /dev/null 2>>$OUT/grid.err; echo "grid2 rc=$?"
for p in "lk1 longk_256x128x16384 one_longk" "sk shortk_4096x16384x256 best_shortk"; do set -- $p
  timeout 120 ncu --target-processes all -k regex:ktune_gemm -c 1 --set full -o /tmp/ncu_$1 \
    python3 bench/generated/pair_probe.py /tmp/$1.json --shape $2 --select file:.carry/s15/$3.json --once > $OUT/ncu_$1.log 2>&1
  echo "ncu $1 rc=$?"; ncu -i /tmp/ncu_$1.ncu-rep --page raw --csv > $OUT/ncu_$1_raw.csv 2>/dev/null
  ncu -i /tmp/ncu_$1.ncu-rep --page details --csv > $OUT/ncu_$1_details.csv 2>/dev/null
done
python3 - $OUT <<'PY'
import json, sys
for f in ("grid_lk1", "grid_lk2"):
    try:
        rows = json.load(open(f"{sys.argv[1]}/{f}.json"))["rows"]
    except Exception as e:
        print(f, e); continue
    for r in sorted(rows, key=lambda r: r.get("us", 1e9))[:8]:
        c = r["config"]; print(f, c["workgroup"], c["reduction"], c["pipeline_stages"], c["split_k"], r.get("us"), r.get("err"), r.get("error", "")[:80])
PY
cd $OUT && tar czf probe2.tgz --exclude='*.tgz' * && ls
