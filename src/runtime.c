/* SPDX-License-Identifier: MIT */
/* runtime.c — the runtime's lifetime, and only that: hsa_init / hsa_shut_down as a reference
 * count safe from many threads, and the order in which every module starts and stops. It sits
 * above every module (DESIGN.md §2), so no header declares what only it may call, and nothing
 * includes it: the modules below never reach up to start or stop one another. */
#include <limits.h>
#include <pthread.h>

#include "aql/aql.h"
#include "copy/copy.h"
#include "core/extension.h"
#include "core/mmio.h"
#include "core/runtime.h"
#include "image/image.h"
#include "kfd/debug.h"
#include "loader/loader.h"
#include "mem/mem.h"
#include "signals/signal.h"
#include "tools/tools.h"

static pthread_mutex_t lifetime_lock = PTHREAD_MUTEX_INITIALIZER;
static int ref_count; /* guarded by lifetime_lock */
static pthread_once_t extensions_once = PTHREAD_ONCE_INIT;

/* Each extension's table comes from the module that implements it; written once, before the
 * first open, so readers (which first see the runtime open) need no lock. */
/* Runtime enable (KFD 1.13+), as ROCR does at init: the kernel learns where the debugger's list
 * of code objects is, and a debugger may attach from then on. Before any queue (the kernel
 * refuses it once one exists). A kernel that says EBUSY (still enabled, or a debugger holds
 * it) leaves the runtime usable; it is said once. */
static bool runtime_enabled;

static void enable_runtime(void) {
  const struct kfd_device *dev = &core_rt()->kfd;
  if (core_rt()->no_device || dev->fd < 0 || !kfd_has_runtime_enable(dev)) return;
  int r = kfd_runtime_enable(dev, ldr_debug_list_address(), core_env_debug(), NULL);
  runtime_enabled = r == 0;
  if (r) kfd_report("AMDKFD_IOC_RUNTIME_ENABLE", r);
}

static void disable_runtime(void) {
  if (runtime_enabled) kfd_runtime_disable(&core_rt()->kfd);
  runtime_enabled = false;
}

static void provide_extensions(void) {
  core_extension_provide(&ldr_loader_extension);
  core_extension_provide(&tools_aqlprofile_extension);
  core_extension_provide(&img_images_extension);
}

hsa_status_t core_runtime_acquire(const struct core_options *opts) {
  hsa_status_t st = HSA_STATUS_SUCCESS;
  pthread_mutex_lock(&lifetime_lock);
  if (ref_count == INT_MAX) {
    st = HSA_STATUS_ERROR_REFCOUNT_OVERFLOW;
  } else if (ref_count == 0) {
    pthread_once(&extensions_once, provide_extensions);
    st = core_open(opts);
    if (st == HSA_STATUS_SUCCESS) {
      ref_count = 1;
      enable_runtime();
      sig_open();
      core_set_open(true);
      core_tools_load();
    }
  } else {
    ref_count++;
  }
  pthread_mutex_unlock(&lifetime_lock);
  return st;
}

hsa_status_t core_runtime_release(void) {
  hsa_status_t st = HSA_STATUS_SUCCESS;
  pthread_mutex_lock(&lifetime_lock);
  if (ref_count == 0) {
    st = HSA_STATUS_ERROR_NOT_INITIALIZED;
  } else if (--ref_count == 0) {
    core_tools_unload();
    core_set_open(false);
    /* Users of memory go first: the copy engines' workers, queues and executables, then
     * signals, then memory; the agents' MMIO pages and the shared state last. */
    copy_shutdown();
    aql_shutdown();
    ldr_shutdown();
    img_shutdown();
    sig_shutdown();
    mem_shutdown();
    core_mmio_shutdown();
    disable_runtime();
    core_close();
  }
  pthread_mutex_unlock(&lifetime_lock);
  return st;
}

hsa_status_t hsa_init(void) { return core_runtime_acquire(NULL); }

hsa_status_t hsa_shut_down(void) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  return core_runtime_release();
}
