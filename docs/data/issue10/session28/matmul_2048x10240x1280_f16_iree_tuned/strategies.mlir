// IREE transform-dialect codegen strategies written by ktune (src/ktune/iree/transform_strategy.cc).
// Use: iree-compile --iree-codegen-transform-dialect-library=THIS_FILE with a substituted
// configuration whose translation_info names one of the sequences below.
module attributes {transform.with_named_sequence} {
  // IREE looks this up in every library; configurations come from the substituted sources.
  transform.named_sequence @__kernel_config(%root: !transform.any_op {transform.readonly}) {
    transform.yield
  }

  // Tensor-level tiling, a sequence of its own so that its handles die before bufferization
  // (IREE's tracking listener rejects handles to ops that vector_to_mma later replaces).
  transform.named_sequence @ktune_td_128x128x64_w2x2_d3_tile(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %fill = transform.structured.match ops{["linalg.fill"]} in %root : (!transform.any_op) -> !transform.any_op
    %tiled, %forall = transform.structured.tile_using_forall %mm tile_sizes [128, 128] (mapping = [#gpu.block<y>, #gpu.block<x>]) : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.iree.populate_workgroup_count_region_using_num_threads_slice %forall : (!transform.any_op) -> ()
    %ff, %forall2 = transform.structured.fuse_into_containing_op %fill into %forall : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %tk, %loop = transform.structured.tile_using_for %tiled tile_sizes [0, 0, 64] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %promoted, %alloc_a, %alloc_b = transform.iree.promote_operands %tk [0, 1] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %tw, %fw = transform.structured.tile_using_forall %promoted num_threads [2, 2] (mapping = [#gpu.warp<linear_dim_1>, #gpu.warp<linear_dim_0>]) : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %tf, %ffw = transform.structured.tile_using_forall %ff num_threads [2, 2] (mapping = [#gpu.warp<linear_dim_1>, #gpu.warp<linear_dim_0>]) : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
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

  transform.named_sequence @ktune_td_128x128x64_w2x2_d3(%root: !transform.any_op {transform.consumed}) {
    transform.include @ktune_td_128x128x64_w2x2_d3_tile failures(propagate) (%root) : (!transform.any_op) -> ()
    transform.iree.eliminate_empty_tensors %root : (!transform.any_op) -> ()
    %root_b = transform.iree.bufferize <{target_gpu}> %root : (!transform.any_op) -> (!transform.any_op)
    %func_b = transform.structured.match ops{["func.func"]} in %root_b : (!transform.any_op) -> !transform.any_op
    // 16-byte vector copies of the A and B tiles, spread over every thread.
    transform.iree.gpu_distribute_shared_memory_copy %func_b : (!transform.any_op) -> ()
    transform.iree.forall_to_workgroup %func_b : (!transform.any_op) -> ()
    transform.iree.map_nested_forall_to_gpu_threads %func_b workgroup_dims = [128, 1, 1] subgroup_size = 32 : (!transform.any_op) -> ()
    transform.iree.hoist_static_alloc %func_b : (!transform.any_op) -> ()
    // Rows padded by 16 bytes: ldmatrix's eight rows then fall in different banks (without
    // it, 1.3x slower than IREE's default on the H200).
    transform.iree.reduce_shared_memory_bank_conflicts %func_b <{padding_size_bits = 128 : i64}> : (!transform.any_op) -> ()
    transform.apply_patterns to %func_b {
      transform.apply_patterns.memref.fold_memref_alias_ops
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.apply_cse to %func_b : !transform.any_op
    // Bufferization leaves each tile's write-back as a copy of a buffer onto itself. As
    // linalg.copy they fold away, and nothing else touches the accumulator in the K loop.
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
    // Unrolled first, so that each 16x8 accumulator becomes a loop-carried value of its own.
    %func_h = transform.structured.hoist_redundant_vector_transfers %func_b : (!transform.any_op) -> !transform.any_op
    // The fill's zeros forwarded to the accumulators' first reads (no C round trip).
    %func_o = transform.apply_registered_pass "iree-codegen-optimize-vector-transfer" to %func_h : (!transform.any_op) -> !transform.any_op
    // mma.sync m16n8k16, operands by ldmatrix (B with .trans).
    transform.iree.vector.vector_to_mma_conversion %func_o <{use_mma_sync}> : (!transform.any_op) -> ()
    transform.apply_patterns to %func_o {
      transform.apply_patterns.memref.fold_memref_alias_ops
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    // 3 shared tiles per operand filled by cp.async, the K loop software-pipelined.
    %allocs = transform.structured.match ops{["memref.alloc"]} in %func_o : (!transform.any_op) -> !transform.op<"memref.alloc">
    %mb = transform.memref.multibuffer %allocs <{factor = 3 : i64, skip_analysis}> : (!transform.op<"memref.alloc">) -> !transform.any_op
    transform.apply_patterns to %func_o {
      transform.apply_patterns.vector.transfer_to_scf max_transfer_rank = 1 full_unroll = true
    } : !transform.any_op
    transform.iree.create_async_groups %func_o <{use_mma_sync}> : (!transform.any_op) -> ()
    %for = transform.structured.match ops{["scf.for"]} in %func_o : (!transform.any_op) -> !transform.op<"scf.for">
    %pipelined = transform.iree.pipeline_shared_memory_copies %for <{depth = 3 : i64}> : (!transform.op<"scf.for">) -> !transform.any_op
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
