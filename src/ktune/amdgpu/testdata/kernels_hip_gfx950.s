	.amdgcn_target "amdgcn-amd-amdhsa--gfx950"
	.amdhsa_code_object_version 6
	.text
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
	v_mul_lo_u32 v3, s7, v1
	s_cbranch_scc1 .LBB0_3
; %bb.1:
	s_load_dwordx4 s[0:3], s[0:1], 0x0
	v_lshlrev_b32_e32 v4, 6, v0
	v_lshlrev_b32_e32 v1, 2, v2
	v_mul_lo_u32 v0, s7, v0
	v_or_b32_e32 v5, v4, v1
	v_or_b32_e32 v6, 0x400, v1
	v_add3_u32 v0, v0, s6, v2
	s_lshl_b32 s8, s7, 4
	v_add_u32_e32 v8, v3, v2
	s_mov_b32 s9, 0
	v_mov_b32_e32 v7, 0
.LBB0_2:                                ; =>This Inner Loop Header: Depth=1
	v_add_u32_e32 v10, s9, v8
	v_ashrrev_i32_e32 v1, 31, v0
	v_ashrrev_i32_e32 v11, 31, v10
	s_waitcnt lgkmcnt(0)
	v_lshl_add_u64 v[12:13], v[0:1], 2, s[2:3]
	v_lshl_add_u64 v[10:11], v[10:11], 2, s[0:1]
	global_load_dword v1, v[12:13], off
	global_load_dword v9, v[10:11], off
	s_add_i32 s9, s9, 16
	v_add_u32_e32 v0, s8, v0
	s_cmp_ge_i32 s9, s7
	s_waitcnt vmcnt(0)
	ds_write2st64_b32 v5, v9, v1 offset1:4
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
	v_fmac_f32_e32 v7, v10, v26
	v_fmac_f32_e32 v7, v11, v27
	s_waitcnt lgkmcnt(6)
	v_fmac_f32_e32 v7, v12, v28
	s_waitcnt lgkmcnt(5)
	v_pk_mul_f32 v[14:15], v[14:15], v[30:31]
	v_fmac_f32_e32 v7, v13, v29
	v_add_f32_e32 v1, v7, v14
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
	v_add_f32_e32 v7, v1, v25
	s_barrier
	s_cbranch_scc0 .LBB0_2
	s_branch .LBB0_4
.LBB0_3:
	v_mov_b32_e32 v7, 0
.LBB0_4:
	v_or_b32_e32 v0, s6, v2
	v_add_u32_e32 v0, v3, v0
	v_ashrrev_i32_e32 v1, 31, v0
	v_lshl_add_u64 v[0:1], v[0:1], 2, s[4:5]
	global_store_dword v[0:1], v7, off
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
	.set matmul_tiled.num_vgpr, 42
	.set matmul_tiled.num_agpr, 0
	.set matmul_tiled.numbered_sgpr, 10
	.set matmul_tiled.num_named_barrier, 0
	.set matmul_tiled.private_seg_size, 0
	.set matmul_tiled.uses_vcc, 0
	.set matmul_tiled.uses_flat_scratch, 0
	.set matmul_tiled.has_dyn_sized_stack, 0
	.set matmul_tiled.has_recursion, 0
	.set matmul_tiled.has_indirect_call, 0
	.section	.AMDGPU.csdata,"",@progbits
; Kernel info:
; codeLenInByte = 484
; TotalNumSgprs: 16
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
	v_lshlrev_b32_e32 v6, 4, v0
	v_mov_b32_e32 v7, 0
	s_waitcnt lgkmcnt(0)
	global_load_dwordx4 v[2:5], v6, s[2:3]
	s_cmp_lt_i32 s4, 1
	s_cbranch_scc1 .LBB1_3
; %bb.1:
	s_load_dwordx4 s[8:11], s[0:1], 0x0
	v_lshlrev_b32_e32 v8, 3, v0
	v_mov_b32_e32 v9, v7
	s_mov_b64 s[0:1], 0x200
	s_waitcnt lgkmcnt(0)
	v_lshl_add_u64 v[0:1], s[8:9], 0, v[8:9]
	v_lshl_add_u64 v[8:9], s[10:11], 0, v[8:9]
.LBB1_2:                                ; =>This Inner Loop Header: Depth=1
	global_load_dwordx2 v[10:11], v[0:1], off
	global_load_dwordx2 v[12:13], v[8:9], off
	s_add_i32 s4, s4, -1
	v_lshl_add_u64 v[0:1], v[0:1], 0, s[0:1]
	s_cmp_eq_u32 s4, 0
	v_lshl_add_u64 v[8:9], v[8:9], 0, s[0:1]
	s_waitcnt vmcnt(0)
	v_mfma_f32_16x16x16_f16 v[2:5], v[10:11], v[12:13], v[2:5]
	s_cbranch_scc0 .LBB1_2
.LBB1_3:
	v_lshl_add_u64 v[0:1], s[2:3], 0, v[6:7]
	s_waitcnt vmcnt(0)
	s_nop 4
	global_store_dwordx4 v[0:1], v[2:5], off
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
		.amdhsa_next_free_vgpr 14
		.amdhsa_next_free_sgpr 12
		.amdhsa_accum_offset 16
		.amdhsa_reserve_vcc 0
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
	.set mfma16.num_vgpr, 14
	.set mfma16.num_agpr, 0
	.set mfma16.numbered_sgpr, 12
	.set mfma16.num_named_barrier, 0
	.set mfma16.private_seg_size, 0
	.set mfma16.uses_vcc, 0
	.set mfma16.uses_flat_scratch, 0
	.set mfma16.has_dyn_sized_stack, 0
	.set mfma16.has_recursion, 0
	.set mfma16.has_indirect_call, 0
	.section	.AMDGPU.csdata,"",@progbits
; Kernel info:
; codeLenInByte = 172
; TotalNumSgprs: 18
; NumVgprs: 14
; NumAgprs: 0
; TotalNumVgprs: 14
; ScratchSize: 0
; MemoryBound: 0
; FloatMode: 240
; IeeeMode: 1
; LDSByteSize: 0 bytes/workgroup (compile time only)
; SGPRBlocks: 2
; VGPRBlocks: 1
; NumSGPRsForWavesPerEU: 18
; NumVGPRsForWavesPerEU: 14
; AccumOffset: 16
; Occupancy: 8
; WaveLimiterHint : 0
; COMPUTE_PGM_RSRC2:SCRATCH_EN: 0
; COMPUTE_PGM_RSRC2:USER_SGPR: 2
; COMPUTE_PGM_RSRC2:TRAP_HANDLER: 0
; COMPUTE_PGM_RSRC2:TGID_X_EN: 1
; COMPUTE_PGM_RSRC2:TGID_Y_EN: 0
; COMPUTE_PGM_RSRC2:TGID_Z_EN: 0
; COMPUTE_PGM_RSRC2:TIDIG_COMP_CNT: 0
; COMPUTE_PGM_RSRC3_GFX90A:ACCUM_OFFSET: 3
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
	v_mov_b32_e32 v131, 0
	s_waitcnt lgkmcnt(0)
	s_cmp_lt_i32 s6, 1
	s_cbranch_scc1 .LBB2_4
; %bb.1:
	s_load_dwordx4 s[0:3], s[0:1], 0x0
	v_mov_b32_e32 v2, 0
	v_mov_b32_e32 v3, 0
	v_mov_b32_e32 v4, 0
	v_mov_b32_e32 v5, 0
	v_mov_b32_e32 v6, 0
	v_mov_b32_e32 v7, 0
	v_mov_b32_e32 v8, 0
	v_mov_b32_e32 v9, 0
	v_mov_b32_e32 v10, 0
	v_mov_b32_e32 v11, 0
	v_mov_b32_e32 v12, 0
	v_mov_b32_e32 v13, 0
	v_mov_b32_e32 v14, 0
	v_mov_b32_e32 v15, 0
	v_mov_b32_e32 v16, 0
	v_mov_b32_e32 v17, 0
	v_mov_b32_e32 v18, 0
	v_mov_b32_e32 v19, 0
	v_mov_b32_e32 v20, 0
	v_mov_b32_e32 v21, 0
	v_mov_b32_e32 v22, 0
	v_mov_b32_e32 v23, 0
	v_mov_b32_e32 v24, 0
	v_mov_b32_e32 v25, 0
	v_mov_b32_e32 v26, 0
	v_mov_b32_e32 v27, 0
	v_mov_b32_e32 v28, 0
	v_mov_b32_e32 v29, 0
	v_mov_b32_e32 v30, 0
	v_mov_b32_e32 v31, 0
	v_mov_b32_e32 v32, 0
	v_mov_b32_e32 v33, 0
	v_mov_b32_e32 v34, 0
	v_mov_b32_e32 v35, 0
	v_mov_b32_e32 v36, 0
	v_mov_b32_e32 v37, 0
	v_mov_b32_e32 v38, 0
	v_mov_b32_e32 v39, 0
	v_mov_b32_e32 v40, 0
	v_mov_b32_e32 v41, 0
	v_mov_b32_e32 v42, 0
	v_mov_b32_e32 v43, 0
	v_mov_b32_e32 v44, 0
	v_mov_b32_e32 v45, 0
	v_mov_b32_e32 v46, 0
	v_mov_b32_e32 v47, 0
	v_mov_b32_e32 v48, 0
	v_mov_b32_e32 v49, 0
	v_mov_b32_e32 v50, 0
	v_mov_b32_e32 v51, 0
	v_mov_b32_e32 v52, 0
	v_mov_b32_e32 v53, 0
	v_mov_b32_e32 v54, 0
	v_mov_b32_e32 v55, 0
	v_mov_b32_e32 v56, 0
	v_mov_b32_e32 v57, 0
	v_mov_b32_e32 v58, 0
	v_mov_b32_e32 v59, 0
	v_mov_b32_e32 v60, 0
	v_mov_b32_e32 v61, 0
	v_mov_b32_e32 v62, 0
	v_mov_b32_e32 v63, 0
	v_mov_b32_e32 v64, 0
	v_mov_b32_e32 v65, 0
	v_mov_b32_e32 v66, 0
	v_mov_b32_e32 v67, 0
	v_mov_b32_e32 v68, 0
	v_mov_b32_e32 v69, 0
	v_mov_b32_e32 v70, 0
	v_mov_b32_e32 v71, 0
	v_mov_b32_e32 v72, 0
	v_mov_b32_e32 v73, 0
	v_mov_b32_e32 v74, 0
	v_mov_b32_e32 v75, 0
	v_mov_b32_e32 v76, 0
	v_mov_b32_e32 v77, 0
	v_mov_b32_e32 v78, 0
	v_mov_b32_e32 v79, 0
	v_mov_b32_e32 v80, 0
	v_mov_b32_e32 v81, 0
	v_mov_b32_e32 v82, 0
	v_mov_b32_e32 v83, 0
	v_mov_b32_e32 v84, 0
	v_mov_b32_e32 v85, 0
	v_mov_b32_e32 v86, 0
	v_mov_b32_e32 v87, 0
	v_mov_b32_e32 v88, 0
	v_mov_b32_e32 v89, 0
	v_mov_b32_e32 v90, 0
	v_mov_b32_e32 v91, 0
	v_mov_b32_e32 v92, 0
	v_mov_b32_e32 v93, 0
	v_mov_b32_e32 v94, 0
	v_mov_b32_e32 v95, 0
	v_mov_b32_e32 v96, 0
	v_mov_b32_e32 v97, 0
	v_mov_b32_e32 v98, 0
	v_mov_b32_e32 v99, 0
	v_mov_b32_e32 v100, 0
	v_mov_b32_e32 v101, 0
	v_mov_b32_e32 v102, 0
	v_mov_b32_e32 v103, 0
	v_mov_b32_e32 v104, 0
	v_mov_b32_e32 v105, 0
	v_mov_b32_e32 v106, 0
	v_mov_b32_e32 v107, 0
	v_mov_b32_e32 v108, 0
	v_mov_b32_e32 v109, 0
	v_mov_b32_e32 v110, 0
	v_mov_b32_e32 v111, 0
	v_mov_b32_e32 v112, 0
	v_mov_b32_e32 v113, 0
	v_mov_b32_e32 v114, 0
	v_mov_b32_e32 v115, 0
	v_mov_b32_e32 v116, 0
	v_mov_b32_e32 v117, 0
	v_mov_b32_e32 v118, 0
	v_mov_b32_e32 v119, 0
	v_mov_b32_e32 v120, 0
	v_mov_b32_e32 v121, 0
	v_mov_b32_e32 v122, 0
	v_mov_b32_e32 v123, 0
	v_mov_b32_e32 v124, 0
	v_mov_b32_e32 v125, 0
	v_mov_b32_e32 v126, 0
	v_mov_b32_e32 v127, 0
	v_mov_b32_e32 v128, 0
	v_mov_b32_e32 v129, 0
	v_mov_b32_e32 v130, v0
.LBB2_2:                                ; =>This Inner Loop Header: Depth=1
	v_lshlrev_b64 v[132:133], 3, v[130:131]
	s_waitcnt lgkmcnt(0)
	v_lshl_add_u64 v[134:135], s[0:1], 0, v[132:133]
	v_lshl_add_u64 v[132:133], s[2:3], 0, v[132:133]
	global_load_dwordx2 v[134:135], v[134:135], off
	s_nop 0
	global_load_dwordx2 v[132:133], v[132:133], off
	s_add_i32 s6, s6, -1
	s_cmp_eq_u32 s6, 0
	v_add_u32_e32 v130, 64, v130
	s_waitcnt vmcnt(1)
	v_mfma_f32_32x32x8_f16 v[2:17], v[134:135], v[134:135], v[2:17]
	s_waitcnt vmcnt(0)
	v_mfma_f32_32x32x8_f16 v[114:129], v[134:135], v[132:133], v[114:129]
	v_mfma_f32_32x32x8_f16 v[98:113], v[132:133], v[134:135], v[98:113]
	v_mfma_f32_32x32x8_f16 v[18:33], v[132:133], v[132:133], v[18:33]
	v_mfma_f32_32x32x8_f16 v[34:49], v[134:135], v[132:133], v[34:49] cbsz:1
	v_mfma_f32_32x32x8_f16 v[50:65], v[132:133], v[134:135], v[50:65] cbsz:1
	v_mfma_f32_32x32x8_f16 v[66:81], v[134:135], v[134:135], v[66:81] cbsz:1
	v_mfma_f32_32x32x8_f16 v[82:97], v[132:133], v[132:133], v[82:97] cbsz:1
	s_cbranch_scc0 .LBB2_2
; %bb.3:
	s_nop 2
	v_mov_b32_e32 v131, v17
	s_branch .LBB2_5
.LBB2_4:
	v_mov_b32_e32 v16, 0
	v_mov_b32_e32 v15, 0
	v_mov_b32_e32 v14, 0
	v_mov_b32_e32 v13, 0
	v_mov_b32_e32 v12, 0
	v_mov_b32_e32 v11, 0
	v_mov_b32_e32 v10, 0
	v_mov_b32_e32 v9, 0
	v_mov_b32_e32 v8, 0
	v_mov_b32_e32 v7, 0
	v_mov_b32_e32 v6, 0
	v_mov_b32_e32 v5, 0
	v_mov_b32_e32 v4, 0
	v_mov_b32_e32 v3, 0
	v_mov_b32_e32 v2, 0
	v_mov_b32_e32 v33, 0
	v_mov_b32_e32 v32, 0
	v_mov_b32_e32 v31, 0
	v_mov_b32_e32 v30, 0
	v_mov_b32_e32 v29, 0
	v_mov_b32_e32 v28, 0
	v_mov_b32_e32 v27, 0
	v_mov_b32_e32 v26, 0
	v_mov_b32_e32 v25, 0
	v_mov_b32_e32 v24, 0
	v_mov_b32_e32 v23, 0
	v_mov_b32_e32 v22, 0
	v_mov_b32_e32 v21, 0
	v_mov_b32_e32 v20, 0
	v_mov_b32_e32 v19, 0
	v_mov_b32_e32 v18, 0
	v_mov_b32_e32 v49, 0
	v_mov_b32_e32 v48, 0
	v_mov_b32_e32 v47, 0
	v_mov_b32_e32 v46, 0
	v_mov_b32_e32 v45, 0
	v_mov_b32_e32 v44, 0
	v_mov_b32_e32 v43, 0
	v_mov_b32_e32 v42, 0
	v_mov_b32_e32 v41, 0
	v_mov_b32_e32 v40, 0
	v_mov_b32_e32 v39, 0
	v_mov_b32_e32 v38, 0
	v_mov_b32_e32 v37, 0
	v_mov_b32_e32 v36, 0
	v_mov_b32_e32 v35, 0
	v_mov_b32_e32 v34, 0
	v_mov_b32_e32 v65, 0
	v_mov_b32_e32 v64, 0
	v_mov_b32_e32 v63, 0
	v_mov_b32_e32 v62, 0
	v_mov_b32_e32 v61, 0
	v_mov_b32_e32 v60, 0
	v_mov_b32_e32 v59, 0
	v_mov_b32_e32 v58, 0
	v_mov_b32_e32 v57, 0
	v_mov_b32_e32 v56, 0
	v_mov_b32_e32 v55, 0
	v_mov_b32_e32 v54, 0
	v_mov_b32_e32 v53, 0
	v_mov_b32_e32 v52, 0
	v_mov_b32_e32 v51, 0
	v_mov_b32_e32 v50, 0
	v_mov_b32_e32 v81, 0
	v_mov_b32_e32 v80, 0
	v_mov_b32_e32 v79, 0
	v_mov_b32_e32 v78, 0
	v_mov_b32_e32 v77, 0
	v_mov_b32_e32 v76, 0
	v_mov_b32_e32 v75, 0
	v_mov_b32_e32 v74, 0
	v_mov_b32_e32 v73, 0
	v_mov_b32_e32 v72, 0
	v_mov_b32_e32 v71, 0
	v_mov_b32_e32 v70, 0
	v_mov_b32_e32 v69, 0
	v_mov_b32_e32 v68, 0
	v_mov_b32_e32 v67, 0
	v_mov_b32_e32 v66, 0
	v_mov_b32_e32 v97, 0
	v_mov_b32_e32 v96, 0
	v_mov_b32_e32 v95, 0
	v_mov_b32_e32 v94, 0
	v_mov_b32_e32 v93, 0
	v_mov_b32_e32 v92, 0
	v_mov_b32_e32 v91, 0
	v_mov_b32_e32 v90, 0
	v_mov_b32_e32 v89, 0
	v_mov_b32_e32 v88, 0
	v_mov_b32_e32 v87, 0
	v_mov_b32_e32 v86, 0
	v_mov_b32_e32 v85, 0
	v_mov_b32_e32 v84, 0
	v_mov_b32_e32 v83, 0
	v_mov_b32_e32 v82, 0
	v_mov_b32_e32 v113, 0
	v_mov_b32_e32 v112, 0
	v_mov_b32_e32 v111, 0
	v_mov_b32_e32 v110, 0
	v_mov_b32_e32 v109, 0
	v_mov_b32_e32 v108, 0
	v_mov_b32_e32 v107, 0
	v_mov_b32_e32 v106, 0
	v_mov_b32_e32 v105, 0
	v_mov_b32_e32 v104, 0
	v_mov_b32_e32 v103, 0
	v_mov_b32_e32 v102, 0
	v_mov_b32_e32 v101, 0
	v_mov_b32_e32 v100, 0
	v_mov_b32_e32 v99, 0
	v_mov_b32_e32 v98, 0
	v_mov_b32_e32 v129, 0
	v_mov_b32_e32 v128, 0
	v_mov_b32_e32 v127, 0
	v_mov_b32_e32 v126, 0
	v_mov_b32_e32 v125, 0
	v_mov_b32_e32 v124, 0
	v_mov_b32_e32 v123, 0
	v_mov_b32_e32 v122, 0
	v_mov_b32_e32 v121, 0
	v_mov_b32_e32 v120, 0
	v_mov_b32_e32 v119, 0
	v_mov_b32_e32 v118, 0
	v_mov_b32_e32 v117, 0
	v_mov_b32_e32 v116, 0
	v_mov_b32_e32 v115, 0
	v_mov_b32_e32 v114, 0
.LBB2_5:
	v_lshlrev_b32_e32 v0, 9, v0
	v_mov_b32_e32 v17, v131
	global_store_dwordx4 v0, v[126:129], s[4:5] offset:48
	global_store_dwordx4 v0, v[122:125], s[4:5] offset:32
	global_store_dwordx4 v0, v[118:121], s[4:5] offset:16
	global_store_dwordx4 v0, v[114:117], s[4:5]
	global_store_dwordx4 v0, v[110:113], s[4:5] offset:112
	global_store_dwordx4 v0, v[106:109], s[4:5] offset:96
	global_store_dwordx4 v0, v[102:105], s[4:5] offset:80
	global_store_dwordx4 v0, v[98:101], s[4:5] offset:64
	global_store_dwordx4 v0, v[14:17], s[4:5] offset:176
	global_store_dwordx4 v0, v[10:13], s[4:5] offset:160
	global_store_dwordx4 v0, v[6:9], s[4:5] offset:144
	global_store_dwordx4 v0, v[2:5], s[4:5] offset:128
	global_store_dwordx4 v0, v[30:33], s[4:5] offset:240
	global_store_dwordx4 v0, v[26:29], s[4:5] offset:224
	global_store_dwordx4 v0, v[22:25], s[4:5] offset:208
	global_store_dwordx4 v0, v[18:21], s[4:5] offset:192
	global_store_dwordx4 v0, v[46:49], s[4:5] offset:304
	global_store_dwordx4 v0, v[42:45], s[4:5] offset:288
	global_store_dwordx4 v0, v[38:41], s[4:5] offset:272
	global_store_dwordx4 v0, v[34:37], s[4:5] offset:256
	global_store_dwordx4 v0, v[62:65], s[4:5] offset:368
	global_store_dwordx4 v0, v[58:61], s[4:5] offset:352
	global_store_dwordx4 v0, v[54:57], s[4:5] offset:336
	global_store_dwordx4 v0, v[50:53], s[4:5] offset:320
	global_store_dwordx4 v0, v[78:81], s[4:5] offset:432
	global_store_dwordx4 v0, v[74:77], s[4:5] offset:416
	global_store_dwordx4 v0, v[70:73], s[4:5] offset:400
	global_store_dwordx4 v0, v[66:69], s[4:5] offset:384
	global_store_dwordx4 v0, v[94:97], s[4:5] offset:496
	global_store_dwordx4 v0, v[90:93], s[4:5] offset:480
	global_store_dwordx4 v0, v[86:89], s[4:5] offset:464
	global_store_dwordx4 v0, v[82:85], s[4:5] offset:448
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
		.amdhsa_accum_offset 136
		.amdhsa_reserve_vcc 0
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
	.set mfma32_agpr.num_vgpr, 136
	.set mfma32_agpr.num_agpr, 0
	.set mfma32_agpr.numbered_sgpr, 7
	.set mfma32_agpr.num_named_barrier, 0
	.set mfma32_agpr.private_seg_size, 0
	.set mfma32_agpr.uses_vcc, 0
	.set mfma32_agpr.uses_flat_scratch, 0
	.set mfma32_agpr.has_dyn_sized_stack, 0
	.set mfma32_agpr.has_recursion, 0
	.set mfma32_agpr.has_indirect_call, 0
	.section	.AMDGPU.csdata,"",@progbits
; Kernel info:
; codeLenInByte = 1480
; TotalNumSgprs: 13
; NumVgprs: 136
; NumAgprs: 0
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
; AccumOffset: 136
; Occupancy: 3
; WaveLimiterHint : 0
; COMPUTE_PGM_RSRC2:SCRATCH_EN: 0
; COMPUTE_PGM_RSRC2:USER_SGPR: 2
; COMPUTE_PGM_RSRC2:TRAP_HANDLER: 0
; COMPUTE_PGM_RSRC2:TGID_X_EN: 1
; COMPUTE_PGM_RSRC2:TGID_Y_EN: 0
; COMPUTE_PGM_RSRC2:TGID_Z_EN: 0
; COMPUTE_PGM_RSRC2:TIDIG_COMP_CNT: 0
; COMPUTE_PGM_RSRC3_GFX90A:ACCUM_OFFSET: 33
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
	v_lshlrev_b64 v[0:1], 4, v[0:1]
	s_waitcnt lgkmcnt(0)
	s_ashr_i32 s9, s8, 31
	scratch_store_dwordx2 off, v[0:1], off  ; 8-byte Folded Spill
	v_lshl_add_u64 v[0:1], s[4:5], 0, v[0:1]
	s_lshl_b64 s[0:1], s[8:9], 4
	v_lshl_add_u64 v[2:3], v[0:1], 0, s[0:1]
	global_load_dwordx4 v[16:19], v[0:1], off
	global_load_dwordx4 v[8:11], v[2:3], off
	v_lshl_add_u64 v[0:1], v[2:3], 0, s[0:1]
	v_lshl_add_u64 v[2:3], v[0:1], 0, s[0:1]
	v_lshl_add_u64 v[20:21], v[2:3], 0, s[0:1]
	v_lshl_add_u64 v[4:5], v[20:21], 0, s[0:1]
	v_lshl_add_u64 v[22:23], v[4:5], 0, s[0:1]
	global_load_dwordx4 v[36:39], v[4:5], off
	global_load_dwordx4 v[32:35], v[22:23], off
	global_load_dwordx4 v[12:15], v[0:1], off
                                        ; kill: killed $vgpr0_vgpr1
	s_nop 0
	global_load_dwordx4 v[4:7], v[2:3], off
	v_lshl_add_u64 v[22:23], v[22:23], 0, s[0:1]
	global_load_dwordx4 v[28:31], v[22:23], off
	global_load_dwordx4 v[46:49], v[20:21], off
	v_lshl_add_u64 v[20:21], v[22:23], 0, s[0:1]
	global_load_dwordx4 v[24:27], v[20:21], off
	v_lshl_add_u64 v[40:41], v[20:21], 0, s[0:1]
	global_load_dwordx4 v[20:23], v[40:41], off
	v_lshl_add_u64 v[44:45], v[40:41], 0, s[0:1]
	global_load_dwordx4 v[40:43], v[44:45], off
	v_lshl_add_u64 v[44:45], v[44:45], 0, s[0:1]
	s_waitcnt vmcnt(6)
	v_fma_f32 v2, v8, v13, v34
	v_fma_f32 v0, v16, v9, v38
	v_add_f32_e32 v1, v19, v0
	v_fma_f32 v0, v0, v9, v38
	s_waitcnt vmcnt(3)
	v_mov_b64_e32 v[50:51], v[48:49]
	v_add_f32_e32 v3, v11, v2
	v_fma_f32 v8, v12, v5, v30
	v_add_f32_e32 v1, v1, v0
	v_fma_f32 v2, v2, v13, v34
	v_fma_f32 v0, v0, v9, v38
	v_mov_b64_e32 v[48:49], v[46:47]
	v_add_f32_e32 v11, v15, v8
	s_waitcnt vmcnt(2)
	v_fma_f32 v4, v4, v49, v26
	v_add_f32_e32 v3, v3, v2
	v_fma_f32 v8, v8, v5, v30
	v_add_f32_e32 v1, v1, v0
	v_fma_f32 v2, v2, v13, v34
	v_fma_f32 v60, v0, v9, v38
	v_add_f32_e32 v0, v7, v4
	v_add_f32_e32 v7, v11, v8
	v_fma_f32 v4, v4, v49, v26
	v_add_f32_e32 v3, v3, v2
	v_fma_f32 v12, v8, v5, v30
	v_add_f32_e32 v19, v1, v60
	v_fma_f32 v8, v2, v13, v34
	s_waitcnt vmcnt(1)
	v_fma_f32 v1, v48, v37, v22
	v_add_f32_e32 v0, v0, v4
	v_add_f32_e32 v2, v7, v12
	v_fma_f32 v4, v4, v49, v26
	v_add_f32_e32 v11, v3, v8
	v_fma_f32 v12, v12, v5, v30
	v_add_f32_e32 v3, v51, v1
	v_fma_f32 v1, v1, v37, v22
	v_add_f32_e32 v0, v0, v4
	v_add_f32_e32 v15, v2, v12
	v_fma_f32 v4, v4, v49, v26
	v_add_f32_e32 v2, v3, v1
	v_fma_f32 v1, v1, v37, v22
	v_add_f32_e32 v7, v0, v4
	v_add_f32_e32 v0, v2, v1
	v_fma_f32 v48, v1, v37, v22
	v_add_f32_e32 v51, v0, v48
	v_mov_b32_e32 v1, v49
	s_waitcnt vmcnt(0)
	v_fma_f32 v16, v36, v33, v42
	v_mov_b32_e32 v2, v50
	v_mov_b32_e32 v3, v51
	v_pk_add_f32 v[46:47], v[18:19], 0 op_sel_hi:[1,0]
	scratch_store_dwordx4 off, v[0:3], off offset:8 ; 16-byte Folded Spill
	v_pk_add_f32 v[46:47], v[46:47], v[10:11]
	v_mul_f32_e32 v61, v17, v19
	v_add_f32_e32 v0, v39, v16
	v_fma_f32 v1, v16, v33, v42
	v_add_f32_e32 v0, v0, v1
	v_fma_f32 v1, v1, v33, v42
	v_pk_add_f32 v[46:47], v[46:47], v[14:15]
	v_add_f32_e32 v0, v0, v1
	v_fma_f32 v50, v1, v33, v42
	v_pk_add_f32 v[46:47], v[46:47], v[6:7]
	v_add_f32_e32 v39, v0, v50
	v_pk_add_f32 v[46:47], v[46:47], v[2:3]
	v_mul_f32_e32 v51, v37, v39
	v_pk_add_f32 v[46:47], v[46:47], v[38:39]
	global_load_dwordx4 v[36:39], v[44:45], off
	v_mul_f32_e32 v13, v13, v15
	v_mul_f32_e32 v5, v5, v7
	s_waitcnt vmcnt(0)
	v_fma_f32 v0, v32, v29, v38
	v_add_f32_e32 v1, v35, v0
	v_fma_f32 v0, v0, v29, v38
	v_add_f32_e32 v1, v1, v0
	v_fma_f32 v0, v0, v29, v38
	v_add_f32_e32 v1, v1, v0
	v_fma_f32 v52, v0, v29, v38
	v_add_f32_e32 v35, v1, v52
	v_mul_f32_e32 v53, v33, v35
	v_pk_add_f32 v[32:33], v[46:47], v[34:35]
	v_lshl_add_u64 v[34:35], v[44:45], 0, s[0:1]
	global_load_dwordx4 v[44:47], v[34:35], off
	v_lshl_add_u64 v[34:35], v[34:35], 0, s[0:1]
	s_waitcnt vmcnt(0)
	v_fma_f32 v0, v28, v25, v46
	v_add_f32_e32 v1, v31, v0
	v_fma_f32 v0, v0, v25, v46
	v_add_f32_e32 v1, v1, v0
	v_fma_f32 v0, v0, v25, v46
	v_add_f32_e32 v1, v1, v0
	v_fma_f32 v54, v0, v25, v46
	v_add_f32_e32 v31, v1, v54
	v_mul_f32_e32 v55, v29, v31
	v_pk_add_f32 v[32:33], v[32:33], v[30:31]
	global_load_dwordx4 v[28:31], v[34:35], off
	v_lshl_add_u64 v[34:35], v[34:35], 0, s[0:1]
	s_waitcnt vmcnt(0)
	v_fma_f32 v0, v24, v21, v30
	v_add_f32_e32 v1, v27, v0
	v_fma_f32 v0, v0, v21, v30
	v_add_f32_e32 v1, v1, v0
	v_fma_f32 v0, v0, v21, v30
	v_add_f32_e32 v1, v1, v0
	v_fma_f32 v56, v0, v21, v30
	v_add_f32_e32 v27, v1, v56
	v_mul_f32_e32 v57, v25, v27
	v_pk_add_f32 v[32:33], v[32:33], v[26:27]
	global_load_dwordx4 v[24:27], v[34:35], off
	v_lshl_add_u64 v[34:35], v[34:35], 0, s[0:1]
	v_lshl_add_u64 v[62:63], v[34:35], 0, s[0:1]
	v_lshl_add_u64 v[2:3], v[62:63], 0, s[0:1]
	s_waitcnt vmcnt(0)
	v_fma_f32 v0, v20, v41, v26
	v_add_f32_e32 v1, v23, v0
	v_fma_f32 v0, v0, v41, v26
	v_add_f32_e32 v1, v1, v0
	v_fma_f32 v0, v0, v41, v26
	v_add_f32_e32 v1, v1, v0
	v_fma_f32 v58, v0, v41, v26
	v_add_f32_e32 v23, v1, v58
	v_mul_f32_e32 v59, v21, v23
	v_pk_add_f32 v[32:33], v[32:33], v[22:23]
	global_load_dwordx4 v[20:23], v[34:35], off
	s_waitcnt vmcnt(0)
	v_fma_f32 v0, v40, v37, v22
	v_add_f32_e32 v1, v43, v0
	v_fma_f32 v0, v0, v37, v22
	v_add_f32_e32 v1, v1, v0
	v_fma_f32 v0, v0, v37, v22
	v_add_f32_e32 v1, v1, v0
	v_fma_f32 v40, v0, v37, v22
	v_add_f32_e32 v43, v1, v40
	v_mul_f32_e32 v41, v41, v43
	v_pk_add_f32 v[42:43], v[32:33], v[42:43]
	global_load_dwordx4 v[32:35], v[62:63], off
	s_waitcnt vmcnt(0)
	v_fma_f32 v0, v36, v45, v34
	v_add_f32_e32 v1, v39, v0
	v_fma_f32 v0, v0, v45, v34
	v_add_f32_e32 v1, v1, v0
	v_fma_f32 v0, v0, v45, v34
	v_add_f32_e32 v1, v1, v0
	v_fma_f32 v0, v0, v45, v34
	v_add_f32_e32 v39, v1, v0
	v_mul_f32_e32 v1, v37, v39
	v_pk_add_f32 v[42:43], v[42:43], v[38:39]
	global_load_dwordx4 v[36:39], v[2:3], off
	s_waitcnt vmcnt(0)
	v_fma_f32 v16, v44, v29, v38
	v_add_f32_e32 v44, v47, v16
	v_fma_f32 v16, v16, v29, v38
	v_add_f32_e32 v44, v44, v16
	v_fma_f32 v16, v16, v29, v38
	v_add_f32_e32 v47, v44, v16
	v_fma_f32 v44, v16, v29, v38
	v_add_f32_e32 v47, v47, v44
	v_pk_add_f32 v[42:43], v[42:43], v[46:47]
	scratch_store_dwordx2 off, v[42:43], off offset:24 ; 8-byte Folded Spill
	v_pk_add_f32 v[42:43], v[60:61], 0 op_sel_hi:[1,0]
	v_mov_b32_e32 v63, v11
	v_mov_b32_e32 v61, v9
	v_mov_b32_e32 v62, v10
	v_mul_f32_e32 v9, v61, v63
	v_pk_add_f32 v[8:9], v[42:43], v[8:9]
	v_mul_f32_e32 v45, v45, v47
	v_pk_add_f32 v[8:9], v[8:9], v[12:13]
	scratch_load_dwordx4 v[10:13], off, off offset:8 ; 16-byte Folded Reload
	v_pk_add_f32 v[4:5], v[8:9], v[4:5]
	s_waitcnt vmcnt(0)
	v_mul_f32_e32 v49, v11, v13
	v_pk_add_f32 v[4:5], v[4:5], v[48:49]
	s_nop 0
	v_pk_add_f32 v[4:5], v[4:5], v[50:51]
	s_nop 0
	v_pk_add_f32 v[4:5], v[4:5], v[52:53]
	v_lshl_add_u64 v[52:53], v[2:3], 0, s[0:1]
	v_pk_add_f32 v[4:5], v[4:5], v[54:55]
	s_nop 0
	v_pk_add_f32 v[4:5], v[4:5], v[56:57]
	s_nop 0
	v_pk_add_f32 v[4:5], v[4:5], v[58:59]
	s_nop 0
	v_pk_add_f32 v[4:5], v[4:5], v[40:41]
	s_nop 0
	v_pk_add_f32 v[0:1], v[4:5], v[0:1]
	v_lshl_add_u64 v[4:5], v[52:53], 0, s[0:1]
	v_pk_add_f32 v[54:55], v[0:1], v[44:45]
	v_lshl_add_u64 v[44:45], v[4:5], 0, s[0:1]
	v_lshl_add_u64 v[8:9], v[44:45], 0, s[0:1]
	v_lshl_add_u64 v[0:1], v[8:9], 0, s[0:1]
	v_lshl_add_u64 v[2:3], v[0:1], 0, s[0:1]
	global_load_dwordx4 v[40:43], v[2:3], off
	global_load_dwordx4 v[48:51], v[4:5], off
	s_nop 0
	global_load_dwordx4 v[44:47], v[44:45], off
	v_mov_b32_e32 v2, v12
	global_load_dwordx4 v[56:59], v[0:1], off
	s_waitcnt vmcnt(3)
	v_fma_f32 v3, v40, v17, v2
	v_fma_f32 v12, v3, v17, v2
	v_fma_f32 v13, v12, v17, v2
	v_mov_b32_e32 v40, v2
	s_waitcnt vmcnt(1)
	v_fma_f32 v2, v48, v45, v18
	v_fma_f32 v5, v2, v45, v18
	v_fma_f32 v7, v5, v45, v18
	v_fmac_f32_e32 v40, v13, v17
	v_fma_f32 v4, v7, v45, v18
	global_load_dwordx4 v[16:19], v[52:53], off
	v_add_f32_e32 v2, v51, v2
	v_add_f32_e32 v2, v2, v5
	v_add_f32_e32 v2, v2, v7
	v_add_f32_e32 v51, v2, v4
	v_mul_f32_e32 v5, v49, v51
	s_waitcnt vmcnt(0)
	v_fma_f32 v11, v28, v25, v18
	v_add_f32_e32 v15, v31, v11
	v_fma_f32 v11, v11, v25, v18
	v_add_f32_e32 v15, v15, v11
	v_fma_f32 v11, v11, v25, v18
	v_add_f32_e32 v15, v15, v11
	v_fma_f32 v28, v11, v25, v18
	v_add_f32_e32 v31, v15, v28
	v_mul_f32_e32 v29, v29, v31
	v_pk_add_f32 v[28:29], v[54:55], v[28:29]
	global_load_dwordx4 v[52:55], v[8:9], off
	v_fma_f32 v11, v24, v21, v50
	v_add_f32_e32 v15, v27, v11
	v_fma_f32 v11, v11, v21, v50
	v_add_f32_e32 v15, v15, v11
	v_fma_f32 v11, v11, v21, v50
	v_add_f32_e32 v15, v15, v11
	v_fma_f32 v24, v11, v21, v50
	v_fma_f32 v11, v20, v33, v46
	v_add_f32_e32 v27, v15, v24
	v_add_f32_e32 v15, v23, v11
	v_fma_f32 v11, v11, v33, v46
	v_add_f32_e32 v15, v15, v11
	v_fma_f32 v11, v11, v33, v46
	v_fma_f32 v0, v36, v17, v58
	v_add_f32_e32 v15, v15, v11
	v_fma_f32 v20, v11, v33, v46
	v_add_f32_e32 v1, v39, v0
	v_fma_f32 v0, v0, v17, v58
	v_mul_f32_e32 v25, v25, v27
	v_add_f32_e32 v23, v15, v20
	v_add_f32_e32 v1, v1, v0
	v_fma_f32 v0, v0, v17, v58
	v_pk_add_f32 v[24:25], v[28:29], v[24:25]
	v_mul_f32_e32 v21, v21, v23
	v_add_f32_e32 v1, v1, v0
	v_fma_f32 v0, v0, v17, v58
	v_pk_add_f32 v[20:21], v[24:25], v[20:21]
	v_add_f32_e32 v39, v1, v0
	v_mul_f32_e32 v1, v37, v39
	s_waitcnt vmcnt(0)
	v_fma_f32 v8, v32, v37, v54
	v_add_f32_e32 v9, v35, v8
	v_fma_f32 v8, v8, v37, v54
	v_add_f32_e32 v9, v9, v8
	v_fma_f32 v8, v8, v37, v54
	v_add_f32_e32 v9, v9, v8
	v_fma_f32 v8, v8, v37, v54
	v_add_f32_e32 v35, v9, v8
	v_mul_f32_e32 v9, v33, v35
	v_pk_add_f32 v[8:9], v[20:21], v[8:9]
	v_fma_f32 v2, v44, v53, v62
	v_pk_add_f32 v[0:1], v[8:9], v[0:1]
	v_fma_f32 v8, v16, v49, v42
	v_add_f32_e32 v9, v19, v8
	v_fma_f32 v8, v8, v49, v42
	v_add_f32_e32 v9, v9, v8
	v_fma_f32 v8, v8, v49, v42
	v_add_f32_e32 v9, v9, v8
	v_fma_f32 v8, v8, v49, v42
	v_add_f32_e32 v19, v9, v8
	v_mul_f32_e32 v9, v17, v19
	v_pk_add_f32 v[0:1], v[0:1], v[8:9]
	s_nop 0
	v_pk_add_f32 v[0:1], v[0:1], v[4:5]
	v_add_f32_e32 v4, v47, v2
	v_fma_f32 v2, v2, v53, v62
	v_add_f32_e32 v4, v4, v2
	v_fma_f32 v2, v2, v53, v62
	v_add_f32_e32 v4, v4, v2
	v_fmac_f32_e32 v62, v2, v53
	v_fma_f32 v2, v52, v57, v14
	v_add_f32_e32 v47, v4, v62
	v_add_f32_e32 v4, v55, v2
	v_fma_f32 v2, v2, v57, v14
	v_add_f32_e32 v4, v4, v2
	v_fma_f32 v2, v2, v57, v14
	v_add_f32_e32 v4, v4, v2
	v_fmac_f32_e32 v14, v2, v57
	v_fma_f32 v2, v56, v41, v6
	v_add_f32_e32 v55, v4, v14
	v_add_f32_e32 v4, v59, v2
	v_fma_f32 v2, v2, v41, v6
	v_add_f32_e32 v4, v4, v2
	v_fma_f32 v2, v2, v41, v6
	v_add_f32_e32 v4, v4, v2
	v_fmac_f32_e32 v6, v2, v41
	v_add_f32_e32 v2, v43, v3
	v_add_f32_e32 v2, v2, v12
	v_add_f32_e32 v59, v4, v6
	v_add_f32_e32 v2, v2, v13
	v_mov_b32_e32 v4, v40
	v_add_f32_e32 v43, v2, v4
	scratch_load_dwordx2 v[2:3], off, off offset:24 ; 8-byte Folded Reload
	v_mul_f32_e32 v63, v45, v47
	v_pk_add_f32 v[0:1], v[0:1], v[62:63]
	v_mul_f32_e32 v15, v53, v55
	v_pk_add_f32 v[0:1], v[0:1], v[14:15]
	v_mul_f32_e32 v7, v57, v59
	v_pk_add_f32 v[0:1], v[0:1], v[6:7]
	v_mul_f32_e32 v5, v41, v43
	v_pk_add_f32 v[0:1], v[0:1], v[4:5]
	scratch_load_dwordx2 v[4:5], off, off   ; 8-byte Folded Reload
	s_waitcnt vmcnt(1)
	v_pk_add_f32 v[2:3], v[2:3], v[30:31]
	s_nop 0
	v_pk_add_f32 v[2:3], v[2:3], v[26:27]
	s_waitcnt vmcnt(0)
	v_lshl_add_u64 v[4:5], s[6:7], 0, v[4:5]
	v_pk_add_f32 v[2:3], v[2:3], v[22:23]
	s_nop 0
	v_pk_add_f32 v[2:3], v[2:3], v[34:35]
	s_nop 0
	v_pk_add_f32 v[2:3], v[2:3], v[38:39]
	s_nop 0
	v_pk_add_f32 v[2:3], v[2:3], v[18:19]
	s_nop 0
	v_pk_add_f32 v[2:3], v[2:3], v[50:51]
	s_nop 0
	v_pk_add_f32 v[2:3], v[2:3], v[46:47]
	s_nop 0
	v_pk_add_f32 v[2:3], v[2:3], v[54:55]
	s_nop 0
	v_pk_add_f32 v[2:3], v[2:3], v[58:59]
	s_nop 0
	v_pk_add_f32 v[2:3], v[2:3], v[42:43]
	global_store_dwordx4 v[4:5], v[0:3], off
	s_endpgm
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel spill_kernel
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_private_segment_fixed_size 36
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
	.set spill_kernel.num_vgpr, 64
	.set spill_kernel.num_agpr, 0
	.set spill_kernel.numbered_sgpr, 10
	.set spill_kernel.num_named_barrier, 0
	.set spill_kernel.private_seg_size, 36
	.set spill_kernel.uses_vcc, 0
	.set spill_kernel.uses_flat_scratch, 0
	.set spill_kernel.has_dyn_sized_stack, 0
	.set spill_kernel.has_recursion, 0
	.set spill_kernel.has_indirect_call, 0
	.section	.AMDGPU.csdata,"",@progbits
; Kernel info:
; codeLenInByte = 2308
; TotalNumSgprs: 16
; NumVgprs: 64
; NumAgprs: 0
; TotalNumVgprs: 64
; ScratchSize: 36
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
                                        ; implicit-def: $vgpr2_vgpr3
	s_waitcnt lgkmcnt(0)
	v_cmp_le_i32_e32 vcc, s8, v0
	s_and_saveexec_b64 s[2:3], vcc
	s_xor_b64 s[2:3], exec, s[2:3]
; %bb.1:
	v_mov_b32_e32 v1, 0
	v_mov_b64_e32 v[2:3], v[0:1]
                                        ; implicit-def: $vgpr0
; %bb.2:
	s_or_saveexec_b64 s[4:5], s[2:3]
	s_load_dwordx2 s[2:3], s[0:1], 0x8
	v_mov_b32_e32 v1, 0
	v_mov_b32_e32 v4, 0
	s_xor_b64 exec, exec, s[4:5]
	s_cbranch_execz .LBB4_6
; %bb.3:
	s_load_dwordx2 s[6:7], s[0:1], 0x0
	v_lshlrev_b32_e32 v2, 2, v0
	v_mov_b32_e32 v3, v1
	s_mov_b64 s[0:1], 0
	v_mov_b32_e32 v4, 0
	s_waitcnt lgkmcnt(0)
	v_lshl_add_u64 v[2:3], s[6:7], 0, v[2:3]
	s_mov_b64 s[6:7], 0x400
	v_mov_b32_e32 v5, v0
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
	v_mov_b64_e32 v[2:3], v[0:1]
.LBB4_6:
	s_or_b64 exec, exec, s[4:5]
	s_waitcnt lgkmcnt(0)
	v_lshl_add_u64 v[0:1], v[2:3], 2, s[2:3]
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
	.set scalar_sum.num_vgpr, 7
	.set scalar_sum.num_agpr, 0
	.set scalar_sum.numbered_sgpr, 9
	.set scalar_sum.num_named_barrier, 0
	.set scalar_sum.private_seg_size, 0
	.set scalar_sum.uses_vcc, 1
	.set scalar_sum.uses_flat_scratch, 0
	.set scalar_sum.has_dyn_sized_stack, 0
	.set scalar_sum.has_recursion, 0
	.set scalar_sum.has_indirect_call, 0
	.section	.AMDGPU.csdata,"",@progbits
; Kernel info:
; codeLenInByte = 192
; TotalNumSgprs: 15
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
	.section	.AMDGPU.gpr_maximums,"",@progbits
	.set amdgpu.max_num_vgpr, 0
	.set amdgpu.max_num_agpr, 0
	.set amdgpu.max_num_sgpr, 0
	.set amdgpu.max_num_named_barrier, 0
	.text
	.type	__hip_cuid_870c7155beea70dc,@object ; @__hip_cuid_870c7155beea70dc
	.section	.bss,"aw",@nobits
	.globl	__hip_cuid_870c7155beea70dc
__hip_cuid_870c7155beea70dc:
	.byte	0                               ; 0x0
	.size	__hip_cuid_870c7155beea70dc, 1

	.ident	"Debian clang version 22.1.8 (1~deb12u1)"
	.section	".note.GNU-stack","",@progbits
	.addrsig
	.addrsig_sym __hip_cuid_870c7155beea70dc
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
    .vgpr_count:     14
    .vgpr_spill_count: 0
    .wavefront_size: 64
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
    .private_segment_fixed_size: 36
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
amdhsa.target:   amdgcn-amd-amdhsa--gfx950
amdhsa.version:
  - 1
  - 2
...

	.end_amdgpu_metadata
