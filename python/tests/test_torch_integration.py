"""ktune.torch where PyTorch is installed: without CUDA every call is PyTorch's own and enable()
says why it cannot turn on. (CI has no PyTorch and skips this file; the mapping from calls to
GEMM problems is tested without it in test_gemm_keys.py, and the GPU path by
bench/torch_matmul_bench.py on the lent GPU.)"""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

import ktune.torch as kt  # noqa: E402


def test_cpu_calls_are_pytorchs_own():
    g = torch.Generator().manual_seed(1)
    a, b = torch.randn(33, 17, generator=g), torch.randn(17, 9, generator=g)
    assert torch.equal(kt.matmul(a, b), torch.matmul(a, b))
    x, w, bias = torch.randn(2, 5, 17, generator=g), torch.randn(9, 17, generator=g), torch.randn(9, generator=g)
    assert torch.equal(kt.linear(x, w, bias), torch.nn.functional.linear(x, w, bias))
    p, q = torch.randn(3, 4, 5, generator=g), torch.randn(3, 5, 6, generator=g)
    assert torch.equal(kt.bmm(p, q), torch.bmm(p, q))
    assert not kt.enabled()
    assert kt.status() == {"enabled": False}


@pytest.mark.skipif(torch.cuda.is_available(), reason="this machine has CUDA")
def test_enable_without_cuda_says_why(tmp_path):
    with pytest.raises(RuntimeError, match="needs a CUDA device"):
        kt.enable(db=tmp_path / "t.db")
    assert not kt.enabled()
