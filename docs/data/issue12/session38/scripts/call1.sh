#!/bin/bash
# Call 1 (aa9ad30 build): Nsight Compute over torch.matmul and the generated best of five shapes,
# with the per-instruction source page (r1_ncu_source.csv.xz; bench/generated/ncu_source_summary.py).
CARRY=.carry/s38 TAG=call1 NCU_TUNE_ARGS=--no-variants \
  NCU_SHAPES="shortk_2048x2048x96 tall_65536x128x512 tt_2048x2048x2048 l70b_down_decode_m128 tf32_4096x4096x4096" \
  bash bench/generated/device_run.sh "$1"
