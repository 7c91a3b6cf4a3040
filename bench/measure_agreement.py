#!/usr/bin/env python3
"""Does ktune time a CUDA kernel the way an independent tool does?

For each case, `ktune --json bench` measures one configuration of a spec (its median over
many samples, L2 flushed before each). Then the very CUBIN ktune compiled and timed -- found
by its sidecar JSON in the fresh compile cache -- is loaded with CuPy and timed by
triton.testing.do_bench (CUDA events around each launch, L2 cleared before each, median),
with the same grid, block and dynamic shared memory. Same machine code, same geometry, same
input sizes: the ratio of the two medians is the agreement. Target: within 3%.

The pair is measured twice in alternation (ktune, triton, ktune, triton) so that a drift of
the GPU's clocks shows up as a difference between rounds rather than as disagreement.

Why CuPy: it is on the GPU machines, loads a CUBIN file (cupy.RawModule(path=...)) and
launches it on any stream, so triton's timer sees exactly ktune's binary. Compiling the source
again (nvcc, load_inline) could give different code.

Usage: bench/measure_agreement.py [--ktune build/ktune] [--out DIR] [--rounds 2]
Writes DIR/measure_agreement.json and prints a table. Exit 0 when every case agrees within
the target, 1 when one does not, 2 when it cannot run (no CuPy, no triton, no GPU).
"""

import argparse
import glob
import json
import os
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGET = 0.03

# Each case: a spec, one configuration, the entry, and how ktune launches it (the spec's
# launch expressions evaluated for that configuration and the spec's default sizes).
SGEMM = {"BM": 128, "BN": 128, "BK": 16, "TM": 8, "TN": 8, "VEC": 4, "UNROLL": 16, "DB": 1, "PAD_A": 4}
CASES = [
    {
        "name": "sgemm 2048^3",
        "spec": "examples/cuda/sgemm/sgemm.yaml",
        "config": SGEMM,
        "entry": "sgemm",
        "sizes": {"M": 2048, "N": 2048, "K": 2048},
        "grid": lambda s, c: (s["N"] // c["BN"], s["M"] // c["BM"], 1),
        "block": lambda s, c: ((c["BM"] // c["TM"]) * (c["BN"] // c["TN"]), 1, 1),
        "shared": lambda s, c: (1 + c["DB"]) * c["BK"] * (c["BM"] + c["PAD_A"] + c["BN"]) * 4,
        "arguments": lambda cp, np, s: [
            cp.random.uniform(-1, 1, s["M"] * s["K"], dtype=cp.float32),
            cp.random.uniform(-1, 1, s["K"] * s["N"], dtype=cp.float32),
            cp.empty(s["M"] * s["N"], dtype=cp.float32),
            np.int32(s["M"]), np.int32(s["N"]), np.int32(s["K"]),
        ],
    },
    {
        "name": "copy 2x256 MiB",
        "spec": "bench/specs/copy.yaml",
        "config": {"BLOCK": 256},
        "entry": "copy_kernel",
        "sizes": {"N": 67108864},
        "grid": lambda s, c: ((s["N"] // 4 + c["BLOCK"] - 1) // c["BLOCK"], 1, 1),
        "block": lambda s, c: (c["BLOCK"], 1, 1),
        "shared": lambda s, c: 0,
        "arguments": lambda cp, np, s: [
            cp.random.uniform(-1, 1, s["N"], dtype=cp.float32),
            cp.empty(s["N"], dtype=cp.float32),
            np.int64(s["N"]),
        ],
    },
]


def ktune_bench(ktune, case, cache, db):
    """Runs ktune bench on the case; returns its result record (JSON)."""
    cmd = [ktune, "--db", db, "--json", "bench", os.path.join(REPO, case["spec"])]
    for name, value in case["config"].items():
        cmd += ["--set", f"{name}={value}"]
    env = dict(os.environ, KTUNE_CACHE_DIR=cache)
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=300)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} exited with {proc.returncode}:\n{proc.stderr}\n{proc.stdout}")
    result = json.loads(proc.stdout)["results"][0]
    if result["status"] != "ok":
        raise RuntimeError(f"ktune bench: {result['status']}: {result.get('error', '')}")
    return result


def find_cubin(cache, entry, config):
    """The CUBIN ktune compiled for `entry` at `config` (from the sidecar JSON next to each
    CUBIN in the cache: resources.entry and the -D options NVRTC received), and its symbol."""
    found = []
    defines = {f"-D{name}={value}" for name, value in config.items()}
    for sidecar in glob.glob(os.path.join(cache, "cuda", "*.json")):
        with open(sidecar) as f:
            resources = json.load(f).get("resources", {})
        if resources.get("entry") == entry and defines <= set(resources.get("options", [])):
            cubin = sidecar[: -len(".json")] + ".cubin"
            if os.path.exists(cubin):
                found.append((cubin, resources["lowered_name"]))
    if len(found) != 1:
        raise RuntimeError(f"expected one CUBIN for entry {entry} in {cache}/cuda, found {len(found)}")
    return found[0]


def triton_median(cp, np, torch, do_bench, case, cubin, symbol):
    sizes, config = case["sizes"], case["config"]
    module = cp.RawModule(path=cubin)
    kernel = module.get_function(symbol)
    shared = case["shared"](sizes, config)
    if shared > 48 * 1024:
        kernel.max_dynamic_shared_size_bytes = shared
    grid, block = case["grid"](sizes, config), case["block"](sizes, config)
    args = case["arguments"](cp, np, sizes)
    stream = cp.cuda.ExternalStream(torch.cuda.current_stream().cuda_stream)

    def launch():
        with stream:
            kernel(grid, block, tuple(args), shared_mem=shared)

    launch()
    torch.cuda.synchronize()
    ms = do_bench(launch, warmup=100, rep=500, return_mode="median")
    return ms * 1e-3


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ktune", default=os.environ.get("KTUNE", os.path.join(REPO, "build", "ktune")))
    parser.add_argument("--out", default=os.environ.get("OUT", os.path.join(REPO, "bench-out")))
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    try:
        import numpy as np
        import cupy as cp
        import torch
        from triton.testing import do_bench
    except ImportError as e:
        print(f"measure_agreement: cannot run: {e} (needs numpy, cupy, torch and triton)", file=sys.stderr)
        return 2
    if not torch.cuda.is_available():
        print("measure_agreement: cannot run: torch sees no CUDA device", file=sys.stderr)
        return 2

    report = {"device": torch.cuda.get_device_name(0), "target": TARGET, "cases": []}
    all_agree = True
    work = tempfile.mkdtemp(prefix="ktune_agreement_")
    for case in CASES:
        cache = os.path.join(work, case["entry"] + "_cache")
        db = os.path.join(work, case["entry"] + ".db")
        rounds = []
        cubin = symbol = None
        for r in range(args.rounds):
            k = ktune_bench(args.ktune, case, cache, db)
            if cubin is None:
                cubin, symbol = find_cubin(cache, case["entry"], case["config"])
            t = triton_median(cp, np, torch, do_bench, case, cubin, symbol)
            rounds.append({"ktune_median_s": k["median_s"], "ktune_q1_s": k.get("q1_s"), "ktune_q3_s": k.get("q3_s"),
                           "ktune_samples": k["samples"], "triton_median_s": t, "ratio": k["median_s"] / t})
            time.sleep(0.2)
        ktune_med = sorted(x["ktune_median_s"] for x in rounds)[len(rounds) // 2]
        triton_med = sorted(x["triton_median_s"] for x in rounds)[len(rounds) // 2]
        ratio = ktune_med / triton_med
        agree = abs(ratio - 1) <= TARGET
        all_agree = all_agree and agree
        report["cases"].append({"name": case["name"], "spec": case["spec"], "config": case["config"], "cubin": os.path.basename(cubin),
                                "symbol": symbol, "rounds": rounds, "ktune_median_s": ktune_med,
                                "triton_median_s": triton_med, "ratio": ratio, "within_target": agree})

    path = os.path.join(args.out, "measure_agreement.json")
    with open(path, "w") as f:
        json.dump(report, f, indent=2)
    print(f"timing agreement on {report['device']} (same CUBIN; target |ratio - 1| <= {TARGET:.0%})")
    print(f"{'case':<18} {'ktune median':>14} {'do_bench median':>16} {'ratio':>8}  rounds (ratio)")
    for c in report["cases"]:
        per_round = " ".join(f"{r['ratio']:.3f}" for r in c["rounds"])
        print(f"{c['name']:<18} {c['ktune_median_s'] * 1e6:>11.1f} us {c['triton_median_s'] * 1e6:>13.1f} us "
              f"{c['ratio']:>8.3f}  {per_round}  {'ok' if c['within_target'] else 'OUTSIDE TARGET'}")
    print(f"written: {path}")
    return 0 if all_agree else 1


if __name__ == "__main__":
    sys.exit(main())
