#!/bin/bash
# The L2 evict-first policy (generated knob l2_evict_first) on the GPU, in one call: its
# correctness test (generated_gpu_test --gtest_filter='GeneratedGpu.EvictFirst*'), then for each
# memory-bound suite shape the fastest recorded generated kernels and their evict-first twins
# (evict_first_configs.py) side by side with cuBLAS, by do_bench and after a dirty and a clean
# L2 flush (pair_probe.py --flushes).
#   evict_first_probe.sh OUT KTUNE LIBKTUNE_GEMM GENERATED_GPU_TEST SUITE.json [SHAPE...]
# (static builds carried to the GPU machine; SUITE.json: a recorded bench/gemm_suite40.py output)
set -u
OUT=$1; KT=$2; LIB=$3; GGT=$4; SUITE=$5; shift 5
export PYTHONPATH=python:bench:bench/generated KTUNE_GEMM_LIB=$LIB PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv > $OUT/gpu.csv
KTUNE_SOURCE_DIR=$PWD timeout 200 $GGT --gtest_filter='GeneratedGpu.EvictFirst*' > $OUT/evict_first_gpu_test.log 2>&1
echo "generated_gpu_test EvictFirst rc=$?"; grep -E "OK \]|FAILED|Failure" $OUT/evict_first_gpu_test.log | head
python3 bench/generated/evict_first_configs.py $SUITE --out /tmp/evict ${1:+--shapes "$@"}
for f in /tmp/evict/*.json; do
  shape=$(basename $f .json)
  read -r m n k b layout dtype < <(python3 -c "
import sys; sys.path.insert(0, 'bench/generated'); from pair_probe import find_shape
s = find_shape('$shape'); print(*s[1:])")
  $KT --json tune gemm --m $m --n $n --k $k --batch $b --layout $layout --dtype $dtype --dry-run > /tmp/$shape.report.json 2>/dev/null
  timeout 120 python3 bench/generated/pair_probe.py /tmp/$shape.report.json --shape $shape --select file:$f --torch \
    --flushes --out $OUT/evict_$shape.json 2>&1 | python3 -c "
import sys, json
for l in sys.stdin:
    try: r = json.loads(l)
    except Exception: print(l.rstrip()); continue
    c = r.get('config', {}); what = 'torch ' + r['when'] if 'peer' in r else '%s s%s %s' % (c.get('workgroup'), c.get('pipeline_stages'), c.get('l2_evict_first', '-'))
    print('$shape %-22s do_bench %7.1f  dirty %7.1f  clean %7.1f  %s' % (what, r.get('us', 0), r.get('dirty_us', 0), r.get('clean_us', 0), r.get('error', '')[:80]))"
done
