#!/usr/bin/env python3
"""Kernel Tuner side of the comparison: one tune_kernel call on one workload, in its own process.

    python3 bench/kernel_tuner/kt_tune.py --workload row_sum --lang cupy --json-out kt.json

compare.py runs it as a subprocess and times the whole process (interpreter start, imports, data
made and the numpy reference computed, device set up, every configuration compiled, verified and
benchmarked). The JSON written here breaks that time down and names the winner. Kernel Tuner's
own cache file is off (cache=None); the caller points CUPY_CACHE_DIR (CuPy's compiled-kernel
cache) and CUDA_CACHE_PATH at fresh directories for a cold run.
"""

import argparse
import json
import os
import sys
import time

T_START = time.perf_counter()
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from workloads import WORKLOADS  # noqa: E402  (numpy only)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--workload", required=True, choices=sorted(WORKLOADS))
    ap.add_argument("--lang", default="cupy", help="tune_kernel's lang: cupy (default) or nvcuda")
    ap.add_argument("--iterations", type=int, default=7, help="timed launches per configuration (Kernel Tuner's default: 7)")
    ap.add_argument("--seed", type=int, default=9)
    ap.add_argument("--json-out", required=True)
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()
    w = WORKLOADS[args.workload]
    phases = {}

    t = time.perf_counter()
    import numpy as np
    import kernel_tuner
    from kernel_tuner import tune_kernel

    if os.environ.get("KT_STAND_IN") == "1":
        # check_offline.py's stand-in backend: no GPU, NVRTC compiles, made-up times. For testing
        # this script and compare.py without a GPU only.
        from check_offline import install_stand_in

        install_stand_in(w)
    elif args.lang.lower() == "cupy":
        import cupy  # noqa: F401  (imported here so its import counts as import time, not tuning)
    phases["import_s"] = time.perf_counter() - t

    t = time.perf_counter()
    arguments, answer = w.host_data(args.seed)
    phases["data_and_reference_s"] = time.perf_counter() - t

    with open(w.source_path()) as f:
        source = f.read()

    t = time.perf_counter()
    results, env = tune_kernel(
        w.kernel,
        source,
        arguments=arguments,
        tune_params=w.tune_params,
        restrictions=w.restrictions,
        block_size_names=w.block_size_names,
        answer=answer,
        verify=w.verify,
        lang=args.lang,
        compiler_options=["--std=c++17"],  # what ktune's NVRTC call uses (Kernel Tuner's default: c++11)
        iterations=args.iterations,
        strategy="brute_force",
        cache=None,
        quiet=not args.verbose,
        verbose=args.verbose,
        **w.kt_grid_options(),
    )
    phases["tune_kernel_s"] = time.perf_counter() - t

    ok = [r for r in results if "__error__" not in r and isinstance(r.get("time"), (int, float))]
    errors = [r for r in results if "__error__" in r]
    for key in ("compile_time", "verification_time", "benchmark_time", "framework_time", "strategy_time"):
        phases[key.replace("_time", "_s_total")] = sum(float(r.get(key, 0) or 0) for r in results) / 1000.0

    best = None
    if ok:
        b = min(ok, key=lambda r: r["time"])
        times = [float(v) for v in b.get("times", [])]
        best = {
            "config": {k: int(b[k]) if isinstance(b[k], (int, np.integer)) else b[k] for k in w.tune_params},
            "time_ms_mean": float(b["time"]),  # Kernel Tuner's objective: the mean of the timed launches
            "time_ms_median": float(np.median(times)) if times else None,
            "times_ms": times,
        }
    out = {
        "tool": "kernel_tuner",
        "kernel_tuner_version": getattr(kernel_tuner, "__version__", None),
        "workload": w.name,
        "lang": args.lang,
        "iterations": args.iterations,
        "device": env.get("device_name"),
        "evaluated": len(results),
        "valid": len(ok),
        "errors": len(errors),
        "best": best,
        "phases": phases,
        "process_seconds_inside": time.perf_counter() - T_START,
        "cupy_cache_dir": os.environ.get("CUPY_CACHE_DIR"),
    }
    with open(args.json_out, "w") as f:
        json.dump(out, f, indent=1)
    print(json.dumps({k: out[k] for k in ("workload", "evaluated", "valid", "best")}))
    return 0 if ok else 5


if __name__ == "__main__":
    sys.exit(main())
