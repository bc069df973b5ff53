/* SPDX-License-Identifier: MIT */
/* gpus.c — the GPUs of this run: which board, where on the PCI bus, which KFD gpu_id. */
#include "sim.h"
#include "dev/catalog.h"
#include "dev/host.h"

#include <pthread.h>
#include <stddef.h>

static struct sim_gpu gpus[SIM_MAX_GPUS];
static unsigned gpu_count;
static pthread_once_t gpus_once = PTHREAD_ONCE_INIT;

/* The kernel hashes a device's PCI location and properties into a 16-bit gpu_id; any stable
 * nonzero value unique in the system serves the same purpose. */
static uint32_t gpu_id_hash(const struct sim_gpu *g)
{
  uint32_t h = 2166136261u;
  const uint32_t words[] = { g->domain, g->location_id, g->model->device_id,
                             g->model->gfx_target_version, g->model->cu_count, g->index };
  for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
    for (unsigned b = 0; b < 4; b++) {
      h ^= (words[i] >> (8 * b)) & 0xff;
      h *= 16777619u;
    }
  return (h ^ (h >> 16)) & 0xffff;
}

static void gpus_init(void)
{
  const struct sim_config *cfg = sim_config();
  const struct sim_gpu_model *m = sim_catalog_find(cfg->gpu_model);
  if (!m)
    m = sim_catalog_find("gfx900");
  unsigned n = cfg->gpu_count;
  if (n < 1)
    n = 1;
  if (n > SIM_MAX_GPUS)
    n = SIM_MAX_GPUS;
  uint32_t simd_id = 0x80001000u; /* where KFD starts numbering GPU compute units */
  for (unsigned i = 0; i < n; i++) {
    struct sim_gpu *g = &gpus[i];
    g->model = m;
    g->index = i;
    g->node_id = i + 1;
    g->render_minor = 128 + i;
    g->card_minor = i;
    /* An APU has no VRAM of its own: KFD reports as its "local" memory the share of
     * system memory TTM lets the GPU use (half of it by default); --vram does not apply. */
    g->vram_bytes = m->apu ? sim_host()->mem_bytes / 2 / 4096 * 4096
                           : cfg->vram_bytes ? cfg->vram_bytes : m->default_vram_bytes;
    g->domain = 0;
    g->location_id = (0x63u + i) << 8; /* bus 0x63+i, device 0, function 0 */
    g->simd_id_base = simd_id;
    simd_id += m->cu_count;
    uint32_t id = gpu_id_hash(g);
    for (;;) { /* nonzero and unique */
      int clash = id == 0;
      for (unsigned j = 0; j < i; j++)
        clash |= gpus[j].gpu_id == id;
      if (!clash)
        break;
      id = (id + 1) & 0xffff;
    }
    g->gpu_id = id;
  }
  gpu_count = n;
}

unsigned sim_gpu_count(void)
{
  pthread_once(&gpus_once, gpus_init);
  return gpu_count;
}

struct sim_gpu *sim_gpu(unsigned index)
{
  return index < sim_gpu_count() ? &gpus[index] : NULL;
}

struct sim_gpu *sim_gpu_by_id(uint32_t gpu_id)
{
  for (unsigned i = 0; i < sim_gpu_count(); i++)
    if (gpus[i].gpu_id == gpu_id)
      return &gpus[i];
  return NULL;
}

struct sim_gpu *sim_gpu_by_minor(unsigned render_minor)
{
  for (unsigned i = 0; i < sim_gpu_count(); i++)
    if (gpus[i].render_minor == render_minor)
      return &gpus[i];
  return NULL;
}
