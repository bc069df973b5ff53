/* SPDX-License-Identifier: MIT */
/* doorbell.c — each process gets two pages of 64-bit doorbells per GPU (SOC15), and each
 * queue one doorbell in them; the MMIO remap page exposes the HDP flush registers. Both
 * are ordinary memory here: the command processor model watches the doorbell page. */
#include "kfd/kfd.h"
#include "cp/cp.h"

#include <errno.h>

int sim_doorbell_pages(struct sim_pdd *pdd)
{
  if (pdd->doorbells)
    return 0;
  return sim_store_alloc(pdd->proc, SIM_DOORBELL_SLICE, &pdd->doorbells_off, &pdd->doorbells);
}

int sim_mmio_page(struct sim_pdd *pdd)
{
  if (pdd->mmio)
    return 0;
  return sim_store_alloc(pdd->proc, SIM_PAGE, &pdd->mmio_off, &pdd->mmio);
}

int sim_doorbell_alloc(struct sim_pdd *pdd, uint32_t *id)
{
  for (uint32_t i = 0; i < SIM_DOORBELLS_PER_PROCESS; i++)
    if (!(pdd->doorbell_bitmap[i / 64] & (1ull << (i % 64)))) {
      pdd->doorbell_bitmap[i / 64] |= 1ull << (i % 64);
      *id = i;
      return 0;
    }
  return -EBUSY;
}

void sim_doorbell_free(struct sim_pdd *pdd, uint32_t id)
{
  if (id < SIM_DOORBELLS_PER_PROCESS)
    pdd->doorbell_bitmap[id / 64] &= ~(1ull << (id % 64));
}

/* A CPU mapping of store range [off, off + len) was made at addr (mmap.c): if it shows a
 * doorbell slice, the command processor may write-protect it while its queues sleep. */
void sim_doorbell_mapped(struct sim_kfd_process *p, void *addr, uint64_t len, uint64_t off)
{
  for (unsigned i = 0; i < p->n_pdds; i++) {
    const struct sim_pdd *pdd = &p->pdds[i];
    if (pdd->doorbells && off < pdd->doorbells_off + SIM_DOORBELL_SLICE &&
        pdd->doorbells_off < off + len) {
      sim_dbwatch_mapped(addr, len, off);
      return;
    }
  }
}

void sim_doorbell_unmapped(void *addr, uint64_t len)
{
  sim_dbwatch_unmapped(addr, len);
}
