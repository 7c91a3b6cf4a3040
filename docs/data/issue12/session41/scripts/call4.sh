#!/bin/bash
# Call 4 (same build, warm): the suite's last third, Triton cold. The first third was not run
# (device time spent).
CARRY=.carry/s41 TAG=call4 SUITE_TIMEOUT=300 SUITES="--part 3/3 --triton-cold" bash bench/generated/device_run.sh "$1"
