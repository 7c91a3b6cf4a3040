"""ktune.torch's mapping from a PyTorch call to a ktune GEMM problem, and the command lines it
runs: pure functions, tested without PyTorch (shapes and strides are plain tuples here, as
torch.Size and Tensor.stride() are)."""

from __future__ import annotations

from ktune._gemm_keys import (GemmProblem, gemm_problem, linear_problem, matrix_dtype, tune_gemm_args,
                              problem_from_pick)

M, N, K = 1000, 4096, 512


def test_row_major_operands_are_nn():
    assert gemm_problem((M, K), (K, 1), (K, N), (N, 1), "f16") == GemmProblem(M, N, K, 1, "nn", "f16")


def test_transposed_views_are_t():
    # b = w.t() of a Linear weight w [N, K]: x @ w.T is ktune's "nt".
    assert gemm_problem((M, K), (K, 1), (K, N), (1, K), "bf16").layout == "nt"
    # a = x.t() of x [K, M].
    assert gemm_problem((M, K), (1, M), (K, N), (N, 1), "bf16").layout == "tn"
    assert gemm_problem((M, K), (1, M), (K, N), (1, K), "bf16").layout == "tt"


def test_extent_one_dimensions_take_any_stride():
    # A decode step: one row; PyTorch leaves its row stride whatever the slice had.
    assert gemm_problem((1, K), (7 * K, 1), (K, N), (N, 1), "f16") == GemmProblem(1, N, K, 1, "nn", "f16")


def test_what_is_not_a_dense_gemm_is_no_problem():
    assert gemm_problem((M, K), (2 * K, 1), (K, N), (N, 1), "f16") is None   # every other row
    assert gemm_problem((M, K), (K, 1), (K + 1, N), (N, 1), "f16") is None   # K mismatch
    assert gemm_problem((M, K), (K, 1), (K, N), (N, 1), None) is None        # dtype ktune has not
    assert gemm_problem((M, K), (K, 1), (2, K, N), (K * N, N, 1), "f16") is None  # ranks differ
    assert gemm_problem((0, K), (K, 1), (K, N), (N, 1), "f16") is None       # empty


def test_batched():
    a, b = (8, M, K), (8, K, N)
    assert gemm_problem(a, (M * K, K, 1), b, (K * N, N, 1), "f16") == GemmProblem(M, N, K, 8, "nn", "f16")
    # A broadcast batch (stride 0) is not a stack of matrices.
    assert gemm_problem(a, (0, K, 1), b, (K * N, N, 1), "f16") is None
    assert gemm_problem(a, (M * K, K, 1), (4, K, N), (K * N, N, 1), "f16") is None


def test_linear_flattens_leading_dimensions():
    x, w = (4, 8, K), (N, K)
    p = linear_problem(x, (8 * K, K, 1), w, (K, 1), "bf16", bias=True)
    assert p == GemmProblem(32, N, K, 1, "nt", "bf16", True)
    # Every other token: the rows are not evenly strided after flattening, PyTorch copies.
    assert linear_problem(x, (16 * K, 2 * K, 1), w, (K, 1), "bf16", bias=False) is None
    assert linear_problem((3, K + 1), (K + 1, 1), w, (K, 1), "bf16", bias=False) is None


def test_dtypes():
    assert matrix_dtype("torch.float16") == "f16"
    assert matrix_dtype("torch.bfloat16") == "bf16"
    assert matrix_dtype("torch.float32") == "f32"
    assert matrix_dtype("torch.float32", allow_tf32=True) == "tf32"
    assert matrix_dtype("torch.float64") is None
    assert matrix_dtype("torch.int8") is None


def test_tune_gemm_command_line():
    assert tune_gemm_args(GemmProblem(M, N, K, 1, "nt", "bf16")) == [
        "tune", "gemm", "--m", "1000", "--n", "4096", "--k", "512", "--dtype", "bf16", "--layout", "nt",
        "--progress", "none"]
    args = tune_gemm_args(GemmProblem(M, N, K, 8, "nn", "f16", True))
    assert args[-3:] == ["--batch", "8", "--bias"]
    assert GemmProblem(M, N, K, 8, "nn", "f16", True).key() == "gemm 1000x4096x512 f16 nn batch 8 +bias"


def _exported(**fields):
    """A problem as `ktune export --gemm-picks` writes it (GemmProblem::to_json)."""
    p = {"op": "gemm", "m": M, "n": N, "k": K, "batch": 1, "layout": "nt", "dtype": "bf16", "out_dtype": "bf16",
         "alpha": 1.0, "beta": 0.0, "bias": False, "activation": "none"}
    p.update(fields)
    return p


def test_picks_map_to_the_calls_problem():
    assert problem_from_pick(_exported()) == GemmProblem(M, N, K, 1, "nt", "bf16")
    assert problem_from_pick(_exported(batch=8, layout="nn", dtype="f16", out_dtype="f16", bias=True)) == \
        GemmProblem(M, N, K, 8, "nn", "f16", True)
    assert problem_from_pick(_exported(dtype="tf32", out_dtype="f32")) == GemmProblem(M, N, K, 1, "nt", "tf32")
    # The same problem from a call and from its pick: one dict key.
    call = gemm_problem((M, K), (K, 1), (K, N), (1, K), "bf16")
    assert call == problem_from_pick(_exported())


def test_picks_no_call_makes_are_left_out():
    assert problem_from_pick(_exported(activation="relu")) is None
    assert problem_from_pick(_exported(beta=1.0)) is None
    assert problem_from_pick(_exported(alpha=2.0)) is None
    assert problem_from_pick(_exported(out_dtype="f32")) is None
    assert problem_from_pick(_exported(dtype="fp8", out_dtype="bf16")) is None
    assert problem_from_pick(_exported(layout="xx")) is None
    assert problem_from_pick({"m": 1}) is None
    assert problem_from_pick(_exported(m="many")) is None
