module {
  util.global private @__device_0 = #hal.device.target<"cuda", [#hal.executable.target<"cuda", "cuda-nvptx-fb", {iree_codegen.target_info = #iree_gpu.target<arch = "sm_80", features = "+ptx76", wgp = <compute = fp64|fp32|fp16|int64|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, dot = dp4xi8toi32, mma = [<NV_MMA_SYNC_F32_16x8x16_F16>, <NV_MMA_SYNC_F16_16x8x16_F16>, <NV_MMA_SYNC_F32_16x8x16_BF16>, <NV_WMMA_F32_16x16x16_F16>, <NV_WMMA_F16_16x16x16_F16>], subgroup_size_choices = [32], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 166912, max_workgroup_counts = [2147483647, 65535, 65535]>>}>]> : !hal.device
  hal.executable private @mlp_dispatch_0 {
    hal.executable.variant public @cuda_nvptx_fb target(<"cuda", "cuda-nvptx-fb", {iree_codegen.target_info = #iree_gpu.target<arch = "sm_80", features = "+ptx76", wgp = <compute = fp64|fp32|fp16|int64|int32|int16|int8, storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, dot = dp4xi8toi32, mma = [<NV_MMA_SYNC_F32_16x8x16_F16>, <NV_MMA_SYNC_F16_16x8x16_F16>, <NV_MMA_SYNC_F32_16x8x16_BF16>, <NV_WMMA_F32_16x16x16_F16>, <NV_WMMA_F16_16x16x16_F16>], subgroup_size_choices = [32], max_workgroup_sizes = [1024, 1024, 1024], max_thread_count_per_workgroup = 1024, max_workgroup_memory_bytes = 166912, max_workgroup_counts = [2147483647, 65535, 65535]>>}>) {
      hal.executable.export public @mlp_dispatch_0_matmul_512x4096x1024_f16xf16xf32 ordinal(0) layout(#hal.pipeline.layout<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) count(%arg0: !hal.device) -> (index, index, index) {
        %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
        hal.return %x, %y, %z : index, index, index
      }
      builtin.module {
        func.func @mlp_dispatch_0_matmul_512x4096x1024_f16xf16xf32() attributes {translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse> workgroup_size = [128, 1, 1] subgroup_size = 32, {gpu_pipeline_options = #iree_gpu.pipeline_options<prefetch_num_stages = 2, no_reduce_shared_memory_bank_conflicts = false, use_igemm_convolution = false>}>} {
          %cst = arith.constant 0.000000e+00 : f32
          %cst_0 = arith.constant 0.000000e+00 : f16
          %c0 = arith.constant 0 : index
          %0 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<512x1024xf16, #hal.descriptor_type<storage_buffer>>
          %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<1024x4096xf16, #hal.descriptor_type<storage_buffer>>
          %2 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(2) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<4096xf16, #hal.descriptor_type<storage_buffer>>
          %3 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(3) alignment(64) offset(%c0) flags(Indirect) : memref<512x4096xf16, #hal.descriptor_type<storage_buffer>>
          %4 = iree_codegen.load_from_buffer %0 : memref<512x1024xf16, #hal.descriptor_type<storage_buffer>> -> tensor<512x1024xf16>
          %5 = iree_codegen.load_from_buffer %1 : memref<1024x4096xf16, #hal.descriptor_type<storage_buffer>> -> tensor<1024x4096xf16>
          %6 = iree_codegen.load_from_buffer %2 : memref<4096xf16, #hal.descriptor_type<storage_buffer>> -> tensor<4096xf16>
          %7 = tensor.empty() : tensor<512x4096xf16>
          %8 = tensor.empty() : tensor<512x4096xf32>
          %9 = linalg.fill ins(%cst : f32) outs(%8 : tensor<512x4096xf32>) -> tensor<512x4096xf32>
          %10 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%4, %5 : tensor<512x1024xf16>, tensor<1024x4096xf16>) outs(%9 : tensor<512x4096xf32>) attrs =  {lowering_config = #iree_gpu.lowering_config<{convert_acc_gemm, mma_kind = #iree_gpu.mma_layout<NV_MMA_SYNC_F32_16x8x16_F16>, promote_operands = [0, 1], reduction = [0, 0, 8], subgroup = [2, 4, 0], workgroup = [64, 64, 0]}>} {
          ^bb0(%in: f16, %in_1: f16, %out: f32):
            %12 = arith.extf %in : f16 to f32
            %13 = arith.extf %in_1 : f16 to f32
            %14 = arith.mulf %12, %13 : f32
            %15 = arith.addf %out, %14 : f32
            linalg.yield %15 : f32
          } -> tensor<512x4096xf32>
          %11 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%10, %6 : tensor<512x4096xf32>, tensor<4096xf16>) outs(%7 : tensor<512x4096xf16>) {
          ^bb0(%in: f32, %in_1: f16, %out: f16):
            %12 = arith.extf %in_1 : f16 to f32
            %13 = arith.addf %in, %12 : f32
            %14 = arith.truncf %13 : f32 to f16
            %15 = arith.maximumf %14, %cst_0 : f16
            linalg.yield %15 : f16
          } -> tensor<512x4096xf16>
          iree_codegen.store_to_buffer %11, %3 : tensor<512x4096xf16> into memref<512x4096xf16, #hal.descriptor_type<storage_buffer>>
          return
        }
        iree_codegen.dispatch_config @mlp_dispatch_0_matmul_512x4096x1024_f16xf16xf32 {
        ^bb0(%arg0: !hal.device):
          %x, %y, %z = iree_tensor_ext.dispatch.workgroup_count_from_slice()
          iree_codegen.yield %x, %y, %z : index, index, index
        }
      }
    }
  }
  util.global private mutable @mlp_dispatch_0_cuda_nvptx_fb_mlp_dispatch_0_matmul_512x4096x1024_f16xf16xf32_buffer : !hal.buffer
  util.initializer {
    %device, %queue_affinity = hal.device.resolve on(#hal.device.affinity<@__device_0>) : !hal.device, i64
    %allocator = hal.device.allocator<%device : !hal.device> : !hal.allocator
    %memory_type = hal.memory_type<"DeviceVisible|DeviceLocal"> : i32
    %buffer_usage = hal.buffer_usage<"TransferSource|TransferTarget|Transfer|DispatchStorageRead|DispatchStorageWrite|DispatchStorage"> : i32
    %c13639680 = arith.constant 13639680 : index
    %buffer = hal.allocator.allocate<%allocator : !hal.allocator> affinity(%queue_affinity) type(%memory_type) usage(%buffer_usage) : !hal.buffer{%c13639680}
    util.global.store %buffer, @mlp_dispatch_0_cuda_nvptx_fb_mlp_dispatch_0_matmul_512x4096x1024_f16xf16xf32_buffer : !hal.buffer
    util.return
  }
  util.func public @mlp_dispatch_0_cuda_nvptx_fb_mlp_dispatch_0_matmul_512x4096x1024_f16xf16xf32(%arg0: i32) attributes {iree.abi.stub, iree.reflection = {iree.benchmark = "dispatch"}} {
    %0 = arith.index_cast %arg0 : i32 to index
    %device, %queue_affinity = hal.device.resolve on(#hal.device.affinity<@__device_0>) : !hal.device, i64
    %cmd = hal.command_buffer.create device(%device : !hal.device) mode("OneShot|AllowInlineExecution") categories(Dispatch) affinity(%queue_affinity) : !hal.command_buffer
    %mlp_dispatch_0_cuda_nvptx_fb_mlp_dispatch_0_matmul_512x4096x1024_f16xf16xf32_buffer = util.global.load @mlp_dispatch_0_cuda_nvptx_fb_mlp_dispatch_0_matmul_512x4096x1024_f16xf16xf32_buffer : !hal.buffer
    %c0 = arith.constant 0 : index
    %c1048576 = arith.constant 1048576 : index
    %c8388608 = arith.constant 8388608 : index
    %c9437184 = arith.constant 9437184 : index
    %c8192 = arith.constant 8192 : index
    %c9445376 = arith.constant 9445376 : index
    %c4194304 = arith.constant 4194304 : index
    %workgroup_x, %workgroup_y, %workgroup_z = hal.executable.calculate_workgroups device(%device : !hal.device) target(@mlp_dispatch_0::@cuda_nvptx_fb::@mlp_dispatch_0_matmul_512x4096x1024_f16xf16xf32) : index, index, index
    %exe = hal.executable.lookup device(%device : !hal.device) executable(@mlp_dispatch_0) : !hal.executable
    %function_id = hal.executable.lookup.function target(%exe : !hal.executable) function(@mlp_dispatch_0::@cuda_nvptx_fb::@mlp_dispatch_0_matmul_512x4096x1024_f16xf16xf32) : i64
    %c1 = arith.constant 1 : index
    scf.for %arg1 = %c0 to %0 step %c1 {
      hal.command_buffer.dispatch<%cmd : !hal.command_buffer> target(%exe : !hal.executable)[%function_id] workgroups([%workgroup_x, %workgroup_y, %workgroup_z]) bindings([
        (%mlp_dispatch_0_cuda_nvptx_fb_mlp_dispatch_0_matmul_512x4096x1024_f16xf16xf32_buffer : !hal.buffer)[%c0, %c1048576], 
        (%mlp_dispatch_0_cuda_nvptx_fb_mlp_dispatch_0_matmul_512x4096x1024_f16xf16xf32_buffer : !hal.buffer)[%c1048576, %c8388608], 
        (%mlp_dispatch_0_cuda_nvptx_fb_mlp_dispatch_0_matmul_512x4096x1024_f16xf16xf32_buffer : !hal.buffer)[%c9437184, %c8192], 
        (%mlp_dispatch_0_cuda_nvptx_fb_mlp_dispatch_0_matmul_512x4096x1024_f16xf16xf32_buffer : !hal.buffer)[%c9445376, %c4194304]
      ]) flags("None")
      hal.command_buffer.execution_barrier<%cmd : !hal.command_buffer> source("Dispatch|CommandRetire") target("CommandIssue|Dispatch") flags("None")
    }
    hal.command_buffer.finalize<%cmd : !hal.command_buffer>
    %1 = util.null : !hal.fence
    %fence = hal.fence.create device(%device : !hal.device) flags("None") : !hal.fence
    hal.device.queue.execute<%device : !hal.device> affinity(%queue_affinity) wait(%1) signal(%fence) commands(%cmd) flags("None")
    %c-1_i32 = arith.constant -1 : i32
    %status = hal.fence.await until([%fence]) timeout_millis(%c-1_i32) flags("None") : i32
    util.status.check_ok %status, "failed to wait on timepoint"
    util.return
  }
}
