#!/bin/bash
# Session 31: time chosen generated configurations of suite shapes (bench/generated/pair_probe.py)
# through the carried libktune_gemm; args: OUT then SHAPE:CONFIGS:REPORT triples.
OUT=$1; shift
mkdir -p /tmp/lib && cp .carry/s31/libB.so /tmp/lib/libktune_gemm.so
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv > $OUT/gpu.csv
for spec in "$@"; do
  IFS=: read -r shape configs report rep <<< "$spec"
  PYTHONPATH=python:bench KTUNE_GEMM_LIB=/tmp/lib/libktune_gemm.so timeout 200 python3 bench/generated/pair_probe.py \
    $report --shape $shape --select file:$configs --torch --out $OUT/probe_${shape}_${rep:-1}.json 2>&1 | \
    python3 -c "import sys, json
for l in sys.stdin:
    try: r = json.loads(l)
    except Exception: print(l.rstrip()); continue
    if 'peer' in r: print('torch %s %.1f us' % (r['when'], r.get('us', 0))); continue
    c = r['config']; print('%-10s sm%d s%d split%d %-5s %-4s %s%s %8.1f us err %.1e %s' % (c['workgroup'], c['subgroup_m_count'], c['pipeline_stages'], c['split_k'], 'tail' if c.get('split_tail') else '', 'c%dx%d' % (c.get('cluster_m', 1), c.get('cluster_n', 1)) if c.get('cluster_n', 1) * c.get('cluster_m', 1) > 1 else '', 'P' if c.get('persistent') else '', 'R' if c.get('split_reduce') else '', r.get('us', 0), r.get('err', -1), r.get('error', '')))"
done
