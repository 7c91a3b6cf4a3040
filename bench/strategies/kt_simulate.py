#!/usr/bin/env python3
"""Runs Kernel Tuner 1.5.0's strategies in its simulation mode on ktune recorded spaces and writes
their evaluation orders as a ktune search-traces file, which ktune replays against the same
recordings with its own simulated clock (see README.md in this directory).

    python3 bench/strategies/kt_simulate.py SPACE.json... --out traces.json
        [--strategies genetic_algorithm,pso,...] [--repeats 10]
        [--budget-seconds S | --budgets BUDGETS.json | --max-fevals N] [--slack 1.0]
        [--cache-dir DIR] [--verbose]

Each recorded space (ktune's "ktune-recorded-space" JSON) becomes a Kernel Tuner cache file,
converted here in Python by the same rules as ktune's C++ exporter
(src/ktune/simulate/kernel_tuner_format.cc, to_kernel_tuner_cache): the two must stay in step.
"""

import argparse
import json
import random
import sys
import time
import warnings
from pathlib import Path

DEFAULT_STRATEGIES = [
    "genetic_algorithm", "dual_annealing", "simulated_annealing", "pso", "basinhopping",
    "greedy_ils", "diff_evo", "mls", "random_sample",
]

# ktune status -> Kernel Tuner ErrorConfig name (kernel_tuner_format.cc, kt_error_for). Kernel
# Tuner never caches a wrong result (it aborts the run), so wrong results, like every run-time
# failure, become RuntimeFailedConfig; configs the device cannot launch become InvalidConfig.
KT_ERROR = {
    "compile_error": "CompilationFailedConfig",
    "runtime_error": "RuntimeFailedConfig", "timeout": "RuntimeFailedConfig",
    "wrong_result": "RuntimeFailedConfig", "memory_error": "RuntimeFailedConfig",
    "crashed": "RuntimeFailedConfig",
    "resource_limit": "InvalidConfig", "skipped": "InvalidConfig",
}
# Kernel Tuner's random_sample stops after sampling fraction (default 0.1) of the space unless
# max_fevals is given; under a time budget it should draw until the budget is spent.
TIME_BUDGET_DEFAULTS = {"random_sample": {"fraction": 1.0}}

CANONICAL_STATUS = {"CompilationFailedConfig": "compile_error", "RuntimeFailedConfig": "runtime_error",
                    "InvalidConfig": "resource_limit"}


def kt_timestamp(iso):
    """2026-11-25T13:10:00Z -> 2026-11-25 13:10:00+00:00 (str(datetime) in UTC, as KT stamps)."""
    if len(iso) < 20 or iso[10] != "T" or not iso.endswith("Z"):
        return iso
    return iso[:10] + " " + iso[11:-1] + "+00:00"


def cache_entry(space, result, names):
    config = result["config"]
    missing = [n for n in names if n not in config]
    if missing:
        raise ValueError(f"{space['name']}: result {config} lacks parameter {missing[0]}")
    entry = {n: config[n] for n in names}
    status = result.get("status", "ok")
    if status == "ok":
        if result.get("time_s") is None:
            raise ValueError(f"{space['name']}: result {config} is ok but has no time_s")
        entry["time"] = float(result["time_s"]) * 1e3      # Kernel Tuner's unit: ms
        entry["times"] = [entry["time"]]                   # ktune keeps the median only
    elif status in KT_ERROR:
        entry["__error__"] = KT_ERROR[status]
        if CANONICAL_STATUS[KT_ERROR[status]] != status:
            entry["ktune_status"] = status
    else:
        raise ValueError(f"{space['name']}: unknown status {status!r}")
    # The simulation runner charges compile + verification + benchmark time on a first visit.
    entry["compile_time"] = float(result.get("compile_s", 0)) * 1e3
    entry["verification_time"] = 0.0
    entry["benchmark_time"] = float(result.get("measure_s", 0)) * 1e3
    entry["strategy_time"] = 0.0
    entry["framework_time"] = 0.0
    if space.get("recorded_at"):
        entry["timestamp"] = kt_timestamp(space["recorded_at"])
    return entry


def problem_size(constants):
    """ktune's integer constants in name order; [1] when there are none (see the C++ exporter)."""
    sizes = [v for _, v in sorted(constants.items()) if isinstance(v, int) and not isinstance(v, bool)]
    return sizes or [1]


def to_kernel_tuner_cache(space):
    names = [p["name"] for p in space["parameters"]]
    cache = {}
    for result in space["results"]:
        entry = cache_entry(space, result, names)
        key = ",".join(str(entry[n]) for n in names)       # what Kernel Tuner looks up
        if key in cache:
            raise ValueError(f"{space['name']}: duplicate configuration {key}")
        cache[key] = entry
    ktune = {k: space.get(k, "") for k in ("name", "source", "device", "chip", "recorded_at", "commit")}
    ktune.update(format="ktune-recorded-space", version=1, parameters=names,
                 constraints=space.get("constraints", []), constants=space.get("constants", {}),
                 membership=space.get("membership", "constraints"))
    return {
        "device_name": space.get("device", ""), "kernel_name": space["name"],
        "problem_size": problem_size(space.get("constants", {})),
        "tune_params_keys": names, "tune_params": {p["name"]: p["values"] for p in space["parameters"]},
        "objective": ["time"], "cache": cache, "ktune": ktune,
    }


def load_space(path):
    with open(path) as f:
        space = json.load(f)
    if space.get("format") != "ktune-recorded-space":
        raise ValueError(f"{path}: not a ktune recorded space (format {space.get('format')!r})")
    return space


def membership_restriction(names, recorded):
    """The space is exactly the recorded configurations (the recording is exhaustive).

    A plain def, not a lambda: Kernel Tuner parses lambdas' source into constraint strings.
    Kernel Tuner calls it three ways: with the config dict (one positional argument, its
    'monolithic' form, when the space has several parameters), with the values positionally
    (python-constraint, one parameter), and with keyword arguments (util.check_restriction).
    """
    def in_recording(*args, **kwargs):
        if kwargs:
            values = tuple(kwargs[n] for n in names)
        elif len(args) == 1 and isinstance(args[0], dict):
            values = tuple(args[0][n] for n in names)
        else:
            values = tuple(args)
        return values in recorded
    return in_recording


def run_strategy(kt, cache, cache_path, strategy, seed, options, verbose):
    """One Kernel Tuner run; returns the configs in evaluation order, first visits only."""
    names = cache["tune_params_keys"]
    tune_params = {n: cache["tune_params"][n] for n in names}  # the order must be tune_params_keys'
    recorded = {tuple(e[n] for n in names) for e in cache["cache"].values()}
    # Kernel Tuner 1.5.0's strategies draw from the global random and numpy.random generators
    # (tune_kernel's seed= reaches only the pymoo strategies), so both are seeded here.
    random.seed(seed)
    kt["numpy"].random.seed(seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        results, env = kt["tune_kernel"](
            cache["kernel_name"], "", cache["problem_size"], [], tune_params,
            restrictions=membership_restriction(names, recorded), cache=str(cache_path),
            simulation_mode=True, strategy=strategy, strategy_options=strategy_options(strategy, options),
            quiet=not verbose, verbose=verbose, seed=seed)
    configs, seen = [], set()
    for r in results:
        key = tuple(r[n] for n in names)
        # A re-visit is a cache hit that Kernel Tuner's clock does not charge (its runner zeroes
        # the timings), so ktune's replay must not charge it either: keep the first visit only.
        if key in seen:
            continue
        seen.add(key)
        configs.append({n: r[n] for n in names})
    return configs, env.get("simulated_time", 0.0), len(results)


def strategy_options(strategy, budget):
    options = dict(budget)
    if "time_limit" in budget:
        options.update(TIME_BUDGET_DEFAULTS.get(strategy, {}))
    return options


def budget_for(space_name, args, budgets):
    if args.max_fevals:
        return {"max_fevals": args.max_fevals}
    seconds = budgets.get(space_name, args.budget_seconds)
    if seconds is None:
        raise SystemExit(f"no budget for space {space_name}: give --budget-seconds, --budgets or --max-fevals")
    return {"time_limit": float(seconds) * args.slack}


def seed_latin_hypercube(numpy):
    """Kernel Tuner's LHS samples (Searchspace.get_LHS_sample, used by diff_evo's default
    constraint-aware population, and bayes_opt) build scipy's LatinHypercube without a seed, which
    draws fresh OS entropy: runs would not repeat. Give it a seed drawn from the (seeded) global
    numpy generator instead. searchspace.py imports the class at call time, bayes_opt at import."""
    import inspect
    import scipy.stats.qmc as qmc
    original = getattr(qmc.LatinHypercube, "__wrapped_by_kt_simulate__", qmc.LatinHypercube)
    keyword = "rng" if "rng" in inspect.signature(original.__init__).parameters else "seed"

    def seeded(*args, **kwargs):
        if "rng" not in kwargs and "seed" not in kwargs:
            kwargs[keyword] = int(numpy.random.randint(0, 2**31 - 1))
        return original(*args, **kwargs)

    seeded.__wrapped_by_kt_simulate__ = original
    qmc.LatinHypercube = seeded
    try:
        import kernel_tuner.strategies.bayes_opt as bayes_opt
        bayes_opt.LatinHypercube = seeded
    except ImportError:  # its optional dependencies are missing: the strategy is unusable anyway
        pass


def import_kernel_tuner():
    try:
        import numpy
        import kernel_tuner
        from kernel_tuner import tune_kernel
    except ImportError as e:
        raise SystemExit(f"kt_simulate: Kernel Tuner is not importable ({e}); "
                         "run scripts/install-deps.sh --bench and use .venv/bin/python") from e
    if getattr(kernel_tuner, "__version__", "1.5.0") != "1.5.0":
        print(f"kt_simulate: warning: Kernel Tuner {kernel_tuner.__version__}, not 1.5.0", file=sys.stderr)
    seed_latin_hypercube(numpy)
    return {"numpy": numpy, "tune_kernel": tune_kernel}


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("spaces", nargs="+", type=Path, help="ktune recorded-space JSON files")
    ap.add_argument("--out", type=Path, required=True, help="traces file to write")
    ap.add_argument("--strategies", default=",".join(DEFAULT_STRATEGIES),
                    help="comma-separated Kernel Tuner strategy names (default: %(default)s)")
    ap.add_argument("--repeats", type=int, default=10, help="runs per strategy and space, seeds 0..N-1")
    ap.add_argument("--budget-seconds", type=float, help="simulated seconds per run, every space")
    ap.add_argument("--budgets", type=Path, help="JSON object: space name -> seconds (overrides --budget-seconds)")
    ap.add_argument("--max-fevals", type=int, help="unique evaluations per run instead of a time budget")
    ap.add_argument("--slack", type=float, default=1.0,
                    help="multiply time budgets by this: Kernel Tuner also charges its own wall-clock time, "
                         "ktune truncates the replay at its own budget anyway (default %(default)s)")
    ap.add_argument("--cache-dir", type=Path, help="where the Kernel Tuner cache files go (default: next to --out)")
    ap.add_argument("--verbose", action="store_true", help="let Kernel Tuner print")
    return ap.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    kt = import_kernel_tuner()
    budgets = json.loads(args.budgets.read_text()) if args.budgets else {}
    cache_dir = args.cache_dir or args.out.parent
    cache_dir.mkdir(parents=True, exist_ok=True)
    strategies = [s for s in args.strategies.split(",") if s]
    traces = []
    for path in args.spaces:
        space = load_space(path)
        cache = to_kernel_tuner_cache(space)
        cache_path = cache_dir / f"{space['name']}.kt-cache.json"
        cache_path.write_text(json.dumps(cache, indent=1))
        options = budget_for(space["name"], args, budgets)
        print(f"{space['name']}: {len(cache['cache'])} configs, {options}, cache {cache_path}")
        for strategy in strategies:
            for seed in range(args.repeats):
                start = time.perf_counter()
                try:
                    configs, simulated, returned = run_strategy(kt, cache, cache_path, strategy, seed, options,
                                                                args.verbose)
                except Exception as e:  # one failing strategy must not lose the others' traces
                    print(f"  kt:{strategy} seed {seed}: FAILED: {type(e).__name__}: {e}", file=sys.stderr)
                    continue
                traces.append({"space": space["name"], "strategy": f"kt:{strategy}", "seed": seed,
                               "configs": configs})
                print(f"  kt:{strategy} seed {seed}: {len(configs)} unique of {returned} evaluations, "
                      f"KT simulated {simulated / 1e3:.1f} s, wall {time.perf_counter() - start:.1f} s")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"format": "ktune-search-traces", "version": 1, "traces": traces}))
    print(f"wrote {len(traces)} traces to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
