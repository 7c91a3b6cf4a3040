#!/usr/bin/env python3
"""Where each peer's time goes on chosen suite shapes: the GPU kernels every call launches and
their durations, next to do_bench's time for the whole call.

For each shape: `ktune tune gemm` cold (as bench/gemm_suite40.py runs it), then cuBLAS through
torch, Triton autotune and ktune's generated kernel and pick (in-process through libktune_gemm)
each timed with do_bench (L2 flushed, median) and profiled with torch.profiler (CUPTI) over the
same do_bench loop. A do_bench time well above the sum of a call's kernel durations means
launch gaps; a kernel list longer than one means copies or a reduction ride along.

  kernel_breakdown.py --ktune PATH --shapes NAME... [--out FILE]
  (PYTHONPATH=python:bench, KTUNE_GEMM_LIB=libktune_gemm.so)
"""
import argparse
import collections
import json

import torch
from torch.profiler import ProfilerActivity, profile
from triton.testing import do_bench

from gemm_suite40 import OUT_DTYPE, SUITE, operands, plan_call, rel_err, torch_call, triton_mm, tune  # noqa: E402
from ktune import _gemm_lib

# Kernels every do_bench iteration launches around the call (its L2 flush), not the call's own.
FLUSH_KERNELS = ("fill", "zero", "FillFunctor", "elementwise_kernel")


def kernels_of(fn, reps=50):
    """Median do_bench ms and the mean GPU duration (us) per call of each kernel fn launches."""
    ms = do_bench(fn, return_mode="median")
    torch.cuda.synchronize()
    cache = torch.empty(256 * 1024 * 1024, dtype=torch.int8, device="cuda")  # as do_bench flushes
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(reps):
            cache.zero_()
            fn()
        torch.cuda.synchronize()
    per = collections.defaultdict(list)
    for e in prof.events():
        if e.device_type == torch.autograd.DeviceType.CUDA and not any(f in e.name for f in FLUSH_KERNELS):
            per[e.name].append(e.device_time_total if hasattr(e, "device_time_total") else e.cuda_time_total)
    kernels = [{"name": name[:140], "calls_per_run": len(v) / reps, "mean_us": sum(v) / len(v)} for name, v in per.items()]
    kernels.sort(key=lambda k: -k["mean_us"] * k["calls_per_run"])
    return {"do_bench_us": ms * 1e3, "kernels": kernels,
            "kernel_sum_us": sum(k["mean_us"] * k["calls_per_run"] for k in kernels)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ktune", required=True)
    ap.add_argument("--shapes", nargs="+", required=True)
    ap.add_argument("--out")
    args = ap.parse_args()
    executor = _gemm_lib.Executor(_gemm_lib.load(args.ktune), torch.cuda.current_device())
    rows = []
    for shape in [s for s in SUITE if s[0] in args.shapes]:
        name, m, n, k, batch, layout, dtype = shape
        kt = tune(args.ktune, *shape)
        a, b = operands(m, n, k, batch, layout, dtype, seed=len(name))
        ref = torch.matmul(a.double(), b.double())
        row = {"name": name, "ktune_wall_s": kt.get("wall_s"), "baseline_s": kt.get("baseline_s"),
               "generated_s": kt.get("generated_s"), "generated_config": kt.get("generated_config"),
               "pick_config": kt.get("pick_config"), "peers": {}}
        fn = torch_call(a, b, dtype)
        if fn is not None:
            row["peers"]["torch"] = kernels_of(fn)
        prec = {"tf32": "tf32", "f32": "ieee"}.get(dtype, "tf32")
        c = torch.empty(batch, m, n, device="cuda", dtype=OUT_DTYPE[dtype])
        triton_mm(a, b, c, prec)
        row["peers"]["triton"] = kernels_of(lambda: triton_mm(a, b, c, prec))
        for which in ("generated", "pick"):
            if f"{which}_config" not in kt:
                continue
            d = torch.empty(batch, m, n, device="cuda", dtype=OUT_DTYPE[dtype])
            call = plan_call(executor, kt["problem"], kt[f"{which}_config"], a, b, d, name=f"{name}_{which}")
            call()
            torch.cuda.synchronize()
            row["peers"][which] = kernels_of(call)
            row["peers"][which]["err"] = rel_err(d, ref)
        rows.append(row)
        print(json.dumps(row), flush=True)
    if args.out:
        json.dump(rows, open(args.out, "w"), indent=1)


if __name__ == "__main__":
    main()
