/* SPDX-License-Identifier: MIT */
/* process.c — the KFD process: one per OS process, created by the first open of /dev/kfd.
 * As in the kernel it outlives its file descriptors (the kernel frees it when the mm goes
 * away), so a runtime that closes and reopens /dev/kfd finds its VMs and event page again.
 * A forked child does not inherit it: the kernel refuses the parent's fd in the child and
 * a fresh open creates a new process. */
#include "kfd/kfd.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static pthread_mutex_t proc_lock = PTHREAD_MUTEX_INITIALIZER;
static struct sim_kfd_process *proc;

/* getpid() is a system call and every VM lookup asks it: the pid is remembered until a
 * fork (the child's handler forgets it before the child runs anything else). */
static pid_t self_pid_cache;
static pthread_once_t self_pid_once = PTHREAD_ONCE_INIT;

static void self_pid_forget(void)
{
  __atomic_store_n(&self_pid_cache, 0, __ATOMIC_RELAXED);
  sim_vm_changed();   /* the child is another process: nothing its parent translated holds */
}

static void self_pid_register(void)
{
  pthread_atfork(NULL, NULL, self_pid_forget);
}

static pid_t self_pid(void)
{
  pid_t pid = __atomic_load_n(&self_pid_cache, __ATOMIC_RELAXED);
  if (!pid) {
    pthread_once(&self_pid_once, self_pid_register);
    pid = getpid();
    __atomic_store_n(&self_pid_cache, pid, __ATOMIC_RELAXED);
  }
  return pid;
}

struct sim_kfd_process *sim_kfd_current(void)
{
  struct sim_kfd_process *p = __atomic_load_n(&proc, __ATOMIC_ACQUIRE);
  return p && p->pid == self_pid() ? p : NULL;
}

static void pdd_init(struct sim_kfd_process *p, struct sim_pdd *pdd, struct sim_gpu *gpu)
{
  pdd->proc = p;
  pdd->gpu = gpu;
  /* gfx9 in 64-bit mode: LDS and scratch in the non-canonical hole, each 4 GiB; GPUVM is
   * the low canonical half minus the pages the kernel keeps for CWSR trap code. */
  pdd->qpd.gpu = gpu;
  pdd->qpd.lock = &p->lock;
  pdd->qpd.lds_base = SIM_LDS_BASE;
  pdd->qpd.lds_limit = (SIM_LDS_BASE & ~0xffffffffull) | 0xffffffffull;
  pdd->qpd.scratch_base = SIM_SCRATCH_BASE;
  pdd->qpd.scratch_limit = (SIM_SCRATCH_BASE & ~0xffffffffull) | 0xffffffffull;
  pdd->gpuvm_base = SIM_GPUVM_BASE;
  pdd->gpuvm_limit = SIM_GPUVM_SIZE - 1;
  /* Doorbells the chip routes to SDMA, IH and VCN (its non-CP range), in both halves of
   * the page, are never a CP queue's (KFD's init_doorbell_bitmap). */
  const struct sim_gpu_model *model = gpu->model;
  for (uint32_t i = 0; i < SIM_DOORBELLS_PER_PROCESS / 2; i++)
    if (model->non_cp_last && i >= model->non_cp_first && i <= model->non_cp_last) {
      pdd->doorbell_bitmap[i / 64] |= 1ull << (i % 64);
      uint32_t m = i + SIM_DOORBELLS_PER_PROCESS / 2;
      pdd->doorbell_bitmap[m / 64] |= 1ull << (m % 64);
    }
  pdd->next_idr = 1;
}

static struct sim_kfd_process *process_create(void)
{
  struct sim_kfd_process *p = calloc(1, sizeof *p);
  if (!p)
    return NULL;
  p->pid = getpid();
  pthread_mutex_init(&p->lock, NULL);
  pthread_mutex_init(&p->ev_lock, NULL);
  p->store_fd = -1;
  p->dbg_ev_fd = -1;
  p->next_other_event = SIM_FIRST_NONSIGNAL_EVENT_ID;
  p->next_drm_offset = SIM_DRM_MMAP_BASE;
  unsigned n = sim_gpu_count();
  if (n > SIM_MAX_GPUS)
    n = SIM_MAX_GPUS;
  for (unsigned i = 0; i < n; i++)
    pdd_init(p, &p->pdds[i], sim_gpu(i));
  p->n_pdds = n;
  return p;
}

int sim_kfd_open(void)
{
  pthread_mutex_lock(&proc_lock);
  struct sim_kfd_process *p = sim_kfd_current();
  if (!p) {
    /* A parent's process copied by fork is abandoned, not freed: its memory belongs to
     * the parent's image, and other threads of the parent may have held its locks. */
    p = process_create();
    if (!p) {
      pthread_mutex_unlock(&proc_lock);
      return -ENOMEM;
    }
    __atomic_store_n(&proc, p, __ATOMIC_RELEASE);
  }
  p->files++;
  pthread_mutex_unlock(&proc_lock);
  sim_trace("kfd open pid=%d files=%u", (int)p->pid, p->files);
  return 0;
}

void sim_kfd_close(void)
{
  pthread_mutex_lock(&proc_lock);
  struct sim_kfd_process *p = sim_kfd_current();
  if (p && p->files > 0)
    p->files--;
  pthread_mutex_unlock(&proc_lock);
  if (p)
    sim_trace("kfd close pid=%d files=%u", (int)p->pid, p->files);
}

struct sim_pdd *sim_pdd_by_id(struct sim_kfd_process *p, uint32_t gpu_id)
{
  if (!gpu_id)
    return NULL;
  for (unsigned i = 0; i < p->n_pdds; i++)
    if (p->pdds[i].gpu->gpu_id == gpu_id)
      return &p->pdds[i];
  return NULL;
}

int sim_pdd_bind(struct sim_pdd *pdd)
{
  return pdd->vm ? 0 : -ENODEV;
}
