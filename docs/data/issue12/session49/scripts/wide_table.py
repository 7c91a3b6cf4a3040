#!/usr/bin/env python3
"""Call W's A/B (session 49): per shape, the defaults (A) against the wide search (B, the
--compare-ktune arm) from gemm_suite40.py outputs: pick / default and generated / default by each
arm's own interleaved confirmation, each arm's tuning seconds, and where B's best generated kernel
came from (its model rank or the refinement) with its configuration.

  python3 wide_table.py callW_suite1.json [callW_suite2.json ...]
"""
import json
import math
import sys


def geomean(xs):
    xs = [x for x in xs if x]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def best_source(kt):
    ok = [g for g in kt.get("generated_measured") or [] if g.get("status") == "ok" and g.get("median_s")]
    if not ok:
        return "-", ""
    g = min(ok, key=lambda g: g["median_s"])
    c = {k: v for k, v in g["config"].items() if k not in ("family", "mma_kind", "min_blocks_per_sm")}
    return g["source"], " ".join(f"{k}={v}" for k, v in sorted(c.items()))


def ratio(kt, which):
    return kt["baseline_s"] / kt[f"{which}_s"] if kt.get("baseline_s") and kt.get(f"{which}_s") else None


def main():
    rows = [r for f in sys.argv[1:] for r in json.load(open(f))["rows"]]
    print("| shape | A pick/default | B pick/default | A gen/default | B gen/default | A tune s | B tune s | Triton tune s "
          "| B pick family | B best generated from | its configuration |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    cols = {"ap": [], "bp": [], "ag": [], "bg": []}
    over = {"A": 0, "B": 0}
    for r in rows:
        a, b = r.get("ktune", {}), r.get("compare", {})
        ap, bp, ag, bg = ratio(a, "pick"), ratio(b, "pick"), ratio(a, "generated"), ratio(b, "generated")
        for key, v in zip(cols, (ap, bp, ag, bg)):
            cols[key].append(v)
        over["A"] += bool(ap and ap > 1.05)
        over["B"] += bool(bp and bp > 1.05)
        src, cfg = best_source(b)
        f = lambda x: f"{x:.3f}" if x else "-"
        print(f"| {r['name']} | {f(ap)} | {f(bp)} | {f(ag)} | {f(bg)} | {a.get('wall_s', 0):.1f} | {b.get('wall_s', 0):.1f} "
              f"| {r.get('triton_tune_s', 0):.1f} | {b.get('pick_family', '-')} | {src} | {cfg} |")
    print(f"\n{len(rows)} shapes: pick/default geomean A {geomean(cols['ap']):.3f} B {geomean(cols['bp']):.3f}; "
          f"generated/default A {geomean(cols['ag']):.3f} B {geomean(cols['bg']):.3f}; pick > 1.05x A {over['A']} B {over['B']}")


if __name__ == "__main__":
    main()
