#!/usr/bin/env python3
"""The GPU end-to-end checks of tests/gpu/gpu_e2e_test.cc, through the ktune command line,
for GPU machines where the test binary was not carried (bench/run_gpu_suite.sh picks one).

  1. `ktune --json devices` lists an available cuda backend with a device.
  2. Each examples/cuda/*/*.yaml tunes (--max-evals N) to a best that is ok and verified, with
     no status other than ok and resource_limit; `ktune bench` of that best re-verifies it.
  3. tests/gpu/faults_cuda/faults_cuda.yaml: every MODE is recorded with its status and the
     words that show it failed the intended way; the GPU works afterwards.

Usage: bench/gpu_cli_checks.py [--ktune build/ktune] [--out DIR] [--max-evals 20]
Writes DIR/gpu_cli_checks.json; exit 0 when every check passes, 1 when one fails, 4 when
there is no usable CUDA device.
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

FAULT_STATUS = {0: "ok", 1: "ok", 2: "compile_error", 3: "runtime_error", 4: "runtime_error", 5: "runtime_error",
                6: "timeout", 7: "wrong_result", 8: "resource_limit", 9: "wrong_result", 10: "resource_limit",
                11: "memory_error", 12: "memory_error", 13: "ok", 14: "ok"}
FAULT_MENTIONS = {2: "deliberate compile error", 3: "CUDA_ERROR_ILLEGAL_ADDRESS", 4: "CUDA_ERROR_",
                  5: "CUDA_ERROR_MISALIGNED_ADDRESS", 6: "watchdog", 8: "block.x = 2048", 9: "unwritten",
                  10: "shared memory", 11: "'y': 256 bytes written past the end",
                  12: "'x': the kernel changed this input"}


class Checks:
    def __init__(self):
        self.items = []

    def check(self, name, passed, detail=""):
        self.items.append({"check": name, "passed": bool(passed), "detail": detail if not passed else ""})
        print(f"  {'PASS' if passed else 'FAIL'}  {name}" + ("" if passed else f": {detail}"[:600]), flush=True)
        return passed

    def ok(self):
        return all(i["passed"] for i in self.items)


def ktune(args, work, timeout=600):
    env = dict(os.environ, KTUNE_CACHE_DIR=os.path.join(work, "cache"))
    cmd = [ARGS.ktune, "--db", os.path.join(work, "t.db")] + args
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout)
    try:
        data = json.loads(proc.stdout) if proc.stdout.strip() else None
    except json.JSONDecodeError:
        data = None
    return proc.returncode, data, proc.stderr


def verified(result):
    v = result.get("verification") or {}
    return bool(v) and all(c.get("pass") and c.get("unwritten", 1) == 0 for c in v.values())


def check_example(c, spec, evals):
    name = os.path.relpath(spec, REPO)
    with tempfile.TemporaryDirectory(prefix="ktune_gpu_cli_") as work:
        rc, s, err = ktune(["--json", "tune", spec, "--max-evals", str(evals), "--seed", "1", "--progress", "none"], work)
        if not c.check(f"{name}: tune exits 0", rc == 0 and s is not None, f"exit {rc}: {err[-2000:]}"):
            return
        best = s.get("best") or {}
        c.check(f"{name}: {evals} evaluated", s.get("evaluated") == evals, json.dumps(s.get("by_status")))
        c.check(f"{name}: best is ok and verified", best.get("status") == "ok" and verified(best), json.dumps(best)[:1500])
        others = {k: v for k, v in s.get("by_status", {}).items() if k not in ("ok", "resource_limit")}
        c.check(f"{name}: only ok / resource_limit", not others, json.dumps(s.get("by_status")))
        if best.get("status") != "ok":
            return
        sets = []
        for k, v in best["config"].items():
            sets += ["--set", f"{k}={v}"]
        rc, b, err = ktune(["--json", "bench", spec] + sets, work)
        again = (b or {}).get("results", [{}])[0]
        c.check(f"{name}: bench of the best re-verifies", rc == 0 and again.get("status") == "ok" and verified(again),
                f"exit {rc}: {err[-1000:]} {json.dumps(again)[:1000]}")
        if rc == 0 and again.get("median_s") and best.get("median_s"):
            ratio = again["median_s"] / best["median_s"]
            c.check(f"{name}: bench median within 2x of the tuned median ({ratio:.2f})", 0.5 < ratio < 2.0)


def check_faults(c):
    spec = os.path.join(REPO, "tests", "gpu", "faults_cuda", "faults_cuda.yaml")
    with tempfile.TemporaryDirectory(prefix="ktune_gpu_faults_") as work:
        rc, s, err = ktune(["--json", "tune", spec, "--progress", "none"], work)
        if not c.check("faults: tune exits 0", rc == 0 and s is not None, f"exit {rc}: {err[-2000:]}"):
            return
        c.check("faults: 30 evaluated, space exhausted", s.get("evaluated") == 30 and s.get("stop_reason") == "space exhausted",
                json.dumps({k: s.get(k) for k in ("evaluated", "stop_reason", "by_status")}))
        rc, rows, err = ktune(["--json", "results"], work)
        seen = {}
        for row in rows or []:
            mode = row["config"]["MODE"]
            seen[mode] = seen.get(mode, 0) + 1
            error = row.get("error", "")
            what = f"faults: MODE {mode} BLOCK {row['config']['BLOCK']}"
            c.check(f"{what} is {FAULT_STATUS[mode]}", row["status"] == FAULT_STATUS[mode], f"{row['status']}: {error[:800]}")
            if mode in FAULT_MENTIONS:
                c.check(f"{what} error mentions '{FAULT_MENTIONS[mode]}'", FAULT_MENTIONS[mode] in error, error[:800])
        c.check("faults: every MODE recorded twice", all(seen.get(m) == 2 for m in FAULT_STATUS), json.dumps(seen))
        rc, b, err = ktune(["--json", "bench", spec, "--set", "MODE=0", "--set", "BLOCK=128"], work)
        ok = rc == 0 and (b or {}).get("results", [{}])[0].get("status") == "ok"
        c.check("faults: the GPU works after the faults", ok, f"exit {rc}: {err[-1000:]}")


def main():
    global ARGS
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ktune", default=os.environ.get("KTUNE", os.path.join(REPO, "build", "ktune")))
    parser.add_argument("--out", default=os.environ.get("OUT", os.path.join(REPO, "bench-out")))
    parser.add_argument("--max-evals", type=int, default=int(os.environ.get("KTUNE_GPU_E2E_MAX_EVALS", "20")))
    ARGS = parser.parse_args()
    os.makedirs(ARGS.out, exist_ok=True)
    c = Checks()
    start = time.time()

    with tempfile.TemporaryDirectory(prefix="ktune_gpu_devices_") as work:
        rc, devices, err = ktune(["--json", "devices"], work)
    cuda = next((b for b in devices or [] if b.get("backend") == "cuda"), None)
    usable = rc == 0 and cuda and cuda.get("available") and cuda.get("devices")
    if not c.check("devices: cuda available with a device", usable, (cuda or {}).get("reason", err)):
        json.dump({"checks": c.items, "passed": False}, open(os.path.join(ARGS.out, "gpu_cli_checks.json"), "w"), indent=2)
        return 4

    for spec in sorted(glob.glob(os.path.join(REPO, "examples", "cuda", "*", "*.yaml"))):
        check_example(c, spec, ARGS.max_evals)
    check_faults(c)

    passed = sum(i["passed"] for i in c.items)
    report = {"checks": c.items, "passed": c.ok(), "seconds": time.time() - start}
    json.dump(report, open(os.path.join(ARGS.out, "gpu_cli_checks.json"), "w"), indent=2)
    print(f"gpu checks: {passed}/{len(c.items)} passed in {report['seconds']:.0f} s")
    return 0 if c.ok() else 1


if __name__ == "__main__":
    sys.exit(main())
