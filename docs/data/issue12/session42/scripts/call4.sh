#!/bin/bash
# Call 3 (same build as call 2): the suite's last third, Triton cold.
CARRY=.carry/s42b TAG=call4 SUITE_TIMEOUT=470 SUITES="--part 3/3 --triton-cold" bash bench/generated/device_run.sh "$1"
