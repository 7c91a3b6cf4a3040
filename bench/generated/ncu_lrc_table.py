#!/usr/bin/env python3
"""L2 sectors read per sector delivered, and kernel time, from Nsight Compute's raw CSV export
(device_run.sh NCU_METRICS with lrc__lts2lrc_sectors_op_read.sum, lrc__xbar2gpc_sectors_op_read.sum
and gpu__time_duration.sum), one column pair per CSV: e.g. the same plan with the GPC-aware cluster
order and with KTUNE_CLUSTER_ORDER=0 (session 40). Rows are ncu_compare.py's NVTX names
("shape | configuration"); launches of one row are given as min-max.

  ncu_lrc_table.py on=r1_on_ncu_raw.csv off=r1_off_ncu_raw.csv
"""
import csv
import sys
from collections import OrderedDict


def read(path):
    rows = list(csv.reader(open(path)))
    head = {h: i for i, h in enumerate(rows[0])}
    out = OrderedDict()
    for r in rows[2:]:
        name = r[head["Kernel Name"]]
        if "|" not in name:
            continue  # torch's random fills, the placement probe
        label = name.rsplit("/", 1)[0]
        num = lambda m: float(r[head[m]].replace(",", ""))
        read_, delivered = num("lrc__lts2lrc_sectors_op_read.sum"), num("lrc__xbar2gpc_sectors_op_read.sum")
        unit = rows[1][head["gpu__time_duration.sum"]]  # Nsight Compute picks the unit per export
        us = num("gpu__time_duration.sum") * {"ms": 1e3, "msecond": 1e3, "us": 1.0, "usecond": 1.0, "ns": 1e-3, "nsecond": 1e-3}.get(unit, 1.0)
        out.setdefault(label, []).append((read_ / delivered, us))
    return out


def span(values, fmt):
    lo, hi = min(values), max(values)
    return fmt % lo if fmt % lo == fmt % hi else (fmt % lo) + "-" + (fmt % hi)


def main():
    sides = [a.split("=", 1) for a in sys.argv[1:]]
    data = [(name, read(path)) for name, path in sides]
    labels = list(OrderedDict.fromkeys(l for _, d in data for l in d))
    print("| kernel | " + " | ".join(f"{n}: read / delivered | {n}: us" for n, _ in data) + " |")
    print("|---|" + "---|---|" * len(data))
    for label in labels:
        cells = []
        for _, d in data:
            v = d.get(label)
            cells += [span([x[0] for x in v], "%.2f"), span([x[1] for x in v], "%.1f")] if v else ["-", "-"]
        print(f"| {label} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
