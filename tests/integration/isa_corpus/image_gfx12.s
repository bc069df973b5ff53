// SPDX-License-Identifier: MIT
// gfx12 (RDNA4) VIMAGE and VSAMPLE: each image opcode the model decodes, the address lists
// (one address unbracketed, VSAMPLE's fourth field a range, llvm-objdump-19's one-address
// rule for VIMAGE lists whose vaddr1..3 are v0), the modifiers (unorm th scope r128 a16 tfe
// lwe d16), ttmp resources, for the decoder's text against llvm-objdump-19 --mcpu=gfx1201.
.text
image_load v[0:3], [v1, v2], s[0:7] dmask:0xf dim:SQ_RSRC_IMG_2D
image_load v[0:3], [v1, v0], s[0:7] dmask:0xf dim:SQ_RSRC_IMG_2D
image_load v[4:7], [v1, v0], s[0:7] dmask:0xf dim:SQ_RSRC_IMG_2D
image_load v[4:7], [v1, v9], s[0:7] dmask:0xf dim:SQ_RSRC_IMG_2D
image_load v[0:3], [v1, v2, v3], s[0:7] dmask:0xf dim:SQ_RSRC_IMG_3D
image_load v[0:1], [v1, v2], s[0:7] dmask:0x3 dim:SQ_RSRC_IMG_2D
image_load v0, [v1, v2], s[0:7] dmask:0x1 dim:SQ_RSRC_IMG_2D
image_load v[0:3], v1, s[0:7] dmask:0xf dim:SQ_RSRC_IMG_1D
image_sample_lz v[0:3], [v0, v1], s[8:15], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_2D
image_sample_lz v[0:3], [v1, v0], s[8:15], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_2D
image_load v[4:7], [v1, v0, v2], s[0:7] dmask:0xf dim:SQ_RSRC_IMG_3D
image_load v[4:7], [v1, v2, v0], s[0:7] dmask:0xf dim:SQ_RSRC_IMG_3D
image_load v[4:7], [v0, v0, v0], s[0:7] dmask:0xf dim:SQ_RSRC_IMG_3D
image_load v[4:7], [v0, v2, v0], s[0:7] dmask:0xf dim:SQ_RSRC_IMG_3D
image_load v[4:7], [v0, v0], s[0:7] dmask:0xf dim:SQ_RSRC_IMG_2D
image_load v[4:7], [v1, v0], s[0:7] dmask:0xf dim:SQ_RSRC_IMG_1D_ARRAY
image_load v[4:7], [v1, v2, v0], s[0:7] dmask:0xf dim:SQ_RSRC_IMG_2D_ARRAY
image_load_mip v[4:7], [v1, v2, v0], s[0:7] dmask:0xf dim:SQ_RSRC_IMG_2D
image_load_mip v[4:7], [v1, v2, v3, v0], s[0:7] dmask:0xf dim:SQ_RSRC_IMG_3D
image_load_mip v[4:7], [v1, v0, v0, v0], s[0:7] dmask:0xf dim:SQ_RSRC_IMG_3D
image_load_mip v[4:7], [v1, v0], s[0:7] dmask:0xf dim:SQ_RSRC_IMG_1D
image_store v[4:7], [v1, v0], s[0:7] dmask:0xf dim:SQ_RSRC_IMG_2D
image_atomic_add v4, [v1, v0], s[0:7] dmask:0x1 dim:SQ_RSRC_IMG_2D
image_get_resinfo v[4:7], v0, s[0:7] dmask:0xf dim:SQ_RSRC_IMG_2D
image_get_resinfo v[4:7], v1, s[0:7] dmask:0xf dim:SQ_RSRC_IMG_2D
image_sample v[4:7], [v1, v0], s[8:15], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_2D
image_sample_l v[4:7], [v1, v0, v0], s[8:15], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_2D
image_gather4_lz v[4:7], [v1, v0], s[8:15], s[16:19] dmask:0x1 dim:SQ_RSRC_IMG_2D
image_gather4 v[4:7], [v1, v2], s[8:15], s[16:19] dmask:0x2 dim:SQ_RSRC_IMG_2D
image_load v[4:5], [v1, v2], s[0:7] dmask:0xf dim:SQ_RSRC_IMG_2D d16
image_load v[4:8], [v1, v2], s[0:7] dmask:0xf dim:SQ_RSRC_IMG_2D tfe
image_sample_lz v[4:7], [v1, v2], s[8:15], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_2D unorm
image_load v[4:7], [v1, v2], s[0:7] dmask:0xf dim:SQ_RSRC_IMG_2D th:TH_LOAD_NT scope:SCOPE_SYS
image_atomic_add v4, [v1, v2], s[0:7] dmask:0x1 dim:SQ_RSRC_IMG_2D th:TH_ATOMIC_RETURN
image_load v[4:7], [v1, v2], s[0:7] dmask:0xf dim:SQ_RSRC_IMG_2D r128
image_load v[4:7], v1, s[0:7] dmask:0xf dim:SQ_RSRC_IMG_2D a16
image_load v[4:7], [v1, v0, v0], s[0:7] dmask:0xf dim:SQ_RSRC_IMG_3D
image_load_mip v[4:7], [v1, v2, v0, v0], s[0:7] dmask:0xf dim:SQ_RSRC_IMG_3D
image_load_mip v[4:7], [v1, v0, v0], s[0:7] dmask:0xf dim:SQ_RSRC_IMG_2D
image_load_mip v[4:7], [v1, v0, v2], s[0:7] dmask:0xf dim:SQ_RSRC_IMG_2D
image_sample_lz v[4:7], [v1, v0, v0], s[8:15], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_3D
image_sample_lz v[4:7], [v0, v0], s[8:15], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_2D
image_sample_lz v[4:7], v0, s[8:15], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_1D
image_sample_l v[4:7], [v0, v0], s[8:15], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_1D
image_sample_d v[4:7], [v1, v2, v3], s[8:15], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_1D
image_sample_b_o v[4:7], [v1, v2, v3, v4], s[8:15], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_2D
image_store v[4:7], v1, s[0:7] dmask:0xf dim:SQ_RSRC_IMG_1D
image_atomic_cmpswap v[4:5], [v1, v2], s[0:7] dmask:0x3 dim:SQ_RSRC_IMG_2D th:TH_ATOMIC_RETURN
image_store v[4:7], [v1, v2], ttmp[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D
image_sample_lz v[4:7], [v1, v2], s[8:15], ttmp[4:7] dmask:0xf dim:SQ_RSRC_IMG_2D
image_sample_lz v[4:8], [v1, v2], s[8:15], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_2D tfe
image_sample_d v[4:7], [v1, v2, v3, v[4:6]], s[8:15], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_2D
image_sample_lz v[4:7], [v1, v2], s[92:99], s[96:99] dmask:0xf dim:SQ_RSRC_IMG_2D
image_msaa_load v[4:7], [v1, v2, v3], s[0:7] dmask:0x1 dim:SQ_RSRC_IMG_2D_MSAA
image_get_lod v[4:5], [v1, v2], s[8:15], s[16:19] dmask:0x3 dim:SQ_RSRC_IMG_2D
image_sample_lz v[4:7], [v1, v2], s[8:15], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_2D lwe
image_sample_lz v[4:5], [v1, v2], s[8:15], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_2D d16
image_sample_lz v[4:7], [v1, v2], s[8:15], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_2D r128
image_sample_lz v[4:7], [v1, v2], s[8:15], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_2D th:TH_LOAD_NT scope:SCOPE_DEV
image_store v[4:5], [v1, v2], s[0:7] dmask:0xf dim:SQ_RSRC_IMG_2D d16
image_store v[4:7], [v1, v2], s[0:7] dmask:0xf dim:SQ_RSRC_IMG_2D th:TH_STORE_NT
image_load v[4:7], [v1, v2, v3, v4], s[0:7] dmask:0xf dim:SQ_RSRC_IMG_2D_MSAA_ARRAY
image_load v4, [v1, v2], s[0:7] dmask:0x0 dim:SQ_RSRC_IMG_2D
image_sample_lz v[4:6], v1, s[8:15], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_2D unorm th:TH_LOAD_NT scope:SCOPE_DEV r128 a16 tfe lwe d16
image_load v[4:6], [v1, v2], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D th:TH_LOAD_NT scope:SCOPE_DEV r128 tfe d16
image_load v[4:5], [v1, v2], s[8:15] dmask:0x3 dim:SQ_RSRC_IMG_2D th:TH_LOAD_HT
image_load v[4:5], [v1, v2], s[8:15] dmask:0x3 dim:SQ_RSRC_IMG_2D scope:SCOPE_SE
image_gather4_lz v[4:7], [v1, v2, v3], s[8:15], s[16:19] dmask:0x1 dim:SQ_RSRC_IMG_2D_ARRAY
image_load v[4:7], [v1, v2], ttmp[4:11] dmask:0xf dim:SQ_RSRC_IMG_2D
image_atomic_add_uint v4, [v1, v2], s[0:7] dmask:0x1 dim:SQ_RSRC_IMG_2D th:TH_ATOMIC_NT
// every VIMAGE and VSAMPLE opcode (but the g16 forms), dmask 0x1, 2D, vaddr [v1, v2] (further addresses v0)
.long 0xd0400001, 0x00000008, 0x00000201
.long 0xd0404001, 0x00000008, 0x00000201
.long 0xd0408001, 0x00000008, 0x00000201
.long 0xd040c001, 0x00000008, 0x00000201
.long 0xd0410001, 0x00000008, 0x00000201
.long 0xd0414001, 0x00000008, 0x00000201
.long 0xd0418001, 0x00000008, 0x00000201
.long 0xd041c001, 0x00000008, 0x00000201
.long 0xd0420001, 0x00000008, 0x00000201
.long 0xd0424001, 0x00000008, 0x00000201
.long 0xd0428001, 0x00000008, 0x00000201
.long 0xd0430001, 0x00000008, 0x00000201
.long 0xd0434001, 0x00000008, 0x00000201
.long 0xd0438001, 0x00000008, 0x00000201
.long 0xd043c001, 0x00000008, 0x00000201
.long 0xd0440001, 0x00000008, 0x00000201
.long 0xd0444001, 0x00000008, 0x00000201
.long 0xd0448001, 0x00000008, 0x00000201
.long 0xd044c001, 0x00000008, 0x00000201
.long 0xd0450001, 0x00000008, 0x00000201
.long 0xd0454001, 0x00000008, 0x00000201
.long 0xd0458001, 0x00000008, 0x00000201
.long 0xd045c001, 0x00000008, 0x00000201
.long 0xd060c001, 0x00000008, 0x00000201
.long 0xd0610001, 0x00000008, 0x00000201
.long 0xd0614001, 0x00000008, 0x00000201
.long 0xd0618001, 0x00000008, 0x00000201
.long 0xd061c001, 0x00000008, 0x00000201
.long 0xe446c001, 0x02001008, 0x00000201
.long 0xe4470001, 0x02001008, 0x00000201
.long 0xe4474001, 0x02001008, 0x00000201
.long 0xe4478001, 0x02001008, 0x00000201
.long 0xe447c001, 0x02001008, 0x00000201
.long 0xe4480001, 0x02001008, 0x00000201
.long 0xe4484001, 0x02001008, 0x00000201
.long 0xe4488001, 0x02001008, 0x00000201
.long 0xe448c001, 0x02001008, 0x00000201
.long 0xe4490001, 0x02001008, 0x00000201
.long 0xe4494001, 0x02001008, 0x00000201
.long 0xe4498001, 0x02001008, 0x00000201
.long 0xe449c001, 0x02001008, 0x00000201
.long 0xe44a0001, 0x02001008, 0x00000201
.long 0xe44a4001, 0x02001008, 0x00000201
.long 0xe44a8001, 0x02001008, 0x00000201
.long 0xe44ac001, 0x02001008, 0x00000201
.long 0xe44b0001, 0x02001008, 0x00000201
.long 0xe44b4001, 0x02001008, 0x00000201
.long 0xe44b8001, 0x02001008, 0x00000201
.long 0xe44bc001, 0x02001008, 0x00000201
.long 0xe44c0001, 0x02001008, 0x00000201
.long 0xe44c4001, 0x02001008, 0x00000201
.long 0xe44c8001, 0x02001008, 0x00000201
.long 0xe44cc001, 0x02001008, 0x00000201
.long 0xe44d0001, 0x02001008, 0x00000201
.long 0xe44d4001, 0x02001008, 0x00000201
.long 0xe44d8001, 0x02001008, 0x00000201
.long 0xe44dc001, 0x02001008, 0x00000201
.long 0xe44e0001, 0x02001008, 0x00000201
.long 0xe4500001, 0x02001008, 0x00000201
.long 0xe4504001, 0x02001008, 0x00000201
.long 0xe4508001, 0x02001008, 0x00000201
.long 0xe450c001, 0x02001008, 0x00000201
.long 0xe4510001, 0x02001008, 0x00000201
.long 0xe4514001, 0x02001008, 0x00000201
.long 0xe4518001, 0x02001008, 0x00000201
.long 0xe451c001, 0x02001008, 0x00000201
.long 0xe4520001, 0x02001008, 0x00000201
.long 0xe4524001, 0x02001008, 0x00000201
.long 0xe4528001, 0x02001008, 0x00000201
.long 0xe452c001, 0x02001008, 0x00000201
.long 0xe4580001, 0x02001008, 0x00000201
.long 0xe4584001, 0x02001008, 0x00000201
.long 0xe4588001, 0x02001008, 0x00000201
.long 0xe458c001, 0x02001008, 0x00000201
.long 0xe4590001, 0x02001008, 0x00000201
.long 0xe4594001, 0x02001008, 0x00000201
.long 0xe4640001, 0x02001008, 0x00000201
