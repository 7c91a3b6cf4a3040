#!/usr/bin/env python3
"""Nsight Compute's view of cuBLAS (torch) and ktune's generated kernels on chosen suite shapes:
how long each kernel itself runs and where its time goes, where CUDA-event timing only shows the
sum (a generated kernel 0.6-1.0 us behind cuBLASLt's default on small shapes, H200, session 36).

Two steps, because Nsight Compute must wrap the process whose kernels it profiles and must not
profile the tuner's worker:

  ncu_compare.py tune --ktune PATH --shapes NAME... --out configs.json
      tune gemm (as bench/gemm_suite40.py runs it) per shape; keeps the generated family's best
      and the pick, plus variants of the generated best (persistent flipped; --no-variants: none).
  ncu --set full --target-processes application-only -o rep python3 ncu_compare.py run configs.json
      runs every shape once through torch.matmul and each kept configuration through
      libktune_gemm (two launches each, the second profiled as well), no other kernels between.

(PYTHONPATH=python:bench, KTUNE_GEMM_LIB=libktune_gemm.so)
"""
import argparse
import copy
import json
import sys

import torch

from gemm_suite40 import OUT_DTYPE, SUITE, operands, plan_call, torch_call, tune  # noqa: E402
from ktune import _gemm_lib


def variants(config):
    """The generated best with persistence flipped: what the static grid costs on this shape."""
    out = []
    if config.get("family") == "generated" and config.get("path") == "wgmma" and not config.get("split_k", 1) > 1:
        flipped = copy.deepcopy(config)
        flipped["persistent"] = not config.get("persistent", False)
        out.append(("generated, persistent flipped", flipped))
    return out


def cmd_tune(args):
    shapes = {s[0]: s for s in SUITE}
    plan = []
    for name in args.shapes:
        shape = shapes[name]
        rep = tune(args.ktune, *shape)
        entry = {"shape": shape, "problem": rep.get("problem"), "configs": [], "tuned": {
            k: rep.get(k) for k in ("baseline_s", "generated_s", "pick_s", "pick_family")}}
        if "generated_config" in rep:
            entry["configs"].append(("generated best", rep["generated_config"]))
            if not args.no_variants:
                entry["configs"] += variants(rep["generated_config"])
        if rep.get("pick_config") and rep.get("pick_family") != "generated":
            entry["configs"].append(("pick (" + str(rep.get("pick_family")) + ")", rep["pick_config"]))
        plan.append(entry)
        print(name, json.dumps(entry["tuned"]), [c[0] for c in entry["configs"]], flush=True)
    with open(args.out, "w") as f:
        json.dump(plan, f, indent=1)


def cmd_run(args):
    with open(args.configs) as f:
        plan = json.load(f)
    executor = _gemm_lib.Executor(_gemm_lib.load(args.ktune), torch.cuda.current_device())
    for entry in plan:
        name, m, n, k, batch, layout, dtype = entry["shape"]
        a, b = operands(m, n, k, batch, layout, dtype, seed=len(name))
        calls = []
        fn = torch_call(a, b, dtype)
        if fn is not None:
            calls.append(("torch", fn))
        for label, config in entry["configs"]:
            d = torch.empty(batch, m, n, device="cuda", dtype=OUT_DTYPE[dtype])
            calls.append((label, plan_call(executor, entry["problem"], config, a, b, d)))
        torch.cuda.synchronize()
        for label, call in calls:
            # NVTX ranges name the launches in the report (ncu --print-nvtx-rename / --nvtx).
            torch.cuda.nvtx.range_push(f"{name} | {label}")
            for _ in range(2):
                call()
            torch.cuda.synchronize()
            torch.cuda.nvtx.range_pop()
            print(name, label, flush=True)


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    t = sub.add_parser("tune")
    t.add_argument("--ktune", required=True)
    t.add_argument("--shapes", nargs="+", required=True)
    t.add_argument("--out", required=True)
    t.add_argument("--no-variants", action="store_true", help="only the generated best and the pick")
    r = sub.add_parser("run")
    r.add_argument("configs")
    r.add_argument("--ktune", required=True)
    args = ap.parse_args()
    cmd_tune(args) if args.cmd == "tune" else cmd_run(args)


if __name__ == "__main__":
    sys.exit(main())
