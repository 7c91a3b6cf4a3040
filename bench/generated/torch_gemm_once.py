#!/usr/bin/env python3
"""Runs cuBLAS (torch.matmul / torch._scaled_mm) on one suite shape a few times: a target for
`ncu -k regex:...` to profile cuBLAS's kernel beside ktune's (pair_probe.py --once).

  torch_gemm_once.py NAME [--calls N]        (PYTHONPATH=bench)
"""
import argparse

import torch

from gemm_suite40 import SUITE, operands, torch_call

ap = argparse.ArgumentParser()
ap.add_argument("name")
ap.add_argument("--calls", type=int, default=3)
args = ap.parse_args()
name, m, n, k, batch, layout, dtype = next(s for s in SUITE if s[0] == args.name)
a, b = operands(m, n, k, batch, layout, dtype, seed=5)
fn = torch_call(a, b, dtype)
for _ in range(args.calls):
    fn()
torch.cuda.synchronize()
