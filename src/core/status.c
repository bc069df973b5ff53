/* SPDX-License-Identifier: MIT */
/* status.c — hsa_status_string: a readable sentence for every HSA and AMD status code.
 * Works before hsa_init, so callers can explain why hsa_init itself failed. */
#include "hsa.h"
#include "hsa_ext_amd.h"
#include "hsa_ext_finalize.h"
#include "hsa_ext_image.h"

#include <stddef.h>

struct status_text {
  int status; /* int: the extension codes belong to enums of their own */
  const char *text;
};

/* Each text names the condition and, where it helps, what to check or do. */
static const struct status_text status_texts[] = {
  {HSA_STATUS_SUCCESS, "HSA_STATUS_SUCCESS: the function completed successfully."},
  {HSA_STATUS_INFO_BREAK,
   "HSA_STATUS_INFO_BREAK: a callback asked to stop the iteration early; not an error."},
  {HSA_STATUS_ERROR, "HSA_STATUS_ERROR: a generic error occurred."},
  {HSA_STATUS_ERROR_INVALID_ARGUMENT,
   "HSA_STATUS_ERROR_INVALID_ARGUMENT: one of the arguments is invalid (a NULL pointer, an "
   "out-of-range value or an unknown attribute)."},
  {HSA_STATUS_ERROR_INVALID_QUEUE_CREATION,
   "HSA_STATUS_ERROR_INVALID_QUEUE_CREATION: the queue cannot be created with these "
   "parameters (size not a power of two, above the agent's maximum, or wrong type)."},
  {HSA_STATUS_ERROR_INVALID_ALLOCATION,
   "HSA_STATUS_ERROR_INVALID_ALLOCATION: the allocation request is invalid (size zero, above "
   "the pool's maximum, or the pool does not allow runtime allocation)."},
  {HSA_STATUS_ERROR_INVALID_AGENT,
   "HSA_STATUS_ERROR_INVALID_AGENT: the agent handle is not one the runtime gave out."},
  {HSA_STATUS_ERROR_INVALID_REGION,
   "HSA_STATUS_ERROR_INVALID_REGION: the memory region handle is not valid."},
  {HSA_STATUS_ERROR_INVALID_SIGNAL,
   "HSA_STATUS_ERROR_INVALID_SIGNAL: the signal handle is not valid (never created or "
   "already destroyed)."},
  {HSA_STATUS_ERROR_INVALID_QUEUE,
   "HSA_STATUS_ERROR_INVALID_QUEUE: the queue is not valid (never created or destroyed)."},
  {HSA_STATUS_ERROR_OUT_OF_RESOURCES,
   "HSA_STATUS_ERROR_OUT_OF_RESOURCES: the runtime could not obtain a resource it needs "
   "(memory, a hardware queue, or access to the GPU driver /dev/kfd)."},
  {HSA_STATUS_ERROR_INVALID_PACKET_FORMAT,
   "HSA_STATUS_ERROR_INVALID_PACKET_FORMAT: an AQL packet has an invalid header or fields."},
  {HSA_STATUS_ERROR_RESOURCE_FREE,
   "HSA_STATUS_ERROR_RESOURCE_FREE: the resource cannot be released because it is still in "
   "use."},
  {HSA_STATUS_ERROR_NOT_INITIALIZED,
   "HSA_STATUS_ERROR_NOT_INITIALIZED: the HSA runtime is not initialized (call hsa_init "
   "first), or this function is not implemented yet by this runtime."},
  {HSA_STATUS_ERROR_REFCOUNT_OVERFLOW,
   "HSA_STATUS_ERROR_REFCOUNT_OVERFLOW: hsa_init was called more times than the runtime's "
   "reference count can hold."},
  {HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS,
   "HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS: the arguments are valid alone but not together."},
  {HSA_STATUS_ERROR_INVALID_INDEX, "HSA_STATUS_ERROR_INVALID_INDEX: the index is out of range."},
  {HSA_STATUS_ERROR_INVALID_ISA, "HSA_STATUS_ERROR_INVALID_ISA: the ISA handle is not valid."},
  {HSA_STATUS_ERROR_INVALID_ISA_NAME,
   "HSA_STATUS_ERROR_INVALID_ISA_NAME: the ISA name is not a known target, e.g. "
   "'amdgcn-amd-amdhsa--gfx900:xnack-'."},
  {HSA_STATUS_ERROR_INVALID_CODE_OBJECT,
   "HSA_STATUS_ERROR_INVALID_CODE_OBJECT: the code object is malformed or not an AMDGPU "
   "HSA code object this runtime can load."},
  {HSA_STATUS_ERROR_INVALID_EXECUTABLE,
   "HSA_STATUS_ERROR_INVALID_EXECUTABLE: the executable handle is not valid."},
  {HSA_STATUS_ERROR_FROZEN_EXECUTABLE,
   "HSA_STATUS_ERROR_FROZEN_EXECUTABLE: the executable is frozen; no code object can be "
   "loaded and no variable defined after hsa_executable_freeze."},
  {HSA_STATUS_ERROR_INVALID_SYMBOL_NAME,
   "HSA_STATUS_ERROR_INVALID_SYMBOL_NAME: no symbol with that name exists."},
  {HSA_STATUS_ERROR_VARIABLE_ALREADY_DEFINED,
   "HSA_STATUS_ERROR_VARIABLE_ALREADY_DEFINED: the variable is already defined."},
  {HSA_STATUS_ERROR_VARIABLE_UNDEFINED,
   "HSA_STATUS_ERROR_VARIABLE_UNDEFINED: a code object needs an external variable that is "
   "not defined in the executable."},
  {HSA_STATUS_ERROR_EXCEPTION,
   "HSA_STATUS_ERROR_EXCEPTION: an HSAIL operation raised an exception."},
  {HSA_STATUS_ERROR_INVALID_CODE_SYMBOL,
   "HSA_STATUS_ERROR_INVALID_CODE_SYMBOL: the code object symbol handle is not valid."},
  {HSA_STATUS_ERROR_INVALID_EXECUTABLE_SYMBOL,
   "HSA_STATUS_ERROR_INVALID_EXECUTABLE_SYMBOL: the executable symbol handle is not valid."},
  {HSA_STATUS_ERROR_INVALID_FILE,
   "HSA_STATUS_ERROR_INVALID_FILE: the file descriptor is not valid or cannot be read."},
  {HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER,
   "HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER: the code object reader handle is not valid."},
  {HSA_STATUS_ERROR_INVALID_CACHE, "HSA_STATUS_ERROR_INVALID_CACHE: the cache handle is not valid."},
  {HSA_STATUS_ERROR_INVALID_WAVEFRONT,
   "HSA_STATUS_ERROR_INVALID_WAVEFRONT: the wavefront handle is not valid."},
  {HSA_STATUS_ERROR_INVALID_SIGNAL_GROUP,
   "HSA_STATUS_ERROR_INVALID_SIGNAL_GROUP: the signal group handle is not valid."},
  {HSA_STATUS_ERROR_INVALID_RUNTIME_STATE,
   "HSA_STATUS_ERROR_INVALID_RUNTIME_STATE: the runtime is not in a state where this "
   "operation is allowed."},
  {HSA_STATUS_ERROR_FATAL,
   "HSA_STATUS_ERROR_FATAL: the queue or the runtime hit an unrecoverable error (for example "
   "a GPU fault); the work in flight is lost."},
  /* Finalizer extension. */
  {HSA_EXT_STATUS_ERROR_INVALID_PROGRAM,
   "HSA_EXT_STATUS_ERROR_INVALID_PROGRAM: the HSAIL program handle is not valid."},
  {HSA_EXT_STATUS_ERROR_INVALID_MODULE,
   "HSA_EXT_STATUS_ERROR_INVALID_MODULE: the HSAIL module is not valid."},
  {HSA_EXT_STATUS_ERROR_INCOMPATIBLE_MODULE,
   "HSA_EXT_STATUS_ERROR_INCOMPATIBLE_MODULE: the module's machine model or profile does "
   "not match the program's."},
  {HSA_EXT_STATUS_ERROR_MODULE_ALREADY_INCLUDED,
   "HSA_EXT_STATUS_ERROR_MODULE_ALREADY_INCLUDED: the module is already part of the "
   "program."},
  {HSA_EXT_STATUS_ERROR_SYMBOL_MISMATCH,
   "HSA_EXT_STATUS_ERROR_SYMBOL_MISMATCH: a symbol's declaration and definition disagree."},
  {HSA_EXT_STATUS_ERROR_FINALIZATION_FAILED,
   "HSA_EXT_STATUS_ERROR_FINALIZATION_FAILED: HSAIL finalization failed; this runtime has no "
   "HSAIL finalizer (compile to AMDGPU code objects with clang instead)."},
  {HSA_EXT_STATUS_ERROR_DIRECTIVE_MISMATCH,
   "HSA_EXT_STATUS_ERROR_DIRECTIVE_MISMATCH: a control directive disagrees with the "
   "finalization request."},
  /* Image extension. */
  {HSA_EXT_STATUS_ERROR_IMAGE_FORMAT_UNSUPPORTED,
   "HSA_EXT_STATUS_ERROR_IMAGE_FORMAT_UNSUPPORTED: the agent does not support this image "
   "format."},
  {HSA_EXT_STATUS_ERROR_IMAGE_SIZE_UNSUPPORTED,
   "HSA_EXT_STATUS_ERROR_IMAGE_SIZE_UNSUPPORTED: the image dimensions exceed what the agent "
   "supports."},
  {HSA_EXT_STATUS_ERROR_IMAGE_PITCH_UNSUPPORTED,
   "HSA_EXT_STATUS_ERROR_IMAGE_PITCH_UNSUPPORTED: the image row or slice pitch is not "
   "supported by the agent."},
  {HSA_EXT_STATUS_ERROR_SAMPLER_DESCRIPTOR_UNSUPPORTED,
   "HSA_EXT_STATUS_ERROR_SAMPLER_DESCRIPTOR_UNSUPPORTED: the agent does not support this "
   "sampler descriptor."},
  /* AMD extension. */
  {HSA_STATUS_ERROR_INVALID_MEMORY_POOL,
   "HSA_STATUS_ERROR_INVALID_MEMORY_POOL: the memory pool handle is not valid."},
  {HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION,
   "HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION: the GPU accessed memory outside the apertures "
   "it may use (a kernel used an invalid address)."},
  {HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION,
   "HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION: a kernel executed an illegal instruction (code built "
   "for another GPU, or corrupted code)."},
  {HSA_STATUS_ERROR_MEMORY_FAULT,
   "HSA_STATUS_ERROR_MEMORY_FAULT: the GPU faulted on a memory access (the address is not "
   "mapped for that agent, or the access is not permitted)."},
  {HSA_STATUS_CU_MASK_REDUCED,
   "HSA_STATUS_CU_MASK_REDUCED: the CU mask was applied but reduced to the compute units that "
   "exist or are allowed."},
  {HSA_STATUS_ERROR_OUT_OF_REGISTERS,
   "HSA_STATUS_ERROR_OUT_OF_REGISTERS: the kernel needs more registers than the agent can "
   "provide for the requested launch."},
  {HSA_STATUS_ERROR_RESOURCE_BUSY,
   "HSA_STATUS_ERROR_RESOURCE_BUSY: the resource is busy; retry later."},
  {HSA_STATUS_ERROR_NOT_SUPPORTED,
   "HSA_STATUS_ERROR_NOT_SUPPORTED: this system (GPU, driver or configuration) does not "
   "support the request."},
  {HSA_STATUS_ERROR_XNACK_DISABLED,
   "HSA_STATUS_ERROR_XNACK_DISABLED: the request needs XNACK (GPU page-fault retry), which is "
   "off in this process (set HSA_XNACK=1 on a GPU that supports it)."},
};

hsa_status_t hsa_status_string(hsa_status_t status, const char **status_string) {
  if (status_string == NULL)
    return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  for (size_t i = 0; i < sizeof status_texts / sizeof status_texts[0]; i++) {
    if (status_texts[i].status == (int)status) {
      *status_string = status_texts[i].text;
      return HSA_STATUS_SUCCESS;
    }
  }
  return HSA_STATUS_ERROR_INVALID_ARGUMENT;
}
