#!/usr/bin/env python3
"""Markdown results table and target summary of bench/gemm_suite40.py outputs (no GPU, no torch).

  suite_table.py PART.json [PART.json ...] [--compare LABEL=FILE[,FILE...]] [--fill FILE ...]

Rows come from the given suite outputs (the parts of one run, in suite order). --fill adds suite shapes
the run lacks from other outputs (marked with the file's name in the "source" column), so that a
run cut short can still be reported whole, and honestly. --compare adds a column of another run's
generated / default ratio per shape. Times are microseconds: cuBLASLt default, generated and pick
are ktune's own cold-L2 CUDA-event medians; cuBLAS (torch.matmul) and Triton are triton's do_bench
in the suite's process. "gen / torch, do_bench" cross-checks ktune's ratio: the generated kernel
(through libktune_gemm) and torch.matmul, both timed by do_bench in the suite's process, long runs
of each (big GEMMs slow down as they reach the power limit, which a short measurement misses).
"gen / nearest default run" judges the generated best against the baseline's run nearest in time
to its measurement instead of the baseline's fastest run (ktune measures the baseline before the
finalists and after everything): big GEMMs slow down by 10-17% over a session as the GPU heats.
"""
import argparse
import json
import math
import os
import re
import statistics

SUITE_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "gemm_suite40.py")


def suite_order():
    """Shape names in the order bench/gemm_suite40.py lists them (read as text: no torch here)."""
    return re.findall(r'^\s+\("([a-z0-9_]+)", ', open(SUITE_FILE).read(), re.M)


def load_rows(paths):
    rows = []
    for path in paths:
        for row in json.load(open(path))["rows"]:
            # The folder too: runs of different sessions share file names (r3_suite1.json).
            parent = os.path.basename(os.path.dirname(os.path.abspath(path)))
            row["_source"] = os.path.join(parent, os.path.basename(path)) if parent else os.path.basename(path)
            rows.append(row)
    return rows


def geomean(xs):
    xs = [x for x in xs if x and x > 0]
    return math.exp(statistics.mean(math.log(x) for x in xs)) if xs else None


def gen_ratio(row):
    kt = row.get("ktune", {})
    if kt.get("baseline_s") and kt.get("generated_s"):
        return kt["baseline_s"] / kt["generated_s"]
    return None


def nearest_ratio(row):
    """The generated best against the baseline's run nearest in time to it (ktune's
    family_best.baseline_nearest): the same state of a GPU that heats up over a session."""
    kt = row.get("ktune", {})
    if kt.get("generated_baseline_nearest_s") and kt.get("generated_s"):
        return kt["generated_baseline_nearest_s"] / kt["generated_s"]
    return None


def do_bench_ratio(row):
    if row.get("torch_ms") and row.get("ktune_generated_ms"):
        return row["torch_ms"] / row["ktune_generated_ms"]
    return None


def clock_favoured(row, tolerance=0.03):
    """(pick MHz, baseline MHz) where the pick beat cuBLASLt's default while measured at an SM
    clock more than `tolerance` above the baseline run it was judged against, else None. Such a
    pick can win by the clock alone (session 34: 1.10x on 8192x8192x28672 at 1965 against 1725
    MHz, 1.00x by do_bench); builds since 8c8e764 judge it at the baseline's clock, older
    recordings are flagged here and left out of the pick count. Confirmed in interleaved rounds
    (builds since session 36: the confirmed rows list their confirmation_rounds), the pick is
    judged as tune gemm judges it there: against the highest clock of the baseline's runs in the
    confirmation (its timeline past the first run)."""
    kt = row.get("ktune", {})
    runs = (kt.get("baseline_runs") or {}).get("timeline") or []
    pick_s, base_s = kt.get("pick_s"), kt.get("baseline_s")
    if not runs or not pick_s or not base_s or pick_s >= base_s:
        return None
    pick = [c for c in kt.get("confirmed", []) if abs(c["median_s"] - pick_s) <= 1e-12 * max(1.0, pick_s)]
    pc = pick[0].get("sm_clock_mhz") if pick else None
    if any("confirmation_rounds" in c for c in kt.get("confirmed", [])):
        bc = max((t.get("sm_clock_mhz") or 0 for t in runs[1:]), default=0) or None
    else:
        bc = min(runs, key=lambda t: t["median_s"]).get("sm_clock_mhz")
    return (pc, bc) if pc and bc and pc > bc * (1 + tolerance) else None


def pick_counts(row):
    """The pick's ratio over the default for the "> 1.05x" count (None: not counted)."""
    return None if clock_favoured(row) else row.get("pick_vs_cublaslt_default")


def summary(rows):
    lines = []
    for part, sel in (("all", rows), ("holdout", [r for r in rows if r["holdout"]]),
                      ("tuned_on", [r for r in rows if not r["holdout"]])):
        g = [gen_ratio(r) for r in sel]
        measured = [x for x in g if x]
        if not measured:
            continue
        d = [do_bench_ratio(r) for r in sel]
        p = [pick_counts(r) for r in sel]
        near = [x for x in (nearest_ratio(r) for r in sel) if x]
        near_cells = (f"{geomean(near):.3f} ({sum(1 for x in near if x >= 0.90)}/{len(near)} >= 0.90)" if near else "")
        lines.append(
            f"| {part} | {len(sel)} | {geomean(g):.3f} | {near_cells} | {fmt(geomean(d), 3)} | {min(measured):.3f} | "
            f"{sum(1 for x in measured if x >= 0.90)}/{len(measured)} | "
            f"{sum(1 for r in sel if r.get('generated_vs_triton', 0) > 1)}/{sum(1 for r in sel if 'triton_ms' in r)} | "
            f"{sum(1 for x in p if x and x > 1.05)}/{len(sel)} | "
            f"{sum(1 for r in sel if r.get('tuning_s_vs_triton', 9) <= 1)}/{len(sel)} |")
    head = ("| shapes | n | generated / default, geomean | against the nearest baseline run | gen / torch, do_bench, geomean | "
            "min | >= 0.90 | generated faster than Triton | pick > 1.05x default | tuning <= Triton's |\n"
            "|---|---|---|---|---|---|---|---|---|---|")
    flagged = [(r["name"], clock_favoured(r)) for r in rows if clock_favoured(r)]
    notes = "".join(f"\n\nNot counted as a pick > 1.05x: {name}, its pick measured at {pc:.0f} MHz against the "
                    f"baseline's {bc:.0f} MHz (a win the clock can explain)." for name, (pc, bc) in flagged)
    return head + "\n" + "\n".join(lines) + notes


def fmt(x, digits=1):
    return "" if x is None else f"{x:.{digits}f}"


def table(rows, compare):
    cols = ["shape", "dtype", "holdout", "cuBLAS (torch) us", "cuBLASLt default us", "generated us", "pick us",
            "Triton us"] + [f"gen / default, {label}" for label in compare] + [
            "gen / default", "gen / nearest default run", "gen / torch, do_bench", "pick / default", "gen / Triton", "pick / torch", "ktune tune s", "Triton tune s",
            "generated kernel", "source"]
    out = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for r in rows:
        kt = r.get("ktune", {})
        c = kt.get("generated_config") or {}
        kernel = ""
        if c:
            kernel = f"{c.get('path')} {c.get('workgroup')} s{c.get('pipeline_stages')}"
            if c.get("split_k", 1) > 1:
                kernel += f" splitK{c['split_k']}" + (" reduced" if c.get("split_reduce") else "")
            cn, cm = c.get("cluster_n", 1), c.get("cluster_m", 1)
            if cn * cm > 1:
                kernel += " pair" if (cn, cm) == (2, 1) else f" cluster {cm}x{cn}"
            if c.get("swap_ab"):
                kernel += " swapAB"
        us = lambda s: None if s is None else 1e6 * s  # noqa: E731
        cells = [r["name"], f"{r['dtype']} {r['layout']}", "yes" if r["holdout"] else "",
                 fmt(r.get("torch_ms") and 1000 * r["torch_ms"]), fmt(us(kt.get("baseline_s"))),
                 fmt(us(kt.get("generated_s"))), fmt(us(kt.get("pick_s"))),
                 fmt(r.get("triton_ms") and 1000 * r["triton_ms"])]
        cells += [fmt(other.get(r["name"]), 2) for other in compare.values()]
        g = gen_ratio(r)
        cells += [f"**{g:.2f}**" if g else "", fmt(nearest_ratio(r), 2), fmt(do_bench_ratio(r), 2), fmt(r.get("pick_vs_cublaslt_default"), 2),
                  fmt(r.get("generated_vs_triton"), 2), fmt(r.get("pick_vs_torch"), 2), fmt(kt.get("wall_s")),
                  fmt(r.get("triton_tune_s")), kernel, r["_source"]]
        out.append("| " + " | ".join(cells) + " |")
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("parts", nargs="+")
    ap.add_argument("--fill", nargs="*", default=[])
    ap.add_argument("--compare", action="append", default=[], help="LABEL=FILE[,FILE...]")
    args = ap.parse_args()
    rows = load_rows(args.parts)
    have = {r["name"] for r in rows}
    order = {name: i for i, name in enumerate(suite_order())}
    for row in load_rows(args.fill):
        # Only the suite's own shapes: a filling run's random draws or extra shapes stay out.
        if row["name"] in order and row["name"] not in have:
            rows.append(row)
            have.add(row["name"])
    rows.sort(key=lambda r: order.get(r["name"], len(order)))
    compare = {}
    for spec in args.compare:
        label, files = spec.split("=", 1)
        compare[label] = {r["name"]: gen_ratio(r) for r in load_rows(files.split(","))}
    print(table(rows, compare))
    print()
    print(summary(rows))


if __name__ == "__main__":
    main()
