/* SPDX-License-Identifier: MIT */
/* reader.c — code object readers: bytes from a file (mapped, optionally a byte range of it)
 * or from the application's memory, plus the URI debuggers use to find those bytes again
 * (AMDGPUUsage "Loaded Code Object Path Uniform Resource Identifier"). */
#include <ctype.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/runtime.h"
#include "hsa_ven_amd_loader.h"
#include "core/quarantine.h"
#include "loader/internal.h"

static struct ldr_reader *readers;    /* live readers (loader lock) */

struct ldr_reader *ldr_reader_find(hsa_code_object_reader_t handle) {
  for (struct ldr_reader *r = readers; r; r = r->next)
    if ((uint64_t)(uintptr_t)r == handle.handle) return r;
  return NULL;
}

char *ldr_uri_memory(const void *data, size_t size) {
  char *uri = NULL;
  if (asprintf(&uri, "memory://%d#offset=0x%llx&size=%zu", (int)getpid(),
               (unsigned long long)(uintptr_t)data, size) < 0)
    return NULL;
  return uri;
}

/* file:// + the path with everything but unreserved characters and '/' percent-encoded. */
static char *uri_file(const char *path, bool whole, size_t offset, size_t size) {
  size_t n = strlen(path);
  char *enc = malloc(n * 3 + 1), *q = enc;
  if (!enc) return NULL;
  for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
    if (isalnum(*p) || *p == '/' || *p == '-' || *p == '_' || *p == '.' || *p == '~')
      *q++ = (char)*p;
    else
      q += sprintf(q, "%%%02X", *p);
  }
  *q = 0;
  char *uri = NULL;
  int rc = whole ? asprintf(&uri, "file://%s", enc) :
                   asprintf(&uri, "file://%s#offset=%zu&size=%zu", enc, offset, size);
  free(enc);
  return rc < 0 ? NULL : uri;
}

/* Code objects embedded in a program or library (HIP's fat binaries) are in memory that an
 * ELF file maps: name that file and offset, so a debugger can read them without this
 * process (as ROCR does). NULL when the bytes are not all file-backed. */
struct embedded {
  uintptr_t addr;
  size_t size;
  char path[4096];
  size_t offset;
  bool found;
};

static int find_embedded(struct dl_phdr_info *info, size_t info_size, void *p) {
  (void)info_size;
  struct embedded *e = p;
  if (info->dlpi_name && strstr(info->dlpi_name, "linux-vdso")) return 0;
  for (unsigned i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    uintptr_t start = (uintptr_t)info->dlpi_addr + ph->p_vaddr;
    if (ph->p_type != PT_LOAD || e->addr < start || e->addr - start >= ph->p_filesz ||
        ph->p_filesz - (e->addr - start) < e->size)
      continue;
    if (info->dlpi_name && info->dlpi_name[0]) {
      snprintf(e->path, sizeof(e->path), "%s", info->dlpi_name);
    } else {   /* the program itself */
      ssize_t n = readlink("/proc/self/exe", e->path, sizeof(e->path) - 1);
      if (n <= 0) return 1;
      e->path[n] = 0;
    }
    e->offset = e->addr - start + ph->p_offset;
    e->found = e->path[0] == '/';
    return 1;
  }
  return 0;
}

static char *uri_embedded(const void *data, size_t size) {
  struct embedded e = {.addr = (uintptr_t)data, .size = size};
  dl_iterate_phdr(find_embedded, &e);
  return e.found ? uri_file(e.path, false, e.offset, size) : NULL;
}

static void reader_add(struct ldr_reader *r, hsa_code_object_reader_t *out) {
  ldr_lock();
  r->next = readers;
  readers = r;
  ldr_unlock();
  out->handle = (uint64_t)(uintptr_t)r;
}

static void reader_free(struct ldr_reader *r) {
  if (r->map) munmap(r->map, r->map_size);
  free(r->uri);
  core_free_later(r, sizeof(*r));   /* its address is the handle: not reused for a while */
}

static hsa_status_t from_file(hsa_file_t file, size_t offset, size_t size,
                              hsa_code_object_reader_t *out) {
  if (file == -1) return HSA_STATUS_ERROR_INVALID_ARGUMENT;   /* as ROCR; other bad fds: */
  off_t end = lseek(file, 0, SEEK_END);
  if (end == (off_t)-1) return HSA_STATUS_ERROR_INVALID_FILE;
  size_t file_size = (size_t)end;
  if (file_size <= offset) return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
  if (size == 0) size = file_size - offset;
  /* A range past the end would map pages that fault (SIGBUS) when read. */
  if (size > file_size - offset) return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
  long page = sysconf(_SC_PAGESIZE);
  size_t pmask = (size_t)(page > 0 ? page : 4096) - 1;
  size_t map_off = offset & ~pmask;
  struct ldr_reader *r = calloc(1, sizeof(*r));
  if (!r) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  r->map_size = size + (offset - map_off);
  void *m = mmap(NULL, r->map_size, PROT_READ, MAP_PRIVATE, file, (off_t)map_off);
  if (m == MAP_FAILED) {
    free(r);
    return HSA_STATUS_ERROR_INVALID_FILE;
  }
  r->map = m;
  r->data = (const uint8_t *)m + (offset - map_off);
  r->size = size;
  char link[64], path[4096];
  snprintf(link, sizeof(link), "/proc/self/fd/%d", file);
  ssize_t n = readlink(link, path, sizeof(path) - 1);
  if (n > 0 && path[0] == '/') {
    path[n] = 0;
    r->uri = uri_file(path, offset == 0 && size == file_size, offset, size);
  } else {
    r->uri = ldr_uri_memory(r->data, size);
  }
  if (!r->uri) {
    reader_free(r);
    return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  }
  reader_add(r, out);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_code_object_reader_create_from_file(hsa_file_t file,
                                                     hsa_code_object_reader_t *reader) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!reader) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  return from_file(file, 0, 0, reader);
}

hsa_status_t hsa_ven_amd_loader_code_object_reader_create_from_file_with_offset_size(
    hsa_file_t file, size_t offset, size_t size, hsa_code_object_reader_t *reader) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!reader) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  if (size == 0) return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
  return from_file(file, offset, size, reader);
}

hsa_status_t hsa_code_object_reader_create_from_memory(const void *code_object, size_t size,
                                                       hsa_code_object_reader_t *reader) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  if (!code_object || !reader || size == 0) return HSA_STATUS_ERROR_INVALID_ARGUMENT;
  struct ldr_reader *r = calloc(1, sizeof(*r));
  if (!r) return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  r->data = code_object;
  r->size = size;
  r->uri = uri_embedded(code_object, size);
  if (!r->uri) r->uri = ldr_uri_memory(code_object, size);
  if (!r->uri) {
    free(r);
    return HSA_STATUS_ERROR_OUT_OF_RESOURCES;
  }
  reader_add(r, reader);
  return HSA_STATUS_SUCCESS;
}

hsa_status_t hsa_code_object_reader_destroy(hsa_code_object_reader_t reader) {
  if (!core_runtime_is_open()) return HSA_STATUS_ERROR_NOT_INITIALIZED;
  ldr_lock();
  struct ldr_reader **pp = &readers;
  while (*pp && (uint64_t)(uintptr_t)*pp != reader.handle) pp = &(*pp)->next;
  struct ldr_reader *r = *pp;
  if (r) *pp = r->next;
  ldr_unlock();
  if (!r) return HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER;
  reader_free(r);
  return HSA_STATUS_SUCCESS;
}

void ldr_readers_destroy_all(void) {
  ldr_lock();
  struct ldr_reader *r = readers;
  readers = NULL;
  ldr_unlock();
  while (r) {
    struct ldr_reader *next = r->next;
    reader_free(r);
    r = next;
  }
}
