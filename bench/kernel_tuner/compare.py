#!/usr/bin/env python3
"""ktune vs Kernel Tuner 1.5.0: tuning wall time on the same kernels (issue 9). See README.md here.

    python3 bench/kernel_tuner/compare.py --ktune build/ktune --out bench-out [--examples 25]

For each workload (row_sum: issue 9's 8192x4096 row reduction; scale_shift: y = a x + b over
128 MiB in, 128 MiB out), each tool tunes the whole space (72 configurations, exhaustive /
brute_force) as a subprocess whose wall time is measured here, compile included:

  ktune cold   fresh compile cache (KTUNE_CACHE_DIR), fresh database, fresh CUDA_CACHE_PATH
  KT cold      kt_tune.py: tune_kernel(lang=cupy), fresh CUPY_CACHE_DIR and CUDA_CACHE_PATH
  ktune warm   same compile cache as the cold run (every cubin cached), fresh database

ratio = ktune cold wall / Kernel Tuner cold wall (issue 9's target: <= 0.5). With --examples S,
ktune also tunes examples/cuda/{reduction,sgemm,transpose} for S seconds each (cold cache) and
reports configurations evaluated per minute.

If kernel_tuner does not import, the wheels in .whl/ (scripts/fetch-bench-wheels.sh) are
installed with pip into /tmp/site (--no-index --no-deps) and put on Kernel Tuner's PYTHONPATH.
Writes OUT/kernel_tuner_compare.json (rewritten after every step, so a killed run keeps what it
had) and each run's output; prints a table. Every run has a time limit, and the whole stays
within --budget seconds: steps that no longer fit are skipped and say so.
"""

import argparse
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
from workloads import WORKLOADS  # noqa: E402  (numpy only)

SITE = "/tmp/site"
EXAMPLES = ["reduction", "sgemm", "transpose"]


class Runner:
    def __init__(self, args):
        self.args = args
        self.t0 = time.monotonic()
        self.out = os.path.abspath(args.out)
        os.makedirs(self.out, exist_ok=True)
        self.scratch = tempfile.mkdtemp(prefix="ktune-vs-kt-")
        self.report = {"budget_s": args.budget, "runs": [], "workloads": {}, "examples": [], "notes": []}

    def left(self):
        return self.args.budget - (time.monotonic() - self.t0)

    def save(self):
        self.report["elapsed_s"] = time.monotonic() - self.t0
        with open(os.path.join(self.out, "kernel_tuner_compare.json"), "w") as f:
            json.dump(self.report, f, indent=1)

    def note(self, text):
        print(f"  note: {text}", flush=True)
        self.report["notes"].append(text)

    def fresh(self, name):
        return tempfile.mkdtemp(prefix=name + "-", dir=self.scratch)

    def run(self, name, cmd, env, limit, cwd=None, need=10):
        """Runs cmd with its stdout in OUT/name.out and stderr in OUT/name.log; returns a record
        with rc and the process wall time, or None when the budget has no room for it."""
        limit = min(limit, self.left() - 5)
        if limit < need:
            self.note(f"{name} skipped: {self.left():.0f} s of the budget left")
            return None
        print(f"=== {name} (limit {limit:.0f} s)", flush=True)
        full_env = dict(os.environ, **env)
        t = time.perf_counter()
        try:
            p = subprocess.run(cmd, env=full_env, cwd=cwd or REPO, capture_output=True, text=True, timeout=limit)
            rc, stdout, stderr = p.returncode, p.stdout, p.stderr
        except subprocess.TimeoutExpired as e:
            rc = "timeout"
            stdout = e.stdout.decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
            stderr = e.stderr.decode(errors="replace") if isinstance(e.stderr, bytes) else (e.stderr or "")
        wall = time.perf_counter() - t
        with open(os.path.join(self.out, name + ".out"), "w") as f:
            f.write(stdout)
        with open(os.path.join(self.out, name + ".log"), "w") as f:
            f.write(stderr)
        rec = {"name": name, "cmd": " ".join(cmd), "env": env, "rc": rc, "wall_s": wall}
        self.report["runs"].append(rec)
        print(f"    rc {rc}, {wall:.1f} s", flush=True)
        if rc != 0:
            tail = (stderr or stdout).strip().splitlines()[-15:]
            print("    " + "\n    ".join(tail), flush=True)
        return rec, stdout


def kernel_tuner_env(r):
    """PYTHONPATH under which `import kernel_tuner` works, installing the carried wheels if needed."""
    probe = [sys.executable, "-c", "import kernel_tuner, sys; print(kernel_tuner.__version__)"]
    p = subprocess.run(probe, capture_output=True, text=True)
    if p.returncode == 0:
        r.report["kernel_tuner"] = {"version": p.stdout.strip(), "from": "already installed"}
        return {}
    wheels = sorted(glob.glob(os.path.join(REPO, ".whl", "*.whl")))
    if not wheels:
        r.note("kernel_tuner does not import and .whl/ has no wheels (run scripts/fetch-bench-wheels.sh)")
        return None
    cmd = [sys.executable, "-m", "pip", "install", "-q", "--no-index", "--no-deps", "--no-compile", "--no-cache-dir",
           "--upgrade", "--target", SITE] + wheels
    t = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        r.note("installing the wheels failed: " + (p.stderr or p.stdout)[-1500:])
        return None
    pythonpath = SITE + (os.pathsep + os.environ["PYTHONPATH"] if os.environ.get("PYTHONPATH") else "")
    p = subprocess.run(probe, capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=pythonpath))
    if p.returncode != 0:
        r.note("kernel_tuner still does not import after installing .whl/: " + p.stderr[-1500:])
        return None
    r.report["kernel_tuner"] = {"version": p.stdout.strip(), "from": f".whl/ -> {SITE} ({time.perf_counter() - t:.1f} s)",
                                "wheels": [os.path.basename(w) for w in wheels]}
    return {"PYTHONPATH": pythonpath}


def parse_json(text):
    try:
        return json.loads(text)
    except ValueError:
        return None


def ktune_tune(r, name, spec, cache, extra=(), limit=150):
    db = os.path.join(r.fresh("db"), "ktune.db")
    env = {"KTUNE_CACHE_DIR": cache, "CUDA_CACHE_PATH": r.fresh("cuda-cache")}
    cmd = [r.args.ktune, "--db", db, "--json", "tune", spec, "--progress", "none"] + list(extra)
    got = r.run(name, cmd, env, limit)
    if got is None:
        return None
    rec, stdout = got
    s = parse_json(stdout)
    if not s:
        return {"wall_s": rec["wall_s"], "rc": rec["rc"], "error": "no JSON summary (see %s.log)" % name}
    best = s.get("best") or {}
    out = {
        "wall_s": rec["wall_s"],
        "rc": rec["rc"],
        "internal_wall_s": s.get("wall_seconds"),
        "space": s.get("space_size"),
        "evaluated": s.get("evaluated"),
        "valid": (s.get("by_status") or {}).get("ok", 0),
        "by_status": s.get("by_status"),
        "raced": s.get("raced"),
        "stop_reason": s.get("stop_reason"),
        "phase_totals": s.get("phase_totals"),
        "best": {
            "config": best.get("config"),
            "time_ms_median": best["median_s"] * 1e3 if best.get("median_s") else None,
            "time_ms_mean": best["mean_s"] * 1e3 if best.get("mean_s") else None,
            "samples": best.get("samples"),
            "gbps": best.get("gbps"),
        } if best else None,
        "device": (s.get("device") or {}).get("name"),
    }
    return out


def default_policy_spec(spec):
    """A copy of `spec` without its top-level `measure:` block, beside it (its sources are
    relative to it): ktune with its own default measurement (L2 flushed before every sample,
    noise-driven stopping, racing), not the loop matched to Kernel Tuner's."""
    out, skipping = [], False
    for line in open(spec).read().splitlines(keepends=True):
        top_level = line[:1] not in (" ", "\t", "#", "\n", "")
        if top_level:
            skipping = line.startswith("measure:")
        if not skipping:
            out.append(line)
    path = os.path.join(os.path.dirname(spec), ".default_policy_" + os.path.basename(spec))
    with open(path, "w") as f:
        f.writelines(out)
    return path


def kt_tune(r, name, w, lang, kt_env, limit=240):
    json_out = os.path.join(r.out, name + ".json")
    env = dict(kt_env, CUPY_CACHE_DIR=r.fresh("cupy-cache"), CUDA_CACHE_PATH=r.fresh("cuda-cache"))
    cmd = [sys.executable, os.path.join(HERE, "kt_tune.py"), "--workload", w.name, "--lang", lang, "--json-out", json_out]
    # cwd: Kernel Tuner writes temp_*.c files of failing sources into the working directory.
    got = r.run(name, cmd, env, limit, cwd=r.fresh("kt-cwd"))
    if got is None:
        return None
    rec, _ = got
    try:
        with open(json_out) as f:
            s = json.load(f)
    except (OSError, ValueError):
        return {"wall_s": rec["wall_s"], "rc": rec["rc"], "error": "no JSON (see %s.log)" % name}
    return dict(s, wall_s=rec["wall_s"], rc=rec["rc"])


def fmt_best(b, unit_key):
    if not b or b.get(unit_key) is None:
        return "-"
    cfg = ",".join(f"{k}={v}" for k, v in sorted((b.get("config") or {}).items()))
    return f"{b[unit_key] * 1e3:8.1f} us  {cfg}"


def print_table(r):
    print("\n" + "=" * 110)
    print("ktune vs Kernel Tuner: whole space, every configuration verified; wall = process wall time, compile included")
    print(f"{'workload':<12} {'tool':<22} {'wall s':>7} {'evaluated':>9} {'valid':>5}  winner (its time as the tool measured it)")
    for name, wr in r.report["workloads"].items():
        for label, key in (("ktune cold cache", "ktune_cold"), ("ktune warm cache", "ktune_warm"),
                           ("ktune default policy", "ktune_default")) + tuple(
                (f"Kernel Tuner ({lang})", f"kt_{lang}") for lang in r.args.kt_lang):
            x = wr.get(key)
            if not x:
                continue
            unit = "time_ms_median"
            best = fmt_best(x.get("best"), unit)
            if key.startswith("kt_") and x.get("best"):
                b = x["best"]
                median = f"; median {b['time_ms_median'] * 1e3:.1f} us" if b.get("time_ms_median") is not None else ""
                best = fmt_best(b, "time_ms_mean") + f"  (mean of {len(b.get('times_ms') or [])}{median})"
            elif x.get("best"):
                best += f"  (median of {x['best'].get('samples')})"
            err = f"  rc={x.get('rc')} {x.get('error', '')}" if x.get("rc") not in (0, None) or x.get("error") else ""
            print(f"{name:<12} {label:<22} {x['wall_s']:7.1f} {str(x.get('evaluated', '-')):>9} {str(x.get('valid', '-')):>5}  {best}{err}")
        for lang in r.args.kt_lang:
            ratio = wr.get(f"ratio_cold_{lang}")
            if ratio is not None:
                print(f"{name:<12} ratio ktune cold / Kernel Tuner ({lang}) = {ratio:.3f}   (target <= 0.5: {'met' if ratio <= 0.5 else 'NOT met'})"
                      + (f"; warm cache: {wr[f'ratio_warm_{lang}']:.3f}" if wr.get(f"ratio_warm_{lang}") is not None else "")
                      + (f"; ktune default policy: {wr[f'ratio_default_{lang}']:.3f}" if wr.get(f"ratio_default_{lang}") is not None else ""))
    if r.report["examples"]:
        print(f"\n{'example':<12} {'wall s':>7} {'evaluated':>9} {'space':>6} {'configs/min':>11}  stop")
        for e in r.report["examples"]:
            print(f"{e['example']:<12} {e['wall_s']:7.1f} {str(e.get('evaluated')):>9} {str(e.get('space')):>6} "
                  f"{e.get('configs_per_minute', 0):11.0f}  {e.get('stop_reason')} {e.get('by_status')}")
    for n in r.report["notes"]:
        print("note:", n)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ktune", default=os.environ.get("KTUNE", os.path.join(REPO, "build", "ktune")))
    ap.add_argument("--out", default=os.environ.get("OUT") or os.path.join(REPO, "bench-out"))
    ap.add_argument("--workload", action="append", choices=sorted(WORKLOADS), help="default: all")
    ap.add_argument("--kt-lang", default="cupy", help="comma-separated tune_kernel langs: cupy (default), nvcuda")
    ap.add_argument("--no-warm", action="store_true", help="skip ktune's warm-cache run")
    ap.add_argument("--examples", type=float, default=0, metavar="SECONDS",
                    help="also tune examples/cuda/{reduction,sgemm,transpose} for this long each (0: skip)")
    ap.add_argument("--budget", type=float, default=340, help="seconds for everything (default 340)")
    args = ap.parse_args()
    args.ktune = os.path.abspath(args.ktune)
    if not os.access(args.ktune, os.X_OK):
        print(f"no ktune executable at {args.ktune} (--ktune or KTUNE)")
        return 2
    args.kt_lang = [l for l in args.kt_lang.split(",") if l]
    r = Runner(args)
    print(f"ktune vs Kernel Tuner; ktune {args.ktune}; output in {r.out}; budget {args.budget:.0f} s", flush=True)
    try:
        p = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw",
                            "--format=csv,noheader"], capture_output=True, text=True, timeout=30)
        r.report["nvidia_smi"] = p.stdout.strip()
        print("GPU:", p.stdout.strip())
    except (OSError, subprocess.TimeoutExpired):
        r.report["nvidia_smi"] = None
    # Untimed: starts the driver (and the GPU out of idle) before anything is timed.
    p = subprocess.run([args.ktune, "--json", "devices"], capture_output=True, text=True)
    devices = parse_json(p.stdout) or []
    cuda = next((b for b in devices if b.get("backend") == "cuda"), {})
    r.report["ktune_devices"] = cuda
    if not cuda.get("available"):
        print("ktune's cuda backend is not usable here:", cuda.get("reason", p.stderr.strip()[-500:]))
        r.save()
        return 4
    kt_env = kernel_tuner_env(r)
    r.save()

    for name in args.workload or ["row_sum", "scale_shift"]:
        w = WORKLOADS[name]
        wr = r.report["workloads"][name] = {"description": w.describe(), "spec": os.path.relpath(w.spec_path(), REPO)}
        print(f"\n##### {name}: {w.describe()}", flush=True)
        cache = r.fresh("ktune-cache")
        wr["ktune_cold"] = ktune_tune(r, f"{name}_ktune_cold", w.spec_path(), cache)
        r.save()
        for lang in args.kt_lang:
            if kt_env is None:
                wr[f"kt_{lang}"] = None
                continue
            wr[f"kt_{lang}"] = kt_tune(r, f"{name}_kt_{lang}", w, lang, kt_env)
            r.save()
        if not args.no_warm:
            wr["ktune_warm"] = ktune_tune(r, f"{name}_ktune_warm", w.spec_path(), cache, limit=120)
        # ktune as a user gets it: its default measurement policy, cold compile cache.
        default_spec = default_policy_spec(w.spec_path())
        try:
            wr["ktune_default"] = ktune_tune(r, f"{name}_ktune_default", default_spec, r.fresh("ktune-cache"), limit=150)
        finally:
            os.remove(default_spec)
        for lang in args.kt_lang:
            kt = wr.get(f"kt_{lang}")
            if kt and kt.get("rc") == 0:
                for which in ("cold", "warm", "default"):
                    k = wr.get(f"ktune_{which}")
                    if k and k.get("rc") == 0:
                        wr[f"ratio_{which}_{lang}"] = k["wall_s"] / kt["wall_s"]
        for key in [k for k in wr if k.startswith(("ktune_", "kt_"))]:
            x = wr[key]
            if x and x.get("rc") == 0 and (x.get("evaluated"), x.get("valid")) != (72, 72):
                r.note(f"{name} {key}: {x.get('evaluated')} evaluated, {x.get('valid')} valid (72 expected) "
                       f"{x.get('by_status') or ''}")
        r.save()

    if args.examples > 0:
        print(f"\n##### examples: ktune tune for {args.examples:.0f} s each, cold compile cache", flush=True)
        for ex in EXAMPLES:
            spec = os.path.join(REPO, "examples", "cuda", ex, ex + ".yaml")
            space = parse_json(subprocess.run([args.ktune, "--json", "space", spec], capture_output=True, text=True).stdout) or {}
            valid = int(space.get("valid", 0)) or 100000
            seconds = min(args.examples, r.left() - 30)  # room for start-up and the last result
            if seconds < min(args.examples, 5):
                r.note(f"example {ex} skipped: {r.left():.0f} s of the budget left")
                continue
            # --max-evals: the space (the specs cap a run at 200); --max-time: the budget.
            x = ktune_tune(r, f"example_{ex}", spec, r.fresh("ktune-cache"),
                           extra=["--max-time", f"{seconds:g}", "--max-evals", str(valid)], limit=seconds + 60)
            if x is None:
                continue
            e = {"example": ex, "space": valid, **{k: x.get(k) for k in ("wall_s", "internal_wall_s", "evaluated", "by_status", "raced", "stop_reason", "phase_totals", "best", "rc")}}
            if x.get("evaluated"):
                e["configs_per_minute"] = 60 * x["evaluated"] / x["wall_s"]
                e["configs_per_minute_internal"] = 60 * x["evaluated"] / x["internal_wall_s"] if x.get("internal_wall_s") else None
            r.report["examples"].append(e)
            r.save()

    r.save()
    print_table(r)
    shutil.rmtree(r.scratch, ignore_errors=True)
    failed = [x["name"] for x in r.report["runs"] if x["rc"] != 0]
    if failed:
        print("failed runs:", ", ".join(failed))
    return 1 if failed or kt_env is None else 0


if __name__ == "__main__":
    sys.exit(main())
