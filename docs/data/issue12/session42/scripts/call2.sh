#!/bin/bash
# Call 2 (same build as call 1, the machine still warm): the suite's first third, Triton cold.
CARRY=.carry/s42 TAG=call2 SUITE_TIMEOUT=470 SUITES="--part 1/3 --triton-cold" bash bench/generated/device_run.sh "$1"
