#!/bin/bash
# Call 1 (the working tree after f0088c4, register-A kernels not charged for 4-stage rings):
# the cluster GPU tests; long-K split-K kernels in clusters of 2-8 CTAs that multicast A and B
# within one K slice (Nsight Compute: L2 sectors read and delivered, DRAM bytes; then do_bench
# with torch.matmul beside them); four suite shapes (tf32 4096^3 for the ring change, the two
# long-K shapes, one whose winner was a pair, for the worker's probe at device open), A against
# B = f0088c4 (ktune_old.xz, the build before this session). First ktune.torch's GPU tests (a
# first sight inside a CUDA graph capture).
S=docs/data/issue12/session41/scripts
M=gpu__time_duration.sum,lrc__lts2lrc_sectors_op_read.sum,lrc__xbar2gpc_sectors_op_read.sum,sm__cycles_elapsed.avg.per_second,dram__bytes_read.sum
P=""
for s in longk_128x256x32768 longk_256x128x16384; do P="$P $S/${s}_dryrun.json|$s|$S/${s}_configs.json"; done
RUN_FIRST="PYTHONPATH=python KTUNE_BIN=/tmp/ktune_a KTUNE_GEMM_LIB=/tmp/lib/libktune_gemm.so timeout 110 python3 -m pytest -q -p no:cacheprovider python/tests/test_torch_gpu.py" \
CARRY=.carry/s41 TAG=call1 TESTS="generated_gpu_test:*ClusterPlacement*:*ClustersInGpcOrder*:*TwoDimensionalClusters*:*ClustersShareATileByMulticast*" \
  TEST_TIMEOUT=90 NCU_PLAN=$S/longk_plan.json NCU_METRICS=$M NCU_TIMEOUT=120 PROBES="$P" PROBE_TIMEOUT=75 SUITE_TIMEOUT=250 COMPARE_BUILD=1 \
  SUITES="--shapes tf32_4096x4096x4096 longk_128x256x32768 longk_256x128x16384 l70b_qkv_prefill_m1024" \
  bash bench/generated/device_run.sh "$1"
