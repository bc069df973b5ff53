/* SPDX-License-Identifier: MIT */
/* topology.h — the text of the KFD sysfs topology (/sys/class/kfd/kfd/topology), in the
 * format the kernel writes: "name value" lines in the kernel's order. Node 0 is the CPU,
 * nodes 1..N the GPUs. Each *_text function writes a NUL-terminated file body into buf
 * (a sysfs page: pass SIM_TOPO_PAGE bytes) and returns its length. */
#ifndef SIM_DEV_TOPOLOGY_H
#define SIM_DEV_TOPOLOGY_H

#include <stddef.h>

#define SIM_TOPO_PAGE 4096

unsigned sim_topo_node_count(void);
unsigned sim_topo_cache_count(unsigned node);
unsigned sim_topo_io_link_count(unsigned node);
unsigned sim_topo_p2p_link_count(unsigned node);

size_t sim_topo_generation_text(char *buf, size_t len);
size_t sim_topo_system_text(char *buf, size_t len);
size_t sim_topo_node_text(unsigned node, char *buf, size_t len);
size_t sim_topo_gpu_id_text(unsigned node, char *buf, size_t len);
size_t sim_topo_name_text(unsigned node, char *buf, size_t len);
size_t sim_topo_mem_bank_text(unsigned node, unsigned bank, char *buf, size_t len);
size_t sim_topo_cache_text(unsigned node, unsigned cache, char *buf, size_t len);
size_t sim_topo_io_link_text(unsigned node, unsigned link, char *buf, size_t len);
size_t sim_topo_p2p_link_text(unsigned node, unsigned link, char *buf, size_t len);

#endif
