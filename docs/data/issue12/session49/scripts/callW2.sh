#!/bin/bash
# Session 49, call W2: callW.sh cut to ten near-miss shapes for the device time left after the
# refused starts (same A/B: the defaults against the wide search). SUITE_TIMEOUT from the caller.
S="tall_65536x128x512 shortk_8192x8192x64 wide_64x32768x4096 l7b_o_decode_m16 bmm_pv_b32_512x64x512"
S="$S shortk_2048x2048x96 l13b_up_m256 l70b_qkv_prefill_m1024 l13b_down_m512 longk_64x64x65536"
CARRY=${CARRY:-.carry/s49} TAG=callW2 SUITE_TIMEOUT=${SUITE_TIMEOUT:-400} \
  COMPARE="--generated-candidates 48 --refine 12 --generated-pingpong --generated-split-tail --generated-co-resident --heuristics 16 --tail-seconds 1" \
  SUITES="--shapes $S" \
  bash bench/generated/device_run.sh "$1"
