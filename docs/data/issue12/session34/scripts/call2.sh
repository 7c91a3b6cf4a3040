#!/bin/bash
# Call 2: 14 unseen shapes (random seed 41, never drawn before), then the suite shapes whose
# generated best was a swapped kernel, A/B against the build before the swapped stores.
OUT=$1
export TAG=call2 SUITE_TIMEOUT=330
export SUITES="--random 14 --seed 41"
bash .carry/s34/run.sh $OUT
mkdir -p /tmp/c2 && mv $OUT/call2.tgz /tmp/c2/
export TAG=call2b COMPARE=1 SUITE_TIMEOUT=200
export SUITES="--shapes l7b_qkv_decode_m1 l7b_o_decode_m16 public_decode_m16 fp8_decode_16x8192x8192 longk_64x64x65536"
bash .carry/s34/run.sh $OUT
mv /tmp/c2/call2.tgz $OUT/
