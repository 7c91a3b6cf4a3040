#!/bin/bash
# Call 2 (the working tree after d7bd73d): ktune.torch's GPU tests again (the capture test's last
# assertion fixed), then A = this build against B = f0088c4 on tf32 4096^3 (a second sample) and
# the five largest of the first ten unseen tf32 draws (seeds 71-259) whose selection the register-A
# ring change alters (scanned offline; the model's first choice is the same in all), and two
# small shapes that lost to Triton or sat near it in session 38.
RUN_FIRST="PYTHONPATH=python KTUNE_BIN=/tmp/ktune_a KTUNE_GEMM_LIB=/tmp/lib/libktune_gemm.so timeout 110 python3 -m pytest -q -p no:cacheprovider python/tests/test_torch_gpu.py" \
CARRY=.carry/s41 TAG=call2 SUITE_TIMEOUT=430 COMPARE_BUILD=1 \
  SUITES="--shapes tf32_4096x4096x4096 rand107_08_tf32_3158x2338x3833 rand151_08_tf32_2090x3770x3827 rand204_08_tf32_3341x2619x2217 rand220_08_tf32_3866x3214x3973 rand259_08_tf32_2979x1621x1782 shortk_2048x2048x96 bmm_pv_b32_512x64x512" \
  bash bench/generated/device_run.sh "$1"
