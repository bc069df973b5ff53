// SPDX-License-Identifier: MIT
// MIMG words: every gfx9 image opcode with dmask 0xf (atomics and gather4 too, whose dmask the
// assembler refuses: hence raw words), and the modifier bits one at a time and together (unorm glc
// slc a16 tfe lwe da d16, dmask 0 and 3), for the decoder's text against llvm-objdump's.
.text
  .long 0xF0483100, 0x00010804  // image_atomic_add v8, v4, s[4:11] dmask:0x1 unorm glc
  .long 0xF0480F00, 0x00010804  // image_atomic_add v8, v4, s[4:11] dmask:0xf
  .long 0xF0483300, 0x00010804  // image_atomic_add v[8:9], v4, s[4:11] dmask:0x3 unorm glc
  .long 0xF0600F00, 0x00010804  // image_atomic_and v8, v4, s[4:11] dmask:0xf
  .long 0xF0440F00, 0x00010804  // image_atomic_cmpswap v[8:11], v4, s[4:11] dmask:0xf
  .long 0xF0443300, 0x00010804  // image_atomic_cmpswap v[8:9], v4, s[4:11] dmask:0x3 unorm glc
  .long 0xF0700F00, 0x00010804  // image_atomic_dec v8, v4, s[4:11] dmask:0xf
  .long 0xF06C0F00, 0x00010804  // image_atomic_inc v8, v4, s[4:11] dmask:0xf
  .long 0xF0640F00, 0x00010804  // image_atomic_or v8, v4, s[4:11] dmask:0xf
  .long 0xF0580F00, 0x00010804  // image_atomic_smax v8, v4, s[4:11] dmask:0xf
  .long 0xF0500F00, 0x00010804  // image_atomic_smin v8, v4, s[4:11] dmask:0xf
  .long 0xF04C0F00, 0x00010804  // image_atomic_sub v8, v4, s[4:11] dmask:0xf
  .long 0xF0400F00, 0x00010804  // image_atomic_swap v8, v4, s[4:11] dmask:0xf
  .long 0xF05C0F00, 0x00010804  // image_atomic_umax v8, v4, s[4:11] dmask:0xf
  .long 0xF0540F00, 0x00010804  // image_atomic_umin v8, v4, s[4:11] dmask:0xf
  .long 0xF0680F00, 0x00010804  // image_atomic_xor v8, v4, s[4:11] dmask:0xf
  .long 0xF1000F00, 0x00A10804  // image_gather4 v[8:11], v4, s[4:11], s[20:23] dmask:0xf
  .long 0xF1140F00, 0x00A10804  // image_gather4_b v[8:11], v[4:5], s[4:11], s[20:23] dmask:0xf
  .long 0xF1180F00, 0x00A10804  // image_gather4_b_cl v[8:11], v[4:5], s[4:11], s[20:23] dmask:0xf
  .long 0xF1580F00, 0x00A10804  // image_gather4_b_cl_o v[8:11], v[4:6], s[4:11], s[20:23] dmask:0xf
  .long 0xF1540F00, 0x00A10804  // image_gather4_b_o v[8:11], v[4:6], s[4:11], s[20:23] dmask:0xf
  .long 0xF1200F00, 0x00A10804  // image_gather4_c v[8:11], v[4:5], s[4:11], s[20:23] dmask:0xf
  .long 0xF1340F00, 0x00A10804  // image_gather4_c_b v[8:11], v[4:6], s[4:11], s[20:23] dmask:0xf
  .long 0xF1380F00, 0x00A10804  // image_gather4_c_b_cl v[8:11], v[4:6], s[4:11], s[20:23] dmask:0xf
  .long 0xF1780F00, 0x00A10804  // image_gather4_c_b_cl_o v[8:11], v[4:7], s[4:11], s[20:23] dmask:0xf
  .long 0xF1740F00, 0x00A10804  // image_gather4_c_b_o v[8:11], v[4:7], s[4:11], s[20:23] dmask:0xf
  .long 0xF1240F00, 0x00A10804  // image_gather4_c_cl v[8:11], v[4:5], s[4:11], s[20:23] dmask:0xf
  .long 0xF1640F00, 0x00A10804  // image_gather4_c_cl_o v[8:11], v[4:6], s[4:11], s[20:23] dmask:0xf
  .long 0xF1300F00, 0x00A10804  // image_gather4_c_l v[8:11], v[4:5], s[4:11], s[20:23] dmask:0xf
  .long 0xF1700F00, 0x00A10804  // image_gather4_c_l_o v[8:11], v[4:6], s[4:11], s[20:23] dmask:0xf
  .long 0xF13C0F00, 0x00A10804  // image_gather4_c_lz v[8:11], v[4:5], s[4:11], s[20:23] dmask:0xf
  .long 0xF17C0F00, 0x00A10804  // image_gather4_c_lz_o v[8:11], v[4:6], s[4:11], s[20:23] dmask:0xf
  .long 0xF1600F00, 0x00A10804  // image_gather4_c_o v[8:11], v[4:6], s[4:11], s[20:23] dmask:0xf
  .long 0xF1040F00, 0x00A10804  // image_gather4_cl v[8:11], v4, s[4:11], s[20:23] dmask:0xf
  .long 0xF1440F00, 0x00A10804  // image_gather4_cl_o v[8:11], v[4:5], s[4:11], s[20:23] dmask:0xf
  .long 0xF1100F00, 0x00A10804  // image_gather4_l v[8:11], v4, s[4:11], s[20:23] dmask:0xf
  .long 0xF1500F00, 0x00A10804  // image_gather4_l_o v[8:11], v[4:5], s[4:11], s[20:23] dmask:0xf
  .long 0xF11C0F00, 0x00A10804  // image_gather4_lz v[8:11], v4, s[4:11], s[20:23] dmask:0xf
  .long 0xF15C0F00, 0x00A10804  // image_gather4_lz_o v[8:11], v[4:5], s[4:11], s[20:23] dmask:0xf
  .long 0xF1400F00, 0x00A10804  // image_gather4_o v[8:11], v[4:5], s[4:11], s[20:23] dmask:0xf
  .long 0xF1800F00, 0x00010804  // image_get_lod v[8:11], v4, s[4:11], s[0:3] dmask:0xf
  .long 0xF1800F00, 0x00A10804  // image_get_lod v[8:11], v4, s[4:11], s[20:23] dmask:0xf
  .long 0xF0380F00, 0x00010804  // image_get_resinfo v[8:11], v4, s[4:11] dmask:0xf
  .long 0xF0380300, 0x00010804  // image_get_resinfo v[8:9], v4, s[4:11] dmask:0x3
  .long 0xF0000000, 0x00010804  // image_load v8, v4, s[4:11]
  .long 0xF201F300, 0x00010804  // image_load v[8:10], v4, s[4:11] dmask:0x3 unorm glc slc a16 tfe da
  .long 0xF0000F00, 0x00010804  // image_load v[8:11], v4, s[4:11] dmask:0xf
  .long 0xF0040F00, 0x00010804  // image_load_mip v[8:11], v4, s[4:11] dmask:0xf
  .long 0xF0100F00, 0x00010804  // image_load_mip_pck v[8:11], v4, s[4:11] dmask:0xf
  .long 0xF0140F00, 0x00010804  // image_load_mip_pck_sgn v[8:11], v4, s[4:11] dmask:0xf
  .long 0xF0080F00, 0x00010804  // image_load_pck v[8:11], v4, s[4:11] dmask:0xf
  .long 0xF00C0F00, 0x00010804  // image_load_pck_sgn v[8:11], v4, s[4:11] dmask:0xf
  .long 0xF2827300, 0x80A10804  // image_sample v8, v4, s[4:11], s[20:23] dmask:0x3 unorm glc slc lwe da d16
  .long 0xF0800700, 0x04A10804  // image_sample v[8:10], v4, s[4:11], s[20:23] dmask:0x7
  .long 0xF0808700, 0x00A10804  // image_sample v[8:10], v4, s[4:11], s[20:23] dmask:0x7 a16
  .long 0xF0804700, 0x00A10804  // image_sample v[8:10], v4, s[4:11], s[20:23] dmask:0x7 da
  .long 0xF0802700, 0x00A10804  // image_sample v[8:10], v4, s[4:11], s[20:23] dmask:0x7 glc
  .long 0xF0820700, 0x00A10804  // image_sample v[8:10], v4, s[4:11], s[20:23] dmask:0x7 lwe
  .long 0xF2800700, 0x00A10804  // image_sample v[8:10], v4, s[4:11], s[20:23] dmask:0x7 slc
  .long 0xF0810700, 0x80A10804  // image_sample v[8:10], v4, s[4:11], s[20:23] dmask:0x7 tfe d16
  .long 0xF0801700, 0x00A10804  // image_sample v[8:10], v4, s[4:11], s[20:23] dmask:0x7 unorm
  .long 0xF0810700, 0x00A10804  // image_sample v[8:11], v4, s[4:11], s[20:23] dmask:0x7 tfe
  .long 0xF0800F00, 0x00A10804  // image_sample v[8:11], v4, s[4:11], s[20:23] dmask:0xf
  .long 0xF0800700, 0x80A10804  // image_sample v[8:9], v4, s[4:11], s[20:23] dmask:0x7 d16
  .long 0xF0940F00, 0x00A10804  // image_sample_b v[8:11], v[4:5], s[4:11], s[20:23] dmask:0xf
  .long 0xF0980F00, 0x00A10804  // image_sample_b_cl v[8:11], v[4:5], s[4:11], s[20:23] dmask:0xf
  .long 0xF0D80F00, 0x00A10804  // image_sample_b_cl_o v[8:11], v[4:6], s[4:11], s[20:23] dmask:0xf
  .long 0xF0D40F00, 0x00A10804  // image_sample_b_o v[8:11], v[4:6], s[4:11], s[20:23] dmask:0xf
  .long 0xF0A00F00, 0x00A10804  // image_sample_c v[8:11], v[4:5], s[4:11], s[20:23] dmask:0xf
  .long 0xF0B40F00, 0x00A10804  // image_sample_c_b v[8:11], v[4:6], s[4:11], s[20:23] dmask:0xf
  .long 0xF0B80F00, 0x00A10804  // image_sample_c_b_cl v[8:11], v[4:6], s[4:11], s[20:23] dmask:0xf
  .long 0xF0F80F00, 0x00A10804  // image_sample_c_b_cl_o v[8:11], v[4:7], s[4:11], s[20:23] dmask:0xf
  .long 0xF0F40F00, 0x00A10804  // image_sample_c_b_o v[8:11], v[4:7], s[4:11], s[20:23] dmask:0xf
  .long 0xF1A80F00, 0x00010804  // image_sample_c_cd v[8:11], v[4:6], s[4:11], s[0:3] dmask:0xf
  .long 0xF1A80F00, 0x00A10804  // image_sample_c_cd v[8:11], v[4:6], s[4:11], s[20:23] dmask:0xf
  .long 0xF1AC0F00, 0x00010804  // image_sample_c_cd_cl v[8:11], v[4:6], s[4:11], s[0:3] dmask:0xf
  .long 0xF1AC0F00, 0x00A10804  // image_sample_c_cd_cl v[8:11], v[4:6], s[4:11], s[20:23] dmask:0xf
  .long 0xF1BC0F00, 0x00010804  // image_sample_c_cd_cl_o v[8:11], v[4:7], s[4:11], s[0:3] dmask:0xf
  .long 0xF1BC0F00, 0x00A10804  // image_sample_c_cd_cl_o v[8:11], v[4:7], s[4:11], s[20:23] dmask:0xf
  .long 0xF1B80F00, 0x00010804  // image_sample_c_cd_o v[8:11], v[4:7], s[4:11], s[0:3] dmask:0xf
  .long 0xF1B80F00, 0x00A10804  // image_sample_c_cd_o v[8:11], v[4:7], s[4:11], s[20:23] dmask:0xf
  .long 0xF0A40F00, 0x00A10804  // image_sample_c_cl v[8:11], v[4:5], s[4:11], s[20:23] dmask:0xf
  .long 0xF0E40F00, 0x00A10804  // image_sample_c_cl_o v[8:11], v[4:6], s[4:11], s[20:23] dmask:0xf
  .long 0xF0A80F00, 0x00A10804  // image_sample_c_d v[8:11], v[4:6], s[4:11], s[20:23] dmask:0xf
  .long 0xF0AC0F00, 0x00A10804  // image_sample_c_d_cl v[8:11], v[4:6], s[4:11], s[20:23] dmask:0xf
  .long 0xF0EC0F00, 0x00A10804  // image_sample_c_d_cl_o v[8:11], v[4:7], s[4:11], s[20:23] dmask:0xf
  .long 0xF0E80F00, 0x00A10804  // image_sample_c_d_o v[8:11], v[4:7], s[4:11], s[20:23] dmask:0xf
  .long 0xF0B00F00, 0x00A10804  // image_sample_c_l v[8:11], v[4:5], s[4:11], s[20:23] dmask:0xf
  .long 0xF0F00F00, 0x00A10804  // image_sample_c_l_o v[8:11], v[4:6], s[4:11], s[20:23] dmask:0xf
  .long 0xF0BC0F00, 0x00A10804  // image_sample_c_lz v[8:11], v[4:5], s[4:11], s[20:23] dmask:0xf
  .long 0xF0FC0F00, 0x00A10804  // image_sample_c_lz_o v[8:11], v[4:6], s[4:11], s[20:23] dmask:0xf
  .long 0xF0E00F00, 0x00A10804  // image_sample_c_o v[8:11], v[4:6], s[4:11], s[20:23] dmask:0xf
  .long 0xF1A00F00, 0x00010804  // image_sample_cd v[8:11], v[4:5], s[4:11], s[0:3] dmask:0xf
  .long 0xF1A00F00, 0x00A10804  // image_sample_cd v[8:11], v[4:5], s[4:11], s[20:23] dmask:0xf
  .long 0xF1A40F00, 0x00010804  // image_sample_cd_cl v[8:11], v[4:5], s[4:11], s[0:3] dmask:0xf
  .long 0xF1A40F00, 0x00A10804  // image_sample_cd_cl v[8:11], v[4:5], s[4:11], s[20:23] dmask:0xf
  .long 0xF1B40F00, 0x00010804  // image_sample_cd_cl_o v[8:11], v[4:6], s[4:11], s[0:3] dmask:0xf
  .long 0xF1B40F00, 0x00A10804  // image_sample_cd_cl_o v[8:11], v[4:6], s[4:11], s[20:23] dmask:0xf
  .long 0xF1B00F00, 0x00010804  // image_sample_cd_o v[8:11], v[4:6], s[4:11], s[0:3] dmask:0xf
  .long 0xF1B00F00, 0x00A10804  // image_sample_cd_o v[8:11], v[4:6], s[4:11], s[20:23] dmask:0xf
  .long 0xF0840F00, 0x00A10804  // image_sample_cl v[8:11], v4, s[4:11], s[20:23] dmask:0xf
  .long 0xF0C40F00, 0x00A10804  // image_sample_cl_o v[8:11], v[4:5], s[4:11], s[20:23] dmask:0xf
  .long 0xF0880F00, 0x00A10804  // image_sample_d v[8:11], v[4:5], s[4:11], s[20:23] dmask:0xf
  .long 0xF08C0F00, 0x00A10804  // image_sample_d_cl v[8:11], v[4:5], s[4:11], s[20:23] dmask:0xf
  .long 0xF0CC0F00, 0x00A10804  // image_sample_d_cl_o v[8:11], v[4:6], s[4:11], s[20:23] dmask:0xf
  .long 0xF0C80F00, 0x00A10804  // image_sample_d_o v[8:11], v[4:6], s[4:11], s[20:23] dmask:0xf
  .long 0xF0900F00, 0x00A10804  // image_sample_l v[8:11], v4, s[4:11], s[20:23] dmask:0xf
  .long 0xF0D00F00, 0x00A10804  // image_sample_l_o v[8:11], v[4:5], s[4:11], s[20:23] dmask:0xf
  .long 0xF09C0F00, 0x00A10804  // image_sample_lz v[8:11], v4, s[4:11], s[20:23] dmask:0xf
  .long 0xF0DC0F00, 0x00A10804  // image_sample_lz_o v[8:11], v[4:5], s[4:11], s[20:23] dmask:0xf
  .long 0xF0C00F00, 0x00A10804  // image_sample_o v[8:11], v[4:5], s[4:11], s[20:23] dmask:0xf
  .long 0xF0200F00, 0x00010804  // image_store v[8:11], v4, s[4:11] dmask:0xf
  .long 0xF0240F00, 0x00010804  // image_store_mip v[8:11], v4, s[4:11] dmask:0xf
  .long 0xF02C0F00, 0x00010804  // image_store_mip_pck v[8:11], v4, s[4:11] dmask:0xf
  .long 0xF0280F00, 0x00010804  // image_store_pck v[8:11], v4, s[4:11] dmask:0xf
  .long 0xF11C0200, 0x00A10804  // image_gather4_lz v[8:11], v4, s[4:11], s[20:23] dmask:0x2
  .long 0xF1010100, 0x00A10804  // image_gather4 v[8:12], v4, s[4:11], s[20:23] dmask:0x1 tfe
  .long 0xF11C0100, 0x80A10804  // image_gather4_lz v[8:9], v4, s[4:11], s[20:23] dmask:0x1 d16
