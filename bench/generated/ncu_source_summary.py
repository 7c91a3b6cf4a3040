#!/usr/bin/env python3
"""Where a kernel's instructions and stalls are, from Nsight Compute's source page.

Input: the CSV that `ncu --import REP --csv --page source --print-source sass` writes (one SASS
listing per profiled launch: address, instruction, stall samples, instructions executed, stall
reasons), as bench/generated/device_run.sh exports it (NCU_SHAPES). Output, per launch:

  - the warp instructions executed and the stall samples, in total and by opcode;
  - the stall samples by reason;
  - the executed code split into runs (consecutive executed instructions; a run ends where the
    execution count changes by more than --split, or an instruction never executes), each with
    its instructions, executed warp instructions, samples and its first opcodes: the prologue,
    a K loop, an epilogue and the producer each show up as runs of their own;
  - the --top instructions by stall samples.

  ncu_source_summary.py ncu_source.csv [--kernel REGEX] [--launch N ...] [--json OUT]

Launches are numbered in the order the report holds them (the order they ran).
"""
import argparse
import csv
import json
import re
import sys
from collections import Counter

STALLS = ("stall_barrier", "stall_branch_resolving", "stall_dispatch", "stall_drain", "stall_imc", "stall_lg",
          "stall_long_sb", "stall_math", "stall_membar", "stall_mio", "stall_misc", "stall_no_inst",
          "stall_not_selected", "stall_selected", "stall_short_sb", "stall_sleep", "stall_tex", "stall_wait")


def number(text):
    try:
        return float(text.replace(",", ""))
    except (AttributeError, ValueError):
        return 0.0


def opcode(source):
    """The opcode of a SASS line without its guard and modifiers: '@!P0 BRA 0x..' -> 'BRA'."""
    words = source.split()
    if words and words[0].startswith("@"):
        words = words[1:]
    return words[0].split(".")[0] if words else "?"


def read_launches(path):
    """[(kernel name, [row dict ...]), ...] in file order."""
    launches = []
    header = None
    with open(path, newline="") as f:
        for row in csv.reader(f):
            if not row:
                continue
            if row[0] == "Kernel Name":
                launches.append((row[1] if len(row) > 1 else "?", []))
                header = None
            elif row[0] == "Address":
                header = row
            elif header is not None and launches:
                launches[-1][1].append(dict(zip(header, row)))
    return launches


def runs(rows, split):
    """Consecutive executed instructions with similar counts, as (first, last) index pairs."""
    out = []
    start = None
    for i, r in enumerate(rows):
        n = number(r.get("Instructions Executed"))
        if n <= 0:
            if start is not None:
                out.append((start, i - 1))
                start = None
            continue
        if start is not None:
            prev = number(rows[i - 1].get("Instructions Executed"))
            if max(n, prev) > split * min(n, prev):
                out.append((start, i - 1))
                start = i
        else:
            start = i
    if start is not None:
        out.append((start, len(rows) - 1))
    return out


def summarise(name, rows, split, top):
    executed = [number(r.get("Instructions Executed")) for r in rows]
    samples = [number(r.get("Warp Stall Sampling (All Samples)")) for r in rows]
    by_op_exec, by_op_samples = Counter(), Counter()
    for r, n, s in zip(rows, executed, samples):
        op = opcode(r.get("Source", ""))
        by_op_exec[op] += n
        by_op_samples[op] += s
    stalls = Counter()
    for r in rows:
        for k in STALLS:
            stalls[k] += number(r.get(k))
    run_list = []
    for a, b in runs(rows, split):
        ops = Counter(opcode(rows[i].get("Source", "")) for i in range(a, b + 1))
        run_list.append({
            "from": rows[a].get("Address"), "instructions": b - a + 1,
            "executed": sum(executed[a:b + 1]), "per_instruction": executed[a],
            "samples": sum(samples[a:b + 1]),
            "opcodes": ", ".join(f"{op} {c}" for op, c in ops.most_common(6)),
        })
    hot = sorted(range(len(rows)), key=lambda i: -samples[i])[:top]
    return {
        "kernel": name, "sass_instructions": len(rows), "executed": sum(executed), "samples": sum(samples),
        "by_opcode": [{"opcode": op, "executed": n, "samples": by_op_samples[op]}
                      for op, n in by_op_exec.most_common()],
        "stalls": dict(stalls.most_common()),
        "runs": run_list,
        "hot": [{"address": rows[i].get("Address"), "source": rows[i].get("Source", "").strip(),
                 "samples": samples[i], "executed": executed[i],
                 "stalls": {k: number(rows[i].get(k)) for k in STALLS if number(rows[i].get(k)) > 0}}
                for i in hot if samples[i] > 0],
    }


def show(index, s, out):
    p = lambda *a: print(*a, file=out)  # noqa: E731
    p(f"== launch {index}: {s['kernel'][:90]}")
    p(f"   {s['sass_instructions']} SASS instructions, {s['executed']:.0f} warp instructions executed, "
      f"{s['samples']:.0f} stall samples")
    total = s["samples"] or 1
    p("   stalls: " + ", ".join(f"{k[6:]} {v / total:.0%}" for k, v in s["stalls"].items() if v / total >= 0.02))
    p("   by opcode (executed, samples): " + ", ".join(
        f"{o['opcode']} {o['executed']:.0f}/{o['samples']:.0f}" for o in s["by_opcode"][:14]))
    p("   runs (address, instructions, executed each, executed, samples: opcodes):")
    for r in s["runs"]:
        if r["executed"] < 0.002 * s["executed"] and r["samples"] < 0.01 * total:
            continue
        p(f"     {r['from']:>18} {r['instructions']:5d} x{r['per_instruction']:<8.0f} {r['executed']:9.0f} "
          f"{r['samples']:7.0f}: {r['opcodes']}")
    p("   hottest instructions:")
    for h in s["hot"]:
        reasons = ", ".join(f"{k[6:]} {v:.0f}" for k, v in sorted(h["stalls"].items(), key=lambda kv: -kv[1])[:3])
        p(f"     {h['address']:>18} {h['samples']:6.0f} x{h['executed']:<7.0f} {h['source'][:60]:60} {reasons}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("csv")
    ap.add_argument("--kernel", default=None, help="only launches whose kernel name matches this regex")
    ap.add_argument("--launch", type=int, nargs="*", help="only these launch numbers")
    ap.add_argument("--split", type=float, default=1.5, help="a run ends where the count changes by this factor")
    ap.add_argument("--top", type=int, default=12)
    ap.add_argument("--json", default=None, help="also write the summaries here")
    args = ap.parse_args()
    launches = read_launches(args.csv)
    if not launches:
        sys.exit(f"{args.csv}: no 'Kernel Name' blocks (not an ncu --page source CSV?)")
    chosen = []
    for i, (name, rows) in enumerate(launches):
        if args.kernel and not re.search(args.kernel, name):
            continue
        if args.launch and i not in args.launch:
            continue
        chosen.append((i, summarise(name, rows, args.split, args.top)))
    for i, s in chosen:
        show(i, s, sys.stdout)
    if args.json:
        with open(args.json, "w") as f:
            json.dump([dict(s, launch=i) for i, s in chosen], f, indent=1)


if __name__ == "__main__":
    main()
