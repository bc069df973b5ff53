/* SPDX-License-Identifier: MIT */
/* pm4_queue_client.c — a program that drives a PM4 compute queue through /dev/kfd alone, as
 * the kernel's own tests do (no HSA runtime): a KFD_IOC_QUEUE_TYPE_COMPUTE queue whose ring,
 * read and write pointers live in GTT memory mapped at the same address for the CPU and
 * the GPU, a kernel loaded from a code object (argv[1], its "<name>.kd" argv[2]) by hand,
 * and these packets written into the ring and submitted through the doorbell (write
 * pointer in dwords):
 *   dispatch      SET_SH_REG (COMPUTE_PGM_*, RSRC1/2, START/NUM_THREAD, TMPRING, USER_DATA)
 *                 + DISPATCH_DIRECT + RELEASE_MEM(end-of-pipe interrupt to a KFD event):
 *                 waited for with AMDKFD_IOC_WAIT_EVENTS; every element the kernel wrote
 *                 (work-group id and work-item id, salted) checked against the host, and
 *                 those it must not have written (groups before COMPUTE_START_X, the lanes
 *                 after a partial group);
 *   rptr          the 32-bit read pointer the CP reports equals the write pointer wrapped
 *                 at the ring size once the end-of-pipe event came;
 *   wait_reg_mem  WAIT_REG_MEM on a host flag before a WRITE_DATA and a RELEASE_MEM: nothing
 *                 written and no event until the host sets the flag;
 *   indirect      the dispatch (DISPATCH_INDIRECT, its dimensions in memory) and a
 *                 WRITE_DATA from an INDIRECT_BUFFER;
 *   wrap          packets that cross the ring's end;
 *   bad_opcode    an opcode the CP does not take halts the queue (the read pointer just past
 *                 the packet it fetched), the packets after it never run, and the HW
 *                 exception event is set.
 * One "name ok" or "name FAIL why" line per check; exit 0 only if every check passed. */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/kfd_ioctl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define CLIENT_NO_HSA
#define CLIENT_CHECK_COUNTS
#include "lib/client.h"

static int kfd, drm;
static uint32_t gpu_id;

static void kio(unsigned long req, void *arg, const char *what)
{
  if (ioctl(kfd, req, arg) != 0)
    client_die(what);
}

/* GTT memory at one address for the CPU and the GPU (what libhsakmt does: the BO gets the
 * VA of a reserved CPU range, then the render node's mapping of it is placed there). */
static uint64_t last_handle;   /* of the latest gtt() buffer */

/* clear 0: the memory as the driver gave it (the CWSR area of an MI300 queue is tens of MiB
 * that only the CP writes) */
static void *gpu_mem(size_t size, uint32_t domain, int clear)
{
  size = (size + 4095) & ~(size_t)4095;
  void *va = mmap(NULL, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (va == MAP_FAILED)
    client_die("reserve");
  struct kfd_ioctl_alloc_memory_of_gpu_args a = {
    .va_addr = (uintptr_t)va, .size = size, .gpu_id = gpu_id,
    .flags = domain | KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE };
  kio(AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &a, "alloc_memory");
  if (mmap(va, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, drm, (off_t)a.mmap_offset) !=
      va)
    client_die("mmap_bo");
  uint32_t ids[1] = { gpu_id };
  struct kfd_ioctl_map_memory_to_gpu_args m = { .handle = a.handle,
                                                .device_ids_array_ptr = (uintptr_t)ids,
                                                .n_devices = 1 };
  kio(AMDKFD_IOC_MAP_MEMORY_TO_GPU, &m, "map_memory");
  last_handle = a.handle;
  if (clear)
    memset(va, 0, size);
  return va;
}

static void *gtt(size_t size, int exec)
{
  return gpu_mem(size, KFD_IOC_ALLOC_MEM_FLAGS_GTT | (exec ? KFD_IOC_ALLOC_MEM_FLAGS_EXECUTABLE : 0), 1);
}

/* A property of GPU node 1 in the KFD topology; 0 when it is not published. */
static uint64_t node_prop(const char *key)
{
  FILE *f = fopen("/sys/class/kfd/kfd/topology/nodes/1/properties", "r");
  if (!f)
    client_die("topology");
  char name[64];
  unsigned long long v, found = 0;
  while (fscanf(f, "%63s %llu", name, &v) == 2)
    if (strcmp(name, key) == 0)
      found = v;
  fclose(f);
  return found;
}

/* ---- the kernel: PT_LOAD segments copied to GPU memory, the descriptor found by name ---- */
struct kernel {
  uint64_t kd;                   /* GPU address of the kernel descriptor */
  uint64_t entry;                /* first instruction */
  uint32_t rsrc1, rsrc2;
  uint16_t props;                /* kernel_code_properties: the user SGPRs it expects */
};

static int load_kernel(const char *path, const char *sym, struct kernel *k)
{
  FILE *f = fopen(path, "rb");
  if (!f)
    return -1;
  static uint8_t elf[1 << 20];
  size_t n = fread(elf, 1, sizeof elf, f);
  fclose(f);
  Elf64_Ehdr eh;
  if (n < sizeof eh)
    return -1;
  memcpy(&eh, elf, sizeof eh);
  uint64_t span = 0;
  for (unsigned i = 0; i < eh.e_phnum; i++) {
    Elf64_Phdr ph;
    memcpy(&ph, elf + eh.e_phoff + i * sizeof ph, sizeof ph);
    if (ph.p_type == PT_LOAD && ph.p_vaddr + ph.p_memsz > span)
      span = ph.p_vaddr + ph.p_memsz;
  }
  uint8_t *image = gtt(span, 1);
  for (unsigned i = 0; i < eh.e_phnum; i++) {
    Elf64_Phdr ph;
    memcpy(&ph, elf + eh.e_phoff + i * sizeof ph, sizeof ph);
    if (ph.p_type == PT_LOAD)
      memcpy(image + ph.p_vaddr, elf + ph.p_offset, ph.p_filesz);
  }
  for (unsigned i = 0; i < eh.e_shnum; i++) {
    Elf64_Shdr sh, strs;
    memcpy(&sh, elf + eh.e_shoff + i * sizeof sh, sizeof sh);
    if (sh.sh_type != SHT_SYMTAB)
      continue;
    memcpy(&strs, elf + eh.e_shoff + sh.sh_link * sizeof strs, sizeof strs);
    for (uint64_t s = 0; s < sh.sh_size / sizeof(Elf64_Sym); s++) {
      Elf64_Sym y;
      memcpy(&y, elf + sh.sh_offset + s * sizeof y, sizeof y);
      if (strcmp((const char *)elf + strs.sh_offset + y.st_name, sym))
        continue;
      const uint8_t *kd = image + y.st_value;
      int64_t entry;
      memcpy(&entry, kd + 16, 8);
      memcpy(&k->rsrc1, kd + 48, 4);
      memcpy(&k->rsrc2, kd + 52, 4);
      memcpy(&k->props, kd + 56, 2);
      k->kd = (uintptr_t)kd;
      k->entry = k->kd + (uint64_t)entry;
      return 0;
    }
  }
  return -1;
}

/* ---- the queue ----------------------------------------------------------------------- */
#define RING_DW 1024u
struct pm4q {
  uint32_t id;
  uint32_t *ring;
  volatile uint32_t *rptr;       /* what the CP reports: dwords, wrapped */
  volatile uint64_t *wptr;       /* our copy of the write pointer */
  volatile uint64_t *doorbell;
  uint64_t w;                    /* dwords written, not wrapped */
};

/* Kernels that publish cwsr_size (6.12+, kfd_queue.c) want a compute queue's EOP buffer and
 * CWSR area as whole buffer objects of the node's sizes, the area holding every XCC's save
 * area and debugger bytes (32 per wave: 40 waves per CU on gfx9, at most 512 per shader
 * engine; 32 per CU from gfx10.1), as libhsakmt sizes them. With MES (gfx11+) the write
 * pointer must be in the GPU's own memory. */
static void queue_buffers(struct kfd_ioctl_create_queue_args *c)
{
  uint64_t cwsr = node_prop("cwsr_size");
  if (!cwsr)
    return;
  uint64_t gfxv = node_prop("gfx_target_version"), xcc = node_prop("num_xcc");
  uint64_t cu = node_prop("simd_count") / node_prop("simd_per_cu") / (xcc ? xcc : 1);
  uint64_t waves = cu * 32;
  if (gfxv < 100100) {
    waves = cu * 40;
    uint64_t se = node_prop("array_count") / node_prop("simd_arrays_per_engine");
    if (se * 512 < waves)
      waves = se * 512;
  }
  uint64_t debug = (waves * 32 + 63) & ~63ull;
  uint64_t total = ((cwsr + debug) * (xcc ? xcc : 1) + 4095) & ~4095ull;
  c->eop_buffer_address = (uintptr_t)gtt(4096, 0);
  c->eop_buffer_size = 4096;
  c->ctx_save_restore_address = (uintptr_t)gpu_mem(total, KFD_IOC_ALLOC_MEM_FLAGS_GTT, 0);
  c->ctx_save_restore_size = (uint32_t)cwsr;
  c->ctl_stack_size = (uint32_t)node_prop("ctl_stack_size");
}

static void queue_create(struct pm4q *q)
{
  q->ring = gtt(RING_DW * 4, 0);
  uint8_t *ptrs = node_prop("gfx_target_version") >= 110000
                      ? gpu_mem(4096, KFD_IOC_ALLOC_MEM_FLAGS_VRAM | KFD_IOC_ALLOC_MEM_FLAGS_PUBLIC, 1)
                      : gtt(4096, 0);
  q->rptr = (volatile uint32_t *)ptrs;
  q->wptr = (volatile uint64_t *)(ptrs + 64);
  q->w = 0;
  struct kfd_ioctl_create_queue_args c = {
    .ring_base_address = (uintptr_t)q->ring, .ring_size = RING_DW * 4, .gpu_id = gpu_id,
    .read_pointer_address = (uintptr_t)q->rptr, .write_pointer_address = (uintptr_t)q->wptr,
    .queue_type = KFD_IOC_QUEUE_TYPE_COMPUTE, .queue_percentage = 100, .queue_priority = 7 };
  queue_buffers(&c);
  kio(AMDKFD_IOC_CREATE_QUEUE, &c, "create_queue");
  q->id = c.queue_id;
  /* the process's doorbell slice (1024 doorbells of 8 bytes) and this queue's slot in it */
  uint64_t slice = 8 * 1024;
  uint8_t *db = mmap(NULL, slice, PROT_READ | PROT_WRITE, MAP_SHARED, kfd,
                     (off_t)(c.doorbell_offset & ~(slice - 1)));
  if (db == MAP_FAILED)
    client_die("mmap_doorbell");
  q->doorbell = (volatile uint64_t *)(db + (c.doorbell_offset & (slice - 1)));
}

static void put(struct pm4q *q, uint32_t v)
{
  q->ring[q->w++ % RING_DW] = v;
}

/* The write pointer's copy, then the doorbell: the CP fetches up to the doorbell's value. */
static void submit(struct pm4q *q)
{
  __atomic_store_n(q->wptr, q->w, __ATOMIC_RELEASE);
  __atomic_store_n(q->doorbell, q->w, __ATOMIC_RELEASE);
}

static uint32_t hdr(unsigned op, unsigned body)
{
  return 3u << 30 | (body - 1) << 16 | op << 8 | 1u << 1;   /* type 3, compute shader type */
}

#define NOP_1DW (3u << 30 | 0x3fffu << 16 | 0x10u << 8)

static void set_sh(uint32_t **p, uint32_t reg, const uint32_t *v, unsigned n)
{
  *(*p)++ = hdr(0x76, n + 1);
  *(*p)++ = reg - 0x2c00;
  for (unsigned i = 0; i < n; i++)
    *(*p)++ = v[i];
}

static void write_data(uint32_t **p, const volatile void *dst, uint32_t v)
{
  uint64_t a = (uintptr_t)dst;
  *(*p)++ = hdr(0x37, 4);
  *(*p)++ = 5u << 8 | 1u << 20;   /* memory, confirm the write */
  *(*p)++ = (uint32_t)a;
  *(*p)++ = (uint32_t)(a >> 32);
  *(*p)++ = v;
}

static void wait_reg_mem(uint32_t **p, const volatile void *at, uint32_t ref)
{
  uint64_t a = (uintptr_t)at;
  *(*p)++ = hdr(0x3c, 6);
  *(*p)++ = 3u | 1u << 4;         /* equal, memory */
  *(*p)++ = (uint32_t)a;
  *(*p)++ = (uint32_t)(a >> 32);
  *(*p)++ = ref;
  *(*p)++ = 0xffffffffu;
  *(*p)++ = 4;                    /* poll interval */
}

/* End of pipe: the event id written to the event's slot, then the interrupt. */
static void release_mem(uint32_t **p, uint64_t slot, uint32_t event_id)
{
  *(*p)++ = hdr(0x49, 7);
  *(*p)++ = 0x14u | 5u << 8 | 1u << 15 | 1u << 17;   /* end-of-pipe, write back/invalidate L2 */
  *(*p)++ = 1u << 29 | 2u << 24;                     /* 32-bit data, interrupt after confirm */
  *(*p)++ = (uint32_t)slot;
  *(*p)++ = (uint32_t)(slot >> 32);
  *(*p)++ = event_id;
  *(*p)++ = 0;
  *(*p)++ = event_id;
}

static void append(struct pm4q *q, const uint32_t *cmds, const uint32_t *end)
{
  for (const uint32_t *c = cmds; c < end; c++)
    put(q, *c);
}

/* ---- events -------------------------------------------------------------------------- */
static uint64_t *event_page;

/* A signal event (its slot's address in *slot) or another type. The first signal event hands
 * the driver our event page, a GTT buffer the GPU writes slots of, as libhsakmt does. */
static uint32_t event_create(uint32_t type, uint64_t *slot)
{
  struct kfd_ioctl_create_event_args e = { .event_type = type, .auto_reset = 1 };
  if (type == KFD_IOC_EVENT_SIGNAL && !event_page) {
    event_page = gtt(KFD_SIGNAL_EVENT_LIMIT * 8, 0);
    memset(event_page, 0xff, KFD_SIGNAL_EVENT_LIMIT * 8);
    e.event_page_offset = last_handle;
  }
  kio(AMDKFD_IOC_CREATE_EVENT, &e, "create_event");
  if (slot)
    *slot = (uintptr_t)&event_page[e.event_slot_index];
  return e.event_id;
}

/* AMDKFD_IOC_WAIT_EVENTS on one event: 1 if it was set within `ms`. */
static int event_wait(uint32_t id, uint32_t ms)
{
  struct kfd_event_data d;
  memset(&d, 0, sizeof d);
  d.event_id = id;
  struct kfd_ioctl_wait_events_args w = { .events_ptr = (uintptr_t)&d, .num_events = 1,
                                          .wait_for_all = 1, .timeout = ms };
  kio(AMDKFD_IOC_WAIT_EVENTS, &w, "wait_events");
  return w.wait_result == KFD_IOC_WAIT_RESULT_COMPLETE;
}

static void sleep_ms(unsigned ms)
{
  nanosleep(&(struct timespec){ ms / 1000, (long)(ms % 1000) * 1000000L }, NULL);
}

/* ---- the dispatch -------------------------------------------------------------------- */
#define OUT_N 4096u
struct job {
  uint32_t group, start, dim;    /* work-group size, first group, DISPATCH dim */
  uint32_t initiator;            /* DISPATCH_INITIATOR */
  uint32_t partial;              /* NUM_THREAD_PARTIAL */
  uint32_t salt;
};

/* The SET_SH_REG commands of a launch of `k` writing into `out`: the user SGPRs the
 * descriptor asks for, from COMPUTE_USER_DATA_0 in AMDGPUUsage's order. */
static uint32_t *launch_regs(uint32_t *p, const struct kernel *k, const struct job *j,
                             uint32_t *out, uint32_t *kernarg)
{
  uint64_t args[2];
  args[0] = (uintptr_t)out;
  args[1] = (uint64_t)j->group | (uint64_t)j->salt << 32;
  memcpy(kernarg, args, sizeof args);
  uint32_t user[16], nu = 0;
  if (k->props & 1)               /* private segment buffer: none */
    for (int i = 0; i < 4; i++)
      user[nu++] = 0;
  if (k->props & 2) {             /* dispatch packet: not used by these kernels */
    user[nu++] = 0;
    user[nu++] = 0;
  }
  if (k->props & 4) {             /* queue pointer */
    user[nu++] = 0;
    user[nu++] = 0;
  }
  if (k->props & 8) {             /* kernarg segment */
    user[nu++] = (uint32_t)(uintptr_t)kernarg;
    user[nu++] = (uint32_t)((uintptr_t)kernarg >> 32);
  }
  uint64_t pgm = k->entry >> 8;
  uint32_t v[8];
  v[0] = (uint32_t)pgm;
  v[1] = (uint32_t)(pgm >> 32);
  set_sh(&p, 0x2e0c, v, 2);                          /* COMPUTE_PGM_LO/HI */
  v[0] = k->rsrc1;
  v[1] = k->rsrc2;
  set_sh(&p, 0x2e12, v, 2);                          /* COMPUTE_PGM_RSRC1/2 */
  v[0] = j->start;
  v[1] = v[2] = 0;
  v[3] = j->group | j->partial << 16;
  v[4] = v[5] = 1;
  set_sh(&p, 0x2e04, v, 6);                          /* COMPUTE_START_X.., NUM_THREAD_X.. */
  v[0] = 0;
  set_sh(&p, 0x2e18, v, 1);                          /* COMPUTE_TMPRING_SIZE: no scratch */
  set_sh(&p, 0x2e15, v, 1);                          /* COMPUTE_RESOURCE_LIMITS */
  set_sh(&p, 0x2e40, user, nu);                      /* COMPUTE_USER_DATA_0.. */
  return p;
}

/* What the kernel writes: element g * group + t = (g << 16 | t) ^ salt for every work-item. */
static int check_out(const char *name, const uint32_t *out, const struct job *j)
{
  uint32_t groups_end, last;   /* groups [start, groups_end); items in the last one */
  if (j->initiator & 32) {     /* thread dimensions */
    groups_end = (j->dim + j->group - 1) / j->group;
    last = j->dim - (groups_end - 1) * j->group;
  } else {
    groups_end = j->dim;
    last = (j->initiator & 2) && j->partial ? j->partial : j->group;
  }
  for (uint32_t i = 0; i < OUT_N; i++) {
    uint32_t g = i / j->group, t = i % j->group, want = 0;
    if (g >= j->start && g < groups_end && (g + 1 < groups_end || t < last))
      want = (g << 16 | t) ^ j->salt;
    if (out[i] != want) {
      CHECK(name, 0, "element %u: 0x%x, want 0x%x", i, out[i], want);
      return 0;
    }
  }
  CHECK(name, 1, " ");
  return 1;
}

/* Dwords submitted that the CP has not fetched yet (never a whole ring: we keep one free). */
static uint32_t pending(struct pm4q *q)
{
  uint32_t r = __atomic_load_n(q->rptr, __ATOMIC_ACQUIRE);
  return (uint32_t)((q->w % RING_DW + RING_DW - r) % RING_DW);
}

static void check_rptr(const char *name, struct pm4q *q)
{
  uint32_t r = __atomic_load_n(q->rptr, __ATOMIC_ACQUIRE);
  CHECK(name, r == q->w % RING_DW, "rptr %u, want %u", r, (unsigned)(q->w % RING_DW));
}

int main(int argc, char **argv)
{
  if (argc < 3) {
    fprintf(stderr, "usage: %s CODE_OBJECT KERNEL.kd\n", argv[0]);
    return 2;
  }
  setvbuf(stdout, NULL, _IOLBF, 0);
  client_open_kfd(&kfd, &drm, &gpu_id);

  struct kernel k;
  CHECK("kernel_load", load_kernel(argv[1], argv[2], &k) == 0, "no %s in %s", argv[2], argv[1]);
  if (failures)
    return 1;
  /* gfx10+: a wave32 kernel (ENABLE_WAVEFRONT_SIZE32 in its descriptor) is launched with
   * DISPATCH_INITIATOR.CS_W32_EN */
  uint32_t w32 = k.props & 1u << 10 ? 1u << 15 : 0;
  uint64_t slot;
  uint32_t done = event_create(KFD_IOC_EVENT_SIGNAL, &slot);
  uint32_t hw = event_create(KFD_IOC_EVENT_HW_EXCEPTION, NULL);
  uint32_t *out = gtt(OUT_N * 4, 0), *kernarg = gtt(4096, 0), *ib = gtt(64 * 1024, 0);
  volatile uint32_t *flags = gtt(4096, 0);
  static uint32_t cmds[4096];
  struct pm4q q;
  queue_create(&q);

  /* 1. work-groups 3..15 of 64 work-items (the first three skipped by COMPUTE_START_X) */
  struct job j1 = { .group = 64, .start = 3, .dim = 16, .initiator = 1 | w32, .salt = 0x5a5a0000 };
  uint32_t *p = launch_regs(cmds, &k, &j1, out, kernarg);
  *p++ = hdr(0x15, 4);   /* DISPATCH_DIRECT */
  *p++ = j1.dim;
  *p++ = 1;
  *p++ = 1;
  *p++ = j1.initiator;
  *p++ = NOP_1DW;
  *p++ = NOP_1DW;
  release_mem(&p, slot, done);
  append(&q, cmds, p);
  submit(&q);
  CHECK("dispatch_event", event_wait(done, 10000), "no end-of-pipe event in 10 s");
  check_out("dispatch_result", out, &j1);
  check_rptr("dispatch_rptr", &q);

  /* 2. a partial last group, in work-items (USE_THREAD_DIMENSIONS) and in groups
   *    (PARTIAL_TG_EN with NUM_THREAD_PARTIAL) */
  memset(out, 0, OUT_N * 4);
  struct job j2 = { .group = 256, .start = 0, .dim = 1000, .initiator = 1 | 32 | w32, .salt = 7 };
  p = launch_regs(cmds, &k, &j2, out, kernarg);
  *p++ = hdr(0x15, 4);
  *p++ = j2.dim;
  *p++ = 1;
  *p++ = 1;
  *p++ = j2.initiator;
  release_mem(&p, slot, done);
  append(&q, cmds, p);
  submit(&q);
  CHECK("partial_event", event_wait(done, 10000), "no end-of-pipe event in 10 s");
  check_out("partial_threads_result", out, &j2);
  memset(out, 0, OUT_N * 4);
  struct job j3 = { .group = 128, .start = 0, .dim = 5, .initiator = 1 | 2 | w32, .partial = 100,
                    .salt = 0x1234 };
  p = launch_regs(cmds, &k, &j3, out, kernarg);
  *p++ = hdr(0x15, 4);
  *p++ = j3.dim;
  *p++ = 1;
  *p++ = 1;
  *p++ = j3.initiator;
  release_mem(&p, slot, done);
  append(&q, cmds, p);
  submit(&q);
  CHECK("partial_groups_event", event_wait(done, 10000), "no end-of-pipe event in 10 s");
  check_out("partial_groups_result", out, &j3);
  check_rptr("partial_rptr", &q);

  /* 3. WAIT_REG_MEM holds the WRITE_DATA behind it until the host sets the flag */
  p = cmds;
  wait_reg_mem(&p, &flags[0], 1);
  write_data(&p, &flags[1], 0xabcd0001);
  release_mem(&p, slot, done);
  append(&q, cmds, p);
  submit(&q);
  sleep_ms(100);
  CHECK("wait_reg_mem_holds", flags[1] == 0 && !event_wait(done, 0), "written 0x%x", flags[1]);
  __atomic_store_n(&flags[0], 1, __ATOMIC_RELEASE);
  CHECK("wait_reg_mem_event", event_wait(done, 10000), "no end-of-pipe event in 10 s");
  CHECK("wait_reg_mem_then_write", flags[1] == 0xabcd0001, "written 0x%x", flags[1]);
  check_rptr("wait_reg_mem_rptr", &q);

  /* 4. the work in an indirect buffer: a WRITE_DATA and a DISPATCH_INDIRECT */
  memset(out, 0, OUT_N * 4);
  struct job j4 = { .group = 64, .start = 0, .dim = 40, .initiator = 1 | w32, .salt = 0x77 };
  uint32_t *dims = ib + 8192;
  dims[0] = j4.dim;
  dims[1] = dims[2] = 1;
  uint32_t *ip = launch_regs(ib, &k, &j4, out, kernarg);
  write_data(&ip, &flags[2], 0xabcd0002);
  *ip++ = hdr(0x16, 3);   /* DISPATCH_INDIRECT: the dimensions' address */
  *ip++ = (uint32_t)(uintptr_t)dims;
  *ip++ = (uint32_t)((uintptr_t)dims >> 32);
  *ip++ = j4.initiator;
  p = cmds;
  *p++ = hdr(0x3f, 3);    /* INDIRECT_BUFFER */
  *p++ = (uint32_t)(uintptr_t)ib;
  *p++ = (uint32_t)((uintptr_t)ib >> 32) & 0xffff;
  *p++ = (uint32_t)(ip - ib) | 1u << 23;
  release_mem(&p, slot, done);
  append(&q, cmds, p);
  submit(&q);
  CHECK("indirect_event", event_wait(done, 10000), "no end-of-pipe event in 10 s");
  CHECK("indirect_write_data", flags[2] == 0xabcd0002, "written 0x%x", flags[2]);
  check_out("indirect_dispatch_result", out, &j4);
  check_rptr("indirect_rptr", &q);

  /* 5. packets across the ring's end: 8-dword WRITE_DATA + NOP pairs until the ring wrapped
   *    twice, each submitted once there is room for it behind the read pointer */
  int wrapped = 0;
  uint32_t writes = 0;
  while (q.w < 2 * RING_DW + 100) {
    p = cmds;
    write_data(&p, &flags[16 + writes % 512], writes);
    *p++ = hdr(0x10, 2);   /* a NOP with a body */
    *p++ = 0;
    *p++ = 0;
    uint32_t n = (uint32_t)(p - cmds);
    if (q.w / RING_DW != (q.w + n - 1) / RING_DW)
      wrapped++;
    unsigned waited = 0;
    while (pending(&q) + n >= RING_DW && waited < 10000) {
      sleep_ms(1);
      waited++;
    }
    if (waited >= 10000)
      break;   /* the CP stopped fetching: the checks below fail */
    append(&q, cmds, p);
    submit(&q);
    writes++;
  }
  p = cmds;
  release_mem(&p, slot, done);
  append(&q, cmds, p);
  submit(&q);
  CHECK("wrap_event", event_wait(done, 10000), "no end-of-pipe event in 10 s");
  int ok = wrapped > 0;
  for (uint32_t i = writes > 512 ? writes - 512 : 0; i < writes && ok; i++)
    ok = flags[16 + i % 512] == i;
  CHECK("wrap_writes", ok && q.w >= 2 * RING_DW + 100, "%d packets crossed the end; %u written",
        wrapped, writes);
  check_rptr("wrap_rptr", &q);

  /* 6. an opcode the CP does not take halts the queue there, with the HW exception event */
  p = cmds;
  uint64_t bad_at = q.w;
  *p++ = hdr(0x2d, 1);    /* not a compute engine command */
  *p++ = 0;
  write_data(&p, &flags[3], 0xdead);
  release_mem(&p, slot, done);
  append(&q, cmds, p);
  submit(&q);
  CHECK("bad_opcode_hw_exception", event_wait(hw, 10000), "no HW exception event in 10 s");
  sleep_ms(50);
  uint32_t r = __atomic_load_n(q.rptr, __ATOMIC_ACQUIRE);
  CHECK("bad_opcode_halts", flags[3] == 0 && r == (bad_at + 2) % RING_DW && !event_wait(done, 0),
        "write 0x%x, rptr %u (bad packet fetched at %u)", flags[3], r,
        (unsigned)(bad_at % RING_DW));
  struct kfd_ioctl_destroy_queue_args d = { .queue_id = q.id };
  CHECK("queue_destroy", ioctl(kfd, AMDKFD_IOC_DESTROY_QUEUE, &d) == 0, "%s", strerror(errno));
  return failures ? 1 : 0;
}
