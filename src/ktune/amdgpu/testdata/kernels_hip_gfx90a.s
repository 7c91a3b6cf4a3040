	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.amdhsa_code_object_version 5
	.protected	matmul_tiled            ; -- Begin function matmul_tiled
	.globl	matmul_tiled
	.p2align	8
	.type	matmul_tiled,@function
matmul_tiled:                           ; @matmul_tiled
; %bb.0:
	s_load_dwordx2 s[8:9], s[4:5], 0x10
	s_load_dword s10, s[4:5], 0x18
	v_and_b32_e32 v2, 15, v0
	v_lshrrev_b32_e32 v0, 4, v0
	v_lshl_or_b32 v1, s7, 4, v0
	s_lshl_b32 s6, s6, 4
	s_waitcnt lgkmcnt(0)
	s_cmp_lt_i32 s10, 1
	v_mul_lo_u32 v3, v1, s10
	s_cbranch_scc1 .LBB0_3
; %bb.1:
	s_load_dwordx4 s[0:3], s[4:5], 0x0
	v_lshlrev_b32_e32 v1, 2, v2
	v_lshlrev_b32_e32 v5, 6, v0
	v_or_b32_e32 v7, 0x400, v1
	v_mul_lo_u32 v0, s10, v0
	v_or_b32_e32 v6, v5, v1
	v_or_b32_e32 v8, v7, v5
	v_add3_u32 v0, v0, s6, v2
	s_lshl_b32 s4, s10, 4
	v_add_u32_e32 v9, v3, v2
	s_mov_b32 s5, 0
	v_mov_b32_e32 v4, 0
	s_waitcnt lgkmcnt(0)
	v_mov_b32_e32 v10, s1
	v_mov_b32_e32 v11, s3
.LBB0_2:                                ; =>This Inner Loop Header: Depth=1
	v_ashrrev_i32_e32 v1, 31, v0
	v_add_u32_e32 v12, s5, v9
	v_lshlrev_b64 v[14:15], 2, v[0:1]
	v_ashrrev_i32_e32 v13, 31, v12
	v_add_co_u32_e32 v14, vcc, s2, v14
	v_lshlrev_b64 v[12:13], 2, v[12:13]
	v_addc_co_u32_e32 v15, vcc, v11, v15, vcc
	v_add_co_u32_e32 v12, vcc, s0, v12
	v_addc_co_u32_e32 v13, vcc, v10, v13, vcc
	global_load_dword v1, v[14:15], off
	global_load_dword v16, v[12:13], off
	s_add_i32 s5, s5, 16
	v_add_u32_e32 v0, s4, v0
	s_cmp_ge_i32 s5, s10
	s_waitcnt vmcnt(1)
	ds_write_b32 v8, v1
	s_waitcnt vmcnt(0)
	ds_write_b32 v6, v16
	s_waitcnt lgkmcnt(0)
	s_barrier
	ds_read_b128 v[12:15], v5
	ds_read_b128 v[16:19], v5 offset:16
	ds_read_b128 v[20:23], v5 offset:32
	ds_read_b128 v[24:27], v5 offset:48
	ds_read2_b32 v[28:29], v7 offset1:16
	ds_read2_b32 v[30:31], v7 offset0:32 offset1:48
	ds_read2_b32 v[32:33], v7 offset0:64 offset1:80
	ds_read2_b32 v[34:35], v7 offset0:96 offset1:112
	ds_read2_b32 v[36:37], v7 offset0:128 offset1:144
	ds_read2_b32 v[38:39], v7 offset0:160 offset1:176
	ds_read2_b32 v[40:41], v7 offset0:192 offset1:208
	ds_read2_b32 v[42:43], v7 offset0:224 offset1:240
	s_waitcnt lgkmcnt(7)
	v_fmac_f32_e32 v4, v12, v28
	v_fmac_f32_e32 v4, v13, v29
	s_waitcnt lgkmcnt(6)
	v_fmac_f32_e32 v4, v14, v30
	s_waitcnt lgkmcnt(5)
	v_pk_mul_f32 v[16:17], v[16:17], v[32:33]
	v_fmac_f32_e32 v4, v15, v31
	v_add_f32_e32 v1, v4, v16
	s_waitcnt lgkmcnt(4)
	v_pk_mul_f32 v[18:19], v[18:19], v[34:35]
	v_add_f32_e32 v1, v1, v17
	v_add_f32_e32 v1, v1, v18
	s_waitcnt lgkmcnt(3)
	v_pk_mul_f32 v[20:21], v[20:21], v[36:37]
	v_add_f32_e32 v1, v1, v19
	v_add_f32_e32 v1, v1, v20
	s_waitcnt lgkmcnt(2)
	v_pk_mul_f32 v[22:23], v[22:23], v[38:39]
	v_add_f32_e32 v1, v1, v21
	v_add_f32_e32 v1, v1, v22
	s_waitcnt lgkmcnt(1)
	v_pk_mul_f32 v[24:25], v[24:25], v[40:41]
	v_add_f32_e32 v1, v1, v23
	v_add_f32_e32 v1, v1, v24
	s_waitcnt lgkmcnt(0)
	v_pk_mul_f32 v[26:27], v[26:27], v[42:43]
	v_add_f32_e32 v1, v1, v25
	v_add_f32_e32 v1, v1, v26
	v_add_f32_e32 v4, v1, v27
	s_barrier
	s_cbranch_scc0 .LBB0_2
	s_branch .LBB0_4
.LBB0_3:
	v_mov_b32_e32 v4, 0
.LBB0_4:
	v_or_b32_e32 v0, s6, v2
	v_add_u32_e32 v0, v3, v0
	v_ashrrev_i32_e32 v1, 31, v0
	v_lshlrev_b64 v[0:1], 2, v[0:1]
	v_mov_b32_e32 v2, s9
	v_add_co_u32_e32 v0, vcc, s8, v0
	v_addc_co_u32_e32 v1, vcc, v2, v1, vcc
	global_store_dword v[0:1], v4, off
	s_endpgm
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel matmul_tiled
		.amdhsa_group_segment_fixed_size 2048
		.amdhsa_private_segment_fixed_size 0
		.amdhsa_kernarg_size 28
		.amdhsa_user_sgpr_count 6
		.amdhsa_user_sgpr_private_segment_buffer 1
		.amdhsa_user_sgpr_dispatch_ptr 0
		.amdhsa_user_sgpr_queue_ptr 0
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_user_sgpr_dispatch_id 0
		.amdhsa_user_sgpr_flat_scratch_init 0
		.amdhsa_user_sgpr_kernarg_preload_length 0
		.amdhsa_user_sgpr_kernarg_preload_offset 0
		.amdhsa_user_sgpr_private_segment_size 0
		.amdhsa_uses_dynamic_stack 0
		.amdhsa_system_sgpr_private_segment_wavefront_offset 0
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_sgpr_workgroup_id_y 1
		.amdhsa_system_sgpr_workgroup_id_z 0
		.amdhsa_system_sgpr_workgroup_info 0
		.amdhsa_system_vgpr_workitem_id 0
		.amdhsa_next_free_vgpr 44
		.amdhsa_next_free_sgpr 11
		.amdhsa_accum_offset 44
		.amdhsa_reserve_vcc 1
		.amdhsa_reserve_flat_scratch 0
		.amdhsa_reserve_xnack_mask 1
		.amdhsa_float_round_mode_32 0
		.amdhsa_float_round_mode_16_64 0
		.amdhsa_float_denorm_mode_32 3
		.amdhsa_float_denorm_mode_16_64 3
		.amdhsa_dx10_clamp 1
		.amdhsa_ieee_mode 1
		.amdhsa_fp16_overflow 0
		.amdhsa_tg_split 0
		.amdhsa_exception_fp_ieee_invalid_op 0
		.amdhsa_exception_fp_denorm_src 0
		.amdhsa_exception_fp_ieee_div_zero 0
		.amdhsa_exception_fp_ieee_overflow 0
		.amdhsa_exception_fp_ieee_underflow 0
		.amdhsa_exception_fp_ieee_inexact 0
		.amdhsa_exception_int_div_zero 0
	.end_amdhsa_kernel
	.text
.Lfunc_end0:
	.size	matmul_tiled, .Lfunc_end0-matmul_tiled
                                        ; -- End function
	.section	.AMDGPU.csdata,"",@progbits
; Kernel info:
; codeLenInByte = 536
; NumSgprs: 15
; NumVgprs: 44
; NumAgprs: 0
; TotalNumVgprs: 44
; ScratchSize: 0
; MemoryBound: 0
; FloatMode: 240
; IeeeMode: 1
; LDSByteSize: 2048 bytes/workgroup (compile time only)
; SGPRBlocks: 1
; VGPRBlocks: 5
; NumSGPRsForWavesPerEU: 15
; NumVGPRsForWavesPerEU: 44
; AccumOffset: 44
; Occupancy: 8
; WaveLimiterHint : 0
; COMPUTE_PGM_RSRC2:SCRATCH_EN: 0
; COMPUTE_PGM_RSRC2:USER_SGPR: 6
; COMPUTE_PGM_RSRC2:TRAP_HANDLER: 0
; COMPUTE_PGM_RSRC2:TGID_X_EN: 1
; COMPUTE_PGM_RSRC2:TGID_Y_EN: 1
; COMPUTE_PGM_RSRC2:TGID_Z_EN: 0
; COMPUTE_PGM_RSRC2:TIDIG_COMP_CNT: 0
; COMPUTE_PGM_RSRC3_GFX90A:ACCUM_OFFSET: 10
; COMPUTE_PGM_RSRC3_GFX90A:TG_SPLIT: 0
	.text
	.protected	mfma16                  ; -- Begin function mfma16
	.globl	mfma16
	.p2align	8
	.type	mfma16,@function
mfma16:                                 ; @mfma16
; %bb.0:
	s_load_dwordx2 s[2:3], s[4:5], 0x10
	s_load_dword s0, s[4:5], 0x18
	v_lshlrev_b32_e32 v1, 4, v0
	s_waitcnt lgkmcnt(0)
	global_load_dwordx4 a[0:3], v1, s[2:3]
	v_mov_b32_e32 v3, s3
	v_add_co_u32_e32 v2, vcc, s2, v1
	s_cmp_lt_i32 s0, 1
	v_addc_co_u32_e32 v3, vcc, 0, v3, vcc
	s_cbranch_scc1 .LBB1_3
; %bb.1:
	s_load_dwordx4 s[4:7], s[4:5], 0x0
	v_lshlrev_b32_e32 v4, 3, v0
	s_waitcnt lgkmcnt(0)
	v_mov_b32_e32 v1, s5
	v_add_co_u32_e32 v0, vcc, s4, v4
	v_addc_co_u32_e32 v1, vcc, 0, v1, vcc
	v_mov_b32_e32 v5, s7
	v_add_co_u32_e32 v4, vcc, s6, v4
	v_addc_co_u32_e32 v5, vcc, 0, v5, vcc
.LBB1_2:                                ; =>This Inner Loop Header: Depth=1
	global_load_dwordx2 v[6:7], v[0:1], off
	global_load_dwordx2 v[8:9], v[4:5], off
	v_add_co_u32_e32 v0, vcc, 0x200, v0
	v_addc_co_u32_e32 v1, vcc, 0, v1, vcc
	s_add_i32 s0, s0, -1
	v_add_co_u32_e32 v4, vcc, 0x200, v4
	s_cmp_eq_u32 s0, 0
	v_addc_co_u32_e32 v5, vcc, 0, v5, vcc
	s_waitcnt vmcnt(0)
	v_mfma_f32_16x16x16f16 a[0:3], v[6:7], v[8:9], a[0:3]
	s_cbranch_scc0 .LBB1_2
.LBB1_3:
	s_waitcnt vmcnt(0)
	s_nop 7
	s_nop 0
	global_store_dwordx4 v[2:3], a[0:3], off
	s_endpgm
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel mfma16
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_private_segment_fixed_size 0
		.amdhsa_kernarg_size 28
		.amdhsa_user_sgpr_count 6
		.amdhsa_user_sgpr_private_segment_buffer 1
		.amdhsa_user_sgpr_dispatch_ptr 0
		.amdhsa_user_sgpr_queue_ptr 0
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_user_sgpr_dispatch_id 0
		.amdhsa_user_sgpr_flat_scratch_init 0
		.amdhsa_user_sgpr_kernarg_preload_length 0
		.amdhsa_user_sgpr_kernarg_preload_offset 0
		.amdhsa_user_sgpr_private_segment_size 0
		.amdhsa_uses_dynamic_stack 0
		.amdhsa_system_sgpr_private_segment_wavefront_offset 0
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_sgpr_workgroup_id_y 0
		.amdhsa_system_sgpr_workgroup_id_z 0
		.amdhsa_system_sgpr_workgroup_info 0
		.amdhsa_system_vgpr_workitem_id 0
		.amdhsa_next_free_vgpr 16
		.amdhsa_next_free_sgpr 8
		.amdhsa_accum_offset 12
		.amdhsa_reserve_vcc 1
		.amdhsa_reserve_flat_scratch 0
		.amdhsa_reserve_xnack_mask 1
		.amdhsa_float_round_mode_32 0
		.amdhsa_float_round_mode_16_64 0
		.amdhsa_float_denorm_mode_32 3
		.amdhsa_float_denorm_mode_16_64 3
		.amdhsa_dx10_clamp 1
		.amdhsa_ieee_mode 1
		.amdhsa_fp16_overflow 0
		.amdhsa_tg_split 0
		.amdhsa_exception_fp_ieee_invalid_op 0
		.amdhsa_exception_fp_denorm_src 0
		.amdhsa_exception_fp_ieee_div_zero 0
		.amdhsa_exception_fp_ieee_overflow 0
		.amdhsa_exception_fp_ieee_underflow 0
		.amdhsa_exception_fp_ieee_inexact 0
		.amdhsa_exception_int_div_zero 0
	.end_amdhsa_kernel
	.text
.Lfunc_end1:
	.size	mfma16, .Lfunc_end1-mfma16
                                        ; -- End function
	.section	.AMDGPU.csdata,"",@progbits
; Kernel info:
; codeLenInByte = 180
; NumSgprs: 12
; NumVgprs: 10
; NumAgprs: 4
; TotalNumVgprs: 16
; ScratchSize: 0
; MemoryBound: 0
; FloatMode: 240
; IeeeMode: 1
; LDSByteSize: 0 bytes/workgroup (compile time only)
; SGPRBlocks: 1
; VGPRBlocks: 1
; NumSGPRsForWavesPerEU: 12
; NumVGPRsForWavesPerEU: 16
; AccumOffset: 12
; Occupancy: 8
; WaveLimiterHint : 0
; COMPUTE_PGM_RSRC2:SCRATCH_EN: 0
; COMPUTE_PGM_RSRC2:USER_SGPR: 6
; COMPUTE_PGM_RSRC2:TRAP_HANDLER: 0
; COMPUTE_PGM_RSRC2:TGID_X_EN: 1
; COMPUTE_PGM_RSRC2:TGID_Y_EN: 0
; COMPUTE_PGM_RSRC2:TGID_Z_EN: 0
; COMPUTE_PGM_RSRC2:TIDIG_COMP_CNT: 0
; COMPUTE_PGM_RSRC3_GFX90A:ACCUM_OFFSET: 2
; COMPUTE_PGM_RSRC3_GFX90A:TG_SPLIT: 0
	.text
	.protected	mfma32_agpr             ; -- Begin function mfma32_agpr
	.globl	mfma32_agpr
	.p2align	8
	.type	mfma32_agpr,@function
mfma32_agpr:                            ; @mfma32_agpr
; %bb.0:
	s_load_dword s8, s[4:5], 0x18
	s_load_dwordx2 s[6:7], s[4:5], 0x10
	s_waitcnt lgkmcnt(0)
	s_cmp_lt_i32 s8, 1
	s_cbranch_scc1 .LBB2_3
; %bb.1:
	s_load_dwordx4 s[0:3], s[4:5], 0x0
	v_mov_b32_e32 v3, 0
	v_accvgpr_write_b32 a15, 0
	v_accvgpr_write_b32 a14, 0
	v_accvgpr_write_b32 a13, 0
	v_accvgpr_write_b32 a12, 0
	v_accvgpr_write_b32 a11, 0
	v_accvgpr_write_b32 a10, 0
	v_accvgpr_write_b32 a9, 0
	v_accvgpr_write_b32 a8, 0
	v_accvgpr_write_b32 a7, 0
	v_accvgpr_write_b32 a6, 0
	v_accvgpr_write_b32 a5, 0
	v_accvgpr_write_b32 a4, 0
	v_accvgpr_write_b32 a3, 0
	v_accvgpr_write_b32 a2, 0
	v_accvgpr_write_b32 a1, 0
	v_accvgpr_write_b32 a0, 0
	v_accvgpr_write_b32 a31, 0
	v_accvgpr_write_b32 a30, 0
	v_accvgpr_write_b32 a29, 0
	v_accvgpr_write_b32 a28, 0
	v_accvgpr_write_b32 a27, 0
	v_accvgpr_write_b32 a26, 0
	v_accvgpr_write_b32 a25, 0
	v_accvgpr_write_b32 a24, 0
	v_accvgpr_write_b32 a23, 0
	v_accvgpr_write_b32 a22, 0
	v_accvgpr_write_b32 a21, 0
	v_accvgpr_write_b32 a20, 0
	v_accvgpr_write_b32 a19, 0
	v_accvgpr_write_b32 a18, 0
	v_accvgpr_write_b32 a17, 0
	v_accvgpr_write_b32 a16, 0
	v_accvgpr_write_b32 a47, 0
	v_accvgpr_write_b32 a46, 0
	v_accvgpr_write_b32 a45, 0
	v_accvgpr_write_b32 a44, 0
	v_accvgpr_write_b32 a43, 0
	v_accvgpr_write_b32 a42, 0
	v_accvgpr_write_b32 a41, 0
	v_accvgpr_write_b32 a40, 0
	v_accvgpr_write_b32 a39, 0
	v_accvgpr_write_b32 a38, 0
	v_accvgpr_write_b32 a37, 0
	v_accvgpr_write_b32 a36, 0
	v_accvgpr_write_b32 a35, 0
	v_accvgpr_write_b32 a34, 0
	v_accvgpr_write_b32 a33, 0
	v_accvgpr_write_b32 a32, 0
	v_accvgpr_write_b32 a63, 0
	v_accvgpr_write_b32 a62, 0
	v_accvgpr_write_b32 a61, 0
	v_accvgpr_write_b32 a60, 0
	v_accvgpr_write_b32 a59, 0
	v_accvgpr_write_b32 a58, 0
	v_accvgpr_write_b32 a57, 0
	v_accvgpr_write_b32 a56, 0
	v_accvgpr_write_b32 a55, 0
	v_accvgpr_write_b32 a54, 0
	v_accvgpr_write_b32 a53, 0
	v_accvgpr_write_b32 a52, 0
	v_accvgpr_write_b32 a51, 0
	v_accvgpr_write_b32 a50, 0
	v_accvgpr_write_b32 a49, 0
	v_accvgpr_write_b32 a48, 0
	v_accvgpr_write_b32 a79, 0
	v_accvgpr_write_b32 a78, 0
	v_accvgpr_write_b32 a77, 0
	v_accvgpr_write_b32 a76, 0
	v_accvgpr_write_b32 a75, 0
	v_accvgpr_write_b32 a74, 0
	v_accvgpr_write_b32 a73, 0
	v_accvgpr_write_b32 a72, 0
	v_accvgpr_write_b32 a71, 0
	v_accvgpr_write_b32 a70, 0
	v_accvgpr_write_b32 a69, 0
	v_accvgpr_write_b32 a68, 0
	v_accvgpr_write_b32 a67, 0
	v_accvgpr_write_b32 a66, 0
	v_accvgpr_write_b32 a65, 0
	v_accvgpr_write_b32 a64, 0
	v_accvgpr_write_b32 a95, 0
	v_accvgpr_write_b32 a94, 0
	v_accvgpr_write_b32 a93, 0
	v_accvgpr_write_b32 a92, 0
	v_accvgpr_write_b32 a91, 0
	v_accvgpr_write_b32 a90, 0
	v_accvgpr_write_b32 a89, 0
	v_accvgpr_write_b32 a88, 0
	v_accvgpr_write_b32 a87, 0
	v_accvgpr_write_b32 a86, 0
	v_accvgpr_write_b32 a85, 0
	v_accvgpr_write_b32 a84, 0
	v_accvgpr_write_b32 a83, 0
	v_accvgpr_write_b32 a82, 0
	v_accvgpr_write_b32 a81, 0
	v_accvgpr_write_b32 a80, 0
	v_accvgpr_write_b32 a111, 0
	v_accvgpr_write_b32 a110, 0
	v_accvgpr_write_b32 a109, 0
	v_accvgpr_write_b32 a108, 0
	v_accvgpr_write_b32 a107, 0
	v_accvgpr_write_b32 a106, 0
	v_accvgpr_write_b32 a105, 0
	v_accvgpr_write_b32 a104, 0
	v_accvgpr_write_b32 a103, 0
	v_accvgpr_write_b32 a102, 0
	v_accvgpr_write_b32 a101, 0
	v_accvgpr_write_b32 a100, 0
	v_accvgpr_write_b32 a99, 0
	v_accvgpr_write_b32 a98, 0
	v_accvgpr_write_b32 a97, 0
	v_accvgpr_write_b32 a96, 0
	v_accvgpr_write_b32 a127, 0
	v_accvgpr_write_b32 a126, 0
	v_accvgpr_write_b32 a125, 0
	v_accvgpr_write_b32 a124, 0
	v_accvgpr_write_b32 a123, 0
	v_accvgpr_write_b32 a122, 0
	v_accvgpr_write_b32 a121, 0
	v_accvgpr_write_b32 a120, 0
	v_accvgpr_write_b32 a119, 0
	v_accvgpr_write_b32 a118, 0
	v_accvgpr_write_b32 a117, 0
	v_accvgpr_write_b32 a116, 0
	v_accvgpr_write_b32 a115, 0
	v_accvgpr_write_b32 a114, 0
	v_accvgpr_write_b32 a113, 0
	v_accvgpr_write_b32 a112, 0
	s_waitcnt lgkmcnt(0)
	v_mov_b32_e32 v1, s1
	v_mov_b32_e32 v4, s3
	v_mov_b32_e32 v2, v0
.LBB2_2:                                ; =>This Inner Loop Header: Depth=1
	v_lshlrev_b64 v[6:7], 3, v[2:3]
	v_add_co_u32_e32 v8, vcc, s0, v6
	v_addc_co_u32_e32 v9, vcc, v1, v7, vcc
	v_add_co_u32_e32 v6, vcc, s2, v6
	v_addc_co_u32_e32 v7, vcc, v4, v7, vcc
	global_load_dwordx2 v[8:9], v[8:9], off
	s_nop 0
	global_load_dwordx2 v[6:7], v[6:7], off
	s_add_i32 s8, s8, -1
	s_cmp_eq_u32 s8, 0
	v_add_u32_e32 v2, 64, v2
	s_waitcnt vmcnt(1)
	v_mfma_f32_32x32x8f16 a[0:15], v[8:9], v[8:9], a[0:15]
	s_waitcnt vmcnt(0)
	v_mfma_f32_32x32x8f16 a[112:127], v[8:9], v[6:7], a[112:127]
	v_mfma_f32_32x32x8f16 a[96:111], v[6:7], v[8:9], a[96:111]
	v_mfma_f32_32x32x8f16 a[16:31], v[6:7], v[6:7], a[16:31]
	v_mfma_f32_32x32x8f16 a[32:47], v[8:9], v[6:7], a[32:47] cbsz:1
	v_mfma_f32_32x32x8f16 a[48:63], v[6:7], v[8:9], a[48:63] cbsz:1
	v_mfma_f32_32x32x8f16 a[64:79], v[8:9], v[8:9], a[64:79] cbsz:1
	v_mfma_f32_32x32x8f16 a[80:95], v[6:7], v[6:7], a[80:95] cbsz:1
	s_cbranch_scc0 .LBB2_2
	s_branch .LBB2_4
.LBB2_3:
	v_accvgpr_write_b32 a0, 0
	v_accvgpr_write_b32 a1, 0
	v_accvgpr_write_b32 a2, 0
	v_accvgpr_write_b32 a3, 0
	v_accvgpr_write_b32 a4, 0
	v_accvgpr_write_b32 a5, 0
	v_accvgpr_write_b32 a6, 0
	v_accvgpr_write_b32 a7, 0
	v_accvgpr_write_b32 a8, 0
	v_accvgpr_write_b32 a9, 0
	v_accvgpr_write_b32 a10, 0
	v_accvgpr_write_b32 a11, 0
	v_accvgpr_write_b32 a12, 0
	v_accvgpr_write_b32 a13, 0
	v_accvgpr_write_b32 a14, 0
	v_accvgpr_write_b32 a15, 0
	v_accvgpr_write_b32 a16, 0
	v_accvgpr_write_b32 a17, 0
	v_accvgpr_write_b32 a18, 0
	v_accvgpr_write_b32 a19, 0
	v_accvgpr_write_b32 a20, 0
	v_accvgpr_write_b32 a21, 0
	v_accvgpr_write_b32 a22, 0
	v_accvgpr_write_b32 a23, 0
	v_accvgpr_write_b32 a24, 0
	v_accvgpr_write_b32 a25, 0
	v_accvgpr_write_b32 a26, 0
	v_accvgpr_write_b32 a27, 0
	v_accvgpr_write_b32 a28, 0
	v_accvgpr_write_b32 a29, 0
	v_accvgpr_write_b32 a30, 0
	v_accvgpr_write_b32 a31, 0
	v_accvgpr_write_b32 a32, 0
	v_accvgpr_write_b32 a33, 0
	v_accvgpr_write_b32 a34, 0
	v_accvgpr_write_b32 a35, 0
	v_accvgpr_write_b32 a36, 0
	v_accvgpr_write_b32 a37, 0
	v_accvgpr_write_b32 a38, 0
	v_accvgpr_write_b32 a39, 0
	v_accvgpr_write_b32 a40, 0
	v_accvgpr_write_b32 a41, 0
	v_accvgpr_write_b32 a42, 0
	v_accvgpr_write_b32 a43, 0
	v_accvgpr_write_b32 a44, 0
	v_accvgpr_write_b32 a45, 0
	v_accvgpr_write_b32 a46, 0
	v_accvgpr_write_b32 a47, 0
	v_accvgpr_write_b32 a48, 0
	v_accvgpr_write_b32 a49, 0
	v_accvgpr_write_b32 a50, 0
	v_accvgpr_write_b32 a51, 0
	v_accvgpr_write_b32 a52, 0
	v_accvgpr_write_b32 a53, 0
	v_accvgpr_write_b32 a54, 0
	v_accvgpr_write_b32 a55, 0
	v_accvgpr_write_b32 a56, 0
	v_accvgpr_write_b32 a57, 0
	v_accvgpr_write_b32 a58, 0
	v_accvgpr_write_b32 a59, 0
	v_accvgpr_write_b32 a60, 0
	v_accvgpr_write_b32 a61, 0
	v_accvgpr_write_b32 a62, 0
	v_accvgpr_write_b32 a63, 0
	v_accvgpr_write_b32 a64, 0
	v_accvgpr_write_b32 a65, 0
	v_accvgpr_write_b32 a66, 0
	v_accvgpr_write_b32 a67, 0
	v_accvgpr_write_b32 a68, 0
	v_accvgpr_write_b32 a69, 0
	v_accvgpr_write_b32 a70, 0
	v_accvgpr_write_b32 a71, 0
	v_accvgpr_write_b32 a72, 0
	v_accvgpr_write_b32 a73, 0
	v_accvgpr_write_b32 a74, 0
	v_accvgpr_write_b32 a75, 0
	v_accvgpr_write_b32 a76, 0
	v_accvgpr_write_b32 a77, 0
	v_accvgpr_write_b32 a78, 0
	v_accvgpr_write_b32 a79, 0
	v_accvgpr_write_b32 a80, 0
	v_accvgpr_write_b32 a81, 0
	v_accvgpr_write_b32 a82, 0
	v_accvgpr_write_b32 a83, 0
	v_accvgpr_write_b32 a84, 0
	v_accvgpr_write_b32 a85, 0
	v_accvgpr_write_b32 a86, 0
	v_accvgpr_write_b32 a87, 0
	v_accvgpr_write_b32 a88, 0
	v_accvgpr_write_b32 a89, 0
	v_accvgpr_write_b32 a90, 0
	v_accvgpr_write_b32 a91, 0
	v_accvgpr_write_b32 a92, 0
	v_accvgpr_write_b32 a93, 0
	v_accvgpr_write_b32 a94, 0
	v_accvgpr_write_b32 a95, 0
	v_accvgpr_write_b32 a96, 0
	v_accvgpr_write_b32 a97, 0
	v_accvgpr_write_b32 a98, 0
	v_accvgpr_write_b32 a99, 0
	v_accvgpr_write_b32 a100, 0
	v_accvgpr_write_b32 a101, 0
	v_accvgpr_write_b32 a102, 0
	v_accvgpr_write_b32 a103, 0
	v_accvgpr_write_b32 a104, 0
	v_accvgpr_write_b32 a105, 0
	v_accvgpr_write_b32 a106, 0
	v_accvgpr_write_b32 a107, 0
	v_accvgpr_write_b32 a108, 0
	v_accvgpr_write_b32 a109, 0
	v_accvgpr_write_b32 a110, 0
	v_accvgpr_write_b32 a111, 0
	v_accvgpr_write_b32 a112, 0
	v_accvgpr_write_b32 a113, 0
	v_accvgpr_write_b32 a114, 0
	v_accvgpr_write_b32 a115, 0
	v_accvgpr_write_b32 a116, 0
	v_accvgpr_write_b32 a117, 0
	v_accvgpr_write_b32 a118, 0
	v_accvgpr_write_b32 a119, 0
	v_accvgpr_write_b32 a120, 0
	v_accvgpr_write_b32 a121, 0
	v_accvgpr_write_b32 a122, 0
	v_accvgpr_write_b32 a123, 0
	v_accvgpr_write_b32 a124, 0
	v_accvgpr_write_b32 a125, 0
	v_accvgpr_write_b32 a126, 0
	v_accvgpr_write_b32 a127, 0
.LBB2_4:
	v_lshlrev_b32_e32 v0, 9, v0
	s_nop 7
	s_nop 1
	global_store_dwordx4 v0, a[124:127], s[6:7] offset:48
	global_store_dwordx4 v0, a[120:123], s[6:7] offset:32
	global_store_dwordx4 v0, a[116:119], s[6:7] offset:16
	global_store_dwordx4 v0, a[112:115], s[6:7]
	global_store_dwordx4 v0, a[108:111], s[6:7] offset:112
	global_store_dwordx4 v0, a[104:107], s[6:7] offset:96
	global_store_dwordx4 v0, a[100:103], s[6:7] offset:80
	global_store_dwordx4 v0, a[96:99], s[6:7] offset:64
	global_store_dwordx4 v0, a[12:15], s[6:7] offset:176
	global_store_dwordx4 v0, a[8:11], s[6:7] offset:160
	global_store_dwordx4 v0, a[4:7], s[6:7] offset:144
	global_store_dwordx4 v0, a[0:3], s[6:7] offset:128
	global_store_dwordx4 v0, a[28:31], s[6:7] offset:240
	global_store_dwordx4 v0, a[24:27], s[6:7] offset:224
	global_store_dwordx4 v0, a[20:23], s[6:7] offset:208
	global_store_dwordx4 v0, a[16:19], s[6:7] offset:192
	global_store_dwordx4 v0, a[44:47], s[6:7] offset:304
	global_store_dwordx4 v0, a[40:43], s[6:7] offset:288
	global_store_dwordx4 v0, a[36:39], s[6:7] offset:272
	global_store_dwordx4 v0, a[32:35], s[6:7] offset:256
	global_store_dwordx4 v0, a[60:63], s[6:7] offset:368
	global_store_dwordx4 v0, a[56:59], s[6:7] offset:352
	global_store_dwordx4 v0, a[52:55], s[6:7] offset:336
	global_store_dwordx4 v0, a[48:51], s[6:7] offset:320
	global_store_dwordx4 v0, a[76:79], s[6:7] offset:432
	global_store_dwordx4 v0, a[72:75], s[6:7] offset:416
	global_store_dwordx4 v0, a[68:71], s[6:7] offset:400
	global_store_dwordx4 v0, a[64:67], s[6:7] offset:384
	global_store_dwordx4 v0, a[92:95], s[6:7] offset:496
	global_store_dwordx4 v0, a[88:91], s[6:7] offset:480
	global_store_dwordx4 v0, a[84:87], s[6:7] offset:464
	global_store_dwordx4 v0, a[80:83], s[6:7] offset:448
	s_endpgm
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel mfma32_agpr
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_private_segment_fixed_size 0
		.amdhsa_kernarg_size 28
		.amdhsa_user_sgpr_count 6
		.amdhsa_user_sgpr_private_segment_buffer 1
		.amdhsa_user_sgpr_dispatch_ptr 0
		.amdhsa_user_sgpr_queue_ptr 0
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_user_sgpr_dispatch_id 0
		.amdhsa_user_sgpr_flat_scratch_init 0
		.amdhsa_user_sgpr_kernarg_preload_length 0
		.amdhsa_user_sgpr_kernarg_preload_offset 0
		.amdhsa_user_sgpr_private_segment_size 0
		.amdhsa_uses_dynamic_stack 0
		.amdhsa_system_sgpr_private_segment_wavefront_offset 0
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_sgpr_workgroup_id_y 0
		.amdhsa_system_sgpr_workgroup_id_z 0
		.amdhsa_system_sgpr_workgroup_info 0
		.amdhsa_system_vgpr_workitem_id 0
		.amdhsa_next_free_vgpr 140
		.amdhsa_next_free_sgpr 9
		.amdhsa_accum_offset 12
		.amdhsa_reserve_vcc 1
		.amdhsa_reserve_flat_scratch 0
		.amdhsa_reserve_xnack_mask 1
		.amdhsa_float_round_mode_32 0
		.amdhsa_float_round_mode_16_64 0
		.amdhsa_float_denorm_mode_32 3
		.amdhsa_float_denorm_mode_16_64 3
		.amdhsa_dx10_clamp 1
		.amdhsa_ieee_mode 1
		.amdhsa_fp16_overflow 0
		.amdhsa_tg_split 0
		.amdhsa_exception_fp_ieee_invalid_op 0
		.amdhsa_exception_fp_denorm_src 0
		.amdhsa_exception_fp_ieee_div_zero 0
		.amdhsa_exception_fp_ieee_overflow 0
		.amdhsa_exception_fp_ieee_underflow 0
		.amdhsa_exception_fp_ieee_inexact 0
		.amdhsa_exception_int_div_zero 0
	.end_amdhsa_kernel
	.text
.Lfunc_end2:
	.size	mfma32_agpr, .Lfunc_end2-mfma32_agpr
                                        ; -- End function
	.section	.AMDGPU.csdata,"",@progbits
; Kernel info:
; codeLenInByte = 2512
; NumSgprs: 13
; NumVgprs: 10
; NumAgprs: 128
; TotalNumVgprs: 140
; ScratchSize: 0
; MemoryBound: 0
; FloatMode: 240
; IeeeMode: 1
; LDSByteSize: 0 bytes/workgroup (compile time only)
; SGPRBlocks: 1
; VGPRBlocks: 17
; NumSGPRsForWavesPerEU: 13
; NumVGPRsForWavesPerEU: 140
; AccumOffset: 12
; Occupancy: 3
; WaveLimiterHint : 0
; COMPUTE_PGM_RSRC2:SCRATCH_EN: 0
; COMPUTE_PGM_RSRC2:USER_SGPR: 6
; COMPUTE_PGM_RSRC2:TRAP_HANDLER: 0
; COMPUTE_PGM_RSRC2:TGID_X_EN: 1
; COMPUTE_PGM_RSRC2:TGID_Y_EN: 0
; COMPUTE_PGM_RSRC2:TGID_Z_EN: 0
; COMPUTE_PGM_RSRC2:TIDIG_COMP_CNT: 0
; COMPUTE_PGM_RSRC3_GFX90A:ACCUM_OFFSET: 2
; COMPUTE_PGM_RSRC3_GFX90A:TG_SPLIT: 0
	.text
	.protected	spill_kernel            ; -- Begin function spill_kernel
	.globl	spill_kernel
	.p2align	8
	.type	spill_kernel,@function
spill_kernel:                           ; @spill_kernel
; %bb.0:
	s_mov_b64 s[14:15], s[2:3]
	s_mov_b64 s[12:13], s[0:1]
	v_lshl_or_b32 v0, s6, 10, v0
	s_add_u32 s12, s12, s7
	v_ashrrev_i32_e32 v1, 31, v0
	s_addc_u32 s13, s13, 0
	v_lshlrev_b64 v[2:3], 4, v[0:1]
	s_load_dword s8, s[4:5], 0x10
	s_load_dwordx4 s[0:3], s[4:5], 0x0
	buffer_store_dword v2, off, s[12:15], 0 offset:16 ; 4-byte Folded Spill
	s_waitcnt vmcnt(0)
	buffer_store_dword v3, off, s[12:15], 0 offset:20 ; 4-byte Folded Spill
	s_waitcnt lgkmcnt(0)
	s_ashr_i32 s9, s8, 31
	v_mov_b32_e32 v55, s1
	s_lshl_b64 s[4:5], s[8:9], 4
	s_add_i32 s1, s8, s8
	v_mov_b32_e32 v1, s5
	v_add_u32_e32 v0, s1, v0
	v_add_co_u32_e32 v2, vcc, s0, v2
	v_addc_co_u32_e32 v3, vcc, v55, v3, vcc
	v_add_co_u32_e32 v4, vcc, s4, v2
	v_addc_co_u32_e32 v5, vcc, v3, v1, vcc
	v_ashrrev_i32_e32 v1, 31, v0
	global_load_dwordx4 v[48:51], v[2:3], off
	global_load_dwordx4 v[16:19], v[4:5], off
	v_lshlrev_b64 v[2:3], 4, v[0:1]
	v_add_u32_e32 v0, s8, v0
	v_add_co_u32_e32 v2, vcc, s0, v2
	v_ashrrev_i32_e32 v1, 31, v0
	v_addc_co_u32_e32 v3, vcc, v55, v3, vcc
	v_lshlrev_b64 v[4:5], 4, v[0:1]
	v_add_u32_e32 v0, s8, v0
	v_add_co_u32_e32 v4, vcc, s0, v4
	v_ashrrev_i32_e32 v1, 31, v0
	v_addc_co_u32_e32 v5, vcc, v55, v5, vcc
	global_load_dwordx4 v[12:15], v[2:3], off
	global_load_dwordx4 v[44:47], v[4:5], off
	v_lshlrev_b64 v[2:3], 4, v[0:1]
	v_add_u32_e32 v0, s8, v0
	v_add_co_u32_e32 v2, vcc, s0, v2
	v_ashrrev_i32_e32 v1, 31, v0
	v_addc_co_u32_e32 v3, vcc, v55, v3, vcc
	v_lshlrev_b64 v[4:5], 4, v[0:1]
	v_add_u32_e32 v0, s8, v0
	v_add_co_u32_e32 v4, vcc, s0, v4
	v_ashrrev_i32_e32 v1, 31, v0
	v_addc_co_u32_e32 v5, vcc, v55, v5, vcc
	global_load_dwordx4 v[8:11], v[2:3], off
	global_load_dwordx4 v[28:31], v[4:5], off
	v_lshlrev_b64 v[2:3], 4, v[0:1]
	v_add_u32_e32 v0, s8, v0
	v_add_co_u32_e32 v2, vcc, s0, v2
	v_ashrrev_i32_e32 v1, 31, v0
	v_addc_co_u32_e32 v3, vcc, v55, v3, vcc
	v_lshlrev_b64 v[4:5], 4, v[0:1]
	v_add_u32_e32 v0, s8, v0
	v_add_co_u32_e32 v4, vcc, s0, v4
	v_ashrrev_i32_e32 v1, 31, v0
	v_addc_co_u32_e32 v5, vcc, v55, v5, vcc
	global_load_dwordx4 v[32:35], v[2:3], off
	global_load_dwordx4 v[24:27], v[4:5], off
	v_lshlrev_b64 v[2:3], 4, v[0:1]
	v_add_co_u32_e32 v2, vcc, s0, v2
	v_addc_co_u32_e32 v3, vcc, v55, v3, vcc
	global_load_dwordx4 v[20:23], v[2:3], off
	v_add_u32_e32 v40, s8, v0
	v_ashrrev_i32_e32 v41, 31, v40
	v_lshlrev_b64 v[0:1], 4, v[40:41]
	v_add_u32_e32 v42, s8, v40
	v_add_co_u32_e32 v36, vcc, s0, v0
	v_ashrrev_i32_e32 v43, 31, v42
	v_addc_co_u32_e32 v37, vcc, v55, v1, vcc
	global_load_dwordx4 v[36:39], v[36:37], off
	v_lshlrev_b64 v[0:1], 4, v[42:43]
	v_add_co_u32_e32 v40, vcc, s0, v0
	v_addc_co_u32_e32 v41, vcc, v55, v1, vcc
	s_waitcnt vmcnt(4)
	v_fma_f32 v0, v48, v17, v30
	v_add_f32_e32 v1, v51, v0
	v_fma_f32 v0, v0, v17, v30
	v_add_f32_e32 v1, v1, v0
	v_fma_f32 v0, v0, v17, v30
	v_add_f32_e32 v1, v1, v0
	v_fma_f32 v0, v0, v17, v30
	v_add_f32_e32 v51, v1, v0
	v_mov_b32_e32 v52, v0
	v_mov_b32_e32 v61, v51
	v_mov_b32_e32 v60, v50
	v_mov_b32_e32 v59, v49
	s_waitcnt vmcnt(3)
	v_fma_f32 v2, v16, v13, v34
	v_add_f32_e32 v0, v19, v2
	v_fma_f32 v1, v2, v13, v34
	v_add_f32_e32 v0, v0, v1
	v_fma_f32 v1, v1, v13, v34
	s_waitcnt vmcnt(2)
	v_fma_f32 v3, v12, v45, v26
	v_add_f32_e32 v0, v0, v1
	s_waitcnt vmcnt(1)
	v_fma_f32 v5, v44, v9, v22
	v_add_f32_e32 v6, v47, v5
	v_fma_f32 v5, v5, v9, v22
	v_add_f32_e32 v6, v6, v5
	v_fma_f32 v5, v5, v9, v22
	v_fma_f32 v58, v1, v13, v34
	v_add_f32_e32 v4, v15, v3
	v_fma_f32 v3, v3, v45, v26
	v_add_f32_e32 v6, v6, v5
	v_fma_f32 v12, v5, v9, v22
	v_add_f32_e32 v19, v0, v58
	v_add_u32_e32 v0, s8, v42
	v_add_f32_e32 v4, v4, v3
	v_fma_f32 v3, v3, v45, v26
	v_add_f32_e32 v47, v6, v12
	v_mov_b32_e32 v5, v45
	v_ashrrev_i32_e32 v1, 31, v0
	v_add_f32_e32 v4, v4, v3
	v_fma_f32 v16, v3, v45, v26
	v_mov_b32_e32 v6, v46
	v_mov_b32_e32 v7, v47
	v_lshlrev_b64 v[2:3], 4, v[0:1]
	v_add_f32_e32 v15, v4, v16
	buffer_store_dword v4, off, s[12:15], 0 ; 4-byte Folded Spill
	s_waitcnt vmcnt(0)
	buffer_store_dword v5, off, s[12:15], 0 offset:4 ; 4-byte Folded Spill
	buffer_store_dword v6, off, s[12:15], 0 offset:8 ; 4-byte Folded Spill
	buffer_store_dword v7, off, s[12:15], 0 offset:12 ; 4-byte Folded Spill
	v_add_co_u32_e32 v2, vcc, s0, v2
	v_addc_co_u32_e32 v3, vcc, v55, v3, vcc
	global_load_dwordx4 v[44:47], v[40:41], off
	s_nop 0
	global_load_dwordx4 v[40:43], v[2:3], off
	v_fma_f32 v4, v8, v29, v38
	v_add_f32_e32 v1, v11, v4
	v_fma_f32 v4, v4, v29, v38
	v_add_f32_e32 v1, v1, v4
	v_fma_f32 v4, v4, v29, v38
	v_add_f32_e32 v1, v1, v4
	v_fma_f32 v8, v4, v29, v38
	v_add_f32_e32 v11, v1, v8
	v_add_u32_e32 v0, s8, v0
	v_mul_f32_e32 v9, v9, v11
	s_waitcnt vmcnt(1)
	v_fma_f32 v1, v28, v33, v46
	v_add_f32_e32 v2, v31, v1
	v_fma_f32 v1, v1, v33, v46
	v_add_f32_e32 v2, v2, v1
	v_fma_f32 v1, v1, v33, v46
	v_add_f32_e32 v2, v2, v1
	v_fma_f32 v4, v1, v33, v46
	v_add_f32_e32 v31, v2, v4
	v_mul_f32_e32 v5, v29, v31
	v_pk_add_f32 v[2:3], v[50:51], 0 op_sel_hi:[1,0]
	buffer_store_dword v4, off, s[12:15], 0 offset:32 ; 4-byte Folded Spill
	s_waitcnt vmcnt(0)
	buffer_store_dword v5, off, s[12:15], 0 offset:36 ; 4-byte Folded Spill
	v_fma_f32 v1, v32, v25, v42
	v_pk_add_f32 v[2:3], v[2:3], v[18:19]
	v_add_f32_e32 v4, v35, v1
	v_fma_f32 v1, v1, v25, v42
	v_pk_add_f32 v[2:3], v[2:3], v[14:15]
	v_add_f32_e32 v4, v4, v1
	v_fma_f32 v1, v1, v25, v42
	v_pk_add_f32 v[2:3], v[2:3], v[6:7]
	v_add_f32_e32 v4, v4, v1
	v_fma_f32 v6, v1, v25, v42
	v_add_f32_e32 v35, v4, v6
	v_ashrrev_i32_e32 v1, 31, v0
	v_mul_f32_e32 v7, v33, v35
	v_lshlrev_b64 v[4:5], 4, v[0:1]
	v_add_u32_e32 v0, s8, v0
	buffer_store_dword v6, off, s[12:15], 0 offset:40 ; 4-byte Folded Spill
	s_waitcnt vmcnt(0)
	buffer_store_dword v7, off, s[12:15], 0 offset:44 ; 4-byte Folded Spill
	v_add_co_u32_e32 v4, vcc, s0, v4
	v_ashrrev_i32_e32 v1, 31, v0
	v_addc_co_u32_e32 v5, vcc, v55, v5, vcc
	v_lshlrev_b64 v[6:7], 4, v[0:1]
	v_pk_add_f32 v[2:3], v[2:3], v[10:11]
	v_add_co_u32_e32 v6, vcc, s0, v6
	v_pk_add_f32 v[2:3], v[2:3], v[30:31]
	v_addc_co_u32_e32 v7, vcc, v55, v7, vcc
	global_load_dwordx4 v[48:51], v[4:5], off
	global_load_dwordx4 v[28:31], v[6:7], off
	v_add_u32_e32 v0, s8, v0
	v_pk_add_f32 v[2:3], v[2:3], v[34:35]
	s_waitcnt vmcnt(1)
	v_fma_f32 v1, v24, v21, v50
	v_add_f32_e32 v4, v27, v1
	v_fma_f32 v1, v1, v21, v50
	v_add_f32_e32 v4, v4, v1
	v_fma_f32 v1, v1, v21, v50
	v_add_f32_e32 v4, v4, v1
	v_fma_f32 v6, v1, v21, v50
	s_waitcnt vmcnt(0)
	v_fma_f32 v1, v20, v37, v30
	v_add_f32_e32 v27, v4, v6
	v_add_f32_e32 v4, v23, v1
	v_fma_f32 v1, v1, v37, v30
	v_add_f32_e32 v4, v4, v1
	v_fma_f32 v1, v1, v37, v30
	v_add_f32_e32 v4, v4, v1
	v_fma_f32 v62, v1, v37, v30
	v_ashrrev_i32_e32 v1, 31, v0
	v_mul_f32_e32 v7, v25, v27
	v_add_f32_e32 v23, v4, v62
	v_lshlrev_b64 v[4:5], 4, v[0:1]
	v_add_u32_e32 v0, s8, v0
	buffer_store_dword v6, off, s[12:15], 0 offset:48 ; 4-byte Folded Spill
	s_waitcnt vmcnt(0)
	buffer_store_dword v7, off, s[12:15], 0 offset:52 ; 4-byte Folded Spill
	v_add_co_u32_e32 v4, vcc, s0, v4
	v_ashrrev_i32_e32 v1, 31, v0
	v_addc_co_u32_e32 v5, vcc, v55, v5, vcc
	v_lshlrev_b64 v[6:7], 4, v[0:1]
	v_pk_add_f32 v[2:3], v[2:3], v[26:27]
	v_add_co_u32_e32 v6, vcc, s0, v6
	v_mul_f32_e32 v63, v21, v23
	v_pk_add_f32 v[2:3], v[2:3], v[22:23]
	v_addc_co_u32_e32 v7, vcc, v55, v7, vcc
	global_load_dwordx4 v[24:27], v[4:5], off
	global_load_dwordx4 v[20:23], v[6:7], off
	v_add_u32_e32 v0, s8, v0
	s_waitcnt vmcnt(1)
	v_fma_f32 v1, v36, v45, v26
	v_add_f32_e32 v4, v39, v1
	v_fma_f32 v1, v1, v45, v26
	v_add_f32_e32 v4, v4, v1
	v_fma_f32 v1, v1, v45, v26
	v_add_f32_e32 v4, v4, v1
	v_fma_f32 v56, v1, v45, v26
	s_waitcnt vmcnt(0)
	v_fma_f32 v1, v44, v41, v22
	v_add_f32_e32 v39, v4, v56
	v_add_f32_e32 v4, v47, v1
	v_fma_f32 v1, v1, v41, v22
	v_add_f32_e32 v4, v4, v1
	v_fma_f32 v1, v1, v41, v22
	v_add_f32_e32 v4, v4, v1
	v_fma_f32 v6, v1, v41, v22
	v_ashrrev_i32_e32 v1, 31, v0
	v_add_f32_e32 v47, v4, v6
	v_lshlrev_b64 v[4:5], 4, v[0:1]
	v_add_u32_e32 v0, s8, v0
	v_add_co_u32_e32 v4, vcc, s0, v4
	v_ashrrev_i32_e32 v1, 31, v0
	v_addc_co_u32_e32 v5, vcc, v55, v5, vcc
	v_lshlrev_b64 v[32:33], 4, v[0:1]
	v_add_co_u32_e32 v32, vcc, s0, v32
	v_addc_co_u32_e32 v33, vcc, v55, v33, vcc
	v_mul_f32_e32 v57, v37, v39
	v_pk_add_f32 v[2:3], v[2:3], v[38:39]
	global_load_dwordx4 v[36:39], v[4:5], off
	s_nop 0
	global_load_dwordx4 v[32:35], v[32:33], off
	v_pk_add_f32 v[2:3], v[2:3], v[46:47]
	v_add_u32_e32 v0, s8, v0
	v_mul_f32_e32 v7, v45, v47
	s_waitcnt vmcnt(1)
	v_fma_f32 v1, v40, v49, v38
	v_add_f32_e32 v4, v43, v1
	v_fma_f32 v1, v1, v49, v38
	v_add_f32_e32 v4, v4, v1
	v_fma_f32 v1, v1, v49, v38
	v_add_f32_e32 v4, v4, v1
	v_fma_f32 v40, v1, v49, v38
	s_waitcnt vmcnt(0)
	v_fma_f32 v1, v48, v29, v34
	v_add_f32_e32 v43, v4, v40
	v_add_f32_e32 v4, v51, v1
	v_fma_f32 v1, v1, v29, v34
	v_add_f32_e32 v4, v4, v1
	v_fma_f32 v1, v1, v29, v34
	v_pk_add_f32 v[2:3], v[2:3], v[42:43]
	v_add_f32_e32 v4, v4, v1
	v_fma_f32 v42, v1, v29, v34
	v_add_f32_e32 v51, v4, v42
	v_pk_add_f32 v[2:3], v[2:3], v[50:51]
	buffer_store_dword v2, off, s[12:15], 0 offset:24 ; 4-byte Folded Spill
	s_waitcnt vmcnt(0)
	buffer_store_dword v3, off, s[12:15], 0 offset:28 ; 4-byte Folded Spill
	v_ashrrev_i32_e32 v1, 31, v0
	v_lshlrev_b64 v[2:3], 4, v[0:1]
	v_add_u32_e32 v0, s8, v0
	v_add_co_u32_e32 v4, vcc, s0, v2
	v_ashrrev_i32_e32 v1, 31, v0
	v_addc_co_u32_e32 v5, vcc, v55, v3, vcc
	v_lshlrev_b64 v[2:3], 4, v[0:1]
	v_add_u32_e32 v0, s8, v0
	v_add_co_u32_e32 v2, vcc, s0, v2
	v_ashrrev_i32_e32 v1, 31, v0
	v_addc_co_u32_e32 v3, vcc, v55, v3, vcc
	v_lshlrev_b64 v[44:45], 4, v[0:1]
	v_add_co_u32_e32 v48, vcc, s0, v44
	v_add_u32_e32 v44, s8, v0
	v_mul_f32_e32 v41, v41, v43
	v_mul_f32_e32 v43, v49, v51
	v_addc_co_u32_e32 v49, vcc, v55, v45, vcc
	v_ashrrev_i32_e32 v45, 31, v44
	v_lshlrev_b64 v[0:1], 4, v[44:45]
	v_add_u32_e32 v46, s8, v44
	v_add_co_u32_e32 v0, vcc, s0, v0
	v_ashrrev_i32_e32 v47, 31, v46
	v_addc_co_u32_e32 v1, vcc, v55, v1, vcc
	v_lshlrev_b64 v[44:45], 4, v[46:47]
	v_add_u32_e32 v46, s8, v46
	v_add_co_u32_e32 v44, vcc, s0, v44
	v_ashrrev_i32_e32 v47, 31, v46
	v_addc_co_u32_e32 v45, vcc, v55, v45, vcc
	v_lshlrev_b64 v[46:47], 4, v[46:47]
	v_add_co_u32_e32 v46, vcc, s0, v46
	v_addc_co_u32_e32 v47, vcc, v55, v47, vcc
	v_mov_b32_e32 v53, v59
	v_mov_b32_e32 v55, v61
	v_mov_b32_e32 v50, v52
	v_mul_f32_e32 v51, v53, v55
	v_mov_b32_e32 v54, v60
	v_pk_add_f32 v[50:51], v[50:51], 0 op_sel_hi:[1,0]
	v_mul_f32_e32 v59, v17, v19
	v_pk_add_f32 v[50:51], v[50:51], v[58:59]
	buffer_load_dword v58, off, s[12:15], 0 ; 4-byte Folded Reload
	buffer_load_dword v59, off, s[12:15], 0 offset:4 ; 4-byte Folded Reload
	buffer_load_dword v60, off, s[12:15], 0 offset:8 ; 4-byte Folded Reload
	buffer_load_dword v61, off, s[12:15], 0 offset:12 ; 4-byte Folded Reload
	v_mul_f32_e32 v17, v13, v15
	v_pk_add_f32 v[16:17], v[50:51], v[16:17]
	s_waitcnt vmcnt(0)
	v_mul_f32_e32 v13, v59, v61
	v_pk_add_f32 v[12:13], v[16:17], v[12:13]
	v_pk_add_f32 v[8:9], v[12:13], v[8:9]
	buffer_load_dword v12, off, s[12:15], 0 offset:32 ; 4-byte Folded Reload
	buffer_load_dword v13, off, s[12:15], 0 offset:36 ; 4-byte Folded Reload
	v_mov_b32_e32 v15, v53
	v_mov_b32_e32 v16, v54
	s_waitcnt vmcnt(0)
	v_pk_add_f32 v[8:9], v[8:9], v[12:13]
	buffer_load_dword v12, off, s[12:15], 0 offset:40 ; 4-byte Folded Reload
	buffer_load_dword v13, off, s[12:15], 0 offset:44 ; 4-byte Folded Reload
	s_waitcnt vmcnt(0)
	v_pk_add_f32 v[8:9], v[8:9], v[12:13]
	buffer_load_dword v12, off, s[12:15], 0 offset:48 ; 4-byte Folded Reload
	buffer_load_dword v13, off, s[12:15], 0 offset:52 ; 4-byte Folded Reload
	s_waitcnt vmcnt(0)
	v_pk_add_f32 v[8:9], v[8:9], v[12:13]
	v_pk_add_f32 v[8:9], v[8:9], v[62:63]
	v_pk_add_f32 v[8:9], v[8:9], v[56:57]
	v_pk_add_f32 v[6:7], v[8:9], v[6:7]
	v_pk_add_f32 v[6:7], v[6:7], v[40:41]
	v_pk_add_f32 v[6:7], v[6:7], v[42:43]
	global_load_dwordx4 v[40:43], v[46:47], off
	s_nop 0
	global_load_dwordx4 v[44:47], v[44:45], off
	s_nop 0
	global_load_dwordx4 v[48:51], v[48:49], off
	s_nop 0
	global_load_dwordx4 v[56:59], v[2:3], off
	global_load_dwordx4 v[60:63], v[4:5], off
	global_load_dwordx4 v[52:55], v[0:1], off
	s_waitcnt vmcnt(2)
	v_fma_f32 v4, v24, v21, v58
	s_waitcnt vmcnt(1)
	v_fma_f32 v2, v28, v25, v62
	v_add_f32_e32 v3, v31, v2
	v_fma_f32 v2, v2, v25, v62
	v_add_f32_e32 v3, v3, v2
	v_fma_f32 v2, v2, v25, v62
	v_add_f32_e32 v5, v27, v4
	v_fma_f32 v4, v4, v21, v58
	v_add_f32_e32 v3, v3, v2
	v_fma_f32 v2, v2, v25, v62
	v_add_f32_e32 v5, v5, v4
	v_fma_f32 v4, v4, v21, v58
	v_add_f32_e32 v31, v3, v2
	v_add_f32_e32 v5, v5, v4
	v_fma_f32 v4, v4, v21, v58
	v_mul_f32_e32 v3, v29, v31
	v_add_f32_e32 v27, v5, v4
	v_pk_add_f32 v[2:3], v[6:7], v[2:3]
	v_mul_f32_e32 v5, v25, v27
	v_pk_add_f32 v[2:3], v[2:3], v[4:5]
	v_fma_f32 v4, v20, v37, v50
	v_add_f32_e32 v5, v23, v4
	v_fma_f32 v4, v4, v37, v50
	v_add_f32_e32 v5, v5, v4
	v_fma_f32 v4, v4, v37, v50
	v_add_f32_e32 v5, v5, v4
	v_fma_f32 v4, v4, v37, v50
	v_add_f32_e32 v23, v5, v4
	v_mul_f32_e32 v5, v21, v23
	v_pk_add_f32 v[2:3], v[2:3], v[4:5]
	s_waitcnt vmcnt(0)
	v_fma_f32 v4, v36, v33, v54
	v_add_f32_e32 v5, v39, v4
	v_fma_f32 v4, v4, v33, v54
	v_add_f32_e32 v5, v5, v4
	v_fma_f32 v4, v4, v33, v54
	v_add_f32_e32 v5, v5, v4
	v_fma_f32 v4, v4, v33, v54
	v_add_f32_e32 v39, v5, v4
	v_mul_f32_e32 v5, v37, v39
	v_pk_add_f32 v[2:3], v[2:3], v[4:5]
	v_fma_f32 v4, v32, v61, v46
	v_add_f32_e32 v5, v35, v4
	v_fma_f32 v4, v4, v61, v46
	v_add_f32_e32 v5, v5, v4
	v_fma_f32 v4, v4, v61, v46
	v_add_f32_e32 v5, v5, v4
	v_fma_f32 v4, v4, v61, v46
	v_add_f32_e32 v35, v5, v4
	v_mul_f32_e32 v5, v33, v35
	v_pk_add_f32 v[2:3], v[2:3], v[4:5]
	v_fma_f32 v4, v60, v57, v42
	v_fma_f32 v1, v56, v49, v16
	v_add_f32_e32 v5, v63, v4
	v_fma_f32 v4, v4, v57, v42
	v_fma_f32 v12, v1, v49, v16
	v_add_f32_e32 v5, v5, v4
	v_fma_f32 v4, v4, v57, v42
	v_add_f32_e32 v1, v59, v1
	v_fma_f32 v13, v12, v49, v16
	v_add_f32_e32 v5, v5, v4
	v_fma_f32 v4, v4, v57, v42
	v_add_f32_e32 v1, v1, v12
	v_fma_f32 v0, v13, v49, v16
	v_add_f32_e32 v63, v5, v4
	v_add_f32_e32 v1, v1, v13
	v_mul_f32_e32 v5, v61, v63
	v_add_f32_e32 v59, v1, v0
	v_pk_add_f32 v[2:3], v[2:3], v[4:5]
	v_mul_f32_e32 v1, v57, v59
	v_pk_add_f32 v[0:1], v[2:3], v[0:1]
	v_fma_f32 v2, v48, v53, v18
	v_add_f32_e32 v3, v51, v2
	v_fma_f32 v2, v2, v53, v18
	v_add_f32_e32 v3, v3, v2
	v_fma_f32 v2, v2, v53, v18
	v_add_f32_e32 v3, v3, v2
	v_fmac_f32_e32 v18, v2, v53
	v_fma_f32 v2, v52, v45, v14
	v_add_f32_e32 v51, v3, v18
	v_add_f32_e32 v3, v55, v2
	v_fma_f32 v2, v2, v45, v14
	v_add_f32_e32 v3, v3, v2
	v_fma_f32 v2, v2, v45, v14
	v_add_f32_e32 v3, v3, v2
	v_fmac_f32_e32 v14, v2, v45
	v_add_f32_e32 v55, v3, v14
	buffer_load_dword v2, off, s[12:15], 0  ; 4-byte Folded Reload
	buffer_load_dword v3, off, s[12:15], 0 offset:4 ; 4-byte Folded Reload
	buffer_load_dword v4, off, s[12:15], 0 offset:8 ; 4-byte Folded Reload
	buffer_load_dword v5, off, s[12:15], 0 offset:12 ; 4-byte Folded Reload
	v_fma_f32 v8, v40, v15, v10
	v_fma_f32 v9, v8, v15, v10
	v_fma_f32 v11, v9, v15, v10
	v_fmac_f32_e32 v10, v11, v15
	v_mul_f32_e32 v19, v49, v51
	v_pk_add_f32 v[0:1], v[0:1], v[18:19]
	v_mul_f32_e32 v15, v53, v55
	v_pk_add_f32 v[0:1], v[0:1], v[14:15]
	s_waitcnt vmcnt(0)
	v_fma_f32 v2, v44, v41, v4
	v_add_f32_e32 v3, v47, v2
	v_fma_f32 v2, v2, v41, v4
	v_add_f32_e32 v3, v3, v2
	v_fma_f32 v2, v2, v41, v4
	v_add_f32_e32 v3, v3, v2
	v_fmac_f32_e32 v4, v2, v41
	v_add_f32_e32 v2, v43, v8
	v_add_f32_e32 v2, v2, v9
	v_add_f32_e32 v2, v2, v11
	v_add_f32_e32 v47, v3, v4
	v_add_f32_e32 v43, v2, v10
	buffer_load_dword v2, off, s[12:15], 0 offset:24 ; 4-byte Folded Reload
	buffer_load_dword v3, off, s[12:15], 0 offset:28 ; 4-byte Folded Reload
	buffer_load_dword v6, off, s[12:15], 0 offset:16 ; 4-byte Folded Reload
	buffer_load_dword v7, off, s[12:15], 0 offset:20 ; 4-byte Folded Reload
	v_mul_f32_e32 v5, v45, v47
	v_pk_add_f32 v[0:1], v[0:1], v[4:5]
	v_mul_f32_e32 v11, v41, v43
	v_mov_b32_e32 v5, s3
	v_pk_add_f32 v[0:1], v[0:1], v[10:11]
	s_waitcnt vmcnt(2)
	v_pk_add_f32 v[2:3], v[2:3], v[30:31]
	v_pk_add_f32 v[2:3], v[2:3], v[26:27]
	v_pk_add_f32 v[2:3], v[2:3], v[22:23]
	v_pk_add_f32 v[2:3], v[2:3], v[38:39]
	v_pk_add_f32 v[2:3], v[2:3], v[34:35]
	v_pk_add_f32 v[2:3], v[2:3], v[62:63]
	v_pk_add_f32 v[2:3], v[2:3], v[58:59]
	v_pk_add_f32 v[2:3], v[2:3], v[50:51]
	v_pk_add_f32 v[2:3], v[2:3], v[54:55]
	v_pk_add_f32 v[2:3], v[2:3], v[46:47]
	s_waitcnt vmcnt(0)
	v_add_co_u32_e32 v4, vcc, s2, v6
	v_pk_add_f32 v[2:3], v[2:3], v[42:43]
	v_addc_co_u32_e32 v5, vcc, v5, v7, vcc
	global_store_dwordx4 v[4:5], v[0:3], off
	s_endpgm
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel spill_kernel
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_private_segment_fixed_size 60
		.amdhsa_kernarg_size 20
		.amdhsa_user_sgpr_count 6
		.amdhsa_user_sgpr_private_segment_buffer 1
		.amdhsa_user_sgpr_dispatch_ptr 0
		.amdhsa_user_sgpr_queue_ptr 0
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_user_sgpr_dispatch_id 0
		.amdhsa_user_sgpr_flat_scratch_init 0
		.amdhsa_user_sgpr_kernarg_preload_length 0
		.amdhsa_user_sgpr_kernarg_preload_offset 0
		.amdhsa_user_sgpr_private_segment_size 0
		.amdhsa_uses_dynamic_stack 0
		.amdhsa_system_sgpr_private_segment_wavefront_offset 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_sgpr_workgroup_id_y 0
		.amdhsa_system_sgpr_workgroup_id_z 0
		.amdhsa_system_sgpr_workgroup_info 0
		.amdhsa_system_vgpr_workitem_id 0
		.amdhsa_next_free_vgpr 64
		.amdhsa_next_free_sgpr 16
		.amdhsa_accum_offset 64
		.amdhsa_reserve_vcc 1
		.amdhsa_reserve_flat_scratch 0
		.amdhsa_reserve_xnack_mask 1
		.amdhsa_float_round_mode_32 0
		.amdhsa_float_round_mode_16_64 0
		.amdhsa_float_denorm_mode_32 3
		.amdhsa_float_denorm_mode_16_64 3
		.amdhsa_dx10_clamp 1
		.amdhsa_ieee_mode 1
		.amdhsa_fp16_overflow 0
		.amdhsa_tg_split 0
		.amdhsa_exception_fp_ieee_invalid_op 0
		.amdhsa_exception_fp_denorm_src 0
		.amdhsa_exception_fp_ieee_div_zero 0
		.amdhsa_exception_fp_ieee_overflow 0
		.amdhsa_exception_fp_ieee_underflow 0
		.amdhsa_exception_fp_ieee_inexact 0
		.amdhsa_exception_int_div_zero 0
	.end_amdhsa_kernel
	.text
.Lfunc_end3:
	.size	spill_kernel, .Lfunc_end3-spill_kernel
                                        ; -- End function
	.section	.AMDGPU.csdata,"",@progbits
; Kernel info:
; codeLenInByte = 2888
; NumSgprs: 20
; NumVgprs: 64
; NumAgprs: 0
; TotalNumVgprs: 64
; ScratchSize: 60
; MemoryBound: 0
; FloatMode: 240
; IeeeMode: 1
; LDSByteSize: 0 bytes/workgroup (compile time only)
; SGPRBlocks: 2
; VGPRBlocks: 7
; NumSGPRsForWavesPerEU: 20
; NumVGPRsForWavesPerEU: 64
; AccumOffset: 64
; Occupancy: 8
; WaveLimiterHint : 0
; COMPUTE_PGM_RSRC2:SCRATCH_EN: 1
; COMPUTE_PGM_RSRC2:USER_SGPR: 6
; COMPUTE_PGM_RSRC2:TRAP_HANDLER: 0
; COMPUTE_PGM_RSRC2:TGID_X_EN: 1
; COMPUTE_PGM_RSRC2:TGID_Y_EN: 0
; COMPUTE_PGM_RSRC2:TGID_Z_EN: 0
; COMPUTE_PGM_RSRC2:TIDIG_COMP_CNT: 0
; COMPUTE_PGM_RSRC3_GFX90A:ACCUM_OFFSET: 15
; COMPUTE_PGM_RSRC3_GFX90A:TG_SPLIT: 0
	.text
	.protected	scalar_sum              ; -- Begin function scalar_sum
	.globl	scalar_sum
	.p2align	8
	.type	scalar_sum,@function
scalar_sum:                             ; @scalar_sum
; %bb.0:
	s_load_dword s6, s[4:5], 0x10
                                        ; implicit-def: $sgpr7
	s_waitcnt lgkmcnt(0)
	v_cmp_le_i32_e32 vcc, s6, v0
	s_and_saveexec_b64 s[0:1], vcc
	s_xor_b64 s[0:1], exec, s[0:1]
; %bb.1:
	v_mov_b32_e32 v1, 0
	s_mov_b32 s7, 0
; %bb.2:
	s_or_saveexec_b64 s[2:3], s[0:1]
	s_load_dwordx2 s[0:1], s[4:5], 0x8
	v_mov_b32_e32 v4, s7
	s_xor_b64 exec, exec, s[2:3]
	s_cbranch_execz .LBB4_6
; %bb.3:
	s_load_dwordx2 s[4:5], s[4:5], 0x0
	v_lshlrev_b32_e32 v2, 2, v0
	v_mov_b32_e32 v1, 0
	v_mov_b32_e32 v5, v0
	v_mov_b32_e32 v4, v1
	s_waitcnt lgkmcnt(0)
	v_mov_b32_e32 v3, s5
	v_add_co_u32_e32 v2, vcc, s4, v2
	v_addc_co_u32_e32 v3, vcc, 0, v3, vcc
	s_mov_b64 s[4:5], 0
.LBB4_4:                                ; =>This Inner Loop Header: Depth=1
	global_load_dword v6, v[2:3], off
	v_add_co_u32_e32 v2, vcc, 0x400, v2
	v_add_u32_e32 v5, 0x100, v5
	v_addc_co_u32_e32 v3, vcc, 0, v3, vcc
	v_cmp_le_i32_e32 vcc, s6, v5
	s_or_b64 s[4:5], vcc, s[4:5]
	s_waitcnt vmcnt(0)
	v_fmac_f32_e32 v4, v6, v6
	s_andn2_b64 exec, exec, s[4:5]
	s_cbranch_execnz .LBB4_4
; %bb.5:
	s_or_b64 exec, exec, s[4:5]
.LBB4_6:
	s_or_b64 exec, exec, s[2:3]
	v_lshlrev_b64 v[0:1], 2, v[0:1]
	s_waitcnt lgkmcnt(0)
	v_mov_b32_e32 v2, s1
	v_add_co_u32_e32 v0, vcc, s0, v0
	v_addc_co_u32_e32 v1, vcc, v2, v1, vcc
	global_store_dword v[0:1], v4, off
	s_endpgm
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel scalar_sum
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_private_segment_fixed_size 0
		.amdhsa_kernarg_size 20
		.amdhsa_user_sgpr_count 6
		.amdhsa_user_sgpr_private_segment_buffer 1
		.amdhsa_user_sgpr_dispatch_ptr 0
		.amdhsa_user_sgpr_queue_ptr 0
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_user_sgpr_dispatch_id 0
		.amdhsa_user_sgpr_flat_scratch_init 0
		.amdhsa_user_sgpr_kernarg_preload_length 0
		.amdhsa_user_sgpr_kernarg_preload_offset 0
		.amdhsa_user_sgpr_private_segment_size 0
		.amdhsa_uses_dynamic_stack 0
		.amdhsa_system_sgpr_private_segment_wavefront_offset 0
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_sgpr_workgroup_id_y 0
		.amdhsa_system_sgpr_workgroup_id_z 0
		.amdhsa_system_sgpr_workgroup_info 0
		.amdhsa_system_vgpr_workitem_id 0
		.amdhsa_next_free_vgpr 7
		.amdhsa_next_free_sgpr 8
		.amdhsa_accum_offset 8
		.amdhsa_reserve_vcc 1
		.amdhsa_reserve_flat_scratch 0
		.amdhsa_reserve_xnack_mask 1
		.amdhsa_float_round_mode_32 0
		.amdhsa_float_round_mode_16_64 0
		.amdhsa_float_denorm_mode_32 3
		.amdhsa_float_denorm_mode_16_64 3
		.amdhsa_dx10_clamp 1
		.amdhsa_ieee_mode 1
		.amdhsa_fp16_overflow 0
		.amdhsa_tg_split 0
		.amdhsa_exception_fp_ieee_invalid_op 0
		.amdhsa_exception_fp_denorm_src 0
		.amdhsa_exception_fp_ieee_div_zero 0
		.amdhsa_exception_fp_ieee_overflow 0
		.amdhsa_exception_fp_ieee_underflow 0
		.amdhsa_exception_fp_ieee_inexact 0
		.amdhsa_exception_int_div_zero 0
	.end_amdhsa_kernel
	.text
.Lfunc_end4:
	.size	scalar_sum, .Lfunc_end4-scalar_sum
                                        ; -- End function
	.section	.AMDGPU.csdata,"",@progbits
; Kernel info:
; codeLenInByte = 196
; NumSgprs: 12
; NumVgprs: 7
; NumAgprs: 0
; TotalNumVgprs: 7
; ScratchSize: 0
; MemoryBound: 0
; FloatMode: 240
; IeeeMode: 1
; LDSByteSize: 0 bytes/workgroup (compile time only)
; SGPRBlocks: 1
; VGPRBlocks: 0
; NumSGPRsForWavesPerEU: 12
; NumVGPRsForWavesPerEU: 7
; AccumOffset: 8
; Occupancy: 8
; WaveLimiterHint : 0
; COMPUTE_PGM_RSRC2:SCRATCH_EN: 0
; COMPUTE_PGM_RSRC2:USER_SGPR: 6
; COMPUTE_PGM_RSRC2:TRAP_HANDLER: 0
; COMPUTE_PGM_RSRC2:TGID_X_EN: 1
; COMPUTE_PGM_RSRC2:TGID_Y_EN: 0
; COMPUTE_PGM_RSRC2:TGID_Z_EN: 0
; COMPUTE_PGM_RSRC2:TIDIG_COMP_CNT: 0
; COMPUTE_PGM_RSRC3_GFX90A:ACCUM_OFFSET: 1
; COMPUTE_PGM_RSRC3_GFX90A:TG_SPLIT: 0
	.text
	.p2alignl 6, 3212836864
	.fill 256, 4, 3212836864
	.type	__hip_cuid_9021d478c79dd39b,@object ; @__hip_cuid_9021d478c79dd39b
	.section	.bss,"aw",@nobits
	.globl	__hip_cuid_9021d478c79dd39b
__hip_cuid_9021d478c79dd39b:
	.byte	0                               ; 0x0
	.size	__hip_cuid_9021d478c79dd39b, 1

	.ident	"Debian clang version 19.1.7 (3~deb12u1)"
	.section	".note.GNU-stack","",@progbits
	.addrsig
	.addrsig_sym __hip_cuid_9021d478c79dd39b
	.amdgpu_metadata
---
amdhsa.kernels:
  - .agpr_count:     0
    .args:
      - .actual_access:  read_only
        .address_space:  global
        .offset:         0
        .size:           8
        .value_kind:     global_buffer
      - .actual_access:  read_only
        .address_space:  global
        .offset:         8
        .size:           8
        .value_kind:     global_buffer
      - .actual_access:  write_only
        .address_space:  global
        .offset:         16
        .size:           8
        .value_kind:     global_buffer
      - .offset:         24
        .size:           4
        .value_kind:     by_value
    .group_segment_fixed_size: 2048
    .kernarg_segment_align: 8
    .kernarg_segment_size: 28
    .max_flat_workgroup_size: 256
    .name:           matmul_tiled
    .private_segment_fixed_size: 0
    .sgpr_count:     15
    .sgpr_spill_count: 0
    .symbol:         matmul_tiled.kd
    .uniform_work_group_size: 1
    .uses_dynamic_stack: false
    .vgpr_count:     44
    .vgpr_spill_count: 0
    .wavefront_size: 64
  - .agpr_count:     4
    .args:
      - .actual_access:  read_only
        .address_space:  global
        .offset:         0
        .size:           8
        .value_kind:     global_buffer
      - .actual_access:  read_only
        .address_space:  global
        .offset:         8
        .size:           8
        .value_kind:     global_buffer
      - .address_space:  global
        .offset:         16
        .size:           8
        .value_kind:     global_buffer
      - .offset:         24
        .size:           4
        .value_kind:     by_value
    .group_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .kernarg_segment_size: 28
    .max_flat_workgroup_size: 64
    .name:           mfma16
    .private_segment_fixed_size: 0
    .sgpr_count:     12
    .sgpr_spill_count: 0
    .symbol:         mfma16.kd
    .uniform_work_group_size: 1
    .uses_dynamic_stack: false
    .vgpr_count:     16
    .vgpr_spill_count: 0
    .wavefront_size: 64
  - .agpr_count:     128
    .args:
      - .actual_access:  read_only
        .address_space:  global
        .offset:         0
        .size:           8
        .value_kind:     global_buffer
      - .actual_access:  read_only
        .address_space:  global
        .offset:         8
        .size:           8
        .value_kind:     global_buffer
      - .actual_access:  write_only
        .address_space:  global
        .offset:         16
        .size:           8
        .value_kind:     global_buffer
      - .offset:         24
        .size:           4
        .value_kind:     by_value
    .group_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .kernarg_segment_size: 28
    .max_flat_workgroup_size: 256
    .name:           mfma32_agpr
    .private_segment_fixed_size: 0
    .sgpr_count:     13
    .sgpr_spill_count: 0
    .symbol:         mfma32_agpr.kd
    .uniform_work_group_size: 1
    .uses_dynamic_stack: false
    .vgpr_count:     140
    .vgpr_spill_count: 0
    .wavefront_size: 64
  - .agpr_count:     0
    .args:
      - .actual_access:  read_only
        .address_space:  global
        .offset:         0
        .size:           8
        .value_kind:     global_buffer
      - .actual_access:  write_only
        .address_space:  global
        .offset:         8
        .size:           8
        .value_kind:     global_buffer
      - .offset:         16
        .size:           4
        .value_kind:     by_value
    .group_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .kernarg_segment_size: 20
    .max_flat_workgroup_size: 1024
    .name:           spill_kernel
    .private_segment_fixed_size: 60
    .sgpr_count:     20
    .sgpr_spill_count: 0
    .symbol:         spill_kernel.kd
    .uniform_work_group_size: 1
    .uses_dynamic_stack: false
    .vgpr_count:     64
    .vgpr_spill_count: 14
    .wavefront_size: 64
  - .agpr_count:     0
    .args:
      - .actual_access:  read_only
        .address_space:  global
        .offset:         0
        .size:           8
        .value_kind:     global_buffer
      - .actual_access:  write_only
        .address_space:  global
        .offset:         8
        .size:           8
        .value_kind:     global_buffer
      - .offset:         16
        .size:           4
        .value_kind:     by_value
    .group_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .kernarg_segment_size: 20
    .max_flat_workgroup_size: 256
    .name:           scalar_sum
    .private_segment_fixed_size: 0
    .sgpr_count:     12
    .sgpr_spill_count: 0
    .symbol:         scalar_sum.kd
    .uniform_work_group_size: 1
    .uses_dynamic_stack: false
    .vgpr_count:     7
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.target:   amdgcn-amd-amdhsa--gfx90a
amdhsa.version:
  - 1
  - 2
...

	.end_amdgpu_metadata
