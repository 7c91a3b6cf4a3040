#!/usr/bin/env python3
"""Issue 14's GPU target: a PyTorch script whose matmuls go through ktune.torch runs at >= 1.0x
torch.matmul on every shape of the GEMM suite (bench/gemm_suite.py's SHAPES) after tuning, with
a lookup overhead per call under 2 us.

1. Online tuning: ktune.torch.enable(db, online=True, budget_seconds=B); each shape's first
   kt.matmul (and kt.linear, for the nt layout a Linear layer has) queues its GEMM and the
   background worker runs `ktune tune gemm` (all families: cuBLASLt and ktune's generated
   kernels); kt.wait() until all are done. The wall time is recorded.
2. Per shape, `--rounds` rounds, each on fresh random data: torch.matmul and kt.matmul (ktune's
   pick through libktune_gemm, on PyTorch's stream) timed alternately with triton's do_bench
   (L2 flushed before each call, median). Both outputs are compared with an fp64 reference (the
   relative Frobenius error); ktune's must be within 2x PyTorch's + 1e-3. Ratio = torch median /
   ktune median per round; the shape's ratio is the median over rounds (all rounds kept).
3. Host overhead per call on a 64x64x64 GEMM (launch-bound, so no queue builds up): ktune's
   lookup alone (kt._mm_plan: key + dict, no launch; 9 x 100000 calls), and kt.matmul against
   torch.matmul (median of 7 loops of 2000 calls).

Runs from a source checkout on any Python with PyTorch: PYTHONPATH=python, KTUNE_BIN (the CLI)
and KTUNE_GEMM_LIB (libktune_gemm.so) point at a build; the extension module is not needed.

usage: torch_matmul_bench.py [--out FILE] [--budget S] [--rounds N] [--shapes NAME...]
"""
import argparse
import json
import math
import os
import statistics
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from gemm_suite import SHAPES  # noqa: E402

import torch  # noqa: E402
from triton.testing import do_bench  # noqa: E402

import ktune.torch as kt  # noqa: E402

DT = {"f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32}


def rel_err(out, ref):
    return float((out.double() - ref).norm() / ref.norm().clamp_min(1e-30))


def host_us(fn, a, b, loops=7, calls=2000):
    times = []
    for _ in range(loops):
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        for i in range(calls):
            fn(a, b)
            if i % 200 == 199:
                torch.cuda.synchronize()
        torch.cuda.synchronize()
        times.append((time.perf_counter() - t0) / calls * 1e6)
    return statistics.median(times)


def alone_us(fn, loops=9, calls=100000):
    times = []
    for _ in range(loops):
        t0 = time.perf_counter()
        for _ in range(calls):
            fn()
        times.append((time.perf_counter() - t0) / calls * 1e6)
    return statistics.median(times)


def tune_online(db, shapes, budget, g):
    kt.enable(db, online=True, budget_seconds=budget)
    inputs = {}
    t0 = time.time()
    for name, m, n, k, dtype in shapes:
        a = torch.randn(m, k, device="cuda", dtype=DT[dtype], generator=g)
        b = torch.randn(k, n, device="cuda", dtype=DT[dtype], generator=g)
        inputs[name] = (a, b)
        kt.matmul(a, b)  # first sight: queued for tuning
    done = kt.wait(timeout=budget * len(shapes) + 120)
    return inputs, {"online_tuning_wall_s": time.time() - t0, "online_tuning_finished": done,
                    "status_after_tuning": kt.status()}


def time_shape(name, m, n, k, dtype, a, b, rounds, g):
    row = {"name": name, "m": m, "n": n, "k": k, "dtype": dtype, "torch_ms": [], "ktune_ms": [], "ratios": [],
           "ktune_err": 0.0, "torch_err": 0.0}
    plan = kt._mm_plan(kt._state, a, b)  # first call: compared with torch.matmul on these tensors
    row["plan"] = None if plan is None else kt._executors[plan.device].describe(plan.plan)
    row["check"] = kt.status()["checks"].get(kt.gemm_problem(a.shape, a.stride(), b.shape, b.stride(), dtype).key())
    for _ in range(rounds):
        a.normal_(generator=g)
        b.normal_(generator=g)
        ref = torch.matmul(a.double(), b.double())
        row["torch_err"] = max(row["torch_err"], rel_err(torch.matmul(a, b), ref))
        row["ktune_err"] = max(row["ktune_err"], rel_err(kt.matmul(a, b), ref))
        t = do_bench(lambda: torch.matmul(a, b), return_mode="median")
        q = do_bench(lambda: kt.matmul(a, b), return_mode="median")
        row["torch_ms"].append(t)
        row["ktune_ms"].append(q)
        row["ratios"].append(t / q)
    row["ratio"] = statistics.median(row["ratios"])
    row["correct"] = row["ktune_err"] <= 2 * row["torch_err"] + 1e-3
    row["tflops_ktune"] = 2.0 * m * n * k / (statistics.median(row["ktune_ms"]) * 1e-3) / 1e12
    print(f"{name:24s} torch {statistics.median(row['torch_ms'])*1e3:9.1f} us  ktune "
          f"{statistics.median(row['ktune_ms'])*1e3:9.1f} us  ratio {row['ratio']:.3f} "
          f"[{min(row['ratios']):.3f}-{max(row['ratios']):.3f}]  err {row['ktune_err']:.1e} "
          f"(torch {row['torch_err']:.1e})  {row['plan']['family'] if row['plan'] else 'torch.matmul (check kept it)'}",
          flush=True)
    return row


def overheads(small):
    """Host time per call, and where ktune's part goes: the lookup (key + dict), the output's
    allocation, the stream query and the ctypes call into libktune_gemm (a misaligned D, so the
    C side returns after its checks without launching). The single tensor accesses the key is
    made of are timed too: their cost differs between PyTorch releases and hosts."""
    state = kt._state
    a, b = small
    used = kt._mm_plan(state, a, b) is not None  # the first call's check may keep PyTorch's call
    problem = kt.gemm_problem(a.shape, a.stride(), b.shape, b.stride(), "f16")
    plan = state.plan_for(problem, a.get_device())
    p = kt._Plan(state.library.run, state.executor(a.get_device()).handle, plan, (64, 64), a.dtype, a.get_device(),
                 problem)
    out = torch.empty(p.out_shape, dtype=p.out_dtype, device=p.device)
    odd = out.data_ptr() + 2
    # What kt.matmul does before its launch: the autograd test and the key's lookup.
    o = {"lookup_alone_us": alone_us(lambda: kt._autograd(a, b) or kt._mm_plan(state, a, b)),
         "alloc_us": alone_us(lambda: a.new_empty(p.out_shape), calls=20000),  # as kt._launch allocates
         "stream_us": alone_us(lambda: state.stream(p.device)),
         "ctypes_call_us": alone_us(lambda: p.run(p.executor, p.plan, a.data_ptr(), b.data_ptr(), None, odd, None, 0)),
         "access_shape_us": alone_us(lambda: a.shape),
         "access_stride_us": alone_us(lambda: a.stride()),
         "access_dtype_us": alone_us(lambda: a.dtype),
         "access_get_device_us": alone_us(lambda: a.get_device()),
         "access_data_ptr_us": alone_us(lambda: a.data_ptr()),
         "empty_call_us": alone_us(lambda: None),
         "plan_used_by_matmul": used,
         "ktune_launch_path_us": host_us(lambda x, y: kt._launch(state, p, x, y, None), a, b),
         "ktune_matmul_us": host_us(kt.matmul, a, b),
         "torch_matmul_us": host_us(torch.matmul, a, b)}
    o["ktune_minus_torch_us"] = o["ktune_matmul_us"] - o["torch_matmul_us"]
    o["launch_path_plus_lookup_minus_torch_us"] = o["ktune_launch_path_us"] + o["lookup_alone_us"] - o["torch_matmul_us"]
    return o


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="torch_matmul_bench.json")
    ap.add_argument("--budget", type=float, default=60.0)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--shapes", nargs="*", help="suite shapes to time (default: all); 'none' for the overhead only")
    args = ap.parse_args()
    shapes = [s for s in SHAPES if not args.shapes or s[0] in args.shapes]
    shapes.append(("overhead_64", 64, 64, 64, "f16"))
    db = os.path.join(tempfile.mkdtemp(prefix="ktune_torch_bench_"), "ktune.db")
    res = {"device": torch.cuda.get_device_name(), "torch": torch.__version__, "python": sys.version.split()[0],
           "budget_s": args.budget, "rounds": args.rounds, "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}
    g = torch.Generator(device="cuda").manual_seed(1)
    inputs, tuning = tune_online(db, shapes, args.budget, g)
    res.update(tuning)
    print(f"online tuning of {len(shapes)} shapes: {tuning['online_tuning_wall_s']:.1f} s", flush=True)
    kt.disable()
    kt.enable(db)  # a fresh process would do the same: read the picks, tune nothing
    res["shapes"] = [time_shape(*s, *inputs[s[0]], args.rounds, g) for s in shapes if s[0] != "overhead_64"]
    res["overhead"] = overheads(inputs["overhead_64"])
    res["status"] = kt.status()
    print("overhead per call (us):", json.dumps(res["overhead"]), flush=True)
    ratios = [r["ratio"] for r in res["shapes"]] or [float("nan")]
    res["min_ratio"] = min(ratios)
    res["geomean_ratio"] = math.exp(statistics.mean(math.log(r) for r in ratios))
    res["all_correct"] = all(r["correct"] for r in res["shapes"])
    with open(args.out, "w") as f:
        json.dump(res, f, indent=1)
    print(f"min ratio {res['min_ratio']:.3f}, geomean {res['geomean_ratio']:.3f}, all correct {res['all_correct']}; "
          f"wrote {args.out}")


if __name__ == "__main__":
    main()
