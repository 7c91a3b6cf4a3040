#!/usr/bin/env python3
"""What the L2 request coalescer should leave of a cluster kernel's L2 reads (session 40): per GPC
and per round of the grid, a tile that no cluster multicasts is read once however many of the
GPC's CTAs load it; a multicast tile is read once per cluster that loads it (multicast requests
are not merged across clusters). Placement from sm_placement.cu's JSON (session 39; its clusters
of 16, 8 and 4 name the GPCs, its clusters of 2 say where each pair goes); the order is launch
order ("off") or the GPC-aware one of cluster_order.h ("on"). Prints the predicted L2 sectors read
per sector delivered beside what Nsight Compute measured (docs/benchmarks.md, session 40). The
prediction ignores timing (the coalescer merges only what arrives together), so measured values sit
above it; what it is for is which order and group read less.

  cluster_l2_model.py docs/data/issue12/session39/r2_placement.json
"""
import collections
import json
import sys


def gpcs(placement):
    parent = {}

    def root(x):
        parent.setdefault(x, x)
        while parent[x] != x:
            x = parent[x]
        return x

    for key, size in (("cluster16", 16), ("cluster8", 8), ("cluster4", 4)):
        sms, seen = placement.get(key) or [], set()
        for i in range(0, len(sms), size):
            group = sms[i:i + size]
            if any(s in seen for s in group):
                break  # the second wave
            seen |= set(group)
            for s in group:
                parent[root(s)] = root(group[0])
    return {s: root(s) for s in range(placement["sm_count"])}


def tile_of(rows, cols, group, item):
    per_group = group * cols
    first = item // per_group * group
    height = min(group, rows - first)
    inside = item - item // per_group * per_group
    return first + inside % height, inside // height


def predict(p, gpc, shape, order):
    """shape: (tile rows, tile columns, A tile rows, B tile columns, group, cluster_m, cluster_n)."""
    rows, cols, a_rows, b_cols, group, cm, cn = shape
    leaders = p["cluster2"][::2]  # pairs: the SM of each cluster's first CTA
    units = len(leaders)
    clusters = list(range(units))
    if order == "on":  # cluster_order.h: GPCs in order of their first cluster, clusters in launch order
        first = {}
        for c in clusters:
            first.setdefault(gpc[leaders[c]], c)
        clusters.sort(key=lambda c: first[gpc[leaders[c]]])
    slot_gpc = [gpc[leaders[c]] for c in clusters]
    crow, ccol = rows // cm, cols // cn
    items = crow * ccol
    read = delivered = 0
    for base in range(0, items, units):
        seen = collections.defaultdict(set)
        for slot in range(min(units, items - base)):
            g = slot_gpc[slot]
            r, c = tile_of(crow, ccol, group, base + slot)
            delivered += cm * cn * (a_rows + b_cols)
            for i in range(cm):  # A tiles: multicast along N when cn > 1
                key = ("a", r * cm + i) if cn == 1 else ("a", r * cm + i, base + slot)
                if key not in seen[g]:
                    seen[g].add(key)
                    read += a_rows
            for j in range(cn):  # B tiles: multicast along M when cm > 1
                key = ("b", c * cn + j) if cm == 1 else ("b", c * cn + j, base + slot)
                if key not in seen[g]:
                    seen[g].add(key)
                    read += b_cols
    return read / delivered


# (name, shape, measured on, measured off) from docs/benchmarks.md, session 40 (Nsight Compute).
ROWS = [
    ("4096x12288x4096 128x256 pairs along N, group 8", (32, 48, 128, 256, 8, 1, 2), "0.49", "0.80"),
    ("4096x12288x4096 128x256 pairs along M, group 8", (32, 48, 128, 256, 8, 2, 1), "0.66-0.67", "0.63-0.64"),
    ("4096x12288x4096 128x256 pairs along M, group 4", (32, 48, 128, 256, 4, 2, 1), "0.63-0.64", "0.60-0.63"),
    ("322x5120x8192 swapped 128x112 pairs along M, group 1", (40, 3, 128, 112, 1, 2, 1), "0.51-0.53", "0.75"),
    ("322x5120x8192 swapped 128x112 pairs along M, group 8", (40, 3, 128, 112, 8, 2, 1), "0.74", "0.61"),
    ("322x5120x8192 128x128 pairs along N, group 8", (3, 40, 128, 128, 8, 1, 2), "0.51", "0.74"),
    ("512x5120x13824 128x160 pairs along N, group 1", (4, 32, 128, 160, 1, 1, 2), "0.78", "0.61"),
    ("512x5120x13824 128x160 pairs along N, group 8", (4, 32, 128, 160, 8, 1, 2), "0.42", "0.77"),
    ("1024x10240x8192 256x160 pairs along N, group 8", (4, 64, 256, 160, 8, 1, 2), "0.46-0.47", "0.68"),
    ("1024x10240x8192 256x160 pairs along N, group 1", (4, 64, 256, 160, 1, 1, 2), "0.69", "0.69"),
]


def main():
    p = json.load(open(sys.argv[1]))
    gpc = gpcs(p)
    print("| kernel | predicted on | measured on | predicted off | measured off |")
    print("|---|---|---|---|---|")
    for name, shape, on, off in ROWS:
        print(f"| {name} | {predict(p, gpc, shape, 'on'):.2f} | {on} | {predict(p, gpc, shape, 'off'):.2f} | {off} |")


if __name__ == "__main__":
    main()
