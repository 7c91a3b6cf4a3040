#!/usr/bin/env python3
"""How far down cuBLASLt's own heuristic list the fastest algorithm sits, per GEMM shape.

For each shape (the 44 of gemm_suite40.py, or --random N --seed S unseen ones), one cold
`ktune tune gemm --families cublaslt` asking the heuristic for --heuristics answers (64 by
default) and measuring every one by ktune's method (cold L2, CUDA events, screening then
confirmation of the finalists; candidate 0 is the heuristic's first answer, the baseline).
Every candidate's heuristic rank, configuration, status and median go into the JSON, so the
question "how many answers must a tuner ask for" is read offline: see --analyse.

usage: cublaslt_landscape.py --ktune PATH [--heuristics 64] [--shapes NAME...] [--random N --seed S]
                             [--ktune-arg=...] --out FILE
       cublaslt_landscape.py --analyse FILE...   (no GPU: pick/default if the list were cut at 8, 16, 32, all)
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import time


def tune(ktune, shape, heuristics, extra, max_candidates=None, tail_seconds=0.0):
    name, m, n, k, batch, layout, dtype = shape
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [ktune, "--db", os.path.join(tmp, "k.db"), "--json", "tune", "gemm", "--m", str(m), "--n", str(n),
               "--k", str(k), "--dtype", dtype, "--layout", layout, "--batch", str(batch), "--families", "cublaslt",
               "--heuristics", str(heuristics), "--max-candidates", str(max_candidates or heuristics),
               "--tail-seconds", str(tail_seconds),
               "--progress", "none", *extra]
        start = time.time()
        proc = subprocess.run(cmd, capture_output=True, text=True, env=dict(os.environ, KTUNE_CACHE_DIR=tmp))
        wall = time.time() - start
    row = {"name": name, "m": m, "n": n, "k": k, "batch": batch, "layout": layout, "dtype": dtype, "wall_s": wall}
    if proc.returncode != 0:
        row["error"] = f"exit {proc.returncode}: {proc.stderr[-800:]}"
        return row
    rep = json.loads(proc.stdout)
    row["baseline_s"] = (rep.get("baseline") or {}).get("median_s")
    pick = rep.get("pick") or {}
    row["pick_s"] = (pick.get("stats") or {}).get("median_s")
    row["pick_config"] = pick.get("config")
    row["confirmed"] = rep.get("confirmed")
    row["phases"] = rep.get("phases")
    row["candidates"] = [{k: c.get(k) for k in ("index", "config", "status", "median_s", "min_s", "samples", "raced",
                                               "source")} for c in rep.get("candidates", [])]
    return row


def best_ratio(row, keep):
    """The baseline over the fastest median of the candidates `keep` accepts (config -> bool): a
    finalist's confirmed median where it has one (screening's few samples flatter the luckiest
    of many draws)."""
    confirmed = {f.get("candidate"): f.get("median_s") for f in row.get("confirmed") or []}
    best = None
    for c in row.get("candidates", []):
        if c.get("status") != "ok" or c.get("median_s") is None or not keep(c.get("config") or {}):
            continue
        median = confirmed.get(c.get("index"), c["median_s"]) if c.get("index") else row["baseline_s"]
        best = median if best is None else min(best, median)
    return row["baseline_s"] / best if best and row.get("baseline_s") else None


def cut_pick(row, limit):
    """best_ratio over the heuristic's answers of rank < limit."""
    return best_ratio(row, lambda cfg: 0 <= cfg.get("heuristic", -1) < limit)


def analyse(files):
    rows = []
    for f in files:
        rows += json.load(open(f))["rows"]
    limits = (1, 8, 16, 24, 32, 48, 64, 1 << 30)
    print(f"{'shape':40s} " + " ".join(f"{('<' + str(l)) if l < 1 << 30 else 'all':>6s}" for l in limits) +
          "  enumerated  pick/default  fastest rank  answers")
    over = {l: 0 for l in limits}
    for r in rows:
        if "error" in r:
            print(f"{r['name']:40s} {r['error'][:80]}")
            continue
        ratios = [cut_pick(r, l) for l in limits]
        for l, x in zip(limits, ratios):
            over[l] += 1 if x and x > 1.05 else 0
        ok = [c for c in r["candidates"] if c.get("status") == "ok" and c.get("median_s")]
        fastest = min(ok, key=lambda c: c["median_s"]) if ok else None
        answers = sum(1 for c in r["candidates"] if (c.get("config") or {}).get("heuristic", -1) >= 0)
        pick = r["baseline_s"] / r["pick_s"] if r.get("pick_s") and r.get("baseline_s") else 0
        enumerated = best_ratio(r, lambda cfg: cfg.get("heuristic", -1) < 0) or 0
        print(f"{r['name']:40s} " + " ".join(f"{x or 0:6.3f}" for x in ratios) + f"  {enumerated:10.3f}" +
              f"  {pick:12.3f}  {(fastest['config'] or {}).get('heuristic', -1) if fastest else -1:12d}  {answers:7d}")
    print("screened best > 1.05x the baseline:", {("all" if l == 1 << 30 else l): v for l, v in over.items()},
          "of", len(rows))
    picks = [r["baseline_s"] / r["pick_s"] for r in rows if r.get("pick_s") and r.get("baseline_s")]
    print("confirmed pick > 1.05x:", sum(1 for x in picks if x > 1.05), "of", len(picks),
          "geomean", math.exp(sum(map(math.log, picks)) / len(picks)) if picks else None)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ktune")
    ap.add_argument("--out", default="cublaslt_landscape.json")
    ap.add_argument("--heuristics", type=int, default=64)
    ap.add_argument("--shapes", nargs="*")
    ap.add_argument("--random", type=int, default=0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-candidates", type=int, help="default: --heuristics (no enumerated algorithms)")
    ap.add_argument("--tail-seconds", type=float, default=0.0, help="measuring for enumerated algorithms")
    ap.add_argument("--ktune-arg", action="append", default=[])
    ap.add_argument("--analyse", nargs="*")
    args = ap.parse_args()
    if args.analyse:
        analyse(args.analyse)
        return
    if not args.ktune:
        ap.error("--ktune is needed to measure")
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from gemm_suite40 import SUITE, random_shapes  # torch and triton: the GPU machine has them
    pool = random_shapes(args.random, args.seed) if args.random else SUITE
    shapes = [s for s in pool if not args.shapes or s[0] in args.shapes]
    res = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "heuristics": args.heuristics,
           "max_candidates": args.max_candidates, "tail_seconds": args.tail_seconds,
           "ktune_args": args.ktune_arg, "rows": []}
    for shape in shapes:
        row = tune(args.ktune, shape, args.heuristics, args.ktune_arg, args.max_candidates, args.tail_seconds)
        res["rows"].append(row)
        pick = row["baseline_s"] / row["pick_s"] if row.get("pick_s") and row.get("baseline_s") else 0
        print(f"{shape[0]:40s} pick/default {pick:5.3f} answers {len(row.get('candidates', []))} "
              f"{row['wall_s']:5.1f}s {row.get('error', '')[:100]}", flush=True)
        with open(args.out, "w") as f:
            json.dump(res, f, indent=1)


if __name__ == "__main__":
    main()
