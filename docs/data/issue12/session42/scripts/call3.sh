#!/bin/bash
# Call 3 (same build as call 2): the suite's second third, Triton cold.
CARRY=.carry/s42b TAG=call3 SUITE_TIMEOUT=470 SUITES="--part 2/3 --triton-cold" bash bench/generated/device_run.sh "$1"
