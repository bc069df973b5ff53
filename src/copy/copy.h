/* SPDX-License-Identifier: MIT */
/* copy.h — the copy engines (src/copy): what the runtime's lifetime calls. Everything else of
 * the module is reached through the HSA API (asynchronous copies, rectangles, SVM prefetch,
 * copy profiling). */
#ifndef COPY_COPY_H
#define COPY_COPY_H

/* hsa_shut_down, before signals and memory go: each engine's worker finishes the job it is
 * running and is joined; jobs still waiting for their dependencies are dropped (their
 * completion signals are destroyed next anyway), and copy profiling is off again. */
void copy_shutdown(void);

#endif
