#!/bin/bash
# Call A4 (session 46; .carry/s45b, A = e346c54): the GPU tests callA's 150 s cut off.
CARRY=.carry/s45b TAG=callA4 TESTS="generated_gpu_test:*Epilogues*:*AFreshWorker*:*LargeSplitTiles*" TEST_TIMEOUT=280 \
  bash bench/generated/device_run.sh "$1"
