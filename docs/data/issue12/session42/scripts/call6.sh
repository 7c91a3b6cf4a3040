#!/bin/bash
# Call 6 (same build): the whole `tune gemm --json` report of the two largest suite GEMMs, cold
# (fresh database and compile cache, CUDA's ComputeCache off), to see where the tuning time of a
# 2-5 ms kernel goes (per-candidate phases).
RUN_FIRST='for s in "8192 8192 28672 l70b_down_prefill" "16384 11008 4096 l7b_up_prefill"; do set -- $s; T=$(mktemp -d); \
  env KTUNE_CACHE_DIR=$T/cache CUDA_CACHE_DISABLE=1 /tmp/ktune_a --db $T/k.db --json tune gemm --m $1 --n $2 --k $3 \
  --dtype bf16 --layout nt --families generated,cublaslt --progress none > $OUT/tune_$4.json 2> $OUT/tune_$4.err; echo "$4 rc=$?"; done' \
CARRY=.carry/s42b TAG=call6 bash bench/generated/device_run.sh "$1"
