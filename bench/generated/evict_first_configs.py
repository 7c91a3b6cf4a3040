#!/usr/bin/env python3
"""Configuration lists for timing the L2 evict-first policy (knob l2_evict_first) with
pair_probe.py: for each memory-bound suite shape, the fastest generated kernels recorded in a
suite output, each followed by its twin whose streamed operand (the one read once: B when M is
the small side, A when N is) loads evict-first. No GPU needed; writes DIR/<shape>.json.

  evict_first_configs.py SUITE.json [--top 3] [--shapes NAME...] --out DIR

Then on the GPU, per shape (bench/generated/pair_probe.py, --flushes times each row after a
dirty and a clean L2 flush, --torch adds cuBLAS):
  pair_probe.py REPORT --shape NAME --select file:DIR/NAME.json --torch --flushes
"""
import argparse
import json
import os

# Skinny suite shapes (M or N <= 128): one operand is read once, the other stays in L2.
DEFAULT_SHAPES = ("l7b_qkv_decode_m1", "l7b_o_decode_m16", "l7b_up_decode_m64", "l70b_o_decode_m1",
                  "l70b_up_decode_m32", "l70b_down_decode_m128", "longk_32x4096x16384", "tall_32768x64x4096",
                  "wide_64x32768x4096", "fp8_decode_16x8192x8192", "public_decode_m16", "bmm_pv_b32_512x64x512")


def streamed_operand(row):
    """'b' where M is the small side (the weights of x @ W.T), 'a' where N is."""
    return "b" if row["m"] <= row["n"] else "a"


def twins(row, top):
    measured = [g for g in row["ktune"].get("generated_measured", []) if g.get("status") == "ok" and g.get("median_s")]
    measured.sort(key=lambda g: g["median_s"])
    out, seen = [], set()
    for g in measured:
        key = json.dumps(g["config"], sort_keys=True)
        if key in seen or "l2_evict_first" in g["config"]:
            continue
        seen.add(key)
        out += [g["config"], dict(g["config"], l2_evict_first=streamed_operand(row))]
        if len(out) >= 2 * top:
            break
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("suite")
    ap.add_argument("--top", type=int, default=3)
    ap.add_argument("--shapes", nargs="*", default=list(DEFAULT_SHAPES))
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    rows = {r["name"]: r for r in json.load(open(args.suite))["rows"] if "ktune" in r}
    for name in args.shapes:
        if name not in rows:
            print(f"{name}: not in {args.suite}")
            continue
        configs = twins(rows[name], args.top)
        with open(os.path.join(args.out, f"{name}.json"), "w") as f:
            json.dump(configs, f, indent=0)
        print(f"{name}: {len(configs)} configurations, streamed operand {streamed_operand(rows[name])}")


if __name__ == "__main__":
    main()
