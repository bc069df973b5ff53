/* mem.c — allocations. Placeholder until the memory work lands. */
#include "mem/mem.h"

void mem_shutdown(void) {}
