#!/bin/bash
# Session 49, call N (for the next device time): Nsight Compute over tall_65536x128x512, the one
# memory-bound near miss with room in the kernel (84 MB in 37.8 us, 2.22 TB/s, where wide_64 and
# shortk_8192 reach 2.57-2.58 on the same H100): torch.matmul against the generated best, with the
# raw metrics and the SASS page (DRAM read/write throughput, the store path, stalls by address).
CARRY=${CARRY:-.carry/s49} TAG=callN NCU_SHAPES="tall_65536x128x512" NCU_TIMEOUT=300 \
  bash bench/generated/device_run.sh "$1"
