/* Major/step version numbers of the HSA API dispatch tables (ROCr-compatible). */
#ifndef HSA_RUNTIME_INC_HSA_API_TRACE_VERSION_H
#define HSA_RUNTIME_INC_HSA_API_TRACE_VERSION_H

/* Plain macros only: usable from C and C++. */

/* Major id: bumped when a table's layout changes incompatibly. */
#define HSA_API_TABLE_MAJOR_VERSION                 0x03
#define HSA_CORE_API_TABLE_MAJOR_VERSION            0x02
#define HSA_AMD_EXT_API_TABLE_MAJOR_VERSION         0x02
#define HSA_FINALIZER_API_TABLE_MAJOR_VERSION       0x02
#define HSA_IMAGE_API_TABLE_MAJOR_VERSION           0x02
#define HSA_AQLPROFILE_API_TABLE_MAJOR_VERSION      0x01
#define HSA_TOOLS_API_TABLE_MAJOR_VERSION           0x01
#define HSA_PC_SAMPLING_API_TABLE_MAJOR_VERSION     0x01

/* Step id: bumped when entries are appended to a table. */
#define HSA_API_TABLE_STEP_VERSION                  0x01
#define HSA_CORE_API_TABLE_STEP_VERSION             0x00
#define HSA_AMD_EXT_API_TABLE_STEP_VERSION          0x04
#define HSA_FINALIZER_API_TABLE_STEP_VERSION        0x00
#define HSA_IMAGE_API_TABLE_STEP_VERSION            0x00
#define HSA_AQLPROFILE_API_TABLE_STEP_VERSION       0x00
#define HSA_TOOLS_API_TABLE_STEP_VERSION            0x00
#define HSA_PC_SAMPLING_API_TABLE_STEP_VERSION      0x00

#endif /* HSA_RUNTIME_INC_HSA_API_TRACE_VERSION_H */
