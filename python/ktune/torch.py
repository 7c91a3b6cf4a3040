"""PyTorch integration: ``ktune.torch.matmul``, ``bmm`` and ``linear`` run ktune's tuned GEMMs.

    import ktune.torch as kt
    kt.enable(db="gemm.db", online=True, budget_seconds=30)
    y = kt.matmul(a, b)          # = torch.matmul(a, b), with ktune's pick for this GEMM once tuned
    y = kt.linear(x, w, bias)    # = torch.nn.functional.linear(x, w, bias)

How ktune's picks run. ``ktune tune gemm`` measures ktune's generated kernels and cuBLASLt's
algorithms for a GEMM on the GPU, verifies them against an fp64 reference and records the pick
(the one tuning engine; this module never measures anything). enable() reads the picks with
``ktune export --gemm-picks`` and hands each one, when its GEMM is first called, to
libktune_gemm (include/ktune/ktune_gemm.h, through ctypes): a plan that holds the cuBLASLt
descriptors and algorithm, or the generated kernel loaded (compiled through ktune's compile
cache, a hit on the machine that tuned it). A call then allocates the output with PyTorch and
enqueues the plan on PyTorch's current stream. A GEMM without a pick, or whose operands are not
16-byte aligned, runs PyTorch's own call.

Online tuning (``online=True``): a problem seen for the first time without a pick is queued, and
one background thread runs ``ktune tune gemm`` for it within ``budget_seconds`` (stopped past it;
what it measured by then is kept, as every candidate is committed when measured), re-exports the
picks and makes the plan. Until then the call runs PyTorch's default. Failed problems are not
retried in the process; status() lists them.

Per call: a tuple of shapes, strides and dtypes looked up in a dict (the key), then the plan's
launch. Calls that autograd records (grad enabled and an operand requires grad) run PyTorch's
own call, which has a backward; under torch.no_grad() or inference_mode the plans run. Shape bucketing: none. The key is the exact sizes, storage layout (row-major or transposed
view of each operand), batch, dtype and bias, because the best kernel changes with exact sizes (a
ragged M of 1000 is not 1024). Calls that are not a dense matrix product (broadcast batches,
other ranks, strided views PyTorch copies first, integer types) run PyTorch's default. A float32
GEMM is TF32 or strict fp32 as PyTorch's switch says when the shape is first seen.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import tempfile
import threading
import time
from typing import Any, Callable, NamedTuple, Sequence

import torch as _torch

from . import _gemm_lib
from ._cli import KtuneError, find_ktune
from ._gemm_keys import GemmProblem, gemm_problem, linear_problem, matrix_dtype, problem_from_pick, tune_gemm_args

__all__ = ["enable", "disable", "enabled", "matmul", "bmm", "linear", "status", "wait", "refresh"]

_state: "_Session | None" = None
# How far ktune's result may be from PyTorch's (relative Frobenius norm) before the plan is not
# used: both round to the output type and accumulate in their own order.
_AGREEMENT = {"f16": 1e-2, "bf16": 2e-2, "tf32": 5e-3, "f32": 1e-4}
_executors: dict[int, _gemm_lib.Executor] = {}  # per device ordinal, for the life of the process
_MISS = object()


class _Plan(NamedTuple):
    run: Callable[..., int]  # ktune_gemm_run
    executor: Any            # its ctypes handle
    plan: int
    out_shape: tuple
    out_dtype: Any
    device: int
    problem: GemmProblem


def _race(ours: Callable[[], Any], theirs: Callable[[], Any], device: int, warmup: int = 3,
          pairs: int = 15) -> tuple[float, float]:
    """Median seconds of each on the GPU, timed alternately with CUDA events on the current
    stream, with the L2 cache flushed before each (as ktune's tuning measures: in a model a
    GEMM's weights are rarely still in L2). The stream first sleeps on the GPU while the host
    enqueues the timed launches, so a short GEMM is not timed together with the host's work
    before it (PyTorch's call and ktune's have different host paths)."""
    for _ in range(warmup):
        ours()
        theirs()
    l2 = getattr(_torch.cuda.get_device_properties(device), "L2_cache_size", 64 << 20) or (64 << 20)
    flush = _torch.empty(2 * l2, dtype=_torch.uint8, device=device)
    events = [(_torch.cuda.Event(enable_timing=True), _torch.cuda.Event(enable_timing=True)) for _ in range(2 * pairs)]
    sleep = getattr(_torch.cuda, "_sleep", None)
    if sleep is not None:
        sleep(4_000_000)  # GPU clock cycles, about 2 ms
    for i in range(pairs):
        for j, fn in enumerate((ours, theirs) if i % 2 == 0 else (theirs, ours)):
            start, end = events[2 * i + j]
            flush.zero_()
            start.record()
            fn()
            end.record()
    _torch.cuda.synchronize()
    del flush
    first = [s.elapsed_time(e) * 1e-3 for s, e in events[0:2 * pairs:2]]
    second = [s.elapsed_time(e) * 1e-3 for s, e in events[1:2 * pairs:2]]
    ours_t = [first[i] if i % 2 == 0 else second[i] for i in range(pairs)]
    theirs_t = [second[i] if i % 2 == 0 else first[i] for i in range(pairs)]
    return statistics.median(ours_t), statistics.median(theirs_t)


def _current_stream() -> Callable[[int], int]:
    raw = getattr(_torch._C, "_cuda_getCurrentRawStream", None)  # an int, without a Stream object
    if raw is not None:
        return raw
    return lambda device: _torch.cuda.current_stream(device).cuda_stream


class _Session:
    def __init__(self, db: str | None, online: bool, budget_seconds: float, ktune_bin: str | None,
                 tune_args: list[str]) -> None:
        self.db, self.online, self.budget_seconds, self.tune_args = db, online, budget_seconds, tune_args
        self.db_args = [] if db is None else ["--db", db]  # None: the CLI's default ($KTUNE_DB, ...)
        self.ktune = find_ktune(ktune_bin)
        if self.ktune is None:
            raise KtuneError("no ktune executable: this package carries none, $KTUNE_BIN is not set and "
                             "there is no ktune on PATH")
        self.library = _gemm_lib.load(self.ktune)
        self.stream = _current_stream()
        self.mm: dict[Any, _Plan | None] = {}  # per-call key -> plan (None: PyTorch's default)
        self.bmm: dict[Any, _Plan | None] = {}
        self.linear: dict[Any, _Plan | None] = {}
        self.picks: dict[tuple[str, GemmProblem], dict] = {}  # (device name, problem) -> pick
        self.plans: dict[tuple[int, GemmProblem], int] = {}   # (device, problem) -> plan id
        self.states: dict[GemmProblem, str] = {}               # queued, tuning, tuned, failed
        self.errors: dict[GemmProblem, str] = {}
        self.lock = threading.Condition()
        self.queue: list[GemmProblem] = []
        self.worker: threading.Thread | None = None
        self.stopping = False
        self.device_names: dict[int, str] = {}
        self.checks: dict[tuple[int, GemmProblem], dict] = {}  # check_against_pytorch's verdicts

    # -- picks -> plans --------------------------------------------------------------------------

    def refresh(self) -> int:
        """Re-reads the database's GEMM picks; the number of picks ktune.torch can use."""
        if self.db is not None and not os.path.exists(self.db):
            return 0  # no database yet: online tuning creates it
        fd, path = tempfile.mkstemp(prefix="ktune_gemm_picks_", suffix=".json")
        os.close(fd)
        try:
            command = [self.ktune, *self.db_args, "--json", "export", "--gemm-picks", path]
            proc = subprocess.run(command, stdin=subprocess.DEVNULL, capture_output=True, text=True)
            if proc.returncode != 0:
                if self.db is None and "no such file" in proc.stderr:
                    return 0  # the CLI's default database does not exist yet
                raise KtuneError(proc.stderr.strip() or "ktune export --gemm-picks failed", exit_code=proc.returncode,
                                 command=command, stderr=proc.stderr)
            with open(path) as f:
                exported = json.load(f)
        finally:
            os.unlink(path)
        picks = {}
        for pick in exported.get("picks", []):
            problem = problem_from_pick(pick.get("problem", {}))
            if problem is not None:
                picks[(pick.get("device", {}).get("name", ""), problem)] = pick
        with self.lock:
            self.picks = picks
            # Keys that ran PyTorch's default are looked at again: their problem may have a pick now.
            for table in (self.mm, self.bmm, self.linear):
                for key in [k for k, v in table.items() if v is None]:
                    del table[key]
        return len(picks)

    def device_name(self, device: int) -> str:
        name = self.device_names.get(device)
        if name is None:
            name = self.device_names[device] = _torch.cuda.get_device_name(device)
        return name

    def executor(self, device: int) -> _gemm_lib.Executor:
        ex = _executors.get(device)
        if ex is None:
            ex = _executors[device] = _gemm_lib.Executor(self.library, device)
        return ex

    def plan_for(self, problem: GemmProblem, device: int) -> int | None:
        """The plan id of `problem`'s pick on `device`, made on first use; None without a pick
        (queued for online tuning) or when the pick cannot run here (status() says why)."""
        with self.lock:
            known = self.plans.get((device, problem))
            if known is not None:
                return known
            pick = self.picks.get((self.device_name(device), problem))
        if pick is None:
            self.queue_tuning(problem)
            return None
        try:
            plan = self.executor(device).add_plan(pick)
        except RuntimeError as e:
            with self.lock:
                self.states[problem] = "failed"
                self.errors[problem] = f"the pick cannot run: {e}"
            return None
        with self.lock:
            self.plans[(device, problem)] = plan
            self.states[problem] = "tuned"
        return plan

    def resolve(self, table: dict, key: Any, problem: GemmProblem | None, out_shape: tuple, dtype: Any,
                device: int, operands: tuple, baseline: Callable[[], _torch.Tensor]) -> _Plan | None:
        """First sight of a per-call key: its plan, or None for PyTorch's default. A plan is kept
        only when, on this call's own tensors, it agrees with PyTorch's call (`baseline`) and is
        not slower than it (_check_against_pytorch)."""
        # Nothing inside a CUDA graph capture: making a plan loads a module, allocates and may
        # probe the GPU (cluster placement), and the check times both calls; a later call decides.
        if _torch.cuda.is_current_stream_capturing():
            return None
        plan = None if problem is None else self.plan_for(problem, device)
        entry = None
        if plan is not None:
            ex = self.executor(device)
            entry = _Plan(self.library.run, ex.handle, plan, out_shape, dtype, device, problem)
            used = self.check_against_pytorch(entry, operands, baseline)
            if used is None:
                return None  # misaligned operands this time: decide on a later call
            if not used:
                entry = None
        table[key] = entry
        return entry

    def check_against_pytorch(self, p: _Plan, operands: tuple, baseline: Callable[[], _torch.Tensor]) -> bool | None:
        """The baseline rule, with PyTorch's own call as the baseline: ktune's tuning compared its
        picks with cuBLASLt's default, but what this process would otherwise run is PyTorch's
        call, which may choose another kernel. So on the first call of a key both run on the
        caller's tensors: the results must agree (a safety net; both were verified), and the plan
        is kept only if its median time is no longer than PyTorch's. Costs 2 x (3 + 15) GEMMs
        once per key. The verdict is in status()["checks"]. GPU times (see _race); where a
        GEMM is shorter than the host's work per call, a loop of such calls is bound by the host
        whichever runs. None: undecided (misaligned operands)."""
        ours = _launch(self, p, *operands)
        if ours is None:
            return None
        theirs = baseline()
        err = float((ours.double() - theirs.double()).norm() / theirs.double().norm().clamp_min(1e-30))
        verdict: dict[str, Any] = {"relative_difference": err}
        if not err <= _AGREEMENT[p.problem.dtype]:
            verdict["used"] = False
            with self.lock:
                self.errors[p.problem] = (f"ktune's result differs from PyTorch's by {err:.2e} (relative), more than "
                                          f"{_AGREEMENT[p.problem.dtype]:g}: not used")
        else:
            ours_s, theirs_s = _race(lambda: _launch(self, p, *operands), baseline, p.device)
            verdict.update({"ktune_median_us": ours_s * 1e6, "pytorch_median_us": theirs_s * 1e6,
                            "speedup": theirs_s / ours_s, "used": ours_s <= theirs_s})
        with self.lock:
            self.checks[(p.device, p.problem)] = verdict
        return verdict["used"]

    # -- background tuning -----------------------------------------------------------------------

    def queue_tuning(self, problem: GemmProblem) -> None:
        if not self.online:
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
                except Exception as e:  # the tuning is recorded; only reading the picks failed
                    ok, error = False, f"tuned, but reading the picks failed: {e}"
            with self.lock:
                if not ok:
                    self.states[problem] = "failed"
                elif self.states.get(problem) == "tuning":
                    self.states[problem] = "tuned"
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
           ktune_bin: str | os.PathLike[str] | None = None, tune_args: Sequence[str] = ()) -> int:
    """Turns the integration on for this process: reads the database's GEMM picks (``ktune export
    --gemm-picks``) and, with ``online``, tunes GEMMs seen for the first time in the background
    within ``budget_seconds`` each. ``db``: else $KTUNE_DB, else ktune's default path.
    ``tune_args``: more `ktune tune gemm` flags for online tuning, e.g. ["--families", "cublaslt"].
    Returns the number of picks read. Needs CUDA and libktune_gemm; raises RuntimeError without."""
    global _state
    if not _torch.cuda.is_available():
        raise RuntimeError("ktune.torch.enable needs a CUDA device (torch.cuda.is_available() is False); "
                           "matmul/bmm/linear run PyTorch's default without it")
    disable()
    session = _Session(None if db is None else os.fspath(db), online, float(budget_seconds),
                       None if ktune_bin is None else os.fspath(ktune_bin), [os.fspath(a) for a in tune_args])
    loaded = session.refresh()
    _state = session
    return loaded


def disable() -> None:
    """Stops online tuning; matmul/bmm/linear run PyTorch's own calls again."""
    global _state
    if _state is None:
        return
    _state.stop()
    _state = None


def enabled() -> bool:
    return _state is not None


def refresh() -> int:
    """Re-reads the database's picks (e.g. after a `ktune tune gemm` run elsewhere)."""
    if _state is None:
        raise RuntimeError("ktune.torch is not enabled")
    return _state.refresh()


def _dtype(a: _torch.Tensor, b: _torch.Tensor) -> str | None:
    return matrix_dtype(str(a.dtype), bool(_torch.backends.cuda.matmul.allow_tf32)) if a.dtype == b.dtype else None


def _launch(s: _Session, p: _Plan, a: _torch.Tensor, b: _torch.Tensor, bias: _torch.Tensor | None) -> _torch.Tensor | None:
    """Runs plan `p`; None when PyTorch's own call must run instead (an operand is misaligned)."""
    # a's dtype and device are the output's (a key with another dtype or device has another plan);
    # new_empty parses no dtype or device arguments, a third cheaper than torch.empty.
    out = a.new_empty(p.out_shape)
    rc = p.run(p.executor, p.plan, a.data_ptr(), b.data_ptr(), None, out.data_ptr(),
               None if bias is None else bias.data_ptr(), s.stream(p.device))
    if rc == 0:
        return out
    if rc < 0:
        raise RuntimeError(f"ktune.torch: {p.problem.key()}: {s.library.last_error()}")
    return None


# The per-call key is kept to what decides the GEMM (shapes, strides, dtypes, device) and each
# operation has its own dict, so a call costs a tuple and a dict lookup before the launch
# (bench/torch_matmul_bench.py times it).


def _mm_plan(s: _Session, a: _torch.Tensor, b: _torch.Tensor) -> _Plan | None:
    """What matmul adds before the launch: the key and its plan (bench/torch_matmul_bench.py
    times this alone as the lookup overhead)."""
    key = (a.shape, b.shape, a.stride(), b.stride(), a.dtype, b.dtype, a.get_device(), b.get_device())
    p = s.mm.get(key, _MISS)
    if p is _MISS:
        problem = gemm_problem(a.shape, a.stride(), b.shape, b.stride(), _dtype(a, b))
        p = s.resolve(s.mm, key, problem if a.get_device() == b.get_device() else None,
                      (*a.shape[:-1], b.shape[-1]), a.dtype, a.get_device(), (a, b, None), lambda: _torch.matmul(a, b))
    return p


def _autograd(*tensors: _torch.Tensor | None) -> bool:
    """Whether autograd records this call: then PyTorch's own call runs, which has a backward
    (ktune's plans compute forward results only). Under torch.no_grad() / inference_mode, the
    usual way to run a model's weights (which keep requires_grad=True), the plans run."""
    return _torch.is_grad_enabled() and any(t is not None and t.requires_grad for t in tensors)


def matmul(a: _torch.Tensor, b: _torch.Tensor) -> _torch.Tensor:
    """torch.matmul(a, b), with ktune's pick for the GEMM when there is one."""
    s = _state
    if s is not None and a.is_cuda and not _autograd(a, b):
        p = _mm_plan(s, a, b)
        if p is not None:
            out = _launch(s, p, a, b, None)
            if out is not None:
                return out
    return _torch.matmul(a, b)


def bmm(a: _torch.Tensor, b: _torch.Tensor) -> _torch.Tensor:
    """torch.bmm(a, b), with ktune's pick for the batched GEMM when there is one."""
    s = _state
    if s is not None and a.is_cuda and not _autograd(a, b):
        key = (a.shape, b.shape, a.stride(), b.stride(), a.dtype, b.dtype, a.get_device(), b.get_device())
        p = s.bmm.get(key, _MISS)
        if p is _MISS:
            problem = gemm_problem(a.shape, a.stride(), b.shape, b.stride(), _dtype(a, b)) if a.dim() == 3 else None
            p = s.resolve(s.bmm, key, problem if a.get_device() == b.get_device() else None,
                          (*a.shape[:-1], b.shape[-1]), a.dtype, a.get_device(), (a, b, None), lambda: _torch.bmm(a, b))
        if p is not None:
            out = _launch(s, p, a, b, None)
            if out is not None:
                return out
    return _torch.bmm(a, b)


def _linear_key(x: _torch.Tensor, w: _torch.Tensor, bias: _torch.Tensor | None) -> tuple:
    if bias is None:
        return (x.shape, w.shape, x.stride(), w.stride(), x.dtype, w.dtype, x.get_device(), w.get_device())
    return (x.shape, w.shape, x.stride(), w.stride(), x.dtype, w.dtype, x.get_device(), w.get_device(),
            bias.shape, bias.stride(), bias.dtype, bias.get_device())


def linear(x: _torch.Tensor, w: _torch.Tensor, bias: _torch.Tensor | None = None) -> _torch.Tensor:
    """torch.nn.functional.linear(x, w, bias), with ktune's pick for its GEMM when there is one."""
    s = _state
    if s is not None and x.is_cuda and not _autograd(x, w, bias):
        key = _linear_key(x, w, bias)
        p = s.linear.get(key, _MISS)
        if p is _MISS:
            p = s.resolve(s.linear, key, _linear_problem(x, w, bias), (*x.shape[:-1], w.shape[0]), x.dtype,
                          x.get_device(), (x, w, bias), lambda: _torch.nn.functional.linear(x, w, bias))
        if p is not None:
            out = _launch(s, p, x, w, bias)
            if out is not None:
                return out
    return _torch.nn.functional.linear(x, w, bias)


def _linear_problem(x: _torch.Tensor, w: _torch.Tensor, bias: _torch.Tensor | None) -> GemmProblem | None:
    """The GEMM of linear(x, w, bias) when ktune can run it: one device, a bias (if any) of N
    contiguous elements of x's dtype (ktune's bias epilogue)."""
    if x.get_device() != w.get_device():
        return None
    if bias is not None and (bias.dim() != 1 or bias.dtype != x.dtype or bias.get_device() != x.get_device()
                             or (bias.shape[0] > 1 and bias.stride(0) != 1)):
        return None
    return linear_problem(x.shape, x.stride(), w.shape, w.stride(), _dtype(x, w), bias is not None)


def status() -> dict:
    """{"enabled", "online", "db", "library", "picks": number read, "plans": {problem key: family},
    "checks": {problem key: the first call's comparison with PyTorch's own call: relative_difference,
    ktune_median_us, pytorch_median_us, speedup, used},
    "problems": {key: queued|tuning|tuned|failed}, "errors": {key: message}}."""
    s = _state
    if s is None:
        return {"enabled": False}
    with s.lock:
        plans = {}
        for (device, problem), plan in s.plans.items():
            plans[problem.key()] = _executors[device].describe(plan).get("family", "")
        return {"enabled": True, "online": s.online, "db": s.db, "library": str(s.library.path),
                "picks": len(s.picks), "plans": plans,
                "checks": {p.key(): v for (_, p), v in s.checks.items()},
                "problems": {p.key(): st for p, st in s.states.items()},
                "errors": {p.key(): e for p, e in s.errors.items()}}


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
