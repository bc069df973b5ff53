/* debug.c — _amdgpu_r_debug: the list of loaded GPU code objects that debuggers
 * (rocgdb through amd-dbgapi) find by symbol name, shaped like the dynamic linker's
 * r_debug. The loader fills r_map; until then the list is empty and consistent. */
#include <link.h>

#include "hsa.h"

HSA_API struct r_debug _amdgpu_r_debug = {
  .r_version = 1,
  .r_map = NULL,
  .r_brk = 0,
  .r_state = RT_CONSISTENT,
  .r_ldbase = 0,
};
