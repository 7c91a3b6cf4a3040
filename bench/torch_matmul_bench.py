#!/usr/bin/env python3
"""Issue 14's GPU target: a PyTorch script whose matmuls go through ktune.torch, against
torch.matmul, on every shape of the GEMM suite (bench/gemm_suite.py's SHAPES), after tuning.

1. ktune.torch.enable(db, online=True, budget_seconds=B): each shape's first kt.matmul queues it;
   the background worker runs `ktune tune gemm` (--families as given; cuBLASLt only by default,
   the configurations TunableOp can replay) and reloads the picks; kt.wait() until all are done.
   The online tuning wall time per shape is recorded.
2. Per shape, rounds alternating the baseline (torch.matmul with TunableOp off: PyTorch's default)
   and kt.matmul (TunableOp on, ktune's picks loaded), each timed with triton.testing.do_bench
   (L2 flushed, median), on fresh random data; results compared (relative error) with the
   baseline's on the same inputs. Ratio = baseline median / ktune median, median over rounds.
3. Overhead per call, host side, on a 64x64x64 GEMM (launch-bound, so no queue builds up):
   ktune's per-call work alone (kt._see_mm: key and dict lookup, no GEMM; 9 x 100000 calls);
   kt.matmul vs torch.matmul with TunableOp on in both, and torch.matmul with TunableOp on vs off
   (TunableOp's own lookup). Median of 7 loops of 2000 calls.

The device's Python (3.12) cannot load the extension module built here for 3.11; ktune.torch needs
only the CLI, so this script loads ktune's pure-Python modules from the source tree without
ktune/__init__.py (which imports the extension).

usage: torch_matmul_bench.py --ktune PATH [--out FILE] [--budget S] [--rounds N] [--families F]
"""
import argparse
import importlib.util
import json
import os
import statistics
import sys
import tempfile
import time
import types

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from gemm_suite import SHAPES  # noqa: E402

import torch  # noqa: E402
from triton.testing import do_bench  # noqa: E402


def load_ktune_torch():
    pkg = types.ModuleType("ktune")
    pkg.__path__ = [os.path.join(HERE, "..", "python", "ktune")]
    sys.modules["ktune"] = pkg
    spec = importlib.util.spec_from_file_location("ktune.torch", os.path.join(pkg.__path__[0], "torch.py"))
    mod = importlib.util.module_from_spec(spec)
    sys.modules["ktune.torch"] = mod
    spec.loader.exec_module(mod)
    return mod


DT = {"f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32}


def host_overhead_us(fn, a, b, loops=7, calls=2000):
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


def layer_us(fn, loops=9, calls=100000):
    times = []
    for _ in range(loops):
        t0 = time.perf_counter()
        for _ in range(calls):
            fn()
        times.append((time.perf_counter() - t0) / calls * 1e6)
    return statistics.median(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ktune", required=True)
    ap.add_argument("--out", default="torch_matmul_bench.json")
    ap.add_argument("--budget", type=float, default=60.0)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--families", default="cublaslt")
    ap.add_argument("--shapes", nargs="*")
    args = ap.parse_args()
    kt = load_ktune_torch()
    os.environ["KTUNE_BIN"] = os.path.abspath(args.ktune)
    shapes = [s for s in SHAPES if not args.shapes or s[0] in args.shapes]
    work = tempfile.mkdtemp(prefix="ktune_torch_bench_")
    db = os.path.join(work, "ktune.db")
    res = {"device": torch.cuda.get_device_name(), "torch": torch.__version__,
           "validators": [list(v) for v in torch.cuda.tunable.get_validators()],
           "budget_s": args.budget, "families": args.families, "shapes": []}

    kt.enable(db, online=True, budget_seconds=args.budget, tune_args=["--families", args.families])
    g = torch.Generator(device="cuda").manual_seed(1)
    inputs = {}
    t0 = time.time()
    for name, m, n, k, dtype in shapes:
        a = torch.randn(m, k, device="cuda", dtype=DT[dtype], generator=g)
        b = torch.randn(k, n, device="cuda", dtype=DT[dtype], generator=g)
        inputs[name] = (a, b)
        kt.matmul(a, b)  # first sight: queued for tuning
    done = kt.wait(timeout=args.budget * len(shapes) + 120)
    res["online_tuning_wall_s"] = time.time() - t0
    res["online_tuning_finished"] = done
    res["status"] = kt.status()
    res["tunableop_results_loaded"] = len(torch.cuda.tunable.get_results())
    kt.disable()
    try:
        kt.enable(db, online=False)
        kt.disable()
    except kt.ReplayUnsupported as e:
        # This PyTorch cannot run ktune's picks: kt.matmul would be torch.matmul; nothing to time.
        res["replay"] = str(e)
        print("replay unsupported:", e, flush=True)
        with open(args.out, "w") as f:
            json.dump(res, f, indent=1)
        return

    for name, m, n, k, dtype in shapes:
        a, b = inputs[name]
        row = {"name": name, "m": m, "n": n, "k": k, "dtype": dtype, "base_ms": [], "ktune_ms": []}
        for r in range(args.rounds):
            a.normal_(generator=g)
            b.normal_(generator=g)
            kt.disable()
            ref = torch.matmul(a, b)
            row["base_ms"].append(do_bench(lambda: torch.matmul(a, b), return_mode="median"))
            kt.enable(db, online=False)
            out = kt.matmul(a, b)
            row["rel_err"] = max(row.get("rel_err", 0.0),
                                 float((out.float() - ref.float()).norm() / ref.float().norm().clamp_min(1e-30)))
            row["ktune_ms"].append(do_bench(lambda: kt.matmul(a, b), return_mode="median"))
        row["ratio"] = statistics.median(x / y for x, y in zip(row["base_ms"], row["ktune_ms"]))
        row["flops"] = 2.0 * m * n * k
        res["shapes"].append(row)
        print(f"{name:24s} base {statistics.median(row['base_ms'])*1e3:9.1f} us  ktune "
              f"{statistics.median(row['ktune_ms'])*1e3:9.1f} us  ratio {row['ratio']:.3f}  rel_err {row['rel_err']:.1e}",
              flush=True)

    small = [torch.randn(64, 64, device="cuda", dtype=torch.float16) for _ in range(2)]
    kt.enable(db, online=False)
    kt.matmul(*small)
    state = kt._state
    res["overhead_us"] = {
        "ktune_matmul_tunableop_on": host_overhead_us(kt.matmul, *small),
        "torch_matmul_tunableop_on": host_overhead_us(torch.matmul, *small),
        # ktune's own per-call work alone (key + dict lookup on CUDA tensors), no GEMM: precise,
        # where the difference of two launch-bound loops is within their noise.
        "ktune_layer_alone_us": layer_us(lambda: kt._see_mm(state, *small)),
    }
    kt.disable()
    res["overhead_us"]["torch_matmul_tunableop_off"] = host_overhead_us(torch.matmul, *small)
    o = res["overhead_us"]
    o["ktune_layer_difference_us"] = o["ktune_matmul_tunableop_on"] - o["torch_matmul_tunableop_on"]
    o["tunableop_lookup_us"] = o["torch_matmul_tunableop_on"] - o["torch_matmul_tunableop_off"]
    print("overhead per call (us):", json.dumps(o), flush=True)
    ratios = [s["ratio"] for s in res["shapes"]]
    res["min_ratio"] = min(ratios)
    res["geomean_ratio"] = statistics.geometric_mean(ratios)
    with open(args.out, "w") as f:
        json.dump(res, f, indent=1)
    print(f"min ratio {res['min_ratio']:.3f}, geomean {res['geomean_ratio']:.3f}; wrote {args.out}")


if __name__ == "__main__":
    main()
