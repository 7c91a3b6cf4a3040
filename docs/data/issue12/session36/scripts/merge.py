#!/usr/bin/env python3
"""Session 36's whole suite as one file (docs/benchmarks.md): part 1 from call 4 (18 shapes before
its time limit) and call 2 (the other 4), part 2 from call 3. Usage: merge.py OUT.json"""
import json
import os
import sys

here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
load = lambda name: json.load(open(os.path.join(here, name)))
r2, r3, r4 = load("r2_suite1.json"), load("r3_suite1.json"), load("r4_suite1.json")
have = {r["name"] for r in r4["rows"]}
for rows, call in ((r4["rows"], "call4 (43dc1cf)"), (r2["rows"], "call2 (27d470c)"), (r3["rows"], "call3 (43dc1cf)")):
    for r in rows:
        r["source_call"] = call
merged = dict(r3, rows=r4["rows"] + [r for r in r2["rows"] if r["name"] not in have] + r3["rows"])
merged.pop("summary", None)
json.dump(merged, open(sys.argv[1], "w"), indent=1)
