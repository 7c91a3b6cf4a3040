"""ktune from Python: tune kernels with the ktune CLI and look up the tuned configurations.

    import ktune
    report = ktune.tune("examples/cpu/reduction/reduction.yaml", db="t.db", max_evals=20)
    best = ktune.best("cpu_reduction", {"N": 4194304}, db="t.db")
    chunk = int(best["parameters"]["CHUNK"])

Lookups (best, all_best, Runtime) go through the C++ runtime API of include/ktune/ktune.h, bound
by the extension module ktune._ktune. Tuning (tune, results, run_json) runs the ktune CLI, the
one tuning engine, with --json: the one this package carries (ktune/bin/ktune), or $KTUNE_BIN,
or ktune on PATH (see find_ktune).
"""

from __future__ import annotations

import json as _json
import os
from typing import Any, Iterable, Mapping

import sys
from ._cli import KtuneError, bundled_ktune, find_ktune, run_json, size_args, text

try:
    from . import _ktune
except ImportError as _error:
    # The extension module is built for one Python (the one `pip install .` ran). The CLI functions
    # and ktune.torch (which loads libktune_gemm through ctypes) work without it, e.g. from a
    # source checkout on PYTHONPATH in another Python; best, all_best and Runtime need it.
    _ktune = None
    _IMPORT_ERROR: ImportError | None = _error
    __version__ = "unknown"
else:
    _IMPORT_ERROR = None
    __version__ = _ktune.__version__


def _native():
    """ktune._ktune, or ImportError saying which functions need it and why it is missing."""
    if _ktune is None:
        raise ImportError(f"ktune._ktune cannot be imported in this Python ({sys.version.split()[0]}): {_IMPORT_ERROR}. "
                          "best, all_best and Runtime need it (pip install . with this Python); tune, results, "
                          "run_json and ktune.torch do not")
    return _ktune

__all__ = [
    "KtuneError",
    "Runtime",
    "all_best",
    "best",
    "bundled_ktune",
    "find_ktune",
    "results",
    "run_json",
    "tune",
]


def _config(t: Any) -> dict:
    """A ktune::TunedConfig as a dict (parameter and size values as text, as ktune.h gives them)."""
    return {
        "problem": t.problem,
        "parameters": dict(t.parameters),
        "sizes": dict(t.sizes),
        "median_seconds": t.median_seconds,
        "gflops": t.gflops,
        "gbps": t.gbps,
        "device_name": t.device_name,
        "device_fingerprint": t.device_fingerprint,
        "result_id": t.result_id,
    }


def _sizes(sizes: Mapping[str, Any] | None) -> dict[str, str]:
    return {str(name): text(value) for name, value in (sizes or {}).items()}


def _db_path(db: Any) -> str:
    return "" if db is None else os.fspath(db)


def best(problem: str, sizes: Mapping[str, Any] | None = None, db: Any = None,
         device_fingerprint: str = "") -> dict | None:
    """The fastest verified configuration of ``problem`` (the spec's ``name:``), or None.

    ``sizes`` selects the problem sizes (each given size must match, compared as values; omitted
    sizes match anything); ``device_fingerprint`` a device (empty: any). ``db``: the database
    file, else $KTUNE_DB, else the default per-user path. The result is a dict: ``parameters``
    and ``sizes`` (name -> value as text, e.g. "64"), ``median_seconds``, ``gflops``, ``gbps``
    (None when the spec has no metrics), ``problem``, ``device_name``, ``device_fingerprint``,
    ``result_id``. RuntimeError when the database does not exist or is not a ktune database.
    """
    found = _native().TuningDatabase(_db_path(db)).best(problem, _sizes(sizes), device_fingerprint)
    return None if found is None else _config(found)


def all_best(db: Any = None) -> list[dict]:
    """Every problem's best configuration per device (dicts as best() returns)."""
    return [_config(t) for t in _native().TuningDatabase(_db_path(db)).all_best()]


def tune(spec_path: Any, *, db: Any = None, sizes: Mapping[str, Any] | None = None,
         max_time: float | None = None, max_evals: int | None = None, strategy: str | None = None,
         strategy_params: Mapping[str, Any] | str | None = None, seed: int | None = None,
         extra_args: Iterable[str] = (), ktune_bin: Any = None) -> Any:
    """Runs ``ktune --json tune SPEC`` and returns its report (the parsed JSON: ``best``,
    ``evaluated``, ``resumed``, ``by_status``, ``device``, ``problem``, ``session``, ...).

    ``sizes`` -> --size NAME=V; ``max_time`` -> --max-time (seconds); ``max_evals`` -> --max-evals;
    ``strategy`` -> --strategy; ``strategy_params`` (a dict, or JSON text) -> --strategy-params;
    ``seed`` -> --seed; ``extra_args`` are appended (e.g. ["--no-racing", "--jobs", "2"]).
    Progress output is off unless ``extra_args`` names --progress. Raises KtuneError with the
    CLI's message and exit code on failure (2: bad command line or missing spec file; 3: invalid
    spec; 4: backend not available; 5: no configuration ran correctly; 130: interrupted).
    """
    args = ["tune", os.fspath(spec_path), *size_args(sizes)]
    if max_time is not None:
        args += ["--max-time", repr(float(max_time))]
    if max_evals is not None:
        args += ["--max-evals", str(int(max_evals))]
    if strategy is not None:
        args += ["--strategy", strategy]
    if strategy_params is not None:
        params = strategy_params if isinstance(strategy_params, str) else _json.dumps(dict(strategy_params))
        args += ["--strategy-params", params]
    if seed is not None:
        args += ["--seed", str(int(seed))]
    extra = [os.fspath(a) for a in extra_args]
    if not any(a == "--progress" or a.startswith("--progress=") for a in extra):
        args += ["--progress", "none"]
    return run_json(args + extra, db=db, ktune_bin=ktune_bin)


def results(*, db: Any = None, kernel: str | None = None, problem: str | None = None,
            session: int | None = None, status: str | None = None, order: str | None = None,
            limit: int | None = None, extra_args: Iterable[str] = (), ktune_bin: Any = None) -> list:
    """Runs ``ktune --json results`` and returns the recorded results (a list of dicts).

    ``kernel``/``problem`` (the spec's name), ``session`` (id), ``status`` (ok, compile_error,
    runtime_error, timeout, wrong_result, resource_limit, crashed), ``order`` (oldest, newest,
    fastest), ``limit``. Raises KtuneError (exit code 1) when the database does not exist.
    """
    args = ["results"]
    for flag, value in (("--kernel", kernel), ("--problem", problem), ("--session", session),
                        ("--status", status), ("--order", order), ("--limit", limit)):
        if value is not None:
            args += [flag, str(value)]
    return run_json(args + [os.fspath(a) for a in extra_args], db=db, ktune_bin=ktune_bin)


def _state_name(state: Any) -> str:
    native = _native()
    return {
        native.TuningState.NotStarted: "not_started",
        native.TuningState.Queued: "queued",
        native.TuningState.Tuning: "tuning",
        native.TuningState.Done: "done",
        native.TuningState.Failed: "failed",
    }[state]


class Runtime:
    """ktune::Runtime: answers lookups from the database and, with online tuning, tunes a key it
    has no record of in the background (``ktune tune`` as a child process) while the caller runs
    its baseline.

        with ktune.Runtime(db="t.db", online=True, budget_seconds=30) as rt:
            cfg = rt.lookup("kernels/scale.yaml", {"N": n})
            if cfg is None: run_baseline()
            else: run_tuned(cfg["parameters"])

    Arguments are RuntimeOptions' (include/ktune/ktune.h): ``db`` (else $KTUNE_DB, else the
    default path), ``ktune_bin`` (else as find_ktune()), ``budget_seconds`` (--max-time per key),
    ``online`` (None: $KTUNE_ONLINE == "1"), ``max_concurrent``, ``device_fingerprint``,
    ``tune_args`` (appended to ``ktune tune``), ``terminate_on_destroy``, ``recheck_seconds``.
    close() (or the end of the ``with`` block) waits for running tunings, or stops them with
    ``terminate_on_destroy``; queued ones never start. Thread-safe.
    """

    def __init__(self, db: Any = None, *, ktune_bin: Any = None, budget_seconds: float = 30,
                 online: bool | None = None, max_concurrent: int = 1, device_fingerprint: str = "",
                 tune_args: Iterable[str] = (), terminate_on_destroy: bool = False,
                 recheck_seconds: float = 1):
        options = _native().RuntimeOptions()
        options.database_path = _db_path(db)
        options.ktune_path = find_ktune(ktune_bin) or ""
        options.budget_seconds = float(budget_seconds)
        options.online = online
        options.max_concurrent = int(max_concurrent)
        options.device_fingerprint = device_fingerprint
        options.tune_args = [os.fspath(a) for a in tune_args]
        options.terminate_on_destroy = bool(terminate_on_destroy)
        options.recheck_seconds = float(recheck_seconds)
        self._runtime = _native().Runtime(options)

    def lookup(self, spec_path: Any, sizes: Mapping[str, Any] | None = None, problem: str = "") -> dict | None:
        """The best configuration recorded for the spec's problem at these sizes (a dict as best()
        returns), or None at once (and, online, a first miss queues a background tuning of this
        key). ``problem``: the spec's name when its top-level ``name:`` line cannot tell it."""
        found = self._runtime.lookup(os.fspath(spec_path), _sizes(sizes), problem)
        return None if found is None else _config(found)

    def status(self, spec_path: Any, sizes: Mapping[str, Any] | None = None) -> dict:
        """The key's tuning state: ``state`` (not_started, queued, tuning, done, failed),
        ``exit_code`` (ktune's, once it exited; -1 before), ``error`` (why it failed, with the tail
        of ktune's stderr), ``seconds`` (how long the child ran)."""
        s = self._runtime.status(os.fspath(spec_path), _sizes(sizes))
        return {"state": _state_name(s.state), "exit_code": s.exit_code, "error": s.error, "seconds": s.seconds}

    def wait_idle(self, timeout_seconds: float) -> bool:
        """Blocks until no tuning is queued or running, or the timeout passes; True when idle."""
        return self._runtime.wait_idle(float(timeout_seconds))

    @property
    def options(self) -> dict:
        """The options with the defaults filled in (database path, ktune path, online)."""
        o = self._runtime.options
        return {name: getattr(o, name) for name in (
            "database_path", "ktune_path", "budget_seconds", "online", "max_concurrent", "device_fingerprint",
            "tune_args", "terminate_on_destroy", "recheck_seconds")}

    @property
    def database_error(self) -> str:
        """The last error reading the database other than "it does not exist yet"; "" if none."""
        return self._runtime.database_error

    def close(self) -> None:
        self._runtime.close()

    @property
    def closed(self) -> bool:
        return self._runtime.closed

    def __enter__(self) -> "Runtime":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
