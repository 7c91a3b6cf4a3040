#!/usr/bin/env python3
"""How close can a memory-bound GEMM get to the GPU's read bandwidth? For the suite's skinny
shapes (M <= 64, or N <= 64), in one process, on the suite's operands:

  cublas     torch.matmul (torch._scaled_mm for fp8 is left out: fp8 shapes are skipped)
  read       a Triton kernel that only reads the larger operand once (a sum per block): the floor
             any GEMM of this shape stands on
  gemv       a Triton GEMV for M = 1 (y = W x over K-contiguous rows of W, fp32 sums), autotuned
  ktune      with --ktune: `ktune tune gemm` on the shape (cold), then its generated best and
             its pick through libktune_gemm (KTUNE_GEMM_LIB)

each timed two ways, median of many samples with CUDA events:
  dirty      after zeroing a 256 MB buffer, as triton's do_bench flushes L2 (the flush leaves up to
             the L2's size of dirty lines, written back while the timed kernel reads)
  clean      after the same zeroing and then reading another 512 MB, untimed (L2 then holds clean
             lines only, as after a model's previous layer read its weights)

The difference between the two is the flush's writeback, which every memory-bound measurement
taken after a zeroing flush carries.

  decode_floor.py [--shapes NAME ...] [--samples N] [--ktune PATH] [--gemv-sweep] [--out FILE]
  (PYTHONPATH=python:bench)
"""
import argparse
import json
import statistics

import torch
import triton
import triton.language as tl

from gemm_suite40 import OUT_DTYPE, SUITE, operands, plan_call, torch_call, tune


@triton.jit
def _read_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    v = tl.load(x_ptr + offs, mask=offs < n, other=0.0).to(tl.float32)
    tl.store(out_ptr + pid, tl.sum(v, axis=0))


def read_all(x, out):
    flat = x.reshape(-1)
    block = 8192
    _read_kernel[(triton.cdiv(flat.numel(), block),)](flat, out, flat.numel(), BLOCK=block)


@triton.jit
def _gemv_plain(w_ptr, x_ptr, y_ptr, N, K, BN: tl.constexpr, BK: tl.constexpr):
    pid = tl.program_id(0)
    rows = pid * BN + tl.arange(0, BN)
    acc = tl.zeros((BN,), dtype=tl.float32)
    for k0 in range(0, K, BK):
        cols = k0 + tl.arange(0, BK)
        w = tl.load(w_ptr + rows[:, None] * K + cols[None, :], mask=(rows[:, None] < N) & (cols[None, :] < K), other=0.0)
        x = tl.load(x_ptr + cols, mask=cols < K, other=0.0)
        acc += tl.sum(w.to(tl.float32) * x.to(tl.float32)[None, :], axis=1)
    tl.store(y_ptr + rows, acc.to(y_ptr.dtype.element_ty), mask=rows < N)


_gemv_kernel = triton.autotune(
    configs=[triton.Config({"BN": bn, "BK": bk}, num_warps=w) for bn in (8, 16, 32) for bk in (256, 512) for w in (4, 8)],
    key=["N", "K"])(_gemv_plain)


# --gemv-sweep: every one of these timed on its own (rows per program, K chunk, warps, stages).
SWEEP = [(bn, bk, w, st) for bn in (4, 8, 16) for bk in (512, 1024) for w in (4, 8) for st in (2, 4)]


def gemv_sweep(w, x, y, samples, dirty_buf, clean_buf, sink):
    n, k = w.shape
    out = []
    for bn, bk, warps, stages in SWEEP:
        def fn(bn=bn, bk=bk, warps=warps, stages=stages):
            _gemv_plain[(triton.cdiv(n, bn),)](w, x, y, n, k, BN=bn, BK=bk, num_warps=warps, num_stages=stages)
        try:
            out.append({"BN": bn, "BK": bk, "warps": warps, "stages": stages,
                        "dirty_us": timed(fn, samples, False, dirty_buf, clean_buf, sink),
                        "clean_us": timed(fn, samples, True, dirty_buf, clean_buf, sink)})
        except Exception as e:  # noqa: BLE001 - a configuration that cannot compile is a result
            out.append({"BN": bn, "BK": bk, "warps": warps, "stages": stages, "error": repr(e)[:200]})
    return out


def gemv(w, x, y):
    n, k = w.shape
    _gemv_kernel[lambda meta: (triton.cdiv(n, meta["BN"]),)](w, x, y, n, k)


def timed(fn, samples, clean, dirty_buf, clean_buf, sink):
    """Median GPU time (us) of fn over `samples` runs, each after the flush described above."""
    start = [torch.cuda.Event(enable_timing=True) for _ in range(samples)]
    end = [torch.cuda.Event(enable_timing=True) for _ in range(samples)]
    for _ in range(3):
        fn()
    for i in range(samples):
        dirty_buf.zero_()
        if clean:
            read_all(clean_buf, sink)
        start[i].record()
        fn()
        end[i].record()
    torch.cuda.synchronize()
    return statistics.median(s.elapsed_time(e) * 1000 for s, e in zip(start, end))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shapes", nargs="*")
    ap.add_argument("--samples", type=int, default=100)
    ap.add_argument("--ktune")
    ap.add_argument("--gemv-sweep", action="store_true", help="time every SWEEP configuration of the GEMV too")
    ap.add_argument("--out")
    args = ap.parse_args()
    executor = None
    if args.ktune:
        from ktune import _gemm_lib
        executor = _gemm_lib.Executor(_gemm_lib.load(args.ktune), torch.cuda.current_device())
    shapes = [s for s in SUITE if (s[1] <= 64 or s[2] <= 64) and s[6] in ("f16", "bf16")]
    if args.shapes:
        shapes = [s for s in SUITE if s[0] in args.shapes]
    dirty_buf = torch.empty(256 << 20, dtype=torch.int8, device="cuda")
    clean_buf = torch.empty(512 << 20, dtype=torch.int8, device="cuda").view(torch.float16)
    clean_buf.normal_()
    sink = torch.empty(1 << 20, dtype=torch.float32, device="cuda")
    rows = []
    for name, m, n, k, batch, layout, dtype in shapes:
        a, b = operands(m, n, k, batch, layout, dtype, seed=3)
        big = b if b.numel() >= a.numel() else a
        big = big if big.is_contiguous() else big.transpose(1, 2)  # its storage, read in order
        assert big.is_contiguous()
        row = {"name": name, "m": m, "n": n, "k": k, "layout": layout, "dtype": dtype,
               "bytes": (a.numel() + b.numel()) * a.element_size() + m * n * batch * 2}
        fns = {"cublas": torch_call(a, b, dtype), "read": lambda: read_all(big, sink)}
        if m == 1 and batch == 1 and layout[1] == "t":
            w = b[0].transpose(0, 1)  # N x K, K-contiguous (the stored "t" operand)
            assert w.is_contiguous()
            x = a[0, 0].contiguous()
            y = torch.empty(n, dtype=a.dtype, device="cuda")
            fns["gemv"] = lambda: gemv(w, x, y)
            gemv(w, x, y)
            ref = (w.double() @ x.double())
            row["gemv_err"] = float((y.double() - ref).norm() / ref.norm())
            if args.gemv_sweep:
                row["gemv_sweep"] = gemv_sweep(w, x, y, args.samples, dirty_buf, clean_buf, sink)
                best = min((c for c in row["gemv_sweep"] if "dirty_us" in c), key=lambda c: c["dirty_us"])
                print(f"{name}: best swept GEMV {best}", flush=True)
        if executor is not None:
            kt = tune(args.ktune, name, m, n, k, batch, layout, dtype)
            row["ktune_report"] = {key: kt.get(key) for key in ("baseline_s", "generated_s", "pick_s", "generated_config",
                                                                 "pick_config", "pick_family", "wall_s")}
            d = torch.empty(batch, m, n, device="cuda", dtype=OUT_DTYPE[dtype])
            for which in ("generated", "pick"):
                if f"{which}_config" in kt:
                    fns[f"ktune_{which}"] = plan_call(executor, kt["problem"], kt[f"{which}_config"], a, b, d, name)
        for label, fn in fns.items():
            for clean in (False, True):
                row[f"{label}_{'clean' if clean else 'dirty'}_us"] = timed(fn, args.samples, clean, dirty_buf, clean_buf, sink)
        rows.append(row)
        gbs = lambda us: row["bytes"] / us / 1e3
        print(f"{name:28s} " + " ".join(f"{lab} {row[f'{lab}_dirty_us']:7.1f}/{row[f'{lab}_clean_us']:7.1f}"
                                        for lab in fns) +
              f"  (dirty/clean us; cublas {gbs(row['cublas_dirty_us']):5.0f}/{gbs(row['cublas_clean_us']):5.0f} GB/s)",
              flush=True)
        del a, b
    if args.out:
        json.dump(rows, open(args.out, "w"), indent=1)


if __name__ == "__main__":
    main()
