#!/usr/bin/env bash
# Runs on the lent GPU, from the checkout root, with .carry/iree_transform carried
# (bench/iree_transform/prepare.sh). Verifies every build's output against IREE's default
# build and an fp32 host reference on fresh random inputs, then times each dispatch benchmark
# module with iree-benchmark-module (--batch_size 20, ten repetitions), ROUNDS rounds
# interleaved, and torch.matmul on the same shape. Writes $OUT/iree_transform.json.
#   bash .carry/iree_transform/gpu.sh $OUT [ROUNDS]
set -uo pipefail
OUTDIR=${1:?output directory}; ROUNDS=${2:-3}
C=.carry/iree_transform
T=$C/tools
chmod +x $T/* 2>/dev/null
W=$(mktemp -d)
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > "$OUTDIR/gpu.txt" 2>&1
python3 - "$W" <<'PY'
import numpy as np, sys
rng = np.random.default_rng(20261128)
np.save(sys.argv[1] + "/a.npy", rng.uniform(-1, 1, (2048, 1280)).astype(np.float16))
np.save(sys.argv[1] + "/b.npy", rng.uniform(-1, 1, (1280, 10240)).astype(np.float16))
PY
BUILDS=$(cd $C && ls -d default knobs td_* 2>/dev/null)
for b in $BUILDS; do
  $T/iree-run-module --device=cuda --module=$C/$b/model.vmfb --function=matmul \
    --input=@$W/a.npy --input=@$W/b.npy --output=@$W/out_$b.npy > $W/run_$b.log 2>&1 || echo "run failed: $b"
done
for r in $(seq 1 "$ROUNDS"); do
  for b in $BUILDS; do
    $T/iree-benchmark-module --device=cuda --module=$C/$b/bench.vmfb --batch_size=20 \
      --benchmark_repetitions=10 --benchmark_min_time=0.05s --benchmark_format=json \
      > $W/bench_${b}_$r.json 2> $W/bench_${b}_$r.err || echo "bench failed: $b round $r"
  done
done
python3 - "$W" "$OUTDIR" "$ROUNDS" $BUILDS <<'PY'
import json, sys, statistics, numpy as np
w, outdir, rounds, builds = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
a = np.load(w + "/a.npy").astype(np.float32); b = np.load(w + "/b.npy").astype(np.float32)
ref = a @ b
dflt = np.load(w + "/out_default.npy") if builds and __import__("os").path.exists(w + "/out_default.npy") else None
res = {}
for name in builds:
    e = {"rounds": []}
    try:
        o = np.load(f"{w}/out_{name}.npy").astype(np.float32)
        e["rel_err_vs_fp32"] = float(np.linalg.norm(o - ref) / np.linalg.norm(ref))
        if dflt is not None:
            e["rel_err_vs_default"] = float(np.linalg.norm(o - dflt) / np.linalg.norm(dflt))
        e["verified"] = e["rel_err_vs_fp32"] < 1e-3
    except Exception as x:
        e["verified"] = False; e["error"] = str(x)
    for r in range(1, rounds + 1):
        try:
            j = json.load(open(f"{w}/bench_{name}_{r}.json"))
            t = [x["real_time"] * {"ns": 1e-3, "us": 1, "ms": 1e3}[x.get("time_unit", "ns")]
                 for x in j["benchmarks"] if x.get("run_type") == "iteration"]
            e["rounds"].append({"median_us": statistics.median(t), "min_us": min(t), "max_us": max(t), "n": len(t)})
        except Exception as x:
            e["rounds"].append({"error": str(x)})
    meds = [x["median_us"] for x in e["rounds"] if "median_us" in x]
    e["median_us"] = statistics.median(meds) if meds else None
    res[name] = e
try:
    import torch
    A = torch.from_numpy(np.load(w + "/a.npy")).cuda(); B = torch.from_numpy(np.load(w + "/b.npy")).cuda()
    for _ in range(20): torch.matmul(A, B)
    ts = []
    for _ in range(30):
        s, t = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record(); [torch.matmul(A, B) for _ in range(20)]; t.record(); torch.cuda.synchronize()
        ts.append(s.elapsed_time(t) * 1000 / 20)
    res["torch_matmul_f16"] = {"median_us": statistics.median(ts), "min_us": min(ts), "max_us": max(ts)}
except Exception as x:
    res["torch_matmul_f16"] = {"error": str(x)}
d = res.get("default", {}).get("median_us")
for k, v in res.items():
    if d and v.get("median_us"):
        v["speedup_vs_default"] = d / v["median_us"]
json.dump(res, open(outdir + "/iree_transform.json", "w"), indent=1)
for k, v in res.items():
    print(f"{k:32s} {v.get('median_us') or 0:9.1f} us  x{v.get('speedup_vs_default', 0):.3f}  verified={v.get('verified')}  err={v.get('rel_err_vs_fp32')}  rounds={[round(x.get('median_us', 0), 1) for x in v.get('rounds', [])]}")
PY
cp $W/*.log $W/*.err "$OUTDIR/" 2>/dev/null
true
