/* SPDX-License-Identifier: MIT */
/* region.h — queries on a memory region (= AMD memory pool) shared by region.c and pool.c. */
#ifndef CORE_REGION_H
#define CORE_REGION_H

#include <stdbool.h>
#include <stdint.h>

#include "core/agent.h"
#include "hsa.h"

bool core_region_is_system(const struct core_region *r);
bool core_region_is_local(const struct core_region *r);
/* hsa_region_info_t and hsa_amd_region_info_t attributes. */
hsa_status_t core_region_info(const struct core_region *r, uint32_t attribute, void *value);

#endif
