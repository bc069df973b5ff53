/* SPDX-License-Identifier: MIT */
/* mem_rect_client.c — hsa_amd_memory_async_copy_rect, run once on Debian's ROCR 5.2.3 (which
 * sends SDMA COPY_LINEAR_SUB_WINDOW packets) and once on ours under the same simulated machine
 * (mem_rect_vs_rocr.sh compares the output). 2-D and 3-D rectangles host to device, device to
 * device (and to the other GPU's memory when there are two) and device to host, with offsets
 * on every axis, pitches that differ per side and widths of every alignment; each result is
 * compared byte for byte, over the whole destination, with what the host computes. Then the
 * arguments both runtimes refuse. Each line is a call and its status or a fact computed here,
 * never an address. A copy that does not complete in 30 s ends the run with a message. */
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static hsa_agent_t cpu, gpus[8];
static unsigned ngpu;
static hsa_amd_memory_pool_t cpu_fine, gpu_coarse[8];

static hsa_status_t on_agent(hsa_agent_t a, void *d) {
  hsa_device_type_t t;
  hsa_agent_get_info(a, HSA_AGENT_INFO_DEVICE, &t);
  if (t == HSA_DEVICE_TYPE_GPU && ngpu < 8) gpus[ngpu++] = a;
  else if (t == HSA_DEVICE_TYPE_CPU && !cpu.handle) cpu = a;
  return HSA_STATUS_SUCCESS;
}

static hsa_status_t on_pool(hsa_amd_memory_pool_t p, void *d) {
  uint32_t f = 0;
  hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &f);
  long gi = (long)(intptr_t)d;
  if (gi < 0) {
    if ((f & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED) &&
        !(f & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT))
      cpu_fine = p;
  } else if (f & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED) {
    gpu_coarse[gi] = p;
  }
  return HSA_STATUS_SUCCESS;
}

#define SHOW(expr) printf("%-62s = 0x%x\n", #expr, (unsigned)(expr))

/* Waits for the completion signal to reach 0; a copy that never completes ends the run. */
static void wait_done(hsa_signal_t s, const char *what) {
  struct timespec t0, now;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  while (hsa_signal_load_scacquire(s) != 0) {
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (now.tv_sec - t0.tv_sec > 30) {
      printf("%s completes=0\n", what);
      fprintf(stderr, "%s: the copy did not complete in 30 s (signal %ld)\n", what,
              (long)hsa_signal_load_scacquire(s));
      exit(2);
    }
    usleep(1000);
  }
  printf("%s completes=1\n", what);
}

enum where { HOST, DEV0, DEV1 };

struct side {
  enum where where;
  size_t pitch, slice;
  hsa_dim3_t off;
};

struct rcase {
  const char *name;
  hsa_amd_copy_direction_t dir;
  struct side src, dst;
  hsa_dim3_t range;
};

static size_t extent(const struct side *s, const hsa_dim3_t *r) {
  return (s->off.z + r->z - 1) * s->slice + (s->off.y + r->y - 1) * s->pitch + s->off.x + r->x;
}

static void *alloc(enum where w, size_t n) {
  void *p = NULL;
  hsa_amd_memory_pool_t pool = w == HOST ? cpu_fine : gpu_coarse[w == DEV0 ? 0 : 1];
  if (hsa_amd_memory_pool_allocate(pool, n, 0, &p) != HSA_STATUS_SUCCESS) {
    printf("allocation of %zu bytes failed\n", n);
    exit(1);
  }
  /* the copy agent must reach both sides: pool memory starts out its owner's alone */
  if (w != DEV0 && hsa_amd_agents_allow_access(1, &gpus[0], NULL, p) != HSA_STATUS_SUCCESS) {
    printf("allow_access failed\n");
    exit(1);
  }
  return p;
}

/* Contents into a buffer wherever it lives (device memory through a linear copy). */
static void put_bytes(enum where w, void *p, const unsigned char *from, size_t n) {
  if (w == HOST) memcpy(p, from, n);
  else if (hsa_memory_copy(p, from, n) != HSA_STATUS_SUCCESS) printf("upload failed\n");
}

static void get_bytes(enum where w, unsigned char *to, const void *p, size_t n) {
  if (w == HOST) memcpy(to, p, n);
  else if (hsa_memory_copy(to, p, n) != HSA_STATUS_SUCCESS) printf("read back failed\n");
}

static void run(const struct rcase *c, unsigned seed, bool with_dependency) {
  size_t sn = extent(&c->src, &c->range) + 64, dn = extent(&c->dst, &c->range) + 64;
  unsigned char *a = malloc(sn), *b = malloc(dn), *want = malloc(dn), *got = malloc(dn);
  for (size_t k = 0; k < sn; k++) a[k] = (unsigned char)(k * 13 + 7 + seed + k / 509);
  for (size_t k = 0; k < dn; k++) b[k] = (unsigned char)(0x5a ^ (k * 3));
  void *src = alloc(c->src.where, sn), *dst = alloc(c->dst.where, dn);
  put_bytes(c->src.where, src, a, sn);
  put_bytes(c->dst.where, dst, b, dn);
  memcpy(want, b, dn);
  for (size_t z = 0; z < c->range.z; z++)
    for (size_t y = 0; y < c->range.y; y++)
      for (size_t x = 0; x < c->range.x; x++)
        want[(c->dst.off.z + z) * c->dst.slice + (c->dst.off.y + y) * c->dst.pitch +
             c->dst.off.x + x] = a[(c->src.off.z + z) * c->src.slice +
                                   (c->src.off.y + y) * c->src.pitch + c->src.off.x + x];
  hsa_pitched_ptr_t ps = {src, c->src.pitch, c->src.slice}, pd = {dst, c->dst.pitch, c->dst.slice};
  hsa_signal_t done, dep;
  hsa_signal_create(1, 0, NULL, &done);
  hsa_signal_create(1, 0, NULL, &dep);
  hsa_status_t st = hsa_amd_memory_async_copy_rect(&pd, &c->dst.off, &ps, &c->src.off, &c->range,
                                                   gpus[0], c->dir, with_dependency ? 1 : 0,
                                                   with_dependency ? &dep : NULL, done);
  printf("%s: copy_rect = 0x%x\n", c->name, (unsigned)st);
  if (st == HSA_STATUS_SUCCESS) {
    if (with_dependency) {
      usleep(20000);
      printf("%s: waits for its dependency=%ld\n", c->name, (long)hsa_signal_load_scacquire(done));
      hsa_signal_store_screlease(dep, 0);
    }
    wait_done(done, c->name);
    get_bytes(c->dst.where, got, dst, dn);
    size_t bad = 0, first = 0;
    for (size_t k = 0; k < dn; k++)
      if (got[k] != want[k] && !bad++) first = k;
    printf("%s: bytes as the host computes=%d", c->name, bad == 0);
    if (bad) printf(" (%zu differ, the first at %zu)", bad, first);
    printf("\n");
  }
  hsa_signal_destroy(done);
  hsa_signal_destroy(dep);
  hsa_amd_memory_pool_free(src);
  hsa_amd_memory_pool_free(dst);
  free(a);
  free(b);
  free(want);
  free(got);
}

static const struct rcase cases[] = {
  {"h2d 2-D", hsaHostToDevice, {HOST, 256, 0, {3, 2, 0}}, {DEV0, 320, 0, {17, 5, 0}}, {200, 11, 1}},
  {"h2d 3-D", hsaHostToDevice, {HOST, 132, 132 * 20, {5, 1, 2}},
   {DEV0, 96, 96 * 16 + 32, {0, 3, 1}}, {61, 9, 4}},
  {"d2d 3-D", hsaDeviceToDevice, {DEV0, 200, 200 * 10, {8, 0, 1}},
   {DEV0, 260, 260 * 12, {33, 2, 0}}, {128, 7, 3}},
  {"d2h 3-D", hsaDeviceToHost, {DEV0, 64, 64 * 9, {1, 1, 1}}, {HOST, 100, 100 * 7 + 4, {2, 0, 3}},
   {59, 5, 5}},
  {"d2h 2-D 16-byte elements", hsaDeviceToHost, {DEV0, 512, 0, {16, 3, 0}},
   {HOST, 1024, 0, {32, 0, 0}}, {256, 13, 1}},
  {"h2d 2-D rows wider than the packet's pitch", hsaHostToDevice,
   {HOST, (1u << 20) + 64, 0, {4, 0, 0}}, {DEV0, 256, 0, {0, 1, 0}}, {100, 3, 1}},
  {"d2d 3-D to the other GPU", hsaDeviceToDevice, {DEV0, 128, 128 * 6, {4, 1, 1}},
   {DEV1, 136, 136 * 5, {12, 0, 2}}, {77, 4, 3}},
};

int main(void) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  if (hsa_init() != HSA_STATUS_SUCCESS) return 1;
  hsa_iterate_agents(on_agent, NULL);
  hsa_amd_agent_iterate_memory_pools(cpu, on_pool, (void *)(intptr_t)-1);
  for (unsigned i = 0; i < ngpu; i++)
    hsa_amd_agent_iterate_memory_pools(gpus[i], on_pool, (void *)(intptr_t)i);
  printf("gpus=%u\n", ngpu);
  if (!ngpu) return 1;

  for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++)
    if (cases[i].dst.where != DEV1 || ngpu > 1) run(&cases[i], i, false);
  run(&cases[0], 99, true);

  /* Arguments: on a host source and a device destination that would be fine. */
  unsigned char *h = NULL, *d = NULL;
  hsa_amd_memory_pool_allocate(cpu_fine, 1 << 16, 0, (void **)&h);
  hsa_amd_memory_pool_allocate(gpu_coarse[0], 1 << 16, 0, (void **)&d);
  hsa_amd_agents_allow_access(1, &gpus[0], NULL, h);
  hsa_pitched_ptr_t ps = {h, 256, 256 * 16}, pd = {d, 256, 256 * 16};
  hsa_pitched_ptr_t odd_base = {h + 1, 256, 256 * 16}, odd_pitch = {h, 254, 254 * 16};
  hsa_pitched_ptr_t odd_slice = {h, 256, 256 * 16 + 2}, flat = {h, 256, 0};
  hsa_pitched_ptr_t short_slice = {d, 256, 256 * 4};
  hsa_dim3_t o = {0, 0, 0}, r = {64, 4, 2}, wide = {300, 1, 1}, tall = {16, 5, 2};
  hsa_dim3_t o_x = {200, 0, 0}, zero = {0, 4, 2};
  hsa_signal_t done, bad_signal = {0};
  hsa_agent_t bad_agent = {0};
  hsa_signal_create(1, 0, NULL, &done);
  hsa_amd_copy_direction_t h2d = hsaHostToDevice;
  SHOW(hsa_amd_memory_async_copy_rect(NULL, &o, &ps, &o, &r, gpus[0], h2d, 0, NULL, done));
  SHOW(hsa_amd_memory_async_copy_rect(&pd, NULL, &ps, &o, &r, gpus[0], h2d, 0, NULL, done));
  SHOW(hsa_amd_memory_async_copy_rect(&pd, &o, &ps, &o, NULL, gpus[0], h2d, 0, NULL, done));
  SHOW(hsa_amd_memory_async_copy_rect(&pd, &o, &ps, &o, &r, gpus[0], h2d, 1, NULL, done));
  SHOW(hsa_amd_memory_async_copy_rect(&pd, &o, &ps, &o, &r, gpus[0], hsaHostToHost, 0, NULL,
                                      done));
  SHOW(hsa_amd_memory_async_copy_rect(&pd, &o, &ps, &o, &r, cpu, h2d, 0, NULL, done));
  SHOW(hsa_amd_memory_async_copy_rect(&pd, &o, &ps, &o, &r, bad_agent, h2d, 0, NULL, done));
  SHOW(hsa_amd_memory_async_copy_rect(&pd, &o, &ps, &o, &r, gpus[0], h2d, 0, NULL, bad_signal));
  SHOW(hsa_amd_memory_async_copy_rect(&pd, &o, &ps, &o, &r, gpus[0], h2d, 1, &bad_signal, done));
  SHOW(hsa_amd_memory_async_copy_rect(&pd, &o, &odd_base, &o, &r, gpus[0], h2d, 0, NULL, done));
  SHOW(hsa_amd_memory_async_copy_rect(&pd, &o, &odd_pitch, &o, &r, gpus[0], h2d, 0, NULL, done));
  SHOW(hsa_amd_memory_async_copy_rect(&pd, &o, &odd_slice, &o, &r, gpus[0], h2d, 0, NULL, done));
  SHOW(hsa_amd_memory_async_copy_rect(&pd, &o, &flat, &o, &r, gpus[0], h2d, 0, NULL, done));
  SHOW(hsa_amd_memory_async_copy_rect(&pd, &o, &ps, &o, &wide, gpus[0], h2d, 0, NULL, done));
  SHOW(hsa_amd_memory_async_copy_rect(&pd, &o_x, &ps, &o, &r, gpus[0], h2d, 0, NULL, done));
  SHOW(hsa_amd_memory_async_copy_rect(&short_slice, &o, &ps, &o, &tall, gpus[0], h2d, 0, NULL,
                                      done));
  SHOW(hsa_amd_memory_async_copy_rect(&pd, &o, &ps, &o, &zero, gpus[0], h2d, 0, NULL, done));
  printf("zero range leaves completion=%ld\n", (long)hsa_signal_load_scacquire(done));
  hsa_signal_destroy(done);
  hsa_amd_memory_pool_free(h);
  hsa_amd_memory_pool_free(d);
  SHOW(hsa_shut_down());
  return 0;
}
