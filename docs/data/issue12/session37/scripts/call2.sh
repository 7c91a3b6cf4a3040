#!/bin/bash
# Call 2: Nsight Compute on cuBLAS (torch) and the generated kernels of the small shapes where the
# generated best trails cuBLASLt's default by 0.6-1.0 us (bench/generated/ncu_compare.py), then the
# metrics exported as CSV.
OUT=$1
C=.carry/s37
x() { python3 -c "import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], 'wb'))" $1 $2; chmod +x $2; }
x $C/ktune.xz /tmp/ktune37
mkdir -p /tmp/lib && x $C/libktune_gemm.so.xz /tmp/lib/libktune_gemm.so
export PYTHONPATH=python:bench KTUNE_GEMM_LIB=/tmp/lib/libktune_gemm.so
SHAPES="shortk_2048x2048x96 odd_1000x1000x1000 bmm_qk_b32_512x512x64 tt_2048x2048x2048 bmm_b8_1024x1024x1024 longk_128x256x32768 tf32_4096x4096x4096"
timeout 150 python3 bench/generated/ncu_compare.py tune --ktune /tmp/ktune37 --shapes $SHAPES --out $OUT/configs.json > $OUT/tune.log 2>&1; echo "tune rc=$?"
cat $OUT/tune.log | tail -10
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu)
timeout 300 $NCU --set full --target-processes application-only --nvtx --print-summary none -f -o /tmp/rep \
  python3 bench/generated/ncu_compare.py run $OUT/configs.json --ktune /tmp/ktune37 > $OUT/ncu.log 2>&1; echo "ncu rc=$?"
tail -5 $OUT/ncu.log
$NCU --import /tmp/rep.ncu-rep --csv --page raw --print-nvtx-rename kernel > $OUT/raw.csv 2>$OUT/export.err; echo "export rc=$?"
$NCU --import /tmp/rep.ncu-rep --csv --page details --print-nvtx-rename kernel > $OUT/details.csv 2>>$OUT/export.err
ls -la $OUT /tmp/rep.ncu-rep; xz -T4 -6 -c /tmp/rep.ncu-rep > $OUT/rep.ncu-rep.xz
cd $OUT && tar czf /tmp/out.tgz *.json *.log *.csv *.err 2>/dev/null && rm -f *.json *.log *.csv *.err && mv /tmp/out.tgz ./call2.tgz && ls -la
