#!/usr/bin/env python3
"""Times chosen generated GEMM configurations of one suite shape side by side in one process, for
comparing kernel variants (e.g. CTA pairs against the same kernel unpaired) and for profiling
them with Nsight Compute.

Reads a `ktune --json tune gemm` report of that shape (its "problem" and generated candidates),
takes the configurations that --select names, runs each through libktune_gemm on fresh random
operands, checks it against an fp64 reference and times it with triton's do_bench (L2 flushed,
median). With --once every configuration runs exactly once after its check, untimed (run it
under `ncu -k regex:ktune_gemm` to profile one launch of each).

  pair_probe.py REPORT --shape NAME [--select pairs|all|top:N|file:CONFIGS.json] [--once] [--torch]
                [--flushes] [--out FILE]
  (PYTHONPATH=python:bench, KTUNE_GEMM_LIB=libktune_gemm.so)

--select pairs: every measured kernel with cluster_n 2 and the same configuration without it;
file:PATH: the configurations listed in PATH (a JSON list). --torch also times torch.matmul
(cuBLAS) on the same operands, before and after the configurations, as rows with "peer": "torch". REPORT may also be the output of
`ktune --json tune gemm ... --dry-run`, which has the problem and no candidates. --flushes also
times every row by CUDA events after each of decode_floor.py's two flushes ("dirty_us": zeroing
256 MB as do_bench does, which leaves L2 full of dirty lines; "clean_us": then reading 512 MB, so
that no write-back falls into the timed kernel): what a kernel gains by L2 state alone shows as a
difference between the two.
"""
import argparse
import json

import torch
from triton.testing import do_bench

from gemm_suite40 import OUT_DTYPE, SUITE, operands, plan_call, random_shapes, rel_err  # noqa: E402
from ktune import _gemm_lib


def find_shape(name):
    """A suite shape, or a random one ("rand<seed>_<i>_...", as gemm_suite40.py --random draws it)."""
    for s in SUITE:
        if s[0] == name:
            return s
    if name.startswith("rand"):
        seed, index = int(name[4:name.index("_")]), int(name.split("_")[1])
        for s in random_shapes(index + 1, seed):
            if s[0] == name:
                return s
    raise SystemExit(f"{name}: not a suite shape nor a random one")


def configs_of(report, select):
    gen = [c for c in report.get("candidates", []) if c.get("family") == "generated" and c.get("status") == "ok"]
    gen.sort(key=lambda c: c.get("median_s") or 1e9)
    if select.startswith("file:"):
        return json.load(open(select[5:]))
    if select == "all":
        return [c["config"] for c in gen]
    if select.startswith("top:"):
        return [c["config"] for c in gen[: int(select[4:])]]
    out = []
    for c in gen:
        if c["config"].get("cluster_n", 1) == 2:
            twin = {k: v for k, v in c["config"].items() if k != "cluster_n"}
            out += [twin, c["config"]]
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("report")
    ap.add_argument("--shape", required=True)
    ap.add_argument("--select", default="pairs")
    ap.add_argument("--once", action="store_true")
    ap.add_argument("--torch", action="store_true")
    ap.add_argument("--flushes", action="store_true")
    ap.add_argument("--samples", type=int, default=100, help="CUDA-event samples per flush with --flushes")
    ap.add_argument("--out")
    args = ap.parse_args()
    flushes = None
    if args.flushes:
        from decode_floor import timed  # noqa: E402 - only with --flushes (it compiles a Triton kernel)
        dirty_buf = torch.empty(256 << 20, dtype=torch.int8, device="cuda")
        clean_buf = torch.empty(512 << 20, dtype=torch.int8, device="cuda").view(torch.float16)
        clean_buf.normal_()
        sink = torch.empty(1 << 20, device="cuda")

        def flushes(fn, row):
            for clean in (False, True):
                row["clean_us" if clean else "dirty_us"] = timed(fn, args.samples, clean, dirty_buf, clean_buf, sink)
    report = json.load(open(args.report))
    name, m, n, k, batch, layout, dtype = find_shape(args.shape)
    a, b = operands(m, n, k, batch, layout, dtype, seed=7)
    ref = torch.matmul(a.double(), b.double())
    executor = _gemm_lib.Executor(_gemm_lib.load(), 0)
    d = torch.empty(batch, m, n, device="cuda", dtype=OUT_DTYPE[dtype])
    rows = []

    def time_torch(when):
        # cuBLAS's TF32 kernels for tf32 shapes, as the suite's torch_call sets it (strict fp32
        # otherwise: 2.7 ms on 4096^3 instead of 0.35; session 38).
        torch.backends.cuda.matmul.allow_tf32 = dtype == "tf32"
        out = torch.empty_like(d)
        row = {"peer": "torch", "when": when}
        try:  # fp8 has no plain torch.matmul
            row["us"] = 1000 * do_bench(lambda: torch.matmul(a, b, out=out), return_mode="median")
            row["err"] = rel_err(out, ref)
            if flushes:
                flushes(lambda: torch.matmul(a, b, out=out), row)
        except Exception as e:  # noqa: BLE001
            row["error"] = repr(e)[:300]
        rows.append(row)
        print(json.dumps(row), flush=True)

    if args.torch:
        time_torch("before")
    for config in configs_of(report, args.select):
        row = {"config": config}
        try:
            call = plan_call(executor, report["problem"], config, a, b, d, name)
            d.fill_(float("nan"))
            call()
            torch.cuda.synchronize()
            row["err"] = rel_err(d, ref)
            if args.once:
                call()
            else:
                row["us"] = 1000 * do_bench(call, return_mode="median")
                if flushes:
                    flushes(call, row)
        except Exception as e:  # noqa: BLE001 - a configuration that cannot run is a result
            row["error"] = repr(e)[:300]
        rows.append(row)
        print(json.dumps(row), flush=True)
    if args.torch:
        time_torch("after")
    torch.cuda.synchronize()
    if args.out:
        json.dump({"shape": args.shape, "rows": rows}, open(args.out, "w"), indent=1)


if __name__ == "__main__":
    main()
