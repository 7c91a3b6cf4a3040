#!/usr/bin/env python3
"""Checks the comparison's setup without a GPU: that ktune and Kernel Tuner tune the same thing.

    PYTHONPATH=/tmp/site python3 bench/kernel_tuner/check_offline.py --ktune build/ktune

For each workload:
  1. the space sizes agree: `ktune --json space SPEC` and Kernel Tuner's Searchspace (same
     parameters and restrictions, max 1024 threads per block), and both hold the same configurations;
  2. Kernel Tuner's real tune_kernel (brute_force, answer=, verify=, the grid options of
     workloads.py) runs end to end on a stand-in CuPy backend that records each configuration's
     grid and block, compiles the exact source Kernel Tuner generated with NVRTC (libnvrtc via
     ctypes, sm_90a, when found), and "runs" the kernel by writing the reference (so verify passes;
     a poisoned output would fail it, which is checked once per workload);
  3. every configuration's grid and block equal those of ktune's launch section, read from
     `ktune --json inspect SPEC --config ... --target sm_90a`, which also compiles each one with
     NVRTC; ktune's reference kernel compiles too.
Exit 0 when every check passes. Needs numpy and kernel_tuner (not cupy, not a GPU).
"""

import argparse
import concurrent.futures
import ctypes
import ctypes.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import types

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from workloads import WORKLOADS  # noqa: E402

FAILS = []


def check(ok, what):
    print(("ok    " if ok else "FAIL  ") + what)
    if not ok:
        FAILS.append(what)


class Nvrtc:
    """Just enough of NVRTC to compile a source string for sm_90a and return the log on failure."""

    def __init__(self):
        self.lib = None
        for name in ("libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so", ctypes.util.find_library("nvrtc")):
            if not name:
                continue
            try:
                self.lib = ctypes.CDLL(name)
                break
            except OSError:
                continue

    def compile(self, source, options):
        lib = self.lib
        prog = ctypes.c_void_p()
        rc = lib.nvrtcCreateProgram(ctypes.byref(prog), source.encode(), b"kt.cu", 0, None, None)
        if rc:
            return False, f"nvrtcCreateProgram {rc}"
        opts = (ctypes.c_char_p * len(options))(*[o.encode() for o in options])
        rc = lib.nvrtcCompileProgram(prog, len(options), opts)
        size = ctypes.c_size_t()
        lib.nvrtcGetProgramLogSize(prog, ctypes.byref(size))
        log = ctypes.create_string_buffer(size.value)
        lib.nvrtcGetProgramLog(prog, log)
        lib.nvrtcDestroyProgram(ctypes.byref(prog))
        return rc == 0, log.value.decode(errors="replace")


def fake_backend(workload, nvrtc, seen):
    """A CuPy-backend stand-in: numpy arrays for device memory, NVRTC for compile, the reference
    for the kernel's output. `seen` gets {config tuple: (grid, block, compiled, log)}."""
    from kernel_tuner.backends.backend import GPUBackend
    from kernel_tuner.observers.observer import BenchmarkObserver

    state = {"poison_next": False, "answer": None}

    class Timer(BenchmarkObserver):
        def __init__(self):
            self.times = []
            self.params = None

        def register_configuration(self, params):
            self.params = params

        def after_finish(self):
            # A made-up time that depends on the configuration, so there is one clear winner.
            self.times.append(1.0 + (hash(tuple(sorted(self.params.items()))) % 1000) / 1000.0)

        def get_results(self):
            r = {"time": float(np.mean(self.times)), "times": list(self.times)}
            self.times = []
            return r

    class Fake(GPUBackend):
        units = {"time": "ms"}

        def __init__(self, device=0, iterations=7, compiler_options=None, observers=None):
            self.name = "stand-in GPU (no device)"
            self.max_threads = 1024
            self.iterations = iterations
            self.compiler_options = list(compiler_options or [])
            self.observers = list(observers or []) + [Timer()]
            self.env = {"device_name": self.name, "iterations": iterations}

        def ready_argument_list(self, arguments):
            return [a.copy() if isinstance(a, np.ndarray) else a for a in arguments]

        def compile(self, instance):
            ok, log = (True, "(no NVRTC here: not compiled)")
            if nvrtc.lib:
                ok, log = nvrtc.compile(instance.kernel_string, ["-arch=sm_90a"] + self.compiler_options)
            key = tuple(sorted((k, int(v)) for k, v in instance.params.items()))
            seen[key] = (tuple(instance.grid), tuple(instance.threads), ok, log)
            if not ok:
                raise RuntimeError("NVRTC failed on Kernel Tuner's source:\n" + log)
            return instance.name

        def run_kernel(self, func, gpu_args, threads, grid, stream=None):
            if state["answer"] is None:  # the inputs never change: compute the reference once
                state["answer"] = workload.reference(gpu_args)
            for i, ref in enumerate(state["answer"]):
                if ref is not None:
                    gpu_args[i][...] = ref
                    if state["poison_next"]:
                        gpu_args[i][len(gpu_args[i]) // 2] = np.nan
                        state["poison_next"] = False

        def start_event(self):
            pass

        def stop_event(self):
            pass

        def kernel_finished(self):
            return True

        def synchronize(self):
            pass

        def memset(self, allocation, value, size):
            allocation[...] = value

        def memcpy_dtoh(self, dest, src):
            np.copyto(dest, src)

        def memcpy_htod(self, dest, src):
            np.copyto(dest, src)

        def copy_constant_memory_args(self, cmem_args):
            raise NotImplementedError

        def copy_shared_memory_args(self, smem_args):
            pass

        def copy_texture_memory_args(self, texmem_args):
            raise NotImplementedError

        def get_environment(self):
            return dict(self.env)

    return Fake, state


def install_stand_in(workload, nvrtc=None, seen=None):
    """Makes tune_kernel(lang="cupy") use the stand-in backend (and a placeholder cupy module if
    cupy does not import). Returns (state, undo). Used by kt_tune.py under KT_STAND_IN=1 too."""
    import kernel_tuner.backends.cupy as kt_cupy

    try:
        import cupy  # noqa: F401
    except ImportError:
        fake_cupy = types.ModuleType("cupy")
        fake_cupy.ndarray = type("ndarray", (), {})
        sys.modules["cupy"] = fake_cupy
    Fake, state = fake_backend(workload, nvrtc or Nvrtc(), {} if seen is None else seen)
    saved = kt_cupy.CupyFunctions
    kt_cupy.CupyFunctions = Fake

    def undo():
        kt_cupy.CupyFunctions = saved

    return state, undo


def run_kt(workload, nvrtc):
    """kt_tune.py's tune_kernel call, on the stand-in backend."""
    from kernel_tuner import tune_kernel

    seen = {}
    state, undo = install_stand_in(workload, nvrtc, seen)
    cwd = os.getcwd()
    os.chdir(tempfile.mkdtemp(prefix="kt-cwd-"))  # Kernel Tuner leaves temp_*.c of a failing run here
    try:
        arguments, answer = workload.host_data(seed=1)
        with open(workload.source_path()) as f:
            source = f.read()
        kwargs = dict(
            arguments=arguments,
            tune_params=workload.tune_params,
            restrictions=workload.restrictions,
            block_size_names=workload.block_size_names,
            answer=answer,
            verify=workload.verify,
            lang="cupy",
            compiler_options=["--std=c++17"],
            iterations=7,
            strategy="brute_force",
            cache=None,
            quiet=True,
            **workload.kt_grid_options(),
        )
        results, env = tune_kernel(workload.kernel, source, **kwargs)
        # The verify function must reject a poisoned output: Kernel Tuner then stops the run.
        print("      (an 'Error while compiling or benchmarking' line next is the expected rejection)")
        state["poison_next"] = True
        rejected = False
        try:
            tune_kernel(workload.kernel, source, **dict(kwargs, strategy="random_sample",
                                                        strategy_options={"max_fevals": 1}))
        except RuntimeError as e:
            rejected = "verification failed" in str(e)
        return results, env, seen, rejected
    finally:
        undo()
        shutil.rmtree(os.getcwd(), ignore_errors=True)
        os.chdir(cwd)


def ktune_launch(ktune, spec, config):
    cmd = [ktune, "--json", "inspect", spec, "--target", "sm_90a", "--config"] + [f"{k}={v}" for k, v in config]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        return None, (p.stderr or p.stdout).strip()[-400:]
    launch = json.loads(p.stdout)["facts"]["launch"]  # "grid 4096x1x1, block 128x2x1, ..."
    m = re.match(r"grid (\d+)x(\d+)x(\d+), block (\d+)x(\d+)x(\d+)", launch)
    g = tuple(int(v) for v in m.groups())
    return (g[:3], g[3:]), launch


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ktune", default=os.environ.get("KTUNE", "build/ktune"))
    ap.add_argument("--workload", action="append", choices=sorted(WORKLOADS), help="default: all")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2, help="parallel `ktune inspect` calls")
    args = ap.parse_args()
    ktune = os.path.abspath(args.ktune)
    import kernel_tuner
    from kernel_tuner.searchspace import Searchspace

    nvrtc = Nvrtc()
    print(f"kernel_tuner {kernel_tuner.__version__} from {os.path.dirname(kernel_tuner.__file__)}; "
          f"NVRTC: {'found' if nvrtc.lib else 'not found (Kernel Tuner sources not compiled)'}")
    cache = tempfile.mkdtemp(prefix="ktune-check-cache-")
    os.environ["KTUNE_CACHE_DIR"] = cache
    for name in args.workload or sorted(WORKLOADS):
        w = WORKLOADS[name]
        print(f"\n== {name}: {w.describe()}")
        space = json.loads(subprocess.run([ktune, "--json", "space", w.spec_path()], check=True,
                                          capture_output=True, text=True).stdout)
        ss = Searchspace(w.tune_params, w.restrictions, 1024)
        check(space["valid"] == ss.size, f"space sizes: ktune {space['valid']}, Kernel Tuner {ss.size}")
        kt_configs = {tuple(sorted(zip(w.tune_params, (int(v) for v in c)))) for c in ss.list}

        results, env, seen, rejected = run_kt(w, nvrtc)
        check(len(results) == ss.size and all("__error__" not in r for r in results),
              f"Kernel Tuner tune_kernel on the stand-in: {len(results)} evaluated, "
              f"{sum('__error__' in r for r in results)} errors, best {env.get('best_config', {}).get('time')}")
        check(set(seen) == kt_configs, f"Kernel Tuner compiled every configuration of its space ({len(seen)})")
        if nvrtc.lib:
            check(all(ok for (_, _, ok, _) in seen.values()),
                  f"NVRTC compiled Kernel Tuner's generated source for all {len(seen)} configurations (sm_90a, -std=c++17)")
        check(rejected, "verify= rejects an output with one NaN element (tune_kernel raises)")
        check(all(seen[c][:2] == w.geometry(dict(c)) for c in seen),
              "Kernel Tuner's grid and block equal workloads.py's geometry for every configuration")

        if nvrtc.lib:
            ref = os.path.join(HERE, w.source.replace(".cu", "_reference.cu"))
            ok, log = nvrtc.compile(open(ref).read(), ["-arch=sm_90a", "-std=c++17"])
            check(ok, f"NVRTC compiles ktune's reference {os.path.basename(ref)}" + ("" if ok else ": " + log[-400:]))
        with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
            launches = dict(zip(sorted(seen), pool.map(lambda c: ktune_launch(ktune, w.spec_path(), c), sorted(seen))))
        bad = [(c, launches[c][1]) for c in launches if launches[c][0] is None]
        check(not bad, f"ktune inspect compiled all {len(launches)} configurations (NVRTC, sm_90a)"
                       + (f"; first failure {bad[0]}" if bad else ""))
        mismatch = [(c, seen[c][:2], launches[c][1]) for c in launches
                    if launches[c][0] is not None and launches[c][0] != seen[c][:2]]
        check(not mismatch, "ktune's launch geometry equals Kernel Tuner's for every configuration"
                            + (f"; first mismatch {mismatch[0]}" if mismatch else ""))
    shutil.rmtree(cache, ignore_errors=True)
    print(f"\n{'all checks passed' if not FAILS else f'{len(FAILS)} check(s) failed'}")
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main())
