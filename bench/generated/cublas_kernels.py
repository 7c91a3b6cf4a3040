#!/usr/bin/env python3
"""Which kernels cuBLAS runs for suite shapes (torch.matmul, torch._scaled_mm for fp8), with their
device times, from torch.profiler: the kernel names carry cuBLAS's tile, cluster and split-K
choices, which is what ktune's generated kernels are compared against.

  cublas_kernels.py [--shapes NAME...] [--out FILE]     (PYTHONPATH=bench)
"""
import argparse
import json

import torch
from torch.profiler import ProfilerActivity, profile

from gemm_suite40 import SUITE, operands, torch_call


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shapes", nargs="*")
    ap.add_argument("--out")
    args = ap.parse_args()
    out = []
    for name, m, n, k, batch, layout, dtype in SUITE:
        if args.shapes and name not in args.shapes:
            continue
        a, b = operands(m, n, k, batch, layout, dtype, seed=3)
        fn = torch_call(a, b, dtype)
        if fn is None:
            continue
        for _ in range(3):
            fn()
        torch.cuda.synchronize()
        with profile(activities=[ProfilerActivity.CUDA]) as prof:
            for _ in range(10):
                fn()
            torch.cuda.synchronize()
        kernels = {}
        for e in prof.events():
            if e.device_type.name == "CUDA":
                d = kernels.setdefault(e.name, [0, 0.0])
                d[0] += 1
                d[1] += e.device_time
        row = {"name": name, "kernels": [{"kernel": kname, "calls_per_gemm": c / 10, "us_per_gemm": t / 10}
                                          for kname, (c, t) in kernels.items()]}
        out.append(row)
        print(json.dumps(row), flush=True)
    if args.out:
        json.dump(out, open(args.out, "w"), indent=1)


if __name__ == "__main__":
    main()
