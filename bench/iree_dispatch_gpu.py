#!/usr/bin/env python3
"""Times the candidates of one IREE dispatch on the GPU, built here by
`ktune --json model candidates MODEL --build N --out DIR` (a manifest.json beside them, see
docs/benchmarks.md for how it is made), with IREE's own iree-benchmark-module, and
torch.matmul on the same shape in the same run.

  python3 bench/iree_dispatch_gpu.py --manifest DIR/manifest.json --tools DIR --out OUT

Each module is the dispatch's standalone benchmark (IREE's *_benchmark.mlir with the candidate
substituted): --batch_size dispatches per command buffer, --benchmark_repetitions
repetitions; the time per dispatch is the median over repetitions of real_time (which
iree-benchmark-module reports per dispatch).
Caveat: IREE's dispatch benchmark runs on the buffers it allocates (not random data), and L2
is not flushed between the batched dispatches (20+ MB of operands here exceed the H100's L2
only in part). Writes OUT/iree_dispatch_gpu.json.
"""
import argparse, json, os, statistics, subprocess, sys, time


def bench(tool, vmfb, function, batch, reps):
    cmd = [tool, "--device=cuda", f"--module={vmfb}", f"--function={function}", f"--batch_size={batch}",
           f"--benchmark_repetitions={reps}", "--benchmark_format=json", "--benchmark_min_warmup_time=0.05"]
    t0 = time.time()
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    if p.returncode != 0:
        return {"error": (p.stderr or p.stdout)[-1500:], "wall_s": time.time() - t0}
    data = json.loads(p.stdout[p.stdout.find("{"):])
    runs = [b for b in data["benchmarks"] if b.get("run_type") == "iteration"]
    unit = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}
    # iree-benchmark-module reports the time per dispatch already (a repetition runs batch_size
    # dispatches and divides): 358 us for IREE's default 2048x10240x1280 on H100, as measured
    # by hand-written configurations before; not divided again here.
    per = [b["real_time"] * unit[b.get("time_unit", "ns")] for b in runs]
    return {"median_s": statistics.median(per), "min_s": min(per), "max_s": max(per), "samples": len(per),
            "wall_s": time.time() - t0}


def torch_matmul(m, n, k):
    try:
        import torch
        from triton.testing import do_bench
    except Exception as e:  # noqa: BLE001
        return {"error": repr(e)}
    torch.manual_seed(0)
    a = torch.randn(m, k, device="cuda", dtype=torch.float16)
    b = torch.randn(k, n, device="cuda", dtype=torch.float16)
    ms = do_bench(lambda: a @ b, return_mode="median")
    return {"median_s": ms * 1e-3, "device": torch.cuda.get_device_name(), "note": "f16 out (IREE's dispatch writes f32)"}


def verify(a, man, rows):
    """The whole model (iree-run-module) with IREE's default and with each candidate substituted,
    on the same random inputs; each output against a float64 reference."""
    import numpy as np
    rng = np.random.default_rng(0)
    work = os.path.join(a.out, "verify")
    os.makedirs(work, exist_ok=True)
    m, n, k = man["M"], man["N"], man["K"]
    x = (rng.standard_normal((m, k)) * 0.5).astype(np.float16)
    w = (rng.standard_normal((k, n)) * 0.5).astype(np.float16)
    np.save(os.path.join(work, "a.npy"), x)
    np.save(os.path.join(work, "b.npy"), w)
    ref = x.astype(np.float64) @ w.astype(np.float64)
    tool = os.path.join(a.tools, "iree-run-module")

    def run(vmfb, tag):
        out = os.path.join(work, f"out_{tag}.npy")
        p = subprocess.run([tool, "--device=cuda", f"--module={vmfb}", f"--function={a.function}",
                            f"--input=@{work}/a.npy", f"--input=@{work}/b.npy", f"--output=@{out}"],
                           capture_output=True, text=True, timeout=120)
        if p.returncode != 0:
            return {"error": (p.stderr or p.stdout)[-800:]}
        y = np.load(out).astype(np.float64)
        return {"rel_l2": float(np.linalg.norm(y - ref) / np.linalg.norm(ref)),
                "max_abs": float(np.max(np.abs(y - ref))), "finite": bool(np.isfinite(y).all())}

    results = [{"index": "default", **run(man["model_vmfb"], "default")}]
    for r in rows:
        if r.get("model_vmfb"):
            results.append({"index": r["index"], "key": r["key"], **run(r["model_vmfb"], str(r["index"]))})
    for v in results:
        print("verify", v.get("index"), v.get("key", ""), v.get("rel_l2"), v.get("error", "")[:200], flush=True)
    return results


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--manifest", required=True)
    ap.add_argument("--tools", required=True, help="directory holding iree-benchmark-module")
    ap.add_argument("--out", default=os.environ.get("OUT", "."))
    ap.add_argument("--batch", type=int, default=20)
    ap.add_argument("--reps", type=int, default=10)
    ap.add_argument("--verify", type=int, default=0, help="verify the N fastest candidates through the whole model")
    ap.add_argument("--function", default="matmul", help="the model's entry function (--verify)")
    ap.add_argument("--only", default="", help="comma-separated candidate indices to run (the default is always run)")
    a = ap.parse_args()
    man = json.load(open(a.manifest))
    tool = os.path.join(a.tools, "iree-benchmark-module")
    flops = 2.0 * man["M"] * man["N"] * man["K"]
    rows = []
    only = {int(x) for x in a.only.split(",") if x}
    for c in man["candidates"]:
        if only and c["index"] not in only and not c["default"]:
            continue
        row = dict(c)
        if c["ok"]:
            row.update(bench(tool, c["vmfb"], man["function"], a.batch, a.reps))
            if "median_s" in row:
                row["tflops"] = flops / row["median_s"] / 1e12
        rows.append(row)
        print(c["index"], c["key"], "default" if c["default"] else "", f"{row.get('median_s', 0) * 1e6:.1f} us",
              row.get("error", "")[:200], flush=True)
        # Kept as it goes: a run cut short by its time limit still leaves what it measured.
        os.makedirs(a.out, exist_ok=True)
        json.dump({"rows": rows, "partial": True}, open(os.path.join(a.out, "iree_dispatch_gpu.json"), "w"), indent=1)
    base = next(r for r in rows if r["default"])
    ok = [r for r in rows if "median_s" in r]
    best = min(ok, key=lambda r: r["median_s"])
    torch = torch_matmul(man["M"], man["N"], man["K"])
    verified = verify(a, man, sorted(ok, key=lambda r: r["median_s"])[:a.verify]) if a.verify else []
    out = {"rows": rows, "default_s": base.get("median_s"), "best_s": best["median_s"], "best": best["key"],
           "speedup_vs_default": base["median_s"] / best["median_s"] if base.get("median_s") else None,
           "torch_matmul": torch, "verified": verified}
    if "median_s" in torch:
        out["best_vs_torch"] = torch["median_s"] / best["median_s"]
    os.makedirs(a.out, exist_ok=True)
    json.dump(out, open(os.path.join(a.out, "iree_dispatch_gpu.json"), "w"), indent=1)
    print(f"default {base.get('median_s', 0) * 1e6:.1f} us, best {best['median_s'] * 1e6:.1f} us ({best['key']}), "
          f"speedup {out['speedup_vs_default']:.2f}x; torch.matmul {torch.get('median_s', 0) * 1e6:.1f} us")


if __name__ == "__main__":
    sys.exit(main())
