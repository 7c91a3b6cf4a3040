"""PyTorch integration: ``ktune.torch.matmul``, ``bmm`` and ``linear`` run with ktune's tuned GEMMs.

    import ktune.torch as kt
    kt.enable(db="gemm.db", online=True, budget_seconds=30)
    y = kt.matmul(a, b)          # = torch.matmul(a, b), with ktune's pick for this GEMM once tuned
    y = kt.linear(x, w, bias)    # = torch.nn.functional.linear(x, w, bias)

How ktune's picks reach PyTorch. ``ktune tune gemm`` measures ktune's generated kernels and
cuBLASLt's algorithms for a GEMM on the GPU, verifies them, and records the pick in the database
(the one tuning engine; this module never measures anything itself). PyTorch's TunableOp can
replay a cuBLASLt configuration by name (Gemm_Cublaslt_id_...), so enable() writes the
database's picks as a TunableOp results file (``ktune export --tunableop``, declaring this
PyTorch's own validators) and loads it with TunableOp on and its tuning off. torch.matmul itself
then runs the picked algorithm; a GEMM with no pick runs PyTorch's default, as TunableOp does
with tuning off. A problem whose pick is ktune's own generated kernel is written with the fastest
cuBLASLt configuration measured for it: TunableOp cannot launch ktune's kernels, so those gains
stay with the C++ runtime API (include/ktune/ktune.h) for now.

Correctness: every result is computed by PyTorch's own call with a cuBLASLt configuration that
ktune verified against an fp64 reference for that exact problem; nothing else runs.

Online tuning (``online=True``): each call computes its GEMM key (shapes, strides, dtype) and
looks it up in a dict (the per-call cost of this module; see bench/torch_matmul_bench.py). A key seen
for the first time is mapped to its ktune problem (_gemm_keys.py); a problem without a pick is
queued, and one background thread runs ``ktune tune gemm`` for it with a budget of
``budget_seconds`` (killed past it; what it measured by then is kept, as every candidate is
committed when measured), then re-exports the picks and reloads them. Until then the call runs
PyTorch's default. Failed problems are not retried in the process; status() lists them.

Shape bucketing: none. A GEMM's key is its exact sizes, storage layout (row-major or transposed
view of each operand), batch, dtype and bias, because TunableOp matches exact signatures and
cuBLASLt's best algorithm changes with exact sizes (a ragged M of 1000 is not 1024). Calls that
are not a dense matrix product (broadcast batches, other ranks, strided views PyTorch copies
first, integer types) are never tuned and run PyTorch's default.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from typing import Any, Sequence

import torch as _torch

from ._cli import KtuneError, find_ktune
from ._gemm_keys import (GemmProblem, gemm_problem, linear_problem, matrix_dtype, problem_from_name, tune_gemm_args,
                         validators_csv)

class ReplayUnsupported(RuntimeError):
    """The running PyTorch's TunableOp cannot replay cuBLASLt configurations named in a file."""


__all__ = ["ReplayUnsupported", "enable", "disable", "enabled", "matmul", "bmm", "linear", "status", "wait", "refresh"]

_state: "_Session | None" = None

# Run in a child process: does this PyTorch's TunableOp replay a cuBLASLt configuration named in a
# results file? Releases whose CUDA TunableOp registers only its own heuristic candidates raise
# "Expected iter != ops_.end()" on the first GEMM whose loaded result names another solution
# (PyTorch 2.11.0 on an H100, 2026-11-25), and every later call with that signature raises too,
# so the check runs apart from the caller, on one real entry of the file.
_PROBE = r"""
import sys, torch
path, m, n, k, batch, layout, dtype = sys.argv[1], *map(int, sys.argv[2:6]), sys.argv[6], sys.argv[7]
t = torch.cuda.tunable
t.enable(True)
t.tuning_enable(False)
t.read_file(path)
dt = {"f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32, "tf32": torch.float32}[dtype]
torch.backends.cuda.matmul.allow_tf32 = dtype == "tf32"
shape = (batch,) if batch > 1 else ()
a = torch.randn(*shape, m, k, device="cuda", dtype=dt) if layout[0] == "n" else torch.randn(*shape, k, m, device="cuda", dtype=dt).transpose(-1, -2)
b = torch.randn(*shape, k, n, device="cuda", dtype=dt) if layout[1] == "n" else torch.randn(*shape, n, k, device="cuda", dtype=dt).transpose(-1, -2)
ref = torch.matmul(a.double(), b.double())
try:
    out = torch.matmul(a, b)
    err = float((out.double() - ref).norm() / ref.norm())
except RuntimeError as e:
    print("unsupported: " + str(e).splitlines()[0])
    sys.exit(0)
print("ok" if err < 5e-2 else f"wrong result: relative error {err:.2e}")
"""


def _allow_tf32() -> bool:
    return bool(_torch.backends.cuda.matmul.allow_tf32)


class _Session:
    def __init__(self, db: str | None, online: bool, budget_seconds: float, ktune_bin: str | None, file: str,
                 tune_args: list[str]) -> None:
        self.db, self.online, self.budget_seconds, self.file = db, online, budget_seconds, file
        self.db_args = [] if db is None else ["--db", db]  # None: the CLI's default ($KTUNE_DB, ...)
        self.tune_args = tune_args
        self.ktune = find_ktune(ktune_bin)
        if self.ktune is None:
            raise KtuneError("no ktune executable: this package carries none, $KTUNE_BIN is not set and "
                             "there is no ktune on PATH")
        self.seen_mm: dict[Any, GemmProblem | None] = {}  # per-call key -> problem (None: not a GEMM ktune tunes)
        self.seen_bmm: dict[Any, GemmProblem | None] = {}
        self.seen_linear: dict[Any, GemmProblem | None] = {}
        self.states: dict[GemmProblem, str] = {}    # queued, tuning, tuned, failed
        self.errors: dict[GemmProblem, str] = {}
        self.exported: set[str] = set()             # ktune problem names in the loaded file
        self.export_note = ""
        self.lock = threading.Condition()
        self.queue: list[GemmProblem] = []
        self.worker: threading.Thread | None = None
        self.stopping = False
        self.replay: str | None = None  # 'ok' once a child process saw PyTorch replay a pick

    # -- picks -> TunableOp ----------------------------------------------------------------------

    def refresh(self) -> int:
        """Re-exports the database's picks and loads them into TunableOp; the number of lines."""
        if self.db is not None and not os.path.exists(self.db):
            return 0  # no database yet: online tuning creates it
        # Exactly the validators this PyTorch registers (PyTorch 2.11 registers PT_VERSION only and
        # rejects a file that declares a key it does not know), through --validators-from.
        validators_file = self.file + ".validators"
        with open(validators_file, "w") as f:
            f.write(validators_csv(_torch.cuda.tunable.get_validators()))
        command = [self.ktune, *self.db_args, "--json", "export", "--tunableop", self.file,
                   "--validators-from", validators_file]
        proc = subprocess.run(command, stdin=subprocess.DEVNULL, capture_output=True, text=True)
        if proc.returncode != 0:
            # A database without GEMM picks yet (or, with the CLI's default path, none at all):
            # nothing to load, not an error; online tuning creates them. The CLI says so in words
            # only (exit 2 / 1), hence the match on its message.
            self.export_note = proc.stderr.strip()
            if "holds no GEMM picks" in proc.stderr or (self.db is None and "no such file" in proc.stderr):
                return 0
            raise KtuneError(self.export_note or "ktune export failed", exit_code=proc.returncode, command=command,
                             stderr=proc.stderr)
        report = json.loads(proc.stdout) if proc.stdout.strip() else {}
        entries = report.get("entries", [])
        if entries and self.replay is None:
            self.replay = self._probe(entries)
        if entries and self.replay != "ok":
            raise ReplayUnsupported(f"this PyTorch ({_torch.__version__}) cannot replay ktune's picks through "
                                    f"TunableOp: {self.replay}")
        self.exported = {e.get("problem", "") for e in entries}
        self.export_note = ""
        _torch.cuda.tunable.read_file(self.file)
        return len(entries)

    def _probe(self, entries: list) -> str:
        """'ok', or why this PyTorch cannot replay the file's cuBLASLt lines (see _PROBE)."""
        for e in entries:
            p = problem_from_name(e.get("problem", ""))
            if p is None or p.bias:
                continue
            args = [sys.executable, "-c", _PROBE, self.file, str(p.m), str(p.n), str(p.k), str(p.batch), p.layout, p.dtype]
            try:
                proc = subprocess.run(args, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=300)
            except subprocess.TimeoutExpired:
                return "the replay check did not finish in 300 s"
            lines = proc.stdout.strip().splitlines()
            if proc.returncode != 0 or not lines:
                return f"the replay check failed: {(proc.stderr or proc.stdout).strip()[-500:]}"
            return lines[-1]
        return "no plain GEMM among the picks to check the replay with"


    # -- per call --------------------------------------------------------------------------------

    def first_sight(self, seen: dict, key: Any, problem: GemmProblem | None) -> None:
        seen[key] = problem
        if problem is None or not self.online:
            return
        with self.lock:
            if problem in self.states:
                return
            self.states[problem] = "queued"
            self.queue.append(problem)
            if self.worker is None:
                self.worker = threading.Thread(target=self._work, name="ktune-online-tuning", daemon=True)
                self.worker.start()
            self.lock.notify_all()

    # -- background tuning -----------------------------------------------------------------------

    def _work(self) -> None:
        while True:
            with self.lock:
                while not self.queue and not self.stopping:
                    self.lock.wait()
                if self.stopping:
                    return
                problem = self.queue.pop(0)
                self.states[problem] = "tuning"
            ok, error = self._tune(problem)
            if ok:
                try:
                    self.refresh()
                except Exception as e:  # the tuning is recorded; only the reload failed
                    ok, error = False, f"tuned, but reloading the picks failed: {e}"
            with self.lock:
                self.states[problem] = "tuned" if ok else "failed"
                if error:
                    self.errors[problem] = error
                self.lock.notify_all()

    def _tune(self, problem: GemmProblem) -> tuple[bool, str]:
        command = [self.ktune, *self.db_args, "--json", *tune_gemm_args(problem, self.tune_args)]
        try:
            proc = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                    stderr=subprocess.PIPE, text=True, start_new_session=True)
        except OSError as e:
            return False, f"cannot run {self.ktune}: {e}"
        try:
            _, err = proc.communicate(timeout=self.budget_seconds)
        except subprocess.TimeoutExpired:
            proc.terminate()  # ktune keeps what it committed and exits 130
            try:
                _, err = proc.communicate(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                _, err = proc.communicate()
            return True, f"budget of {self.budget_seconds:g} s reached: the pick is the best measured by then"
        if proc.returncode != 0:
            return False, (err or "").strip()[-2000:] or f"ktune tune gemm exited with {proc.returncode}"
        return True, ""

    def stop(self) -> None:
        with self.lock:
            self.stopping = True
            self.lock.notify_all()


def enable(db: str | os.PathLike[str] | None = None, *, online: bool = False, budget_seconds: float = 30.0,
           ktune_bin: str | os.PathLike[str] | None = None, results_file: str | os.PathLike[str] | None = None,
           tune_args: Sequence[str] = ()) -> int:
    """Turns the integration on for this process: loads the database's GEMM picks into PyTorch's
    TunableOp (tuning off) and, with ``online``, tunes GEMMs seen for the first time in the
    background within ``budget_seconds`` each. ``db``: else $KTUNE_DB, else ktune's default path.
    ``results_file``: where the TunableOp file is written (default: a private temporary file).
    ``tune_args``: more `ktune tune gemm` flags for online tuning, e.g. ["--families", "cublaslt"]
    (only cuBLASLt configurations reach PyTorch, so generated kernels are time spent for nothing
    here unless their results serve the C++ API too).
    Returns the number of GEMM picks loaded. Needs CUDA; raises RuntimeError without it."""
    global _state
    if not _torch.cuda.is_available():
        raise RuntimeError("ktune.torch.enable needs a CUDA device (torch.cuda.is_available() is False); "
                           "matmul/bmm/linear run PyTorch's default without it")
    disable()
    if results_file is None:
        fd, results_file = tempfile.mkstemp(prefix="ktune_tunableop_", suffix=".csv")
        os.close(fd)
    session = _Session(None if db is None else os.fspath(db), online, float(budget_seconds), None if ktune_bin is None else os.fspath(ktune_bin),
                       os.fspath(results_file), [os.fspath(a) for a in tune_args])
    tunable = _torch.cuda.tunable
    tunable.enable(True)
    tunable.tuning_enable(False)
    if hasattr(tunable, "write_file_on_exit"):  # gone in recent releases (results are written only when asked)
        tunable.write_file_on_exit(False)
    try:
        loaded = session.refresh()
    except BaseException:
        tunable.enable(False)
        raise
    _state = session
    return loaded


def disable() -> None:
    """Stops online tuning and turns TunableOp off again (PyTorch's default GEMMs)."""
    global _state
    if _state is None:
        return
    _state.stop()
    _state = None
    _torch.cuda.tunable.enable(False)


def enabled() -> bool:
    return _state is not None


def refresh() -> int:
    """Reloads the database's picks (e.g. after a `ktune tune gemm` run elsewhere)."""
    if _state is None:
        raise RuntimeError("ktune.torch is not enabled")
    return _state.refresh()


def _dtype(a: _torch.Tensor, b: _torch.Tensor) -> str | None:
    return matrix_dtype(str(a.dtype), _allow_tf32()) if a.dtype == b.dtype else None


# The per-call key is kept to what decides the GEMM (shapes, strides, dtype) and each operation
# has its own dict, so a call costs a tuple and a dict lookup (the overhead target is < 2 us).
# Not in the key: the device (one process tunes for the GPU its tensors are on first) and
# PyTorch's TF32 switch (read when a float32 GEMM is first seen).


def _see_mm(s: _Session | None, a: _torch.Tensor, b: _torch.Tensor) -> None:
    """What matmul adds to torch.matmul per call (bench/torch_matmul_bench.py times it alone)."""
    if s is not None and a.is_cuda:
        key = (a.shape, b.shape, a.stride(), b.stride(), a.dtype)
        if key not in s.seen_mm:
            s.first_sight(s.seen_mm, key, gemm_problem(a.shape, a.stride(), b.shape, b.stride(), _dtype(a, b)))


def matmul(a: _torch.Tensor, b: _torch.Tensor) -> _torch.Tensor:
    """torch.matmul(a, b), with ktune's pick for the GEMM when one is loaded."""
    _see_mm(_state, a, b)
    return _torch.matmul(a, b)


def bmm(a: _torch.Tensor, b: _torch.Tensor) -> _torch.Tensor:
    """torch.bmm(a, b), with ktune's pick for the batched GEMM when one is loaded."""
    s = _state
    if s is not None and a.is_cuda:
        key = (a.shape, b.shape, a.stride(), b.stride(), a.dtype)
        if key not in s.seen_bmm:
            s.first_sight(s.seen_bmm, key, gemm_problem(a.shape, a.stride(), b.shape, b.stride(), _dtype(a, b)))
    return _torch.bmm(a, b)


def linear(x: _torch.Tensor, w: _torch.Tensor, bias: _torch.Tensor | None = None) -> _torch.Tensor:
    """torch.nn.functional.linear(x, w, bias), with ktune's pick for its GEMM when one is loaded."""
    s = _state
    if s is not None and x.is_cuda:
        key = (x.shape, w.shape, x.stride(), w.stride(), x.dtype, bias is None)
        if key not in s.seen_linear:
            has_bias = bias is not None and bias.dim() == 1
            s.first_sight(s.seen_linear, key,
                          linear_problem(x.shape, x.stride(), w.shape, w.stride(), _dtype(x, w), has_bias))
    return _torch.nn.functional.linear(x, w, bias)


def status() -> dict:
    """{"enabled", "online", "loaded": [problem names in the loaded file], "problems": {key: state},
    "errors": {key: message}, "export_note"}."""
    s = _state
    if s is None:
        return {"enabled": False}
    with s.lock:
        return {"enabled": True, "online": s.online, "db": s.db, "loaded": sorted(s.exported),
                "problems": {p.key(): st for p, st in s.states.items()},
                "errors": {p.key(): e for p, e in s.errors.items()}, "export_note": s.export_note}


def wait(timeout: float | None = None) -> bool:
    """Waits until no problem is queued or tuning; False if ``timeout`` seconds passed first."""
    s = _state
    if s is None:
        return True
    deadline = None if timeout is None else time.monotonic() + timeout
    with s.lock:
        while any(st in ("queued", "tuning") for st in s.states.values()):
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                return False
            s.lock.wait(left)
    return True
