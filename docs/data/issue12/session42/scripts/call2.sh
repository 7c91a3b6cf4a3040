#!/bin/bash
# Call 2 (the build of 7010223 again, after the revert; .carry/s42b): the suite's first third with
# Triton cold, A = this build against B = f0088c4 (the register-A ring rule before session 41;
# ktune_old.xz: 7010223 with f0088c4's generated_space.cc, the only source file of the binary that
# differs), and the one unseen tf32 nn draw of 30 (seeds 300-419) whose candidates the narrowed
# rule changes (scanned offline with both binaries' --dry-run).
CARRY=.carry/s42b TAG=call2 SUITE_TIMEOUT=500 COMPARE_BUILD=1 \
  SUITES="--part 1/3 --triton-cold;--shapes rand343_08_tf32_2207x1288x2152 --triton-cold" bash bench/generated/device_run.sh "$1"
