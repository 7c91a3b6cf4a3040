#!/bin/bash
# Call 5: the warpgroup index broadcast from lane 0 (uniform wgmma descriptors), A = this build,
# B = the build before it (`082eedb`) as --compare-ktune, on six shapes where the generated kernel
# trailed cuBLASLt's default; Triton warm. Every generated kernel of both is verified against
# fp64 before it is timed.
OUT=$1
C=.carry/s37b
x() { python3 -c "import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], 'wb'))" $1 $2; chmod +x $2; }
x $C/ktune.xz /tmp/ktune_new; x $C/ktune_old.xz /tmp/ktune_old
mkdir -p /tmp/lib && x $C/libktune_gemm.so.xz /tmp/lib/libktune_gemm.so
PYTHONPATH=python KTUNE_GEMM_LIB=/tmp/lib/libktune_gemm.so TRITON_CACHE_DIR=$(mktemp -d) \
  timeout ${SUITE_TIMEOUT:-170} python3 bench/gemm_suite40.py --ktune /tmp/ktune_new --compare-ktune /tmp/ktune_old \
  --shapes tt_2048x2048x2048 bmm_b8_1024x1024x1024 odd_1000x1000x1000 shortk_2048x2048x96 bmm_qk_b32_512x512x64 longk_256x128x16384 \
  --out $OUT/suite1.json > $OUT/suite1.log 2>&1
echo "suite rc=$?"; grep -v "^ \|^{\|^}" $OUT/suite1.log | tail -20
