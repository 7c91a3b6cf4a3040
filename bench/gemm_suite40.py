#!/usr/bin/env python3
"""Issue 12's benchmark: ktune's GEMM (generated kernels and the pick) against cuBLASLt's default,
cuBLAS through PyTorch and Triton autotune on a broad suite of 44 shapes nobody tuned for.

The suite (SUITE below, fixed): LLM prefill and decode against the projection shapes of 7B, 13B
and 70B models (M from 1 to 16384), short K (64-256 with large M and N), long K (>= 16384 with
small M and N), ragged sizes (511, 1000, 4097, 3000, 777...), tall and wide, batched, f16 / bf16 /
fp8 / tf32 / strict fp32, all four layouts. Every third shape is a holdout (`holdout: true`):
reported apart, and never to be used to fit ktune's cost model.

Per shape, on the lent GPU, in one process:
  1. `ktune tune gemm` cold (fresh database and compile cache): wall time, and from its report
     cuBLASLt's default (candidate 0), the fastest generated kernel and the pick, each timed by
     ktune's own method (cold L2, CUDA events, median);
  2. the fastest generated kernel and the pick run again in this process through libktune_gemm
     (python/ktune/_gemm_lib.py), timed with triton's do_bench (L2 flushed, median) like the
     peers: cuBLAS through torch.matmul (torch._scaled_mm for fp8) and Triton autotune (12
     tutorial-style configurations; its first call's wall time is its tuning time; one Triton
     cache for the whole run, in suite order, or with --triton-cold a fresh cache and no
     compiled kernels per shape, then the autotune once more warm);
  3. each result against an fp64 reference (relative Frobenius error).
Ratios: generated / pick against cuBLASLt's default from ktune's report (one tool, one method),
and against torch and Triton from do_bench (one method).

usage: gemm_suite40.py --ktune PATH [--out FILE] [--part I/N] [--shapes NAME...] [--random N --seed S]
       (--shapes also takes random draws by name, e.g. rand8_01_prefill_411x14336x8192, of any seed)
       (PYTHONPATH=python and KTUNE_GEMM_LIB for libktune_gemm.so)
"""
import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time

import torch
import triton
import triton.language as tl
from triton.testing import do_bench

from ktune import _gemm_lib

# name, M, N, K, batch, layout (A then B: n row-major, t transposed), dtype
SUITE = [
    # LLM decode and prefill, x @ W.T (layout nt) against 7B / 13B / 70B projections
    ("l7b_qkv_decode_m1", 1, 12288, 4096, 1, "nt", "bf16"),
    ("l7b_o_decode_m16", 16, 4096, 4096, 1, "nt", "bf16"),
    ("l7b_up_decode_m64", 64, 11008, 4096, 1, "nt", "bf16"),
    ("l7b_down_prefill_m2048", 2048, 4096, 11008, 1, "nt", "bf16"),
    ("l7b_qkv_prefill_m4096", 4096, 12288, 4096, 1, "nt", "f16"),
    ("l7b_up_prefill_m16384", 16384, 11008, 4096, 1, "nt", "bf16"),
    ("l13b_up_m256", 256, 13824, 5120, 1, "nt", "f16"),
    ("l13b_down_m512", 512, 5120, 13824, 1, "nt", "f16"),
    ("l70b_o_decode_m1", 1, 8192, 8192, 1, "nt", "bf16"),
    ("l70b_up_decode_m32", 32, 28672, 8192, 1, "nt", "bf16"),
    ("l70b_down_decode_m128", 128, 8192, 28672, 1, "nt", "bf16"),
    ("l70b_qkv_prefill_m1024", 1024, 10240, 8192, 1, "nt", "bf16"),
    ("l70b_down_prefill_m8192", 8192, 8192, 28672, 1, "nt", "bf16"),
    # short K: bound by writing C
    ("shortk_8192x8192x64", 8192, 8192, 64, 1, "nn", "bf16"),
    ("shortk_16384x4096x128", 16384, 4096, 128, 1, "nn", "f16"),
    ("shortk_4096x16384x256", 4096, 16384, 256, 1, "nt", "bf16"),
    ("shortk_2048x2048x96", 2048, 2048, 96, 1, "nn", "f16"),
    # long K, small M and N
    ("longk_64x64x65536", 64, 64, 65536, 1, "nn", "bf16"),
    ("longk_128x256x32768", 128, 256, 32768, 1, "nn", "f16"),
    ("longk_256x128x16384", 256, 128, 16384, 1, "nt", "bf16"),
    ("longk_32x4096x16384", 32, 4096, 16384, 1, "nt", "bf16"),
    # ragged and odd sizes
    ("odd_511x1000x4097", 511, 1000, 4097, 1, "nn", "f16"),
    ("odd_1000x1000x1000", 1000, 1000, 1000, 1, "nn", "bf16"),
    ("odd_3000x3000x3000", 3000, 3000, 3000, 1, "nt", "f16"),
    ("odd_4097x511x1000", 4097, 511, 1000, 1, "tn", "bf16"),
    ("odd_1023x2047x513", 1023, 2047, 513, 1, "nn", "f16"),
    ("odd_777x3001x1999", 777, 3001, 1999, 1, "nt", "bf16"),
    # tall and wide
    ("tall_32768x64x4096", 32768, 64, 4096, 1, "nn", "bf16"),
    ("wide_64x32768x4096", 64, 32768, 4096, 1, "nt", "f16"),
    ("tall_65536x128x512", 65536, 128, 512, 1, "nn", "bf16"),
    # batched
    ("bmm_qk_b32_512x512x64", 512, 512, 64, 32, "nt", "f16"),
    ("bmm_pv_b32_512x64x512", 512, 64, 512, 32, "nn", "f16"),
    ("bmm_b8_1024x1024x1024", 1024, 1024, 1024, 8, "nn", "bf16"),
    ("bmm_b64_128x128x128", 128, 128, 128, 64, "nn", "f16"),
    # other types
    ("fp8_4096x4096x4096", 4096, 4096, 4096, 1, "nt", "fp8"),
    ("fp8_decode_16x8192x8192", 16, 8192, 8192, 1, "nt", "fp8"),
    ("tf32_4096x4096x4096", 4096, 4096, 4096, 1, "nn", "tf32"),
    ("tf32_1000x3000x2000", 1000, 3000, 2000, 1, "nt", "tf32"),
    ("f32_2048x2048x2048", 2048, 2048, 2048, 1, "nn", "f32"),
    ("f32_777x1001x513", 777, 1001, 513, 1, "nn", "f32"),
    # the other layouts, and two of the public shapes for reference
    ("tt_2048x2048x2048", 2048, 2048, 2048, 1, "tt", "f16"),
    ("tn_4096x1024x4096", 4096, 1024, 4096, 1, "tn", "bf16"),
    ("public_seed000_2048x10240x1280", 2048, 10240, 1280, 1, "nn", "f16"),
    ("public_decode_m16", 16, 4096, 4096, 1, "nn", "bf16"),
]
HOLDOUT = {s[0] for i, s in enumerate(SUITE) if i % 3 == 2}

# Hidden dimensions of common 1B-70B models (Llama, Mistral, Qwen, Gemma, Falcon, Phi): the
# N and K of random projection shapes.
MODEL_DIMS = (1536, 2048, 2560, 3072, 3584, 4096, 5120, 6144, 8192, 8960, 11008, 13824, 14336, 18944, 28672)


def _odd(rng, lo, hi):
    """A size in [lo, hi) that is not a multiple of 8 (ragged tails on every side)."""
    while True:
        x = rng.randrange(lo, hi)
        if x % 8:
            return x


def _log_uniform(rng, lo, hi):
    return int(round(math.exp(rng.uniform(math.log(lo), math.log(hi)))))


def random_shapes(count, seed):
    """`count` shapes drawn with a fixed seed from the suite's categories but not from its list:
    shapes no session of this project tuned for, for checking that the family generalises.
    Sizes keep every problem under ~0.6 TFLOP and ~2 GB of operands. fp8 stays "nt" with sizes
    that are multiples of 16 (torch._scaled_mm's rule for the peer)."""
    import random
    rng = random.Random(seed)
    kinds = ("decode", "prefill", "shortk", "longk", "odd", "batched", "tallwide", "fp8", "tf32", "f32")
    out = []
    for i in range(count):
        kind = kinds[rng.randrange(len(kinds))] if i >= len(kinds) else kinds[i]
        dtype, layout, batch = rng.choice(("bf16", "f16")), rng.choice(("nn", "nt", "tn", "tt")), 1
        if kind in ("decode", "prefill", "fp8"):
            m = _log_uniform(rng, 1, 128) if kind == "decode" else _log_uniform(rng, 256, 8192)
            n, k, layout = rng.choice(MODEL_DIMS), rng.choice(MODEL_DIMS), "nt"
            while m * n * k > 3e11:
                k //= 2
            if kind == "fp8":
                dtype, m = "fp8", max(16, m // 16 * 16)
        elif kind == "shortk":
            m, n, k = _log_uniform(rng, 1024, 16384), _log_uniform(rng, 1024, 16384), rng.choice((32, 48, 64, 80, 128, 160, 192, 256))
        elif kind == "longk":
            m, n, k = _log_uniform(rng, 16, 512), _log_uniform(rng, 16, 512), _log_uniform(rng, 8192, 65536)
        elif kind == "odd":
            m, n, k = _odd(rng, 100, 5000), _odd(rng, 100, 5000), _odd(rng, 100, 5000)
        elif kind == "batched":
            batch, m, n, k = rng.choice((2, 4, 12, 16, 40, 64)), _log_uniform(rng, 64, 2048), _log_uniform(rng, 64, 2048), _log_uniform(rng, 64, 1024)
        elif kind == "tallwide":
            m, n, k = _log_uniform(rng, 16384, 65536), _log_uniform(rng, 16, 256), _log_uniform(rng, 256, 4096)
            if rng.random() < 0.5:
                m, n = n, m
        else:  # tf32, f32
            dtype, m, n, k = kind, _log_uniform(rng, 256, 4096), _log_uniform(rng, 256, 4096), _log_uniform(rng, 256, 4096)
        name = f"rand{seed}_{i:02d}_{kind}_{m}x{n}x{k}" + (f"_b{batch}" if batch > 1 else "")
        out.append((name, m, n, k, batch, layout, dtype))
    return out

def named_random_shape(name):
    """The random shape a name like rand8_01_prefill_411x14336x8192 stands for (seed 8, draw 1),
    or None for other names; so that --shapes can list draws of several seeds for one process."""
    import re
    hit = re.match(r"rand(\d+)_(\d+)_", name)
    if not hit:
        return None
    seed, index = int(hit.group(1)), int(hit.group(2))
    shape = random_shapes(index + 1, seed)[index]
    if shape[0] != name:
        raise SystemExit(f"--shapes {name}: seed {seed}'s draw {index} is {shape[0]}")
    return shape

TORCH_DTYPE = {"f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32, "tf32": torch.float32,
               "fp8": torch.float8_e4m3fn}
OUT_DTYPE = {"f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32, "tf32": torch.float32,
             "fp8": torch.bfloat16}


# ---- Triton autotune (the peer) --------------------------------------------------------------

def _configs():
    c = triton.Config
    return [c({"BM": bm, "BN": bn, "BK": bk, "G": 8}, num_stages=s, num_warps=w) for bm, bn, bk, s, w in (
        (128, 256, 64, 3, 8), (64, 256, 32, 4, 4), (128, 128, 32, 4, 4), (128, 64, 32, 4, 4), (64, 128, 32, 4, 4),
        (128, 32, 32, 4, 4), (64, 32, 32, 5, 2), (32, 64, 32, 5, 2), (128, 256, 64, 4, 8), (256, 128, 64, 3, 8),
        (64, 64, 128, 3, 4), (16, 64, 256, 3, 4))]


@triton.autotune(configs=_configs(), key=["M", "N", "K", "sam", "sak", "sbk", "sbn", "PREC"])
@triton.jit
def _mm(a, b, c, M, N, K, sab, sam, sak, sbb, sbk, sbn, scb, scm, scn,
        BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, G: tl.constexpr, PREC: tl.constexpr):
    pid = tl.program_id(0)
    bat = tl.program_id(1)
    npm = tl.cdiv(M, BM)
    npn = tl.cdiv(N, BN)
    group = G * npn
    first = (pid // group) * G
    rows = min(npm - first, G)
    pm = first + ((pid % group) % rows)
    pn = (pid % group) // rows
    om = (pm * BM + tl.arange(0, BM)) % M
    on = (pn * BN + tl.arange(0, BN)) % N
    ok = tl.arange(0, BK)
    ap = a + bat * sab + om[:, None] * sam + ok[None, :] * sak
    bp = b + bat * sbb + ok[:, None] * sbk + on[None, :] * sbn
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        av = tl.load(ap, mask=ok[None, :] < K - k * BK, other=0.0)
        bv = tl.load(bp, mask=ok[:, None] < K - k * BK, other=0.0)
        acc = tl.dot(av, bv, acc, input_precision=PREC)
        ap += BK * sak
        bp += BK * sbk
    cm = pm * BM + tl.arange(0, BM)
    cn = pn * BN + tl.arange(0, BN)
    tl.store(c + bat * scb + cm[:, None] * scm + cn[None, :] * scn, acc.to(c.dtype.element_ty),
             mask=(cm[:, None] < M) & (cn[None, :] < N))


def triton_cold_start():
    """Triton as on a fresh machine: an empty cache directory and no compiled kernels or tuned
    configurations in this process (the issue's tuning-time target is per shape, cold)."""
    cache = tempfile.mkdtemp(prefix="triton-cold-")
    os.environ["TRITON_CACHE_DIR"] = cache
    knobs = getattr(triton, "knobs", None)
    if knobs is not None and hasattr(knobs, "cache"):
        knobs.cache.dir = cache
    _mm.cache.clear()
    caches = getattr(_mm.fn, "device_caches", None)
    if caches is None:
        raise RuntimeError("this Triton keeps no device_caches on its JITFunction: cannot start it cold")
    caches.clear()


def triton_mm(a, b, c, prec):
    bsz, m, k = a.shape
    n = b.shape[2]
    grid = lambda meta: (triton.cdiv(m, meta["BM"]) * triton.cdiv(n, meta["BN"]), bsz)  # noqa: E731
    _mm[grid](a, b, c, m, n, k, *a.stride(), *b.stride(), *c.stride(), PREC=prec)
    return c


# ---- operands ---------------------------------------------------------------------------------

def operands(m, n, k, batch, layout, dtype, seed):
    """A [batch, M, K] and B [batch, K, N] as views with the layout's storage, in the GEMM's type."""
    g = torch.Generator(device="cuda").manual_seed(seed)
    base = torch.float32 if dtype in ("f32", "tf32", "fp8") else TORCH_DTYPE[dtype]
    a = torch.randn(batch, m, k, device="cuda", dtype=base, generator=g) if layout[0] == "n" else \
        torch.randn(batch, k, m, device="cuda", dtype=base, generator=g).transpose(1, 2)
    b = torch.randn(batch, k, n, device="cuda", dtype=base, generator=g) if layout[1] == "n" else \
        torch.randn(batch, n, k, device="cuda", dtype=base, generator=g).transpose(1, 2)
    if dtype == "fp8":  # to e4m3 in the same storage order
        a = a.transpose(1, 2).contiguous().to(torch.float8_e4m3fn).transpose(1, 2) if layout[0] == "t" else \
            a.contiguous().to(torch.float8_e4m3fn)
        b = b.transpose(1, 2).contiguous().to(torch.float8_e4m3fn).transpose(1, 2) if layout[1] == "t" else \
            b.contiguous().to(torch.float8_e4m3fn)
    return a, b


def torch_call(a, b, dtype):
    """cuBLAS through PyTorch: matmul (bmm), or _scaled_mm for fp8 (one scale each)."""
    torch.backends.cuda.matmul.allow_tf32 = dtype == "tf32"
    if dtype == "fp8":
        one = torch.ones((), device="cuda")
        if a.shape[0] != 1:
            return None
        return lambda: torch._scaled_mm(a[0], b[0], scale_a=one, scale_b=one, out_dtype=torch.bfloat16)
    if a.shape[0] == 1:
        return lambda: torch.matmul(a[0], b[0])
    return lambda: torch.bmm(a, b)


def rel_err(out, ref):
    return float((out.double() - ref).norm() / ref.norm().clamp_min(1e-30))


# ---- ktune ------------------------------------------------------------------------------------

def tune(ktune, name, m, n, k, batch, layout, dtype, extra=()):
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [ktune, "--db", os.path.join(tmp, "k.db"), "--json", "tune", "gemm", "--m", str(m), "--n", str(n),
               "--k", str(k), "--dtype", dtype, "--layout", layout, "--batch", str(batch),
               "--families", "generated,cublaslt", "--progress", "none", *extra]
        # Cold: ktune's compile cache empty, and the CUDA driver's ComputeCache off. NVRTC's
        # compiles of a kernel it compiled before in any process come back 4-5x faster through
        # that cache (session 36: 45.6 NVRTC seconds, then 8.9, then 40.4 with it off), so a
        # --compare-ktune build, which compiles the same sources second, tuned faster by that alone.
        env = dict(os.environ, KTUNE_CACHE_DIR=os.path.join(tmp, "cache"), CUDA_CACHE_DISABLE="1")
        start = time.time()
        proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
        wall = time.time() - start
    if proc.returncode != 0:
        return {"error": f"exit {proc.returncode}: {proc.stderr[-1500:]}", "wall_s": wall}
    rep = json.loads(proc.stdout)
    out = {"wall_s": wall, "problem": rep.get("problem")}
    # Where the tuning time went (listing, evaluation, refinement, NVRTC, ...): for the
    # tuning-time target, read offline.
    # The finalists' confirmation too (samples and medians): its time varies from 0.04 to 3 s.
    for key in ("phases", "generated_compile", "wall_seconds", "refined", "cublaslt_tail", "confirmed"):
        if key in rep:
            out[key] = rep[key]
    if rep.get("baseline"):
        out["baseline_s"] = rep["baseline"]["median_s"]
        # Judged against (with finalists confirmed): the baseline's runs just before and after
        # them; its first run, on a GPU not yet warm from tuning, is kept beside.
        # Every run with its time and SM clock, and the throttled runs it replaced (session 27).
        out["baseline_runs"] = {k: rep["baseline"].get(k) for k in ("drift", "beside_finalists", "timeline")}
        if rep["baseline"].get("first"):
            out["baseline_runs"]["first_s"] = rep["baseline"]["first"]["median_s"]
    gen = (rep.get("family_best") or {}).get("generated")
    if gen:
        out["generated_s"], out["generated_config"] = gen["stats"]["median_s"], gen["config"]
        # The baseline's run nearest in time to the generated best's measurement (same GPU state).
        if gen.get("baseline_nearest"):
            out["generated_baseline_nearest_s"] = gen["baseline_nearest"]["median_s"]
    pick = rep.get("pick") or {}
    if pick.get("stats"):
        out["pick_s"], out["pick_config"], out["pick_family"] = pick["stats"]["median_s"], pick["config"], pick.get("family")
    out["statuses"] = {}
    out["generated_measured"] = []  # every generated kernel's config and median: data to fit the cost model offline
    for c in rep.get("candidates", []):
        key = c.get("family", "?") + ":" + c.get("status", "?")
        out["statuses"][key] = out["statuses"].get(key, 0) + 1
        if c.get("family") == "generated":
            out["generated_measured"].append({k: c.get(k) for k in ("config", "status", "median_s", "min_s", "raced",
                                                                     "samples", "source")})
    return out


def plan_call(executor, problem, config, a, b, d, name="suite"):
    """A no-argument function that runs a configuration through libktune_gemm, a @ b into d."""
    plan = executor.add_plan({"problem": problem, "config": config, "problem_name": name})
    run = executor.library.run
    # Looked up once: the tensors and the stream stay the same while do_bench calls this, and
    # torch's own lookups (a few us each call) would otherwise be timed as ktune's host cost
    # wherever the kernel is shorter than the call (2048x2048x96: 8.7 us by CUDA events, 10.1
    # in do_bench; H200, session 25).
    handle, pa, pb, pd = executor.handle, a.data_ptr(), b.data_ptr(), d.data_ptr()
    stream = torch.cuda.current_stream().cuda_stream

    def call():
        rc = run(handle, plan, pa, pb, None, pd, None, stream)
        if rc != 0:
            raise RuntimeError(f"ktune_gemm_run: {rc} {executor.library.last_error()}")
    return call


def run_in_process(executor, problem, config, a, b, out_dtype):
    """do_bench of a configuration through libktune_gemm on these tensors; (ms, output)."""
    bsz, m, _ = a.shape
    d = torch.empty(bsz, m, b.shape[2], device="cuda", dtype=out_dtype)
    call = plan_call(executor, problem, config, a, b, d)
    call()
    torch.cuda.synchronize()
    return do_bench(call, return_mode="median"), d


def measure(shape, args, executor):
    name, m, n, k, batch, layout, dtype = shape
    row = {"name": name, "m": m, "n": n, "k": k, "batch": batch, "layout": layout, "dtype": dtype,
           "holdout": name in HOLDOUT or name.startswith("rand"), "flops": 2.0 * m * n * k * batch}
    row["ktune"] = tune(args.ktune, *shape, extra=args.ktune_arg)
    a, b = operands(m, n, k, batch, layout, dtype, seed=len(name))
    ref = torch.matmul(a.double(), b.double())
    out_dtype = OUT_DTYPE[dtype]
    fn = torch_call(a, b, dtype)
    if fn is not None:
        row["torch_ms"] = do_bench(fn, return_mode="median")
        row["torch_err"] = rel_err(fn().reshape(ref.shape), ref)
    prec = {"tf32": "tf32", "f32": "ieee"}.get(dtype, "tf32")
    c = torch.empty(batch, m, n, device="cuda", dtype=out_dtype)
    try:
        if args.triton_cold:
            triton_cold_start()
        torch.cuda.synchronize()
        t0 = time.time()
        triton_mm(a, b, c, prec)
        torch.cuda.synchronize()
        row["triton_tune_s"] = time.time() - t0
        if args.triton_cold:
            # What the cold start compiled (files in its fresh cache), and the autotune again with
            # its kernels compiled: the warm time the suite-order runs measured.
            row["triton_cache_files"] = sum(len(f) for _, _, f in os.walk(os.environ["TRITON_CACHE_DIR"]))
            _mm.cache.clear()
            torch.cuda.synchronize()
            t0 = time.time()
            triton_mm(a, b, c, prec)
            torch.cuda.synchronize()
            row["triton_tune_warm_s"] = time.time() - t0
        row["triton_ms"] = do_bench(lambda: triton_mm(a, b, c, prec), return_mode="median")
        row["triton_err"] = rel_err(c, ref)
    except Exception as e:  # noqa: BLE001 - a peer that cannot run this shape is a result
        row["triton_error"] = repr(e)[:300]
    kt = row["ktune"]
    if args.compare_ktune:
        # A second build tuned on the same shape, its generated kernel timed here beside the
        # first's: an A/B of two builds against the same peers in one run.
        kb = row["compare"] = tune(args.compare_ktune, *shape, extra=args.ktune_arg)
        if kb.get("baseline_s") and kb.get("generated_s"):
            kb["generated_vs_cublaslt_default"] = kb["baseline_s"] / kb["generated_s"]
        if "generated_config" in kb:
            try:
                kb["generated_ms"] = run_in_process(executor, kb["problem"], kb["generated_config"], a, b, out_dtype)[0]
            except Exception as e:  # noqa: BLE001
                kb["generated_error"] = repr(e)[:300]
    for which in ("generated", "pick"):
        if f"{which}_config" in kt:
            try:
                ms, d = run_in_process(executor, kt["problem"], kt[f"{which}_config"], a, b, out_dtype)
                row[f"ktune_{which}_ms"], row[f"ktune_{which}_err"] = ms, rel_err(d, ref)
            except Exception as e:  # noqa: BLE001
                row[f"ktune_{which}_error"] = repr(e)[:300]
    if kt.get("baseline_s") and kt.get("generated_s"):
        row["generated_vs_cublaslt_default"] = kt["baseline_s"] / kt["generated_s"]
    if kt.get("generated_baseline_nearest_s") and kt.get("generated_s"):
        row["generated_vs_cublaslt_default_nearest"] = kt["generated_baseline_nearest_s"] / kt["generated_s"]
    if kt.get("baseline_s") and kt.get("pick_s"):
        row["pick_vs_cublaslt_default"] = kt["baseline_s"] / kt["pick_s"]
    for which in ("generated", "pick"):
        if f"ktune_{which}_ms" in row:
            if "triton_ms" in row:
                row[f"{which}_vs_triton"] = row["triton_ms"] / row[f"ktune_{which}_ms"]
            if "torch_ms" in row:
                row[f"{which}_vs_torch"] = row["torch_ms"] / row[f"ktune_{which}_ms"]
    if "triton_tune_s" in row and kt.get("wall_s"):
        row["tuning_s_vs_triton"] = kt["wall_s"] / row["triton_tune_s"]
    del a, b, ref, c
    torch.cuda.empty_cache()
    return row


def geomean(xs):
    xs = [x for x in xs if x and x > 0]
    return math.exp(statistics.mean(math.log(x) for x in xs)) if xs else None


def summary(rows):
    out = {}
    for part, sel in (("all", rows), ("holdout", [r for r in rows if r["holdout"]]),
                      ("tuned_on", [r for r in rows if not r["holdout"]])):
        g = [r.get("generated_vs_cublaslt_default") for r in sel]
        p = [r.get("pick_vs_cublaslt_default") for r in sel]
        out[part] = {"shapes": len(sel),
                     "generated_vs_default_geomean": geomean(g),
                     "generated_vs_default_nearest_geomean":
                         geomean([r.get("generated_vs_cublaslt_default_nearest") for r in sel]),
                     "generated_vs_default_min": min((x for x in g if x), default=None),
                     "pick_over_1.05": sum(1 for x in p if x and x > 1.05),
                     "generated_faster_than_triton": sum(1 for r in sel if r.get("generated_vs_triton", 0) > 1),
                     "triton_measured": sum(1 for r in sel if "triton_ms" in r),
                     "tuning_not_longer_than_triton": sum(1 for r in sel if r.get("tuning_s_vs_triton", 9) <= 1)}
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ktune", required=True)
    ap.add_argument("--out", default="gemm_suite40.json")
    ap.add_argument("--part", default="1/1", help="I/N: the I-th of N interleaved parts of the suite")
    ap.add_argument("--shapes", nargs="*")
    ap.add_argument("--random", type=int, default=0,
                    help="instead of the suite, this many shapes drawn with --seed (random_shapes): unseen shapes")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--triton-cold", action="store_true",
                    help="time Triton's autotune cold on every shape (fresh cache directory, no compiled "
                         "kernels in the process), then warm; default: one cache in suite order")
    ap.add_argument("--compare-ktune", help="a second ktune build to tune each shape with too (A/B in one run)")
    ap.add_argument("--ktune-arg", action="append", default=[],
                    help="an extra argument for every `ktune tune gemm` (repeat it), e.g. --ktune-arg=--generated-pingpong")
    args = ap.parse_args()
    i, n = map(int, args.part.split("/"))
    pool = random_shapes(args.random, args.seed) if args.random else SUITE
    if args.shapes and not args.random:  # random draws named in --shapes join the suite's pool
        known = {s[0] for s in pool}
        drawn = [named_random_shape(x) for x in args.shapes if x not in known]
        pool = pool + [s for s in drawn if s]
    unknown = sorted(set(args.shapes or []) - {s[0] for s in pool})
    if unknown:  # a misspelt name would otherwise run nothing and say nothing
        raise SystemExit(f"--shapes: no such shape {', '.join(unknown)} (the suite's names, or random draws by name)")
    shapes = [s for j, s in enumerate(pool) if j % n == i - 1 and (not args.shapes or s[0] in args.shapes)]
    executor = _gemm_lib.Executor(_gemm_lib.load(args.ktune), torch.cuda.current_device())
    res = {"device": torch.cuda.get_device_name(), "torch": torch.__version__, "triton": triton.__version__,
           "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "part": args.part,
           "ktune_args": args.ktune_arg, "triton_cold": args.triton_cold, "rows": []}
    for shape in shapes:
        row = measure(shape, args, executor)
        res["rows"].append(row)
        kt = row["ktune"]
        print(f"{row['name']:32s} gen/default {row.get('generated_vs_cublaslt_default', 0):5.2f} "
              f"pick/default {row.get('pick_vs_cublaslt_default', 0):5.2f} gen/triton {row.get('generated_vs_triton', 0):5.2f} "
              f"pick/torch {row.get('pick_vs_torch', 0):5.2f} tune {kt.get('wall_s', 0):5.1f}s triton "
              f"{row.get('triton_tune_s', 0):5.1f}s {kt.get('error', '')[:80]}{row.get('triton_error', '')[:60]}", flush=True)
        if "compare" in row:
            kb = row["compare"]
            print(f"{'(compare build)':32s} gen/default {kb.get('generated_vs_cublaslt_default', 0):5.2f} "
                  f"gen {kb.get('generated_ms', 0) * 1e3:8.1f} us against {row.get('ktune_generated_ms', 0) * 1e3:8.1f} us "
                  f"tune {kb.get('wall_s', 0):5.1f}s {kb.get('error', '')[:80]}", flush=True)
        with open(args.out, "w") as f:
            json.dump(res, f, indent=1)
    res["summary"] = summary(res["rows"])
    with open(args.out, "w") as f:
        json.dump(res, f, indent=1)
    print(json.dumps(res["summary"], indent=1))


if __name__ == "__main__":
    main()
