#!/bin/bash
# Session 49, call W: is the gap to pick > 1.05x on the near-miss shapes one of ranking (the model
# lists 20 of the family, the faster ones exist) or of the family (nothing faster to find)?
# A/B in one run on the same GPU: A = the defaults, B = the same build with a wide search:
# 48 generated kernels, 12 refinement neighbours, the off-by-default families (pingpong,
# split tails, two CTAs per SM) and 16 cuBLASLt heuristic answers with a 1 s tail.
# Shapes: every session-47 (H100) pick at 1.023-1.05x, two just over (tall_32768, public_decode_m16),
# then seed 49's first eight random draws (shapes no session tuned for) in a second suite.
S="longk_32x4096x16384 l13b_down_m512 longk_64x64x65536 l70b_qkv_prefill_m1024 tall_65536x128x512"
S="$S l13b_up_m256 shortk_2048x2048x96 bmm_pv_b32_512x64x512 l7b_up_prefill_m16384 l7b_o_decode_m16"
S="$S l7b_qkv_prefill_m4096 shortk_8192x8192x64 wide_64x32768x4096 tall_32768x64x4096 public_decode_m16"
CARRY=${CARRY:-.carry/s49} TAG=callW SUITE_TIMEOUT=450 \
  COMPARE="--generated-candidates 48 --refine 12 --generated-pingpong --generated-split-tail --generated-co-resident --heuristics 16 --tail-seconds 1" \
  SUITES="--shapes $S;--random 8 --seed 49" \
  bash bench/generated/device_run.sh "$1"
