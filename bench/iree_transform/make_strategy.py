#!/usr/bin/env python3
"""Writes an IREE transform-dialect codegen strategy for one matmul dispatch (CUDA, mma.sync).

IREE 3.13's CUDA pipelines read the m16n8k16 B fragment from shared memory two bytes at a time
and never pipeline the K loop (docs/benchmarks.md, issue 10, sessions 12 and 27). Its transform
dialect still has the pieces of the older tensor-core path: operand promotion, vector_to_mma with
ldmatrix, multi-buffering, cp.async groups and software pipelining. This script writes a strategy
from those pieces and a configured executable whose translation_info names it, both for
`--iree-hal-substitute-executable-configuration` with `--iree-codegen-transform-dialect-library`.

  make_strategy.py CONFIGURED.mlir OUTDIR --tile 128x128x32 --warps 2x2 --depth 3

The experiment of session 28 (docs/benchmarks.md), kept to reproduce its numbers; ktune's own
family (src/ktune/iree/transform_strategy.cc) is the maintained form of the same strategy.
"""
import argparse
import pathlib
import re
import sys

SPEC = """module attributes {transform.with_named_sequence} {
  // Required by --iree-codegen-transform-dialect-library; configuration comes from the substituted
  // executable, so it does nothing.
  transform.named_sequence @__kernel_config(%root: !transform.any_op {transform.readonly}) {
    transform.yield
  }

  // Tensor-level tiling. A sequence of its own so that its handles die before bufferization
  // (IREE's tracking listener rejects stale handles to ops that vector_to_mma later replaces).
  transform.named_sequence @ktune_tile(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %fill = transform.structured.match ops{["linalg.fill"]} in %root : (!transform.any_op) -> !transform.any_op
    %tiled, %forall = transform.structured.tile_using_forall %mm tile_sizes [BM, BN] (mapping = [#gpu.block<y>, #gpu.block<x>]) : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.iree.populate_workgroup_count_region_using_num_threads_slice %forall : (!transform.any_op) -> ()
    %ff, %forall2 = transform.structured.fuse_into_containing_op %fill into %forall : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %tk, %loop = transform.structured.tile_using_for %tiled tile_sizes [0, 0, BK] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %promoted, %alloc_a, %alloc_b = transform.iree.promote_operands %tk [0, 1] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %tw, %fw = transform.structured.tile_using_forall %promoted num_threads [WM, WN] (mapping = [#gpu.warp<linear_dim_1>, #gpu.warp<linear_dim_0>]) : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %tf, %ffw = transform.structured.tile_using_forall %ff num_threads [WM, WN] (mapping = [#gpu.warp<linear_dim_1>, #gpu.warp<linear_dim_0>]) : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %func = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %func {
      transform.apply_patterns.linalg.fold_unit_extent_dims_via_slices
      transform.apply_patterns.vector.cast_away_vector_leading_one_dim
    } : !transform.any_op
    %func_v = transform.structured.vectorize_children_and_apply_patterns %func : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %func_v {
      transform.apply_patterns.canonicalization
      transform.apply_patterns.linalg.tiling_canonicalization
      transform.apply_patterns.scf.for_loop_canonicalization
    } : !transform.any_op
    transform.apply_cse to %func_v : !transform.any_op
    transform.yield
  }

  transform.named_sequence @ktune_mma_sync(%root: !transform.any_op {transform.consumed}) {
    transform.include @ktune_tile failures(propagate) (%root) : (!transform.any_op) -> ()
    transform.iree.eliminate_empty_tensors %root : (!transform.any_op) -> ()
    %root_b = transform.iree.bufferize <{target_gpu}> %root : (!transform.any_op) -> (!transform.any_op)
    %func_b = transform.structured.match ops{["func.func"]} in %root_b : (!transform.any_op) -> !transform.any_op
    transform.iree.gpu_distribute_shared_memory_copy %func_b : (!transform.any_op) -> ()
    transform.iree.forall_to_workgroup %func_b : (!transform.any_op) -> ()
    transform.iree.map_nested_forall_to_gpu_threads %func_b workgroup_dims = [THREADS, 1, 1] subgroup_size = 32 : (!transform.any_op) -> ()
    transform.iree.hoist_static_alloc %func_b : (!transform.any_op) -> ()
    // Pads each shared row by 16 bytes so that ldmatrix's eight rows fall in different banks.
    transform.iree.reduce_shared_memory_bank_conflicts %func_b <{padding_size_bits = 128 : i64}> : (!transform.any_op) -> ()
    transform.apply_patterns to %func_b {
      transform.apply_patterns.memref.fold_memref_alias_ops
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.apply_cse to %func_b : !transform.any_op
    // Bufferization leaves each tile's write-back as a copy of a buffer onto itself. As
    // linalg.copy they fold away, and then nothing else touches the accumulator in the K loop.
    %copies = transform.structured.match ops{["linalg.generic"]} in %func_b : (!transform.any_op) -> !transform.any_op
    %named = transform.structured.specialize %copies : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %func_b {
      transform.apply_patterns.vector.fold_arith_extension
      transform.apply_patterns.iree.prepare_vector_to_mma
      transform.apply_patterns.iree.unroll_vectors_gpu_mma_sync
    } : !transform.any_op
    transform.apply_patterns to %func_b {
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.apply_cse to %func_b : !transform.any_op
    // Unrolled first, so each 16x8 accumulator becomes a loop-carried value of its own.
    %func_h = transform.structured.hoist_redundant_vector_transfers %func_b : (!transform.any_op) -> !transform.any_op
    // Forwards the fill's zeros to the accumulators' first reads (no C round trip to memory).
    %func_o = transform.apply_registered_pass "iree-codegen-optimize-vector-transfer" to %func_h : (!transform.any_op) -> !transform.any_op
    transform.iree.vector.vector_to_mma_conversion %func_o <{use_mma_sync}> : (!transform.any_op) -> ()
    transform.apply_patterns to %func_o {
      transform.apply_patterns.memref.fold_memref_alias_ops
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    // DEPTH shared tiles per operand, filled with cp.async, the K loop software-pipelined.
    %allocs = transform.structured.match ops{["memref.alloc"]} in %func_o : (!transform.any_op) -> !transform.op<"memref.alloc">
    %mb = transform.memref.multibuffer %allocs <{factor = DEPTH : i64, skip_analysis}> : (!transform.op<"memref.alloc">) -> !transform.any_op
    transform.apply_patterns to %func_o {
      transform.apply_patterns.vector.transfer_to_scf max_transfer_rank = 1 full_unroll = true
    } : !transform.any_op
    transform.iree.create_async_groups %func_o <{use_mma_sync}> : (!transform.any_op) -> ()
    %for = transform.structured.match ops{["scf.for"]} in %func_o : (!transform.any_op) -> !transform.op<"scf.for">
    %pipelined = transform.iree.pipeline_shared_memory_copies %for <{depth = DEPTH : i64}> : (!transform.op<"scf.for">) -> !transform.any_op
    transform.apply_patterns to %func_o {
      transform.apply_patterns.vector.lower_masks
      transform.apply_patterns.vector.materialize_masks
      transform.apply_patterns.memref.fold_memref_alias_ops
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.apply_cse to %func_o : !transform.any_op
    transform.yield
  }
}
"""


def parse_pair(text, n, what):
    parts = text.lower().split("x")
    if len(parts) != n or not all(p.isdigit() and int(p) > 0 for p in parts):
        sys.exit(f"make_strategy.py: --{what} {text!r}: expected {n} positive integers joined by 'x'")
    return [int(p) for p in parts]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("configured", help="configured_*.mlir from --iree-hal-dump-executable-files-to")
    ap.add_argument("outdir")
    ap.add_argument("--tile", default="128x128x32", help="workgroup tile MxNxK")
    ap.add_argument("--warps", default="2x2", help="warp grid over the tile, rows x columns")
    ap.add_argument("--depth", type=int, default=3, help="shared-memory stages")
    a = ap.parse_args()
    bm, bn, bk = parse_pair(a.tile, 3, "tile")
    wm, wn = parse_pair(a.warps, 2, "warps")
    if bm % (wm * 16) or bn % (wn * 16) or bk % 16:
        sys.exit(f"make_strategy.py: tile {a.tile} with warps {a.warps}: each warp needs multiples of 16 in M and N, and K a multiple of 16")
    if a.depth < 1:
        sys.exit("make_strategy.py: --depth must be at least 1")
    threads = wm * wn * 32
    src = pathlib.Path(a.configured).read_text()
    pat = re.compile(r"translation_info = #iree_codegen\.translation_info<pipeline = .*?>\}>\}|translation_info = #iree_codegen\.translation_info<[^{}]*?>\}")
    m = pat.search(src)
    if not m:
        sys.exit(f"make_strategy.py: {a.configured}: no translation_info found")
    ti = (f"translation_info = #iree_codegen.translation_info<pipeline = #iree_codegen.transform_dialect_codegen "
          f"codegen_spec = @ktune_mma_sync workgroup_size = [{threads}, 1, 1] subgroup_size = 32>}}")
    src = src[: m.start()] + ti + src[m.end():]
    src = re.sub(r" attrs =  \{lowering_config = #iree_gpu\.lowering_config<\{.*?\}>\}", "", src)
    out = pathlib.Path(a.outdir)
    out.mkdir(parents=True, exist_ok=True)
    (out / "configured.mlir").write_text(src)
    spec = SPEC
    for k, v in {"BM": bm, "BN": bn, "BK": bk, "WM": wm, "WN": wn, "THREADS": threads, "DEPTH": a.depth}.items():
        spec = re.sub(rf"\b{k}\b", str(v), spec)
    (out / "spec.mlir").write_text(spec)


if __name__ == "__main__":
    main()
