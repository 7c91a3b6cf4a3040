"""ktune.torch on a GPU: online tuning of small GEMMs, then matmul / bmm / linear (with and
without bias) run ktune's picks through libktune_gemm and agree with PyTorch; a misaligned
operand falls back to PyTorch's own call. Skipped without CUDA (CI); run on the lent GPU with
PYTHONPATH=python KTUNE_BIN=... KTUNE_GEMM_LIB=... (python -m pytest, or python this file)."""

from __future__ import annotations

import os
import tempfile

import pytest

torch = pytest.importorskip("torch")
if not torch.cuda.is_available():
    pytest.skip("no CUDA device", allow_module_level=True)

import ktune.torch as kt  # noqa: E402

# Read before conftest.py's session fixture removes it (collection runs first): in a source
# checkout there is no bundled CLI, and the GPU machine's run names the carried one.
_KTUNE_BIN = os.environ.get("KTUNE_BIN")


def _err(out, ref):
    return float((out.double() - ref).norm() / ref.norm().clamp_min(1e-30))


@pytest.fixture(scope="module")
def tuned():
    db = os.path.join(tempfile.mkdtemp(prefix="ktune_torch_gpu_"), "t.db")
    kt.enable(db, online=True, budget_seconds=60, ktune_bin=_KTUNE_BIN, tune_args=["--generated-candidates", "4"])
    g = torch.Generator(device="cuda").manual_seed(3)
    t = {
        "a": torch.randn(200, 96, device="cuda", dtype=torch.float16, generator=g),
        "b": torch.randn(96, 136, device="cuda", dtype=torch.float16, generator=g),
        "p": torch.randn(3, 64, 80, device="cuda", dtype=torch.bfloat16, generator=g),
        "q": torch.randn(3, 80, 48, device="cuda", dtype=torch.bfloat16, generator=g),
        "x": torch.randn(2, 50, 128, device="cuda", dtype=torch.bfloat16, generator=g),
        "w": torch.randn(72, 128, device="cuda", dtype=torch.bfloat16, generator=g),
        "bias": torch.randn(72, device="cuda", dtype=torch.bfloat16, generator=g),
    }
    kt.matmul(t["a"], t["b"])
    kt.bmm(t["p"], t["q"])
    kt.linear(t["x"], t["w"])
    kt.linear(t["x"], t["w"], t["bias"])
    assert kt.wait(timeout=600)
    yield t
    kt.disable()


def test_every_problem_was_tuned_and_runs_a_pick(tuned):
    kt.matmul(tuned["a"], tuned["b"])
    kt.bmm(tuned["p"], tuned["q"])
    kt.linear(tuned["x"], tuned["w"])
    kt.linear(tuned["x"], tuned["w"], tuned["bias"])
    s = kt.status()
    assert s["errors"] == {}, s
    assert set(s["problems"].values()) == {"tuned"}, s
    assert len(s["plans"]) == 4, s
    # Each plan was compared with PyTorch's own call on its first call: same result, and a verdict.
    assert len(s["checks"]) == 4, s
    for verdict in s["checks"].values():
        assert verdict["relative_difference"] < 2e-2 and isinstance(verdict["used"], bool), verdict


def test_results_match_pytorch(tuned):
    a, b, p, q, x, w, bias = (tuned[k] for k in ("a", "b", "p", "q", "x", "w", "bias"))
    cases = [
        (kt.matmul(a, b), torch.matmul(a.double(), b.double()), torch.matmul(a, b)),
        (kt.bmm(p, q), torch.bmm(p.double(), q.double()), torch.bmm(p, q)),
        (kt.linear(x, w), torch.nn.functional.linear(x.double(), w.double()), torch.nn.functional.linear(x, w)),
        (kt.linear(x, w, bias), torch.nn.functional.linear(x.double(), w.double(), bias.double()),
         torch.nn.functional.linear(x, w, bias)),
    ]
    for ours, ref, theirs in cases:
        assert ours.shape == theirs.shape and ours.dtype == theirs.dtype
        assert _err(ours, ref) <= 2 * _err(theirs, ref) + 1e-3


def test_new_data_in_the_same_buffers_and_new_buffers(tuned):
    a, b = tuned["a"], tuned["b"]
    first = kt.matmul(a, b)
    a.normal_()
    second = kt.matmul(a, b)
    assert not torch.equal(first, second)
    assert _err(second, torch.matmul(a.double(), b.double())) < 1e-2
    a2, b2 = a.clone() * 2, b.clone()
    assert _err(kt.matmul(a2, b2), torch.matmul(a2.double(), b2.double())) < 1e-2


def test_misaligned_operand_falls_back(tuned):
    a, b = tuned["a"], tuned["b"]
    storage = torch.empty(a.numel() + 1, device="cuda", dtype=a.dtype)
    shifted = storage[1:].view(a.shape)  # 2 bytes off the allocation's alignment
    shifted.copy_(a)
    out = kt.matmul(shifted, b)
    assert _err(out, torch.matmul(a.double(), b.double())) < 1e-2


def test_work_goes_on_pytorchs_current_stream(tuned):
    a, b = tuned["a"], tuned["b"]
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        out = kt.matmul(a, b)
    side.synchronize()
    assert _err(out, torch.matmul(a.double(), b.double())) < 1e-2


def test_first_sight_inside_a_graph_capture_waits_for_a_later_call(tuned):
    a, b = tuned["a"], tuned["b"]
    state = kt._state
    with state.lock:  # forget the plan and the per-call decisions, as in a fresh process
        made = {k: v for k, v in state.plans.items()}
        state.plans.clear()
        for table in (state.mm, state.bmm, state.linear):
            table.clear()
    out = torch.empty(a.shape[0], b.shape[1], device="cuda", dtype=a.dtype)
    graph = torch.cuda.CUDAGraph()
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side), torch.cuda.graph(graph):
        out.copy_(kt.matmul(a, b))  # PyTorch's own call is captured; no plan is made here
    torch.cuda.current_stream().wait_stream(side)
    assert state.plans == {}
    graph.replay()
    torch.cuda.synchronize()
    assert _err(out, torch.matmul(a.double(), b.double())) < 1e-2
    kt.matmul(a, b)  # outside a capture matmul's plan is made again
    assert len(state.plans) == 1 and set(state.plans) <= set(made)


def test_autograd_calls_keep_their_backward(tuned):
    a = tuned["a"].clone().requires_grad_(True)
    b = tuned["b"]
    out = kt.matmul(a, b)  # autograd records: PyTorch's own call, with its backward
    assert out.grad_fn is not None
    out.float().sum().backward()
    assert a.grad is not None and a.grad.shape == a.shape
    x, w = tuned["x"], tuned["w"].clone().requires_grad_(True)
    with torch.no_grad():  # inference with weights that require grad: ktune's plan runs
        y = kt.linear(x, w)
    assert y.grad_fn is None
    assert _err(y, torch.nn.functional.linear(x.double(), w.detach().double())) < 2e-2


if __name__ == "__main__":
    raise SystemExit(pytest.main([__file__, "-v"]))
