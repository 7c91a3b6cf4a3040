#!/bin/bash
# Call A5 (session 46; .carry/s45b: A = e346c54, B = 92111dc): second samples of the shapes closest
# to a target, A/B, Triton cold.
CARRY=.carry/s45b TAG=callA5 SUITE_TIMEOUT=300 COMPARE_BUILD=1 \
  SUITES="--shapes shortk_2048x2048x96 bmm_pv_b32_512x64x512 tall_32768x64x4096 bmm_qk_b32_512x512x64 odd_1000x1000x1000 bmm_b8_1024x1024x1024 l7b_o_decode_m16 public_decode_m16 --triton-cold" \
  bash bench/generated/device_run.sh "$1"
