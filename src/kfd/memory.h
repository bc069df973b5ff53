/* SPDX-License-Identifier: MIT */
/* memory.h — buffer objects of the KFD: ALLOC/FREE_MEMORY_OF_GPU, MAP/UNMAP_MEMORY_TO_GPU,
 * and the CPU side of GPU memory (virtual address reservations, render-node mappings).
 * Thin: no policy on where memory goes or who may reach it; src/mem decides. */
#ifndef KFD_MEMORY_H
#define KFD_MEMORY_H

#include <stdbool.h>
#include <stdint.h>

#include "kfd/kfd.h"

/* KFD_IOC_ALLOC_MEM_FLAGS_* with the kernel's values, as unsigned constants: the uapi header
 * writes WRITABLE as (1 << 31), which is undefined behaviour in C when evaluated as int.
 * memory.c checks the others against <linux/kfd_ioctl.h> at compile time. */
#define KFD_MEM_VRAM          0x00000001u
#define KFD_MEM_GTT           0x00000002u
#define KFD_MEM_USERPTR       0x00000004u
#define KFD_MEM_DOORBELL      0x00000008u
#define KFD_MEM_MMIO_REMAP    0x00000010u
#define KFD_MEM_CONTIGUOUS    0x00800000u   /* KFD 1.16: VRAM in one physical piece */
#define KFD_MEM_EXT_COHERENT  0x01000000u   /* KFD 1.15: device-scope atomics at system scope */
#define KFD_MEM_UNCACHED      0x02000000u
#define KFD_MEM_COHERENT      0x04000000u
#define KFD_MEM_AQL_QUEUE     0x08000000u
#define KFD_MEM_NO_SUBSTITUTE 0x10000000u
#define KFD_MEM_PUBLIC        0x20000000u
#define KFD_MEM_EXECUTABLE    0x40000000u
#define KFD_MEM_WRITABLE      0x80000000u

/* ALLOC_MEMORY_OF_GPU on gpu_id at GPU address va. For USERPTR, `userptr` is the CPU address
 * of the pages (the kernel pins them); otherwise 0. Returns 0 or -errno; *handle and
 * *mmap_offset (the render-node offset of VRAM/GTT objects) on success. */
int kfd_mem_alloc(const struct kfd_device *dev, uint32_t gpu_id, uint64_t va, uint64_t size,
                  uint32_t flags, uint64_t userptr, uint64_t *handle, uint64_t *mmap_offset);
int kfd_mem_free(const struct kfd_device *dev, uint64_t handle);
/* MAP/UNMAP_MEMORY_TO_GPU on the `count` GPUs of gpu_ids (one ioctl, resumed after
 * interruptions from where the kernel stopped). 0 or -errno. */
int kfd_mem_map(const struct kfd_device *dev, uint64_t handle, const uint32_t *gpu_ids,
                uint32_t count);
int kfd_mem_unmap(const struct kfd_device *dev, uint64_t handle, const uint32_t *gpu_ids,
                  uint32_t count);

/* Reserves `size` bytes of address space aligned to `align` (a power of two, >= page) with no
 * access, inside [lo, hi) when hi > lo (a GPUVM aperture). NULL when none is free. */
void *kfd_va_reserve(uint64_t size, uint64_t align, uint64_t lo, uint64_t hi);
void kfd_va_release(void *va, uint64_t size);
/* Maps a buffer object's pages at va (inside a reservation) through the render node fd, at
 * the object's mmap_offset. 0 or -errno. cpu_unmap puts the reservation back in place. */
int kfd_mem_cpu_map(int drm_fd, void *va, uint64_t size, uint64_t mmap_offset, bool writable);
int kfd_mem_cpu_unmap(void *va, uint64_t size);
/* Maps an MMIO_REMAP object's register page at va (inside a reservation) through /dev/kfd
 * itself, at the offset ALLOC_MEMORY_OF_GPU returned: registers, uncached by the kernel.
 * 0 or -errno. */
int kfd_mmio_cpu_map(const struct kfd_device *dev, void *va, uint64_t size,
                     uint64_t mmap_offset);

/* GET_DMABUF_INFO on fd: its size, exporting gpu_id and KFD flags; metadata copied into
 * meta (room meta_room bytes, may be 0/NULL), *meta_size its real size. 0 or -errno. */
int kfd_dmabuf_info(const struct kfd_device *dev, int fd, void *meta, uint32_t meta_room,
                    uint64_t *size, uint32_t *meta_size, uint32_t *gpu_id, uint32_t *flags);
/* IMPORT_DMABUF: fd becomes a buffer object of gpu_id at GPU address va. 0 or -errno. */
int kfd_dmabuf_import(const struct kfd_device *dev, int fd, uint32_t gpu_id, uint64_t va,
                      uint64_t *handle);
/* EXPORT_DMABUF (KFD 1.12): the buffer object `handle` as a new close-on-exec dma-buf fd.
 * 0 or -errno (-EINVAL from a kernel before 1.12: the number is unknown to it). */
bool kfd_has_dmabuf_export(const struct kfd_device *dev);
/* KFD_MEM_CONTIGUOUS is honoured from KFD 1.16; an older kernel ignores the bit. */
bool kfd_has_contiguous_vram(const struct kfd_device *dev);
int kfd_dmabuf_export(const struct kfd_device *dev, uint64_t handle, int *fd);
/* The SVM ioctl's operations, locations, attribute types and flags, with the kernel's values
 * (memory.c checks them against <linux/kfd_ioctl.h>): callers name no uapi constant. */
#define KFD_SVM_OP_SET_ATTR            0u
#define KFD_SVM_OP_GET_ATTR            1u
#define KFD_SVM_LOCATION_SYSMEM        0u
#define KFD_SVM_LOCATION_UNDEFINED     0xffffffffu
#define KFD_SVM_ATTR_PREFERRED_LOC     0u
#define KFD_SVM_ATTR_PREFETCH_LOC      1u
#define KFD_SVM_ATTR_ACCESS            2u
#define KFD_SVM_ATTR_ACCESS_IN_PLACE   3u
#define KFD_SVM_ATTR_NO_ACCESS         4u
#define KFD_SVM_ATTR_SET_FLAGS         5u
#define KFD_SVM_ATTR_CLR_FLAGS         6u
#define KFD_SVM_ATTR_GRANULARITY       7u
#define KFD_SVM_FLAG_HOST_ACCESS       0x01u
#define KFD_SVM_FLAG_COHERENT          0x02u
#define KFD_SVM_FLAG_HIVE_LOCAL        0x04u
#define KFD_SVM_FLAG_GPU_RO            0x08u
#define KFD_SVM_FLAG_GPU_EXEC          0x10u
#define KFD_SVM_FLAG_GPU_READ_MOSTLY   0x20u

/* The SVM ioctl: op (KFD_SVM_OP_*) on [start, start+size) with `n` attributes, each a
 * (type, value) pair of uint32_t as struct kfd_ioctl_svm_attribute lays them out; GET_ATTR
 * writes them back. 0 or -errno (a positive return of the kernel comes back negated). */
int kfd_svm(const struct kfd_device *dev, uint32_t op, uint64_t start, uint64_t size,
            uint32_t *pairs, uint32_t n);

#endif
