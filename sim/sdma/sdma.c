/* sdma.c — placeholder until the SDMA packet engine lands: an SDMA queue consumes nothing. */
#include "cp/engine.h"

enum cp_step sdma_step(struct cp_queue *cq)
{
  (void)cq;
  return CP_IDLE;
}
