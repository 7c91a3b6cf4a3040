	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.amdhsa_code_object_version 5
	.protected	matmul_tiled            ; -- Begin function matmul_tiled
	.globl	matmul_tiled
	.p2align	8
	.type	matmul_tiled,@function
matmul_tiled:                           ; @matmul_tiled
; %bb.0:
	s_load_dwordx2 s[4:5], s[0:1], 0x10
	s_load_dword s7, s[0:1], 0x18
	v_and_b32_e32 v2, 15, v0
	v_lshrrev_b32_e32 v0, 4, v0
	v_lshl_or_b32 v1, s3, 4, v0
	s_lshl_b32 s6, s2, 4
	s_waitcnt lgkmcnt(0)
	s_cmp_lt_i32 s7, 1
	v_mul_lo_u32 v3, v1, s7
	s_cbranch_scc1 .LBB0_3
; %bb.1:
	s_load_dwordx4 s[0:3], s[0:1], 0x0
	v_lshlrev_b32_e32 v1, 2, v2
	v_lshlrev_b32_e32 v4, 6, v0
	v_or_b32_e32 v6, 0x400, v1
	v_mul_lo_u32 v0, s7, v0
	v_or_b32_e32 v5, v4, v1
	v_or_b32_e32 v7, v6, v4
	v_add3_u32 v0, v0, s6, v2
	s_lshl_b32 s8, s7, 4
	v_add_u32_e32 v9, v3, v2
	s_mov_b32 s9, 0
	v_mov_b32_e32 v8, 0
.LBB0_2:                                ; =>This Inner Loop Header: Depth=1
	v_add_u32_e32 v10, s9, v9
	v_ashrrev_i32_e32 v1, 31, v0
	v_ashrrev_i32_e32 v11, 31, v10
	s_waitcnt lgkmcnt(0)
	v_lshl_add_u64 v[12:13], v[0:1], 2, s[2:3]
	v_lshl_add_u64 v[10:11], v[10:11], 2, s[0:1]
	global_load_dword v1, v[12:13], off
	global_load_dword v14, v[10:11], off
	s_add_i32 s9, s9, 16
	v_add_u32_e32 v0, s8, v0
	s_cmp_ge_i32 s9, s7
	s_waitcnt vmcnt(1)
	ds_write_b32 v7, v1
	s_waitcnt vmcnt(0)
	ds_write_b32 v5, v14
	s_waitcnt lgkmcnt(0)
	s_barrier
	ds_read_b128 v[10:13], v4
	ds_read_b128 v[14:17], v4 offset:16
	ds_read_b128 v[18:21], v4 offset:32
	ds_read_b128 v[22:25], v4 offset:48
	ds_read2_b32 v[26:27], v6 offset1:16
	ds_read2_b32 v[28:29], v6 offset0:32 offset1:48
	ds_read2_b32 v[30:31], v6 offset0:64 offset1:80
	ds_read2_b32 v[32:33], v6 offset0:96 offset1:112
	ds_read2_b32 v[34:35], v6 offset0:128 offset1:144
	ds_read2_b32 v[36:37], v6 offset0:160 offset1:176
	ds_read2_b32 v[38:39], v6 offset0:192 offset1:208
	ds_read2_b32 v[40:41], v6 offset0:224 offset1:240
	s_waitcnt lgkmcnt(7)
	v_fmac_f32_e32 v8, v10, v26
	v_fmac_f32_e32 v8, v11, v27
	s_waitcnt lgkmcnt(6)
	v_fmac_f32_e32 v8, v12, v28
	s_waitcnt lgkmcnt(5)
	v_pk_mul_f32 v[14:15], v[14:15], v[30:31]
	v_fmac_f32_e32 v8, v13, v29
	v_add_f32_e32 v1, v8, v14
	s_waitcnt lgkmcnt(4)
	v_pk_mul_f32 v[16:17], v[16:17], v[32:33]
	v_add_f32_e32 v1, v1, v15
	v_add_f32_e32 v1, v1, v16
	s_waitcnt lgkmcnt(3)
	v_pk_mul_f32 v[18:19], v[18:19], v[34:35]
	v_add_f32_e32 v1, v1, v17
	v_add_f32_e32 v1, v1, v18
	s_waitcnt lgkmcnt(2)
	v_pk_mul_f32 v[20:21], v[20:21], v[36:37]
	v_add_f32_e32 v1, v1, v19
	v_add_f32_e32 v1, v1, v20
	s_waitcnt lgkmcnt(1)
	v_pk_mul_f32 v[22:23], v[22:23], v[38:39]
	v_add_f32_e32 v1, v1, v21
	v_add_f32_e32 v1, v1, v22
	s_waitcnt lgkmcnt(0)
	v_pk_mul_f32 v[24:25], v[24:25], v[40:41]
	v_add_f32_e32 v1, v1, v23
	v_add_f32_e32 v1, v1, v24
	v_add_f32_e32 v8, v1, v25
	s_barrier
	s_cbranch_scc0 .LBB0_2
	s_branch .LBB0_4
.LBB0_3:
	v_mov_b32_e32 v8, 0
.LBB0_4:
	v_or_b32_e32 v0, s6, v2
	v_add_u32_e32 v0, v3, v0
	v_ashrrev_i32_e32 v1, 31, v0
	v_lshl_add_u64 v[0:1], v[0:1], 2, s[4:5]
	global_store_dword v[0:1], v8, off
	s_endpgm
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel matmul_tiled
		.amdhsa_group_segment_fixed_size 2048
		.amdhsa_private_segment_fixed_size 0
		.amdhsa_kernarg_size 28
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_dispatch_ptr 0
		.amdhsa_user_sgpr_queue_ptr 0
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_user_sgpr_dispatch_id 0
		.amdhsa_user_sgpr_kernarg_preload_length 0
		.amdhsa_user_sgpr_kernarg_preload_offset 0
		.amdhsa_user_sgpr_private_segment_size 0
		.amdhsa_uses_dynamic_stack 0
		.amdhsa_enable_private_segment 0
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_sgpr_workgroup_id_y 1
		.amdhsa_system_sgpr_workgroup_id_z 0
		.amdhsa_system_sgpr_workgroup_info 0
		.amdhsa_system_vgpr_workitem_id 0
		.amdhsa_next_free_vgpr 42
		.amdhsa_next_free_sgpr 10
		.amdhsa_accum_offset 44
		.amdhsa_reserve_vcc 0
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
; codeLenInByte = 500
; NumSgprs: 16
; NumVgprs: 42
; NumAgprs: 0
; TotalNumVgprs: 42
; ScratchSize: 0
; MemoryBound: 0
; FloatMode: 240
; IeeeMode: 1
; LDSByteSize: 2048 bytes/workgroup (compile time only)
; SGPRBlocks: 1
; VGPRBlocks: 5
; NumSGPRsForWavesPerEU: 16
; NumVGPRsForWavesPerEU: 42
; AccumOffset: 44
; Occupancy: 8
; WaveLimiterHint : 0
; COMPUTE_PGM_RSRC2:SCRATCH_EN: 0
; COMPUTE_PGM_RSRC2:USER_SGPR: 2
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
	s_load_dwordx2 s[2:3], s[0:1], 0x10
	s_load_dword s4, s[0:1], 0x18
	v_lshlrev_b32_e32 v2, 4, v0
	v_mov_b32_e32 v3, 0
	s_waitcnt lgkmcnt(0)
	global_load_dwordx4 a[0:3], v2, s[2:3]
	s_cmp_lt_i32 s4, 1
	s_cbranch_scc1 .LBB1_3
; %bb.1:
	s_load_dwordx4 s[8:11], s[0:1], 0x0
	v_lshlrev_b32_e32 v4, 3, v0
	v_mov_b32_e32 v5, v3
	s_mov_b64 s[0:1], 0x200
	s_waitcnt lgkmcnt(0)
	v_lshl_add_u64 v[0:1], s[8:9], 0, v[4:5]
	v_lshl_add_u64 v[4:5], s[10:11], 0, v[4:5]
.LBB1_2:                                ; =>This Inner Loop Header: Depth=1
	global_load_dwordx2 v[6:7], v[0:1], off
	global_load_dwordx2 v[8:9], v[4:5], off
	s_add_i32 s4, s4, -1
	v_lshl_add_u64 v[0:1], v[0:1], 0, s[0:1]
	s_cmp_eq_u32 s4, 0
	v_lshl_add_u64 v[4:5], v[4:5], 0, s[0:1]
	s_waitcnt vmcnt(0)
	v_mfma_f32_16x16x16_f16 a[0:3], v[6:7], v[8:9], a[0:3]
	s_cbranch_scc0 .LBB1_2
.LBB1_3:
	v_lshl_add_u64 v[0:1], s[2:3], 0, v[2:3]
	s_waitcnt vmcnt(0)
	s_nop 3
	global_store_dwordx4 v[0:1], a[0:3], off
	s_endpgm
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel mfma16
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_private_segment_fixed_size 0
		.amdhsa_kernarg_size 28
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_dispatch_ptr 0
		.amdhsa_user_sgpr_queue_ptr 0
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_user_sgpr_dispatch_id 0
		.amdhsa_user_sgpr_kernarg_preload_length 0
		.amdhsa_user_sgpr_kernarg_preload_offset 0
		.amdhsa_user_sgpr_private_segment_size 0
		.amdhsa_uses_dynamic_stack 0
		.amdhsa_enable_private_segment 0
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_sgpr_workgroup_id_y 0
		.amdhsa_system_sgpr_workgroup_id_z 0
		.amdhsa_system_sgpr_workgroup_info 0
		.amdhsa_system_vgpr_workitem_id 0
		.amdhsa_next_free_vgpr 16
		.amdhsa_next_free_sgpr 12
		.amdhsa_accum_offset 12
		.amdhsa_reserve_vcc 0
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
; codeLenInByte = 172
; NumSgprs: 18
; NumVgprs: 10
; NumAgprs: 4
; TotalNumVgprs: 16
; ScratchSize: 0
; MemoryBound: 0
; FloatMode: 240
; IeeeMode: 1
; LDSByteSize: 0 bytes/workgroup (compile time only)
; SGPRBlocks: 2
; VGPRBlocks: 1
; NumSGPRsForWavesPerEU: 18
; NumVGPRsForWavesPerEU: 16
; AccumOffset: 12
; Occupancy: 8
; WaveLimiterHint : 0
; COMPUTE_PGM_RSRC2:SCRATCH_EN: 0
; COMPUTE_PGM_RSRC2:USER_SGPR: 2
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
	s_load_dword s6, s[0:1], 0x18
	s_load_dwordx2 s[4:5], s[0:1], 0x10
	s_waitcnt lgkmcnt(0)
	s_cmp_lt_i32 s6, 1
	s_cbranch_scc1 .LBB2_3
; %bb.1:
	s_load_dwordx4 s[0:3], s[0:1], 0x0
	v_mov_b32_e32 v3, 0
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
	v_mov_b32_e32 v2, v0
.LBB2_2:                                ; =>This Inner Loop Header: Depth=1
	v_lshlrev_b64 v[4:5], 3, v[2:3]
	s_waitcnt lgkmcnt(0)
	v_lshl_add_u64 v[6:7], s[0:1], 0, v[4:5]
	v_lshl_add_u64 v[4:5], s[2:3], 0, v[4:5]
	global_load_dwordx2 v[6:7], v[6:7], off
	s_nop 0
	global_load_dwordx2 v[4:5], v[4:5], off
	s_add_i32 s6, s6, -1
	s_cmp_eq_u32 s6, 0
	v_add_u32_e32 v2, 64, v2
	s_waitcnt vmcnt(1)
	v_mfma_f32_32x32x8_f16 a[80:95], v[6:7], v[6:7], a[80:95]
	s_waitcnt vmcnt(0)
	v_mfma_f32_32x32x8_f16 a[64:79], v[6:7], v[4:5], a[64:79]
	v_mfma_f32_32x32x8_f16 a[48:63], v[4:5], v[6:7], a[48:63]
	v_mfma_f32_32x32x8_f16 a[96:111], v[4:5], v[4:5], a[96:111]
	v_mfma_f32_32x32x8_f16 a[112:127], v[6:7], v[4:5], a[112:127] cbsz:1
	v_mfma_f32_32x32x8_f16 a[32:47], v[4:5], v[6:7], a[32:47] cbsz:1
	v_mfma_f32_32x32x8_f16 a[16:31], v[6:7], v[6:7], a[16:31] cbsz:1
	v_mfma_f32_32x32x8_f16 a[0:15], v[4:5], v[4:5], a[0:15] cbsz:1
	s_cbranch_scc0 .LBB2_2
	s_branch .LBB2_4
.LBB2_3:
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
.LBB2_4:
	v_lshlrev_b32_e32 v0, 9, v0
	s_nop 1
	global_store_dwordx4 v0, a[76:79], s[4:5] offset:48
	global_store_dwordx4 v0, a[72:75], s[4:5] offset:32
	global_store_dwordx4 v0, a[68:71], s[4:5] offset:16
	global_store_dwordx4 v0, a[64:67], s[4:5]
	global_store_dwordx4 v0, a[60:63], s[4:5] offset:112
	global_store_dwordx4 v0, a[56:59], s[4:5] offset:96
	global_store_dwordx4 v0, a[52:55], s[4:5] offset:80
	global_store_dwordx4 v0, a[48:51], s[4:5] offset:64
	global_store_dwordx4 v0, a[92:95], s[4:5] offset:176
	global_store_dwordx4 v0, a[88:91], s[4:5] offset:160
	global_store_dwordx4 v0, a[84:87], s[4:5] offset:144
	global_store_dwordx4 v0, a[80:83], s[4:5] offset:128
	global_store_dwordx4 v0, a[108:111], s[4:5] offset:240
	global_store_dwordx4 v0, a[104:107], s[4:5] offset:224
	global_store_dwordx4 v0, a[100:103], s[4:5] offset:208
	global_store_dwordx4 v0, a[96:99], s[4:5] offset:192
	global_store_dwordx4 v0, a[124:127], s[4:5] offset:304
	global_store_dwordx4 v0, a[120:123], s[4:5] offset:288
	global_store_dwordx4 v0, a[116:119], s[4:5] offset:272
	global_store_dwordx4 v0, a[112:115], s[4:5] offset:256
	global_store_dwordx4 v0, a[44:47], s[4:5] offset:368
	global_store_dwordx4 v0, a[40:43], s[4:5] offset:352
	global_store_dwordx4 v0, a[36:39], s[4:5] offset:336
	global_store_dwordx4 v0, a[32:35], s[4:5] offset:320
	global_store_dwordx4 v0, a[28:31], s[4:5] offset:432
	global_store_dwordx4 v0, a[24:27], s[4:5] offset:416
	global_store_dwordx4 v0, a[20:23], s[4:5] offset:400
	global_store_dwordx4 v0, a[16:19], s[4:5] offset:384
	global_store_dwordx4 v0, a[12:15], s[4:5] offset:496
	global_store_dwordx4 v0, a[8:11], s[4:5] offset:480
	global_store_dwordx4 v0, a[4:7], s[4:5] offset:464
	global_store_dwordx4 v0, a[0:3], s[4:5] offset:448
	s_endpgm
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel mfma32_agpr
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_private_segment_fixed_size 0
		.amdhsa_kernarg_size 28
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_dispatch_ptr 0
		.amdhsa_user_sgpr_queue_ptr 0
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_user_sgpr_dispatch_id 0
		.amdhsa_user_sgpr_kernarg_preload_length 0
		.amdhsa_user_sgpr_kernarg_preload_offset 0
		.amdhsa_user_sgpr_private_segment_size 0
		.amdhsa_uses_dynamic_stack 0
		.amdhsa_enable_private_segment 0
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_sgpr_workgroup_id_y 0
		.amdhsa_system_sgpr_workgroup_id_z 0
		.amdhsa_system_sgpr_workgroup_info 0
		.amdhsa_system_vgpr_workitem_id 0
		.amdhsa_next_free_vgpr 136
		.amdhsa_next_free_sgpr 7
		.amdhsa_accum_offset 8
		.amdhsa_reserve_vcc 0
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
; codeLenInByte = 2500
; NumSgprs: 13
; NumVgprs: 8
; NumAgprs: 128
; TotalNumVgprs: 136
; ScratchSize: 0
; MemoryBound: 0
; FloatMode: 240
; IeeeMode: 1
; LDSByteSize: 0 bytes/workgroup (compile time only)
; SGPRBlocks: 1
; VGPRBlocks: 16
; NumSGPRsForWavesPerEU: 13
; NumVGPRsForWavesPerEU: 136
; AccumOffset: 8
; Occupancy: 3
; WaveLimiterHint : 0
; COMPUTE_PGM_RSRC2:SCRATCH_EN: 0
; COMPUTE_PGM_RSRC2:USER_SGPR: 2
; COMPUTE_PGM_RSRC2:TRAP_HANDLER: 0
; COMPUTE_PGM_RSRC2:TGID_X_EN: 1
; COMPUTE_PGM_RSRC2:TGID_Y_EN: 0
; COMPUTE_PGM_RSRC2:TGID_Z_EN: 0
; COMPUTE_PGM_RSRC2:TIDIG_COMP_CNT: 0
; COMPUTE_PGM_RSRC3_GFX90A:ACCUM_OFFSET: 1
; COMPUTE_PGM_RSRC3_GFX90A:TG_SPLIT: 0
	.text
	.protected	spill_kernel            ; -- Begin function spill_kernel
	.globl	spill_kernel
	.p2align	8
	.type	spill_kernel,@function
spill_kernel:                           ; @spill_kernel
; %bb.0:
	s_load_dword s8, s[0:1], 0x10
	s_load_dwordx4 s[4:7], s[0:1], 0x0
	v_lshl_or_b32 v0, s2, 10, v0
	v_ashrrev_i32_e32 v1, 31, v0
	v_lshlrev_b64 v[2:3], 4, v[0:1]
	s_waitcnt lgkmcnt(0)
	s_add_i32 s0, s8, s8
	v_add_u32_e32 v0, s0, v0
	s_ashr_i32 s9, s8, 31
	scratch_store_dwordx2 off, v[2:3], off  ; 8-byte Folded Spill
	v_lshl_add_u64 v[2:3], s[4:5], 0, v[2:3]
	v_ashrrev_i32_e32 v1, 31, v0
	v_add_u32_e32 v14, s8, v0
	v_lshl_add_u64 v[8:9], s[8:9], 4, v[2:3]
	v_lshl_add_u64 v[12:13], v[0:1], 4, s[4:5]
	v_ashrrev_i32_e32 v15, 31, v14
	global_load_dwordx4 v[42:45], v[2:3], off
	global_load_dwordx4 v[4:7], v[8:9], off
	v_lshl_add_u64 v[20:21], v[14:15], 4, s[4:5]
	global_load_dwordx4 v[8:11], v[12:13], off
	global_load_dwordx4 v[16:19], v[20:21], off
	v_add_u32_e32 v12, s8, v14
	v_ashrrev_i32_e32 v13, 31, v12
	v_lshl_add_u64 v[14:15], v[12:13], 4, s[4:5]
	v_add_u32_e32 v12, s8, v12
	v_ashrrev_i32_e32 v13, 31, v12
	v_lshl_add_u64 v[20:21], v[12:13], 4, s[4:5]
	global_load_dwordx4 v[36:39], v[20:21], off
	v_add_u32_e32 v12, s8, v12
	v_ashrrev_i32_e32 v13, 31, v12
	v_lshl_add_u64 v[20:21], v[12:13], 4, s[4:5]
	v_add_u32_e32 v22, s8, v12
	global_load_dwordx4 v[32:35], v[20:21], off
	v_add_u32_e32 v20, s8, v22
	v_ashrrev_i32_e32 v23, 31, v22
	v_ashrrev_i32_e32 v21, 31, v20
	v_add_u32_e32 v40, s8, v20
	v_lshl_add_u64 v[12:13], v[22:23], 4, s[4:5]
	v_lshl_add_u64 v[22:23], v[20:21], 4, s[4:5]
	v_ashrrev_i32_e32 v41, 31, v40
	global_load_dwordx4 v[28:31], v[12:13], off
	s_nop 0
	global_load_dwordx4 v[12:15], v[14:15], off
	v_lshl_add_u64 v[20:21], v[40:41], 4, s[4:5]
	global_load_dwordx4 v[24:27], v[22:23], off
	v_add_u32_e32 v40, s8, v40
	global_load_dwordx4 v[20:23], v[20:21], off
	v_ashrrev_i32_e32 v41, 31, v40
	v_add_u32_e32 v48, s8, v40
	v_lshl_add_u64 v[40:41], v[40:41], 4, s[4:5]
	v_ashrrev_i32_e32 v49, 31, v48
	s_waitcnt vmcnt(9)
	v_mov_b32_e32 v54, v44
	v_mov_b32_e32 v53, v43
	s_waitcnt vmcnt(5)
	v_fma_f32 v0, v42, v5, v38
	v_add_f32_e32 v1, v45, v0
	global_load_dwordx4 v[44:47], v[40:41], off
	v_lshl_add_u64 v[40:41], v[48:49], 4, s[4:5]
	global_load_dwordx4 v[40:43], v[40:41], off
	s_waitcnt vmcnt(6)
	v_fma_f32 v2, v4, v9, v34
	v_fma_f32 v0, v0, v5, v38
	v_add_f32_e32 v3, v7, v2
	v_add_f32_e32 v1, v1, v0
	v_fma_f32 v2, v2, v9, v34
	v_fma_f32 v0, v0, v5, v38
	v_add_f32_e32 v3, v3, v2
	s_waitcnt vmcnt(5)
	v_fma_f32 v4, v8, v17, v30
	v_add_f32_e32 v7, v11, v4
	v_fma_f32 v4, v4, v17, v30
	s_waitcnt vmcnt(3)
	v_fma_f32 v8, v16, v13, v26
	v_add_f32_e32 v1, v1, v0
	v_fma_f32 v2, v2, v9, v34
	v_fma_f32 v16, v0, v5, v38
	v_add_f32_e32 v0, v19, v8
	v_add_f32_e32 v7, v7, v4
	v_fma_f32 v8, v8, v13, v26
	v_add_f32_e32 v3, v3, v2
	v_fma_f32 v11, v4, v17, v30
	v_add_f32_e32 v55, v1, v16
	v_fma_f32 v4, v2, v9, v34
	s_waitcnt vmcnt(2)
	v_fma_f32 v1, v12, v37, v22
	v_add_f32_e32 v0, v0, v8
	v_add_f32_e32 v2, v7, v11
	v_fma_f32 v12, v8, v13, v26
	v_add_f32_e32 v7, v3, v4
	v_fma_f32 v8, v11, v17, v30
	v_add_f32_e32 v3, v15, v1
	v_fma_f32 v1, v1, v37, v22
	v_add_f32_e32 v0, v0, v12
	v_add_f32_e32 v11, v2, v8
	v_fma_f32 v2, v12, v13, v26
	v_add_f32_e32 v3, v3, v1
	v_fma_f32 v1, v1, v37, v22
	v_add_f32_e32 v19, v0, v2
	v_add_f32_e32 v0, v3, v1
	v_fma_f32 v12, v1, v37, v22
	v_add_f32_e32 v15, v0, v12
	v_pk_add_f32 v[50:51], v[54:55], 0 op_sel_hi:[1,0]
	v_mul_f32_e32 v5, v5, v7
	v_pk_add_f32 v[50:51], v[50:51], v[6:7]
	v_mul_f32_e32 v9, v9, v11
	v_pk_add_f32 v[50:51], v[50:51], v[10:11]
	v_mul_f32_e32 v13, v13, v15
	v_pk_add_f32 v[50:51], v[50:51], v[18:19]
	s_waitcnt vmcnt(1)
	v_fma_f32 v0, v36, v33, v46
	v_add_f32_e32 v1, v39, v0
	v_fma_f32 v0, v0, v33, v46
	v_add_f32_e32 v1, v1, v0
	v_fma_f32 v0, v0, v33, v46
	v_add_f32_e32 v1, v1, v0
	v_fma_f32 v0, v0, v33, v46
	v_add_f32_e32 v39, v1, v0
	v_mul_f32_e32 v1, v37, v39
	scratch_store_dwordx2 off, v[0:1], off offset:16 ; 8-byte Folded Spill
	s_waitcnt vmcnt(1)
	v_fma_f32 v0, v32, v29, v42
	v_add_f32_e32 v1, v35, v0
	v_fma_f32 v0, v0, v29, v42
	v_add_f32_e32 v1, v1, v0
	v_fma_f32 v0, v0, v29, v42
	v_add_f32_e32 v1, v1, v0
	v_fma_f32 v56, v0, v29, v42
	v_pk_add_f32 v[50:51], v[50:51], v[14:15]
	v_add_f32_e32 v35, v1, v56
	v_add_u32_e32 v32, s8, v48
	v_pk_add_f32 v[36:37], v[50:51], v[38:39]
	v_mul_f32_e32 v57, v33, v35
	v_ashrrev_i32_e32 v33, 31, v32
	v_pk_add_f32 v[36:37], v[36:37], v[34:35]
	v_lshl_add_u64 v[34:35], v[32:33], 4, s[4:5]
	v_add_u32_e32 v38, s8, v32
	global_load_dwordx4 v[48:51], v[34:35], off
	v_ashrrev_i32_e32 v39, 31, v38
	v_lshl_add_u64 v[32:33], v[38:39], 4, s[4:5]
	global_load_dwordx4 v[32:35], v[32:33], off
	s_waitcnt vmcnt(1)
	v_fma_f32 v0, v28, v25, v50
	v_add_f32_e32 v1, v31, v0
	v_fma_f32 v0, v0, v25, v50
	v_add_f32_e32 v1, v1, v0
	v_fma_f32 v0, v0, v25, v50
	v_add_f32_e32 v1, v1, v0
	v_fma_f32 v58, v0, v25, v50
	s_waitcnt vmcnt(0)
	v_fma_f32 v0, v24, v21, v34
	v_add_f32_e32 v31, v1, v58
	v_add_f32_e32 v1, v27, v0
	v_fma_f32 v0, v0, v21, v34
	v_add_f32_e32 v1, v1, v0
	v_fma_f32 v0, v0, v21, v34
	v_add_f32_e32 v1, v1, v0
	v_fma_f32 v60, v0, v21, v34
	v_add_f32_e32 v27, v1, v60
	v_add_u32_e32 v24, s8, v38
	v_mul_f32_e32 v59, v29, v31
	v_pk_add_f32 v[28:29], v[36:37], v[30:31]
	v_mul_f32_e32 v61, v25, v27
	v_ashrrev_i32_e32 v25, 31, v24
	v_pk_add_f32 v[36:37], v[28:29], v[26:27]
	v_lshl_add_u64 v[26:27], v[24:25], 4, s[4:5]
	v_add_u32_e32 v38, s8, v24
	global_load_dwordx4 v[28:31], v[26:27], off
	v_ashrrev_i32_e32 v39, 31, v38
	v_lshl_add_u64 v[24:25], v[38:39], 4, s[4:5]
	global_load_dwordx4 v[24:27], v[24:25], off
	s_waitcnt vmcnt(1)
	v_fma_f32 v0, v20, v45, v30
	v_add_f32_e32 v1, v23, v0
	v_fma_f32 v0, v0, v45, v30
	v_add_f32_e32 v1, v1, v0
	v_fma_f32 v0, v0, v45, v30
	v_add_f32_e32 v1, v1, v0
	v_fma_f32 v62, v0, v45, v30
	s_waitcnt vmcnt(0)
	v_fma_f32 v0, v44, v41, v26
	v_add_f32_e32 v23, v1, v62
	v_add_f32_e32 v1, v47, v0
	v_fma_f32 v0, v0, v41, v26
	v_add_f32_e32 v1, v1, v0
	v_fma_f32 v0, v0, v41, v26
	v_add_f32_e32 v1, v1, v0
	v_fma_f32 v44, v0, v41, v26
	v_mul_f32_e32 v63, v21, v23
	v_pk_add_f32 v[20:21], v[36:37], v[22:23]
	v_add_f32_e32 v47, v1, v44
	v_mul_f32_e32 v45, v45, v47
	v_pk_add_f32 v[46:47], v[20:21], v[46:47]
	v_add_u32_e32 v20, s8, v38
	v_ashrrev_i32_e32 v21, 31, v20
	v_lshl_add_u64 v[22:23], v[20:21], 4, s[4:5]
	v_add_u32_e32 v0, s8, v20
	global_load_dwordx4 v[36:39], v[22:23], off
	v_ashrrev_i32_e32 v1, 31, v0
	v_lshl_add_u64 v[20:21], v[0:1], 4, s[4:5]
	global_load_dwordx4 v[20:23], v[20:21], off
	s_waitcnt vmcnt(1)
	v_fma_f32 v1, v40, v49, v38
	v_add_f32_e32 v3, v43, v1
	v_fma_f32 v1, v1, v49, v38
	v_add_f32_e32 v3, v3, v1
	v_fma_f32 v1, v1, v49, v38
	v_add_f32_e32 v3, v3, v1
	v_fma_f32 v40, v1, v49, v38
	s_waitcnt vmcnt(0)
	v_fma_f32 v1, v48, v33, v22
	v_add_f32_e32 v43, v3, v40
	v_add_f32_e32 v3, v51, v1
	v_fma_f32 v1, v1, v33, v22
	v_add_f32_e32 v3, v3, v1
	v_fma_f32 v1, v1, v33, v22
	v_mul_f32_e32 v41, v41, v43
	v_pk_add_f32 v[42:43], v[46:47], v[42:43]
	v_add_f32_e32 v3, v3, v1
	v_fma_f32 v46, v1, v33, v22
	v_add_f32_e32 v51, v3, v46
	v_pk_add_f32 v[42:43], v[42:43], v[50:51]
	scratch_store_dwordx2 off, v[42:43], off offset:8 ; 8-byte Folded Spill
	v_mov_b32_e32 v42, v16
	v_mul_f32_e32 v43, v53, v55
	v_pk_add_f32 v[42:43], v[42:43], 0 op_sel_hi:[1,0]
	v_mul_f32_e32 v3, v17, v19
	v_pk_add_f32 v[4:5], v[42:43], v[4:5]
	v_mul_f32_e32 v47, v49, v51
	v_pk_add_f32 v[4:5], v[4:5], v[8:9]
	s_nop 0
	v_pk_add_f32 v[2:3], v[4:5], v[2:3]
	scratch_load_dwordx2 v[4:5], off, off offset:16 ; 8-byte Folded Reload
	v_pk_add_f32 v[2:3], v[2:3], v[12:13]
	s_waitcnt vmcnt(0)
	v_pk_add_f32 v[2:3], v[2:3], v[4:5]
	s_nop 0
	v_pk_add_f32 v[2:3], v[2:3], v[56:57]
	v_add_u32_e32 v4, s8, v0
	v_pk_add_f32 v[2:3], v[2:3], v[58:59]
	v_ashrrev_i32_e32 v5, 31, v4
	v_pk_add_f32 v[2:3], v[2:3], v[60:61]
	s_nop 0
	v_pk_add_f32 v[2:3], v[2:3], v[62:63]
	s_nop 0
	v_pk_add_f32 v[2:3], v[2:3], v[44:45]
	s_nop 0
	v_pk_add_f32 v[0:1], v[2:3], v[40:41]
	v_add_u32_e32 v2, s8, v4
	v_add_u32_e32 v16, s8, v2
	v_add_u32_e32 v8, s8, v16
	v_add_u32_e32 v44, s8, v8
	v_add_u32_e32 v12, s8, v44
	v_ashrrev_i32_e32 v13, 31, v12
	v_lshl_add_u64 v[12:13], v[12:13], 4, s[4:5]
	global_load_dwordx4 v[40:43], v[12:13], off
	v_ashrrev_i32_e32 v3, 31, v2
	v_ashrrev_i32_e32 v45, 31, v44
	v_pk_add_f32 v[0:1], v[0:1], v[46:47]
	v_lshl_add_u64 v[12:13], v[2:3], 4, s[4:5]
	v_lshl_add_u64 v[2:3], v[44:45], 4, s[4:5]
	scratch_store_dwordx2 off, v[0:1], off offset:16 ; 8-byte Folded Spill
	global_load_dwordx4 v[44:47], v[2:3], off
	v_mov_b32_e32 v1, v53
	v_ashrrev_i32_e32 v17, 31, v16
	v_lshl_add_u64 v[48:49], v[16:17], 4, s[4:5]
	v_ashrrev_i32_e32 v9, 31, v8
	v_mov_b32_e32 v2, v54
	s_waitcnt vmcnt(2)
	v_fma_f32 v15, v40, v1, v14
	v_fma_f32 v16, v15, v1, v14
	v_fma_f32 v17, v16, v1, v14
	v_fmac_f32_e32 v14, v17, v1
	v_lshl_add_u64 v[0:1], v[4:5], 4, s[4:5]
	v_lshl_add_u64 v[4:5], v[8:9], 4, s[4:5]
	global_load_dwordx4 v[48:51], v[48:49], off
	s_nop 0
	global_load_dwordx4 v[56:59], v[12:13], off
	global_load_dwordx4 v[60:63], v[0:1], off
	global_load_dwordx4 v[52:55], v[4:5], off
	s_waitcnt vmcnt(2)
	v_fma_f32 v5, v56, v49, v2
	scratch_load_dwordx2 v[0:1], off, off offset:16 ; 8-byte Folded Reload
	v_fma_f32 v7, v5, v49, v2
	v_fma_f32 v8, v7, v49, v2
	v_fma_f32 v4, v8, v49, v2
	s_waitcnt vmcnt(2)
	v_fma_f32 v2, v32, v29, v62
	v_add_f32_e32 v3, v35, v2
	v_fma_f32 v2, v2, v29, v62
	v_add_f32_e32 v3, v3, v2
	v_fma_f32 v2, v2, v29, v62
	v_add_f32_e32 v3, v3, v2
	v_fma_f32 v2, v2, v29, v62
	v_add_f32_e32 v35, v3, v2
	v_mul_f32_e32 v3, v33, v35
	s_waitcnt vmcnt(0)
	v_pk_add_f32 v[0:1], v[0:1], v[2:3]
	v_fma_f32 v2, v28, v25, v58
	v_add_f32_e32 v3, v31, v2
	v_fma_f32 v2, v2, v25, v58
	v_add_f32_e32 v3, v3, v2
	v_fma_f32 v2, v2, v25, v58
	v_add_f32_e32 v3, v3, v2
	v_fma_f32 v2, v2, v25, v58
	v_add_f32_e32 v31, v3, v2
	v_mul_f32_e32 v3, v29, v31
	v_pk_add_f32 v[0:1], v[0:1], v[2:3]
	v_fma_f32 v2, v24, v37, v50
	v_add_f32_e32 v3, v27, v2
	v_fma_f32 v2, v2, v37, v50
	v_add_f32_e32 v3, v3, v2
	v_fma_f32 v2, v2, v37, v50
	v_add_f32_e32 v3, v3, v2
	v_fma_f32 v2, v2, v37, v50
	v_add_f32_e32 v27, v3, v2
	v_mul_f32_e32 v3, v25, v27
	v_pk_add_f32 v[0:1], v[0:1], v[2:3]
	v_fma_f32 v2, v36, v21, v54
	v_add_f32_e32 v3, v39, v2
	v_fma_f32 v2, v2, v21, v54
	v_add_f32_e32 v3, v3, v2
	v_fma_f32 v2, v2, v21, v54
	v_add_f32_e32 v3, v3, v2
	v_fma_f32 v2, v2, v21, v54
	v_add_f32_e32 v39, v3, v2
	v_mul_f32_e32 v3, v37, v39
	v_pk_add_f32 v[0:1], v[0:1], v[2:3]
	v_fma_f32 v2, v20, v61, v46
	v_add_f32_e32 v3, v23, v2
	v_fma_f32 v2, v2, v61, v46
	v_add_f32_e32 v3, v3, v2
	v_fma_f32 v2, v2, v61, v46
	v_add_f32_e32 v3, v3, v2
	v_fma_f32 v2, v2, v61, v46
	v_add_f32_e32 v23, v3, v2
	v_mul_f32_e32 v3, v21, v23
	v_pk_add_f32 v[0:1], v[0:1], v[2:3]
	v_fma_f32 v2, v60, v57, v42
	v_add_f32_e32 v3, v63, v2
	v_fma_f32 v2, v2, v57, v42
	v_add_f32_e32 v3, v3, v2
	v_fma_f32 v2, v2, v57, v42
	v_add_f32_e32 v3, v3, v2
	v_fma_f32 v2, v2, v57, v42
	v_add_f32_e32 v63, v3, v2
	v_mul_f32_e32 v3, v61, v63
	v_pk_add_f32 v[0:1], v[0:1], v[2:3]
	v_add_f32_e32 v2, v59, v5
	v_add_f32_e32 v2, v2, v7
	v_add_f32_e32 v2, v2, v8
	v_add_f32_e32 v59, v2, v4
	v_fma_f32 v2, v48, v53, v6
	v_add_f32_e32 v3, v51, v2
	v_fma_f32 v2, v2, v53, v6
	v_add_f32_e32 v3, v3, v2
	v_fma_f32 v2, v2, v53, v6
	v_add_f32_e32 v3, v3, v2
	v_fmac_f32_e32 v6, v2, v53
	v_fma_f32 v2, v52, v45, v10
	v_add_f32_e32 v51, v3, v6
	v_add_f32_e32 v3, v55, v2
	v_fma_f32 v2, v2, v45, v10
	v_add_f32_e32 v3, v3, v2
	v_fma_f32 v2, v2, v45, v10
	v_add_f32_e32 v3, v3, v2
	v_fmac_f32_e32 v10, v2, v45
	v_fma_f32 v2, v44, v41, v18
	v_add_f32_e32 v55, v3, v10
	v_add_f32_e32 v3, v47, v2
	v_fma_f32 v2, v2, v41, v18
	v_add_f32_e32 v3, v3, v2
	v_fma_f32 v2, v2, v41, v18
	v_add_f32_e32 v3, v3, v2
	v_fmac_f32_e32 v18, v2, v41
	v_add_f32_e32 v2, v43, v15
	v_add_f32_e32 v2, v2, v16
	v_add_f32_e32 v2, v2, v17
	v_add_f32_e32 v47, v3, v18
	v_add_f32_e32 v43, v2, v14
	scratch_load_dwordx2 v[2:3], off, off offset:8 ; 8-byte Folded Reload
	v_mul_f32_e32 v5, v57, v59
	v_pk_add_f32 v[0:1], v[0:1], v[4:5]
	scratch_load_dwordx2 v[4:5], off, off   ; 8-byte Folded Reload
	v_mul_f32_e32 v7, v49, v51
	v_pk_add_f32 v[0:1], v[0:1], v[6:7]
	v_mul_f32_e32 v11, v53, v55
	v_pk_add_f32 v[0:1], v[0:1], v[10:11]
	v_mul_f32_e32 v19, v45, v47
	v_pk_add_f32 v[0:1], v[0:1], v[18:19]
	v_mul_f32_e32 v15, v41, v43
	v_pk_add_f32 v[0:1], v[0:1], v[14:15]
	s_waitcnt vmcnt(1)
	v_pk_add_f32 v[2:3], v[2:3], v[34:35]
	s_nop 0
	v_pk_add_f32 v[2:3], v[2:3], v[30:31]
	s_waitcnt vmcnt(0)
	v_lshl_add_u64 v[4:5], s[6:7], 0, v[4:5]
	v_pk_add_f32 v[2:3], v[2:3], v[26:27]
	s_nop 0
	v_pk_add_f32 v[2:3], v[2:3], v[38:39]
	s_nop 0
	v_pk_add_f32 v[2:3], v[2:3], v[22:23]
	s_nop 0
	v_pk_add_f32 v[2:3], v[2:3], v[62:63]
	s_nop 0
	v_pk_add_f32 v[2:3], v[2:3], v[58:59]
	s_nop 0
	v_pk_add_f32 v[2:3], v[2:3], v[50:51]
	s_nop 0
	v_pk_add_f32 v[2:3], v[2:3], v[54:55]
	s_nop 0
	v_pk_add_f32 v[2:3], v[2:3], v[46:47]
	s_nop 0
	v_pk_add_f32 v[2:3], v[2:3], v[42:43]
	global_store_dwordx4 v[4:5], v[0:3], off
	s_endpgm
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel spill_kernel
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_private_segment_fixed_size 28
		.amdhsa_kernarg_size 20
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_dispatch_ptr 0
		.amdhsa_user_sgpr_queue_ptr 0
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_user_sgpr_dispatch_id 0
		.amdhsa_user_sgpr_kernarg_preload_length 0
		.amdhsa_user_sgpr_kernarg_preload_offset 0
		.amdhsa_user_sgpr_private_segment_size 0
		.amdhsa_uses_dynamic_stack 0
		.amdhsa_enable_private_segment 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_sgpr_workgroup_id_y 0
		.amdhsa_system_sgpr_workgroup_id_z 0
		.amdhsa_system_sgpr_workgroup_info 0
		.amdhsa_system_vgpr_workitem_id 0
		.amdhsa_next_free_vgpr 64
		.amdhsa_next_free_sgpr 10
		.amdhsa_accum_offset 64
		.amdhsa_reserve_vcc 0
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
; codeLenInByte = 2476
; NumSgprs: 16
; NumVgprs: 64
; NumAgprs: 0
; TotalNumVgprs: 64
; ScratchSize: 28
; MemoryBound: 0
; FloatMode: 240
; IeeeMode: 1
; LDSByteSize: 0 bytes/workgroup (compile time only)
; SGPRBlocks: 1
; VGPRBlocks: 7
; NumSGPRsForWavesPerEU: 16
; NumVGPRsForWavesPerEU: 64
; AccumOffset: 64
; Occupancy: 8
; WaveLimiterHint : 0
; COMPUTE_PGM_RSRC2:SCRATCH_EN: 1
; COMPUTE_PGM_RSRC2:USER_SGPR: 2
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
	s_load_dword s8, s[0:1], 0x10
                                        ; implicit-def: $sgpr6
	s_waitcnt lgkmcnt(0)
	v_cmp_le_i32_e32 vcc, s8, v0
	s_and_saveexec_b64 s[2:3], vcc
	s_xor_b64 s[2:3], exec, s[2:3]
; %bb.1:
	v_mov_b32_e32 v1, 0
	s_mov_b32 s6, 0
; %bb.2:
	s_or_saveexec_b64 s[4:5], s[2:3]
	s_load_dwordx2 s[2:3], s[0:1], 0x8
	v_mov_b32_e32 v4, s6
	s_xor_b64 exec, exec, s[4:5]
	s_cbranch_execz .LBB4_6
; %bb.3:
	s_load_dwordx2 s[6:7], s[0:1], 0x0
	v_mov_b32_e32 v1, 0
	v_lshlrev_b32_e32 v2, 2, v0
	v_mov_b32_e32 v3, v1
	s_mov_b64 s[0:1], 0
	s_waitcnt lgkmcnt(0)
	v_lshl_add_u64 v[2:3], s[6:7], 0, v[2:3]
	s_mov_b64 s[6:7], 0x400
	v_mov_b32_e32 v5, v0
	v_mov_b32_e32 v4, v1
.LBB4_4:                                ; =>This Inner Loop Header: Depth=1
	global_load_dword v6, v[2:3], off
	v_add_u32_e32 v5, 0x100, v5
	v_cmp_le_i32_e32 vcc, s8, v5
	v_lshl_add_u64 v[2:3], v[2:3], 0, s[6:7]
	s_or_b64 s[0:1], vcc, s[0:1]
	s_waitcnt vmcnt(0)
	v_fmac_f32_e32 v4, v6, v6
	s_andn2_b64 exec, exec, s[0:1]
	s_cbranch_execnz .LBB4_4
; %bb.5:
	s_or_b64 exec, exec, s[0:1]
.LBB4_6:
	s_or_b64 exec, exec, s[4:5]
	s_waitcnt lgkmcnt(0)
	v_lshl_add_u64 v[0:1], v[0:1], 2, s[2:3]
	global_store_dword v[0:1], v4, off
	s_endpgm
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel scalar_sum
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_private_segment_fixed_size 0
		.amdhsa_kernarg_size 20
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_dispatch_ptr 0
		.amdhsa_user_sgpr_queue_ptr 0
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_user_sgpr_dispatch_id 0
		.amdhsa_user_sgpr_kernarg_preload_length 0
		.amdhsa_user_sgpr_kernarg_preload_offset 0
		.amdhsa_user_sgpr_private_segment_size 0
		.amdhsa_uses_dynamic_stack 0
		.amdhsa_enable_private_segment 0
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_sgpr_workgroup_id_y 0
		.amdhsa_system_sgpr_workgroup_id_z 0
		.amdhsa_system_sgpr_workgroup_info 0
		.amdhsa_system_vgpr_workitem_id 0
		.amdhsa_next_free_vgpr 7
		.amdhsa_next_free_sgpr 9
		.amdhsa_accum_offset 8
		.amdhsa_reserve_vcc 1
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
; codeLenInByte = 188
; NumSgprs: 15
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
; NumSGPRsForWavesPerEU: 15
; NumVGPRsForWavesPerEU: 7
; AccumOffset: 8
; Occupancy: 8
; WaveLimiterHint : 0
; COMPUTE_PGM_RSRC2:SCRATCH_EN: 0
; COMPUTE_PGM_RSRC2:USER_SGPR: 2
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
	.type	__hip_cuid_be89381751321d40,@object ; @__hip_cuid_be89381751321d40
	.section	.bss,"aw",@nobits
	.globl	__hip_cuid_be89381751321d40
__hip_cuid_be89381751321d40:
	.byte	0                               ; 0x0
	.size	__hip_cuid_be89381751321d40, 1

	.ident	"Debian clang version 19.1.7 (3~deb12u1)"
	.section	".note.GNU-stack","",@progbits
	.addrsig
	.addrsig_sym __hip_cuid_be89381751321d40
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
    .sgpr_count:     16
    .sgpr_spill_count: 0
    .symbol:         matmul_tiled.kd
    .uniform_work_group_size: 1
    .uses_dynamic_stack: false
    .vgpr_count:     42
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
    .sgpr_count:     18
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
    .vgpr_count:     136
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
    .private_segment_fixed_size: 28
    .sgpr_count:     16
    .sgpr_spill_count: 0
    .symbol:         spill_kernel.kd
    .uniform_work_group_size: 1
    .uses_dynamic_stack: false
    .vgpr_count:     64
    .vgpr_spill_count: 8
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
    .sgpr_count:     15
    .sgpr_spill_count: 0
    .symbol:         scalar_sum.kd
    .uniform_work_group_size: 1
    .uses_dynamic_stack: false
    .vgpr_count:     7
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.target:   amdgcn-amd-amdhsa--gfx942
amdhsa.version:
  - 1
  - 2
...

	.end_amdgpu_metadata
