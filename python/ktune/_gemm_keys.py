"""What ktune.torch needs to know about a PyTorch GEMM call, without PyTorch: the ktune GEMM
problem a call is (sizes, storage layout, dtype), and the `ktune tune gemm` / `ktune export
--tunableop` command lines for it. Pure functions, so they are tested where PyTorch is absent.

Shapes and strides are plain tuples (torch.Size and Tensor.stride() are tuples). The layout
letters are ktune's (families/gemm/gemm_problem.h): the storage of A (M x K) and B (K x N),
'n' row-major, 't' transposed (a column-major view: ``w.t()`` of a row-major ``w``). x @ w.T
with a Linear layer's w [N, K] is "nt".
"""

from __future__ import annotations

from typing import Any, Mapping, NamedTuple, Sequence

# torch dtype names (str(torch.float16) == "torch.float16") -> ktune's --dtype.
DTYPES = {
    "torch.float16": "f16",
    "torch.bfloat16": "bf16",
    "torch.float32": "f32",
}


class GemmProblem(NamedTuple):
    m: int
    n: int
    k: int
    batch: int
    layout: str  # "nn", "nt", "tn", "tt"
    dtype: str   # "f16", "bf16", "f32", "tf32"
    bias: bool = False

    def key(self) -> str:
        """A stable text key (the same problem -> the same key), for status() and logs."""
        b = f" batch {self.batch}" if self.batch != 1 else ""
        return f"gemm {self.m}x{self.n}x{self.k} {self.dtype} {self.layout}{b}{' +bias' if self.bias else ''}"


def _letter(rows: int, cols: int, stride: Sequence[int]) -> str | None:
    """'n' for a dense row-major rows x cols matrix, 't' for a dense column-major one, None else.
    A dimension of extent 1 may have any stride (PyTorch does not normalise them)."""
    s_row, s_col = stride
    if (cols == 1 or s_col == 1) and (rows == 1 or s_row == cols):
        return "n"
    if (rows == 1 or s_row == 1) and (cols == 1 or s_col == rows):
        return "t"
    return None


def matrix_dtype(torch_dtype: str, allow_tf32: bool = False) -> str | None:
    """ktune's dtype for a torch dtype name; float32 is "tf32" when PyTorch lets cuBLAS use
    TF32 (torch.backends.cuda.matmul.allow_tf32 / float32_matmul_precision != "highest")."""
    d = DTYPES.get(torch_dtype)
    if d == "f32" and allow_tf32:
        return "tf32"
    return d


def gemm_problem(a_shape: Sequence[int], a_stride: Sequence[int], b_shape: Sequence[int],
                 b_stride: Sequence[int], dtype: str | None, bias: bool = False) -> GemmProblem | None:
    """The GEMM that ``a @ b`` is, or None when ktune has no such problem (other ranks, mismatched
    sizes, an unsupported dtype, or storage that is not a dense matrix or stack of matrices, which
    PyTorch copies first anyway).

    2-D: a [M, K] @ b [K, N]. 3-D (bmm): a [B, M, K] @ b [B, K, N], each stack dense (batch stride
    = rows x cols) and both with the same batch. Empty sizes are no problem either.
    """
    if dtype is None or len(a_shape) != len(b_shape) or len(a_shape) not in (2, 3):
        return None
    batch = 1
    if len(a_shape) == 3:
        batch = a_shape[0]
        if b_shape[0] != batch:
            return None
        if batch > 1 and (a_stride[0] != a_shape[1] * a_shape[2] or b_stride[0] != b_shape[1] * b_shape[2]):
            return None
        a_shape, a_stride, b_shape, b_stride = a_shape[1:], a_stride[1:], b_shape[1:], b_stride[1:]
    m, k = a_shape
    k2, n = b_shape
    if k != k2 or min(m, n, k, batch) <= 0:
        return None
    la, lb = _letter(m, k, a_stride), _letter(k, n, b_stride)
    if la is None or lb is None:
        return None
    return GemmProblem(m, n, k, batch, la + lb, dtype, bias)


def linear_problem(x_shape: Sequence[int], x_stride: Sequence[int], w_shape: Sequence[int],
                   w_stride: Sequence[int], dtype: str | None, bias: bool) -> GemmProblem | None:
    """The GEMM of ``F.linear(x, w, bias)``: x [..., K] flattened to [M, K] (its leading
    dimensions must be dense, as PyTorch's view needs) times w [N, K] transposed."""
    if len(x_shape) < 2 or len(w_shape) != 2:
        return None
    k = x_shape[-1]
    m = 1
    for d in x_shape[:-1]:
        m *= d
    # Leading dimensions flatten without a copy when they are contiguous over the last one.
    expected = x_stride[-2]
    for i in range(len(x_shape) - 2, 0, -1):
        expected *= x_shape[i]
        if x_shape[i - 1] != 1 and x_stride[i - 1] != expected:
            return None
    n, k2 = w_shape
    if k2 != k:
        return None
    w_t_stride = (w_stride[1], w_stride[0])  # w.T is K x N
    return gemm_problem((m, k), (x_stride[-2], x_stride[-1]), (k, n), w_t_stride, dtype, bias)


def tune_gemm_args(p: GemmProblem, extra: Sequence[str] = ()) -> list[str]:
    """``ktune tune gemm`` arguments for the problem (run with --db and --json by the caller)."""
    args = ["tune", "gemm", "--m", str(p.m), "--n", str(p.n), "--k", str(p.k), "--dtype", p.dtype,
            "--layout", p.layout, "--progress", "none"]
    if p.batch != 1:
        args += ["--batch", str(p.batch)]
    if p.bias:
        args += ["--bias"]
    return args + list(extra)


_STORAGE = {"f16": "f16", "bf16": "bf16", "f32": "f32", "tf32": "f32"}


def problem_from_pick(problem: Mapping[str, Any]) -> GemmProblem | None:
    """A pick's problem (the canonical JSON of ``ktune export --gemm-picks``) as the GemmProblem a
    PyTorch call maps to; None for problems no matmul/bmm/linear call is (activations, alpha or beta
    other than 1 and 0, another output type)."""
    try:
        dtype = problem["dtype"]
        if (problem.get("op", "gemm") != "gemm" or dtype not in _STORAGE or problem.get("activation", "none") != "none"
                or float(problem.get("alpha", 1.0)) != 1.0 or float(problem.get("beta", 0.0)) != 0.0
                or problem.get("out_dtype", _STORAGE[dtype]) != _STORAGE[dtype]):
            return None
        layout = problem["layout"]
        if layout not in ("nn", "nt", "tn", "tt"):
            return None
        return GemmProblem(int(problem["m"]), int(problem["n"]), int(problem["k"]), int(problem.get("batch", 1)),
                           layout, dtype, bool(problem.get("bias", False)))
    except (KeyError, TypeError, ValueError):
        return None
