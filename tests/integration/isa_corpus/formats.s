// Hand-written gfx9 instructions clang rarely emits, for the decoder check: every SOP form,
// SMEM variants, DS 2addr/st64/swizzle/addtid/append forms, MUBUF/MTBUF addressing modes,
// SCRATCH/GLOBAL/FLAT forms and atomics; SDWA, DPP and VOP3P VALU forms.
  s_mov_b64 s[2:3], -1
  s_cmov_b32 s4, 0x1234
  s_not_b64 s[4:5], s[6:7]
  s_wqm_b64 s[8:9], exec
  s_brev_b64 s[8:9], s[10:11]
  s_bcnt0_i32_b64 s1, vcc
  s_ff0_i32_b32 s2, s3
  s_ff1_i32_b64 s2, s[4:5]
  s_flbit_i32_i64 s2, s[4:5]
  s_sext_i32_i16 s3, m0
  s_bitset0_b64 s[4:5], s6
  s_bitset1_b32 s4, 7
  s_swappc_b64 s[30:31], s[4:5]
  s_or_saveexec_b64 s[4:5], s[6:7]
  s_xnor_saveexec_b64 s[4:5], vcc
  s_andn1_saveexec_b64 s[4:5], s[6:7]
  s_andn2_wrexec_b64 s[4:5], s[6:7]
  s_quadmask_b64 s[4:5], s[6:7]
  s_movrels_b32 s1, s2
  s_movreld_b64 s[2:3], s[4:5]
  s_abs_i32 s1, -5
  s_bitreplicate_b64_b32 s[4:5], s1
  s_addc_u32 s1, s2, 0xffff
  s_subb_u32 s1, s2, s3
  s_cselect_b64 s[4:5], s[6:7], 0
  s_andn2_b64 s[4:5], exec, vcc
  s_orn2_b32 s1, s2, s3
  s_nand_b64 s[4:5], s[6:7], s[8:9]
  s_lshr_b64 s[4:5], s[6:7], s8
  s_ashr_i64 s[4:5], s[6:7], 3
  s_bfm_b64 s[4:5], s1, s2
  s_bfe_i64 s[4:5], s[6:7], 0x40002
  s_absdiff_i32 s1, s2, s3
  s_mul_hi_i32 s1, s2, s3
  s_lshl3_add_u32 s1, s2, s3
  s_pack_hh_b32_b16 s1, s2, s3
  s_cmovk_i32 s1, 0x7fff
  s_cmpk_le_u32 s1, 0xffff
  s_addk_i32 s1, 0x8000
  s_mulk_i32 s1, 3
  s_getreg_b32 s1, hwreg(HW_REG_GPR_ALLOC)
  s_setreg_b32 hwreg(HW_REG_TRAPSTS, 8, 2), s2
  s_setreg_imm32_b32 hwreg(HW_REG_MODE), 0x3f0
  s_call_b64 s[30:31], 4
  s_bitcmp1_b64 s[4:5], 63
  s_cmp_lg_u64 s[4:5], s[6:7]
  s_cmp_ge_i32 s1, -3
  s_branch 2
  s_cbranch_vccnz 1
  s_cbranch_scc0 0
  s_cbranch_cdbgsys 3
  s_waitcnt vmcnt(3) expcnt(1) lgkmcnt(2)
  s_waitcnt vmcnt(62)
  s_sethalt 0
  s_trap 3
  s_icache_inv
  s_setprio 2
  s_sendmsg sendmsg(MSG_INTERRUPT)
  s_nop 7
  s_load_dwordx16 s[16:31], s[4:5], 0x40
  s_load_dword s1, s[4:5], s6
  s_load_dwordx2 s[2:3], s[4:5], -0x10
  s_buffer_load_dwordx4 s[8:11], s[12:15], 0xfc
  s_buffer_load_dword s1, s[12:15], m0
  s_store_dwordx2 s[2:3], s[4:5], 0x8 glc
  s_buffer_store_dword s1, s[12:15], 0x10
  s_atomic_cmpswap s[2:3], s[4:5], 0x0 glc
  s_atomic_add_x2 s[2:3], s[4:5], s6
  s_buffer_atomic_umax s1, s[12:15], 0x4
  s_dcache_inv
  s_dcache_wb
  s_memrealtime s[2:3]
  ds_read2st64_b64 v[2:5], v1 offset0:3 offset1:9
  ds_write2st64_b32 v1, v2, v3 offset0:1 offset1:255
  ds_wrxchg2_rtn_b64 v[4:7], v1, v[2:3], v[8:9] offset1:4
  ds_cmpst_rtn_b64 v[2:3], v1, v[4:5], v[6:7] offset:8
  ds_mskor_b32 v1, v2, v3 offset:65535
  ds_swizzle_b32 v1, v2 offset:swizzle(BITMASK_PERM,"01pip")
  ds_swizzle_b32 v1, v2 offset:swizzle(REVERSE,8)
  ds_swizzle_b32 v1, v2 offset:swizzle(BROADCAST,4,1)
  ds_read_addtid_b32 v1 offset:16
  ds_append v1 offset:4
  ds_consume v1
  ds_read_u16_d16_hi v1, v2 offset:2
  ds_write_b8_d16_hi v1, v2
  ds_read_b96 v[1:3], v4
  ds_write_b128 v1, v[4:7] offset:32
  ds_max_rtn_f64 v[2:3], v1, v[4:5]
  ds_wrap_rtn_b32 v1, v2, v3, v4
  buffer_load_dword v1, v[2:3], s[4:7], s8 idxen offen offset:4095
  buffer_load_dwordx3 v[1:3], v2, s[4:7], 0 idxen glc slc
  buffer_store_short_d16_hi v1, off, s[4:7], s9 offset:2
  buffer_atomic_cmpswap_x2 v[2:5], v1, s[4:7], 0 offen glc
  buffer_atomic_inc v2, off, s[4:7], 64
  buffer_load_format_xyzw v[1:4], v5, s[4:7], 0 idxen
  buffer_store_format_xy v[1:2], off, s[4:7], 0 offset:8
  buffer_load_ubyte_d16 v1, off, s[4:7], 0
  buffer_wbinvl1_vol
  tbuffer_load_format_xyz v[1:3], v4, s[4:7], 0 format:[BUF_DATA_FORMAT_32_32_32,BUF_NUM_FORMAT_FLOAT] offen
  tbuffer_store_format_x v1, off, s[4:7], s2 format:[BUF_DATA_FORMAT_16,BUF_NUM_FORMAT_SNORM] offset:12
  scratch_load_dwordx4 v[1:4], v5, off offset:-4096
  scratch_store_byte off, v1, s3 offset:4095
  scratch_load_sbyte_d16_hi v1, v2, off
  global_load_dwordx3 v[1:3], v[4:5], off offset:-8
  global_store_short v1, v2, s[4:5] offset:12
  global_atomic_smax_x2 v[1:2], v3, v[4:5], s[6:7] glc
  global_atomic_xor v3, v4, s[6:7] offset:-64
  flat_atomic_cmpswap v1, v[2:3], v[4:5] offset:4095 glc
  flat_load_sshort v1, v[2:3] offset:2 slc
  flat_store_dwordx3 v[2:3], v[4:6]
  // SDWA and DPP forms of the VALU
  v_add_f32_sdwa v0, -v1, |v2| clamp dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:BYTE_2 src1_sel:DWORD
  v_mov_b32_sdwa v0, sext(v1) dst_sel:BYTE_0 dst_unused:UNUSED_SEXT src0_sel:WORD_1
  v_cmp_eq_f32_sdwa vcc, v1, s2 src0_sel:WORD_1 src1_sel:DWORD
  v_cmp_eq_u32_sdwa s[4:5], v1, v2 src0_sel:WORD_1 src1_sel:BYTE_3
  v_add_u32_sdwa v0, v1, v2 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:DWORD
  v_mul_f32_sdwa v0, v1, v2 mul:2 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:WORD_0
  v_add_co_u32_sdwa v0, vcc, v1, v2 dst_sel:WORD_0 dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:DWORD
  v_cndmask_b32_sdwa v0, v1, v2, vcc dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_1 src1_sel:DWORD
  v_cvt_f32_f16_sdwa v0, v1 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_1
  v_add_f32_dpp v0, -v1, |v2| row_ror:3 row_mask:0x3 bank_mask:0xc
  v_mov_b32_dpp v0, v1 row_half_mirror row_mask:0xf bank_mask:0xf
  v_mov_b32_dpp v0, v1 wave_rol:1 row_mask:0xf bank_mask:0xf bound_ctrl:0
  v_pk_fma_f16 v0, v1, v2, v3 neg_lo:[1,0,0] neg_hi:[0,0,1] clamp
  v_pk_add_u16 v0, v1, v2 op_sel:[1,0] op_sel_hi:[0,1]
  s_endpgm
