/* SPDX-License-Identifier: MIT */
/* Major/step version numbers of the HSA API dispatch tables (ROCr-compatible). */
#ifndef HSA_RUNTIME_INC_HSA_API_TRACE_VERSION_H
#define HSA_RUNTIME_INC_HSA_API_TRACE_VERSION_H

/* Plain macros only: usable from C and C++. */

/* The tables keep the ROCm 5.2 layout (newer entries are appended), so the ids are
   5.2's: tools built for Debian 12's ROCm accept them. */
/* Major id: bumped when a table's layout changes incompatibly. */
#define HSA_API_TABLE_MAJOR_VERSION                 0x01
#define HSA_CORE_API_TABLE_MAJOR_VERSION            0x01
#define HSA_AMD_EXT_API_TABLE_MAJOR_VERSION         0x01
#define HSA_FINALIZER_API_TABLE_MAJOR_VERSION       0x01
#define HSA_IMAGE_API_TABLE_MAJOR_VERSION           0x01
#define HSA_AQLPROFILE_API_TABLE_MAJOR_VERSION      0x01
#define HSA_TOOLS_API_TABLE_MAJOR_VERSION           0x01
#define HSA_PC_SAMPLING_API_TABLE_MAJOR_VERSION     0x01

/* Step id: bumped when entries are appended to a table. */
#define HSA_API_TABLE_STEP_VERSION                  0x00
#define HSA_CORE_API_TABLE_STEP_VERSION             0x00
#define HSA_AMD_EXT_API_TABLE_STEP_VERSION          0x00
#define HSA_FINALIZER_API_TABLE_STEP_VERSION        0x00
#define HSA_IMAGE_API_TABLE_STEP_VERSION            0x00
#define HSA_AQLPROFILE_API_TABLE_STEP_VERSION       0x00
#define HSA_TOOLS_API_TABLE_STEP_VERSION            0x00
#define HSA_PC_SAMPLING_API_TABLE_STEP_VERSION      0x00

#endif /* HSA_RUNTIME_INC_HSA_API_TRACE_VERSION_H */
