#!/bin/bash
# Call 4: the generated kernels' GPU test (every case, the new co-resident one among them) and tune
# gemm's GPU case, on the final build.
OUT=$1
export TAG=call4 TEST_TIMEOUT=300 SUITES=
export TESTS="generated_gpu_test gemm_command_test:TuneGemmCli.TunesASmallShapeOnTheGpu"
bash .carry/s37/run.sh $OUT
