#!/bin/bash
# Session 47, the whole suite on one build in three calls (.carry/s47: HEAD 05f5fd3, with a51b363's
# refinement-row fix): part 2/3, Triton cold. No A/B: the refused starts left too little device time.
CARRY=.carry/s47 TAG=suite2 SUITE_TIMEOUT=575 \
  SUITES="--part 2/3 --triton-cold" \
  bash bench/generated/device_run.sh "$1"
