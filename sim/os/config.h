/* SPDX-License-Identifier: MIT */
/* config.h — HSA_SIM_CONFIG, the launcher's options as the preloaded library sees them:
 * comma-separated key=value pairs:
 *   gpu=gfx900  gpus=N  vram=SIZE  trace=stderr|PATH  fail=KIND:N:ERRNO (repeatable)
 *   root=DIR (the run's private directory, made by the launcher; holds the sysfs tree) */
#ifndef SIM_OS_CONFIG_H
#define SIM_OS_CONFIG_H

#include <stddef.h>

#include "sim.h"

/* Parse text (modified in place; the strings in *cfg point into it) into *cfg, starting
 * from the defaults. *trace gets the trace= value or NULL (nothing is opened here).
 * 0 on success; -1 with a message in err on the first bad item (cfg keeps the good ones). */
int sim_config_parse(char *text, struct sim_config *cfg, const char **trace, char *err,
                     size_t errlen);

/* The defaults: gfx900, 1 GPU, the board's VRAM, no trace, no faults, no root. */
void sim_config_defaults(struct sim_config *cfg);

#endif
