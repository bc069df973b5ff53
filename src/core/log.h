/* SPDX-License-Identifier: MIT */
/* log.h — the runtime's log of hsa_amd_enable_logging: kinds of events (the
 * HSA_AMD_LOG_FLAG_* bit numbers) written as lines to the file the application chose. */
#ifndef CORE_LOG_H
#define CORE_LOG_H

#include <stdbool.h>

/* Whether events of kind `flag` (HSA_AMD_LOG_FLAG_*) are logged now: one relaxed load. */
bool core_log_on(unsigned flag);
/* Writes one line "hsa-runtime64: <kind>: <text>" when `flag` is on. */
void core_log(unsigned flag, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
