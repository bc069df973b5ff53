/* SPDX-License-Identifier: MIT */
/* names.h — mnemonic tables of the non-VALU formats (opnames.c). */
#ifndef SIM_ISA_NAMES_H
#define SIM_ISA_NAMES_H

extern const char *const isa_sop2_names[128];
extern const char *const isa_sopk_names[32];
extern const char *const isa_sop1_names[256];
extern const char *const isa_sopc_names[128];
extern const char *const isa_sopp_names[128];
extern const char *const isa_smem_names[256];
extern const char *const isa_ds_names[256];
extern const char *const isa_flat_names[128];
extern const char *const isa_global_names[128];
extern const char *const isa_scratch_names[128];
extern const char *const isa_mubuf_names[128];
extern const char *const isa_mtbuf_names[16];
extern const char *const isa_mimg_names[128];

#endif
