#!/usr/bin/env python3
"""Builds the candidates of one IREE dispatch here (no GPU) for bench/iree_dispatch_gpu.py,
and copies IREE's runtime tools beside them, ready to carry to the GPU machine:

  python3 bench/iree_dispatch_prepare.py --model examples/iree/matmul_2048x10240x1280_f16.mlir \
      --max 40 --out .carry/iree_mm [--target cuda:sm_80] [--dispatch 0]

Writes OUT/manifest.json (the benchmark function, M, N, K, each candidate's knobs, build status
and module path relative to the repository root) and OUT/tools/ (iree-benchmark-module and
iree-run-module from the .venv's iree-base-runtime wheel). Dumps and sources are deleted to
keep the carry small.
"""
import argparse, glob, json, os, re, shutil, subprocess, sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def compile_models(a, out, d, man):
    """The model with each built candidate substituted: what --verify runs and compares."""
    tool = os.path.join(REPO, ".venv", "bin", "iree-compile")
    device, chip = a.target.split(":")
    flags = ["--iree-hal-target-device=cuda", f"--iree-cuda-target={chip}"] if device == "cuda" else \
        ["--iree-hal-target-device=hip", f"--iree-rocm-target={chip}"]
    man["model_vmfb"] = os.path.relpath(os.path.join(out, "model.vmfb"), REPO)
    for c, entry in zip(d["candidates"], man["candidates"]):
        b = c.get("build", {})
        if not b.get("ok"):
            continue
        vmfb = os.path.join(os.path.dirname(b["vmfb"]), "model.vmfb")
        sub = f"--iree-hal-substitute-executable-configuration={d['dispatch']}={b['configured']}"
        p = subprocess.run([tool, os.path.abspath(a.model), "-o", vmfb, sub] + flags, capture_output=True, text=True)
        entry["model_vmfb"] = os.path.relpath(vmfb, REPO) if p.returncode == 0 else None
        if p.returncode != 0:
            entry["model_error"] = p.stderr[-500:]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--ktune", default=os.path.join(REPO, "build", "ktune"))
    ap.add_argument("--target", default="cuda:sm_80")
    ap.add_argument("--dispatch", type=int, default=0)
    ap.add_argument("--max", type=int, default=40)
    ap.add_argument("--verify-models", action="store_true",
                    help="also compile the whole model with each candidate substituted (OUT/candidates/*/model.vmfb), "
                         "for bench/iree_dispatch_gpu.py --verify")
    a = ap.parse_args()
    out = os.path.abspath(a.out)
    shutil.rmtree(out, ignore_errors=True)
    p = subprocess.run([a.ktune, "--json", "model", "candidates", a.model, "--target", a.target, "--dispatch",
                        str(a.dispatch), "--max", str(a.max), "--build", str(a.max), "--out", out],
                       capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"ktune model candidates failed: {p.stderr[-3000:]}")
    d = json.loads(p.stdout)
    bench = [f for f in glob.glob(os.path.join(out, "dump", "*_benchmark.mlir")) if f"_{d['dispatch']}_" in f][0]
    function = re.search(r"util\.func public @(\S+)\(", open(bench).read()).group(1)
    mnk = re.search(r"_(\d+)x(\d+)x(\d+)_", function)
    man = {"function": function, "dispatch": d["dispatch"], "target": a.target, "space": d["space"],
           "M": int(mnk.group(1)), "N": int(mnk.group(2)), "K": int(mnk.group(3)), "candidates": []}
    for i, c in enumerate(d["candidates"]):
        b = c.get("build", {})
        man["candidates"].append({"index": i, "key": c["key"], "default": c["default"], "ok": b.get("ok", False),
                                  "vmfb": os.path.relpath(b["vmfb"], REPO) if b.get("ok") else None,
                                  "workgroup": c["workgroup"], "workgroup_size": c["workgroup_size"],
                                  "score": c["score"], "error": b.get("error", "")[:500]})
    if a.verify_models:
        compile_models(a, out, d, man)
    for dump in glob.glob(os.path.join(out, "**", "dump"), recursive=True):
        shutil.rmtree(dump, ignore_errors=True)
    for f in glob.glob(os.path.join(out, "**", "*.mlir"), recursive=True):
        os.remove(f)
    runtime = glob.glob(os.path.join(REPO, ".venv", "lib", "python3*", "site-packages", "iree", "_runtime_libs"))[0]
    os.makedirs(os.path.join(out, "tools"), exist_ok=True)
    for tool in ("iree-benchmark-module", "iree-run-module"):
        shutil.copy2(os.path.join(runtime, tool), os.path.join(out, "tools", tool))
    json.dump(man, open(os.path.join(out, "manifest.json"), "w"), indent=1)
    print(f"{sum(c['ok'] for c in man['candidates'])} of {len(man['candidates'])} candidates built; {out}/manifest.json")


if __name__ == "__main__":
    main()
