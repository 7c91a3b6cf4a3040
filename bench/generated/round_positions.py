#!/usr/bin/env python3
"""Does a contender's place in `tune gemm`'s confirmation rounds move its measurement? (No GPU.)

Reads recorded suite outputs (bench/gemm_suite40.py --out files) and, for every confirmation in
rounds (`--confirm-rounds`, each contender's `confirmation_rounds` list in the report), orders
each round's contenders by the time they were measured. Every round median is divided by the
median of that contender's own rounds, so kernels of any speed compare; the script prints the
mean and median of that ratio by place in the round (per number of contenders) and by round.
A place that heats (or cools) the GPU for whoever runs there shows as a mean off 1.

  round_positions.py SUITE.json... [--min-us US] [--json]

--min-us keeps only confirmations whose slowest contender's median round took at least US
microseconds (the big GEMMs, which run into the power limit).
"""
import argparse
import collections
import json
import statistics


def contender_rounds(report):
    """Every distinct confirmation_rounds list in one tuning report (each contender's rounds)."""
    found, seen = [], set()

    def walk(o):
        if isinstance(o, dict):
            rounds = o.get("confirmation_rounds")
            if isinstance(rounds, list) and rounds:
                key = tuple(r.get("at_s") for r in rounds)
                if key not in seen:
                    seen.add(key)
                    found.append(rounds)
            for v in o.values():
                walk(v)
        elif isinstance(o, list):
            for v in o:
                walk(v)

    walk(report)
    return found


def slowest_us(contenders):
    return max((x["median_s"] for c in contenders for x in c if "median_s" in x), default=0) * 1e6


def ratios(contenders):
    """(members, round, place, ratio) for each measured round of one confirmation."""
    n_rounds = len(contenders[0])
    if n_rounds < 2 or any(len(c) != n_rounds for c in contenders):
        return []
    out = []
    for r in range(n_rounds):
        order = sorted(range(len(contenders)), key=lambda i: contenders[i][r].get("at_s", 0))
        for place, i in enumerate(order):
            medians = [x["median_s"] for x in contenders[i] if "median_s" in x]
            if len(medians) < n_rounds:
                continue  # a failed round: its contender's ratios would not compare
            out.append((len(contenders), r, place, contenders[i][r]["median_s"] / statistics.median(medians)))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("suites", nargs="+")
    ap.add_argument("--min-us", type=float, default=0.0)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    rows, confirmations = [], 0
    for path in args.suites:
        try:
            suite = json.load(open(path))
        except (OSError, ValueError) as e:
            raise SystemExit(f"{path}: {e}")
        for row in suite.get("rows", []) if isinstance(suite, dict) else []:
            for side in ("ktune", "compare"):
                report = row.get(side)
                if not isinstance(report, dict):
                    continue
                contenders = contender_rounds(report)
                if len(contenders) >= 2 and slowest_us(contenders) >= args.min_us:
                    found = ratios(contenders)
                    confirmations += bool(found)
                    rows += found
    by_place, by_round = collections.defaultdict(list), collections.defaultdict(list)
    for members, r, place, ratio in rows:
        by_place[(members, place)].append(ratio)
        by_round[r].append(ratio)

    def stats(v):
        return {"n": len(v), "mean": statistics.mean(v), "median": statistics.median(v)}

    result = {"confirmations": confirmations,
              "by_place": [{"contenders": m, "place": p, **stats(v)} for (m, p), v in sorted(by_place.items())],
              "by_round": [{"round": r, **stats(v)} for r, v in sorted(by_round.items())]}
    if args.json:
        print(json.dumps(result, indent=1))
        return
    print(f"{confirmations} confirmations in rounds")
    print("contenders place      n   mean   median   (round median / the contender's median round)")
    for e in result["by_place"]:
        print(f"{e['contenders']:10d} {e['place']:5d} {e['n']:6d} {e['mean']:.4f} {e['median']:.4f}")
    for e in result["by_round"]:
        print(f"round {e['round']}: n {e['n']}, mean {e['mean']:.4f}, median {e['median']:.4f}")


if __name__ == "__main__":
    main()
