#!/bin/bash
# Call 1: two CTAs per SM. A = this build's default space, B = the same binary with
# --generated-co-resident (small wgmma tiles built for two CTAs per SM), on the shapes where the
# generated kernel trailed cuBLASLt's default or Triton in session 36 and the short-K and small
# batched shapes whose tiles wait on their own stores; tf32 4096^3 for the new swapped CTA pairs.
OUT=$1
export TAG=call1 COMPARE=--generated-co-resident SUITE_TIMEOUT=530
export SUITES="--shapes shortk_2048x2048x96 odd_1000x1000x1000 bmm_b64_128x128x128 bmm_qk_b32_512x512x64 bmm_pv_b32_512x64x512 longk_128x256x32768 longk_256x128x16384 tt_2048x2048x2048 bmm_b8_1024x1024x1024 shortk_8192x8192x64 shortk_16384x4096x128 tall_65536x128x512 odd_3000x3000x3000 tf32_4096x4096x4096"
bash .carry/s37/run.sh $OUT
