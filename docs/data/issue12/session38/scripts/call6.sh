#!/bin/bash
# Call 6 (b21d716): six shapes no session had drawn, Triton autotune cold, no A/B.
CARRY=.carry/s38e TAG=call6 SUITE_TIMEOUT=175 SUITES="--random 6 --seed 46 --triton-cold" \
  bash bench/generated/device_run.sh "$1"
