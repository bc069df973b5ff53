/* SPDX-License-Identifier: MIT */
/* loader_dump.c — loads code objects through the HSA API and prints what the runtime says
 * about them, one fact per line, so that two runtimes (ours, Debian's ROCR) and llvm-readelf
 * can be compared. Addresses are printed relative to the code object's load base.
 *   loader_dump [--no-freeze] [--gpu N] [--memory] [--rdebug] FILE...
 * --memory loads through a memory reader instead of a file reader; --rdebug walks
 * _amdgpu_r_debug like a debugger and checks each URI's bytes against the file. Exit status:
 * 0, or 1 on a failed check; a refused load prints its status and continues. */
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hsa/hsa.h"
#include "hsa/hsa_ven_amd_loader.h"

extern struct r_debug _amdgpu_r_debug;

/* -DEMBED_CO=path: that code object inside this program, as HIP embeds its fat binaries;
 * --embedded loads it through a memory reader (the URI must then name this program file). */
#ifdef EMBED_CO
__asm__(".section .rodata.embedded_co,\"a\"\n.balign 64\nembedded_co:\n.incbin \"" EMBED_CO
        "\"\nembedded_co_end:\n.previous\n");
extern const unsigned char embedded_co[] __asm__("embedded_co");
extern const unsigned char embedded_co_end[] __asm__("embedded_co_end");
#endif

static hsa_ven_amd_loader_1_01_pfn_t ext;
static uint64_t external[2];   /* what --define gives the code object */
static hsa_agent_t gpus[8];
static int ngpus;
static uint64_t load_base;
static int failures;

static hsa_status_t find_gpu(hsa_agent_t a, void *d) {
  (void)d;
  hsa_device_type_t t;
  hsa_agent_get_info(a, HSA_AGENT_INFO_DEVICE, &t);
  if (t == HSA_DEVICE_TYPE_GPU && ngpus < 8) gpus[ngpus++] = a;
  return HSA_STATUS_SUCCESS;
}

struct sym { char name[256]; hsa_executable_symbol_t s; };
static struct sym syms[4096];
static int nsyms;

static hsa_status_t collect(hsa_executable_t e, hsa_agent_t a, hsa_executable_symbol_t s, void *d) {
  (void)e; (void)a; (void)d;
  if (nsyms >= 4096) return HSA_STATUS_SUCCESS;
  uint32_t len = 0;
  hsa_executable_symbol_get_info(s, HSA_EXECUTABLE_SYMBOL_INFO_NAME_LENGTH, &len);
  memset(syms[nsyms].name, 0, sizeof(syms[nsyms].name));
  if (len < 255) hsa_executable_symbol_get_info(s, HSA_EXECUTABLE_SYMBOL_INFO_NAME, syms[nsyms].name);
  syms[nsyms].s = s;
  nsyms++;
  return HSA_STATUS_SUCCESS;
}

static int by_name(const void *a, const void *b) {
  return strcmp(((const struct sym *)a)->name, ((const struct sym *)b)->name);
}

static hsa_status_t first_lco(hsa_executable_t e, hsa_loaded_code_object_t l, void *d) {
  (void)e;
  *(hsa_loaded_code_object_t *)d = l;
  return HSA_STATUS_SUCCESS;
}

static void print_symbol(const struct sym *y, hsa_agent_t agent) {
  hsa_executable_symbol_t s = y->s;
  hsa_symbol_kind_t kind = 0;
  hsa_executable_symbol_get_info(s, HSA_EXECUTABLE_SYMBOL_INFO_TYPE, &kind);
  uint32_t u = 0;
  uint64_t addr = 0;
  bool b = false;
  hsa_agent_t ag = {0};
  hsa_status_t st;
  printf("symbol %s kind=%d", y->name, (int)kind);
  hsa_executable_symbol_get_info(s, HSA_EXECUTABLE_SYMBOL_INFO_MODULE_NAME_LENGTH, &u);
  printf(" module_len=%u", u);
  hsa_executable_symbol_get_info(s, HSA_EXECUTABLE_SYMBOL_INFO_LINKAGE, &u);
  printf(" linkage=%u", u);
  hsa_executable_symbol_get_info(s, HSA_EXECUTABLE_SYMBOL_INFO_IS_DEFINITION, &b);
  printf(" definition=%d", b);
  st = hsa_executable_symbol_get_info(s, HSA_EXECUTABLE_SYMBOL_INFO_AGENT, &ag);
  printf(" agent_ok=%d", st == HSA_STATUS_SUCCESS && ag.handle == agent.handle);
  if (kind == HSA_SYMBOL_KIND_KERNEL) {
    st = hsa_executable_symbol_get_info(s, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT, &addr);
    printf(" object=base+0x%llx", st ? 0ull : (unsigned long long)(addr - load_base));
    static const struct { int attr; const char *name; } ka[] = {
      {HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE, "kernarg_size"},
      {HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_ALIGNMENT, "kernarg_align"},
      {HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE, "group"},
      {HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE, "private"},
      {HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_CALL_CONVENTION, "call_convention"},
      {19 /* HSA_CODE_SYMBOL_INFO_KERNEL_WAVEFRONT_SIZE */, "wavefront"},
    };
    for (unsigned i = 0; i < sizeof(ka) / sizeof(ka[0]); i++) {
      u = 0;
      st = hsa_executable_symbol_get_info(s, (hsa_executable_symbol_info_t)ka[i].attr, &u);
      printf(" %s=%u", ka[i].name, st ? 0xdeadu : u);
    }
    b = false;
    hsa_executable_symbol_get_info(s, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_DYNAMIC_CALLSTACK, &b);
    printf(" dynamic_callstack=%d", b);
    st = hsa_executable_symbol_get_info(s, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_SIZE, &u);
    printf(" variable_size_status=0x%x", st);
  } else {
    st = hsa_executable_symbol_get_info(s, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ADDRESS, &addr);
    if (st == HSA_STATUS_SUCCESS && addr == (uint64_t)(uintptr_t)external)
      printf(" address=external");
    else
      printf(" address=base+0x%llx", st ? 0ull : (unsigned long long)(addr - load_base));
    u = 0;
    hsa_executable_symbol_get_info(s, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_SIZE, &u);
    printf(" size=%u", u);
    hsa_executable_symbol_get_info(s, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ALIGNMENT, &u);
    printf(" align=%u", u);
    hsa_executable_symbol_get_info(s, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_SEGMENT, &u);
    printf(" segment=%u", u);
    hsa_executable_symbol_get_info(s, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ALLOCATION, &u);
    printf(" allocation=%u", u);
    hsa_executable_symbol_get_info(s, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_IS_CONST, &b);
    printf(" is_const=%d", b);
    st = hsa_executable_symbol_get_info(s, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE, &u);
    printf(" kernarg_status=0x%x", st);
  }
  printf("\n");
}


/* Variables "ptr_to_X" hold &X after relocation (X a variable of this code object or the
 * --define'd external). */
static void check_pointers(hsa_executable_t e, hsa_agent_t agent) {
  for (int k = 0; k < nsyms; k++) {
    if (strncmp(syms[k].name, "ptr_to_", 7) != 0) continue;
    uint64_t addr = 0, want = 0;
    const void *host = NULL;
    hsa_executable_symbol_get_info(syms[k].s, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ADDRESS, &addr);
    ext.hsa_ven_amd_loader_query_host_address((const void *)(uintptr_t)addr, &host);
    hsa_executable_symbol_t target;
    const char *tname = syms[k].name + 7;
    if (hsa_executable_get_symbol_by_name(e, tname, &agent, &target) == HSA_STATUS_SUCCESS)
      hsa_executable_symbol_get_info(target, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ADDRESS, &want);
    uint64_t got = 0;
    if (host) memcpy(&got, host, 8);
    bool ok = host && want && got == want;
    printf("reloc %s %s%s\n", syms[k].name, ok ? "ok" : "WRONG",
           want == (uint64_t)(uintptr_t)external ? " (external)" : "");
    if (!ok) failures++;
  }
}

/* The executable segments in GPU memory hold exactly the file's bytes (code is not
 * relocated); read through the loader extension's host address. */
static bool code_matches(const unsigned char *file, size_t size) {
  Elf64_Ehdr eh;
  if (size < sizeof(eh)) return false;
  memcpy(&eh, file, sizeof(eh));
  int checked = 0;
  for (unsigned i = 0; i < eh.e_phnum; i++) {
    Elf64_Phdr ph;
    if (eh.e_phoff + (i + 1) * sizeof(ph) > size) return false;
    memcpy(&ph, file + eh.e_phoff + i * sizeof(ph), sizeof(ph));
    if (ph.p_type != PT_LOAD || !(ph.p_flags & PF_X) || ph.p_filesz == 0) continue;
    const void *host = NULL;
    if (ext.hsa_ven_amd_loader_query_host_address((const void *)(uintptr_t)(load_base + ph.p_vaddr),
                                                  &host) != HSA_STATUS_SUCCESS)
      return false;
    unsigned char *want = malloc(ph.p_filesz);
    memcpy(want, file + ph.p_offset, ph.p_filesz);
    /* ROCR stores a pointer to its debug info in v2 kernels' amd_kernel_code_t
     * (runtime_loader_kernel_symbol, offset 120): not compared. */
    for (int k = 0; k < nsyms && file[EI_ABIVERSION] == 0; k++) {
      uint64_t obj = 0;
      if (hsa_executable_symbol_get_info(syms[k].s, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT, &obj) ||
          obj < load_base + ph.p_vaddr || obj + 128 > load_base + ph.p_vaddr + ph.p_filesz)
        continue;
      size_t at = obj - (load_base + ph.p_vaddr) + 120;
      memcpy(want + at, (const unsigned char *)host + at, 8);
    }
    bool same = memcmp(host, want, ph.p_filesz) == 0;
    free(want);
    if (!same) return false;
    checked++;
  }
  return checked > 0;
}

static unsigned char *slurp(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  unsigned char *p = malloc(n > 0 ? (size_t)n : 1);
  if (p && fread(p, 1, (size_t)n, f) != (size_t)n) {
    free(p);
    p = NULL;
  }
  fclose(f);
  *size = (size_t)n;
  return p;
}

/* A debugger's view: decode the URI, read the bytes it names, compare with `want`. */
static bool uri_matches(const char *uri, const unsigned char *want, size_t want_size) {
  char path[4096];
  unsigned long long offset = 0, size = 0;
  unsigned char *got = NULL;
  size_t got_size = 0;
  if (strncmp(uri, "file://", 7) == 0) {
    size_t j = 0;
    const char *p = uri + 7;
    for (; *p && *p != '#' && j + 1 < sizeof(path); p++) {
      if (*p == '%' && p[1] && p[2]) {
        char hex[3] = {p[1], p[2], 0};
        path[j++] = (char)strtol(hex, NULL, 16);
        p += 2;
      } else {
        path[j++] = *p;
      }
    }
    path[j] = 0;
    size_t file_size = 0;
    unsigned char *all = slurp(path, &file_size);
    if (*p == '#') sscanf(p, "#offset=%llu&size=%llu", &offset, &size);
    else size = file_size;
    if (all && offset + size <= file_size) {
      got = malloc(size ? size : 1);
      memcpy(got, all + offset, size);
      got_size = size;
    }
    free(all);
  } else if (strncmp(uri, "memory://", 9) == 0) {
    int pid = 0;
    sscanf(uri, "memory://%d#offset=0x%llx&size=%llu", &pid, &offset, &size);
    snprintf(path, sizeof(path), "/proc/%d/mem", pid);
    int fd = open(path, O_RDONLY);
    got = malloc(size ? size : 1);
    if (fd >= 0 && pread(fd, got, size, (off_t)offset) == (ssize_t)size) got_size = size;
    if (fd >= 0) close(fd);
  }
  bool ok = got && got_size == want_size && memcmp(got, want, want_size) == 0;
  free(got);
  return ok;
}

int main(int argc, char **argv) {
  bool freeze = true, memory = false, rdebug = false, embedded = false;
  const char *define = NULL;
  int gpu = 0, first = 1;
  for (; first < argc && argv[first][0] == '-'; first++) {
    if (strcmp(argv[first], "--no-freeze") == 0) freeze = false;
    else if (strcmp(argv[first], "--memory") == 0) memory = true;
    else if (strcmp(argv[first], "--rdebug") == 0) rdebug = true;
    else if (strcmp(argv[first], "--embedded") == 0) embedded = memory = true;
    else if (strcmp(argv[first], "--gpu") == 0 && first + 1 < argc) gpu = atoi(argv[++first]);
    else if (strcmp(argv[first], "--define") == 0 && first + 1 < argc) define = argv[++first];
  }
  if (hsa_init() != HSA_STATUS_SUCCESS) {
    printf("hsa_init failed\n");
    return 2;
  }
  hsa_iterate_agents(find_gpu, NULL);
  if (gpu >= ngpus) {
    printf("no GPU %d\n", gpu);
    return 2;
  }
  if (hsa_system_get_major_extension_table(HSA_EXTENSION_AMD_LOADER, 1, sizeof(ext), &ext) !=
      HSA_STATUS_SUCCESS) {
    printf("no loader extension\n");
    return 2;
  }
  hsa_agent_t agent = gpus[gpu];
  hsa_executable_t execs[64];
  unsigned char *bytes[64];
  size_t sizes[64];
  int nexec = 0;
  for (int i = first; i < argc && nexec < 64; i++) {
    const char *file = argv[i];
    const char *base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
    bytes[nexec] = slurp(file, &sizes[nexec]);
    hsa_code_object_reader_t reader;
    hsa_status_t st;
    int fd = -1;
    if (embedded) {
#ifdef EMBED_CO
      st = hsa_code_object_reader_create_from_memory(embedded_co, (size_t)(embedded_co_end - embedded_co),
                                                     &reader);
#else
      st = HSA_STATUS_ERROR;
#endif
    } else if (memory) {
      st = hsa_code_object_reader_create_from_memory(bytes[nexec], sizes[nexec], &reader);
    } else {
      fd = open(file, O_RDONLY);
      st = hsa_code_object_reader_create_from_file(fd, &reader);
    }
    if (st != HSA_STATUS_SUCCESS) {
      printf("file %s reader status=0x%x\n", base, st);
      continue;
    }
    hsa_executable_t e;
    hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, NULL, &e);
    if (define) {
      st = hsa_executable_agent_global_variable_define(e, agent, define, &external);
      printf("define %s status=0x%x\n", define, st);
    }
    hsa_loaded_code_object_t lco = {0};
    st = hsa_executable_load_agent_code_object(e, agent, reader, NULL, &lco);
    printf("file %s load status=0x%x\n", base, st);
    if (st != HSA_STATUS_SUCCESS) {
      hsa_executable_destroy(e);
      hsa_code_object_reader_destroy(reader);
      if (fd >= 0) close(fd);
      free(bytes[nexec]);
      continue;
    }
    hsa_loaded_code_object_t it = {0};
    ext.hsa_ven_amd_loader_executable_iterate_loaded_code_objects(e, first_lco, &it);
    load_base = 0;
    ext.hsa_ven_amd_loader_loaded_code_object_get_info(
        it, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_BASE, &load_base);
    uint64_t load_size = 0, mem_size = 0;
    int64_t delta = 0;
    uint32_t kind = 0;
    ext.hsa_ven_amd_loader_loaded_code_object_get_info(
        it, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_SIZE, &load_size);
    ext.hsa_ven_amd_loader_loaded_code_object_get_info(
        it, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_LOAD_DELTA, &delta);
    ext.hsa_ven_amd_loader_loaded_code_object_get_info(
        it, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_KIND, &kind);
    ext.hsa_ven_amd_loader_loaded_code_object_get_info(
        it, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_MEMORY_SIZE, &mem_size);
    printf("lco same_handle=%d kind=%u load_size=%llu delta_is_base=%d storage_size_ok=%d\n",
           it.handle == lco.handle, kind, (unsigned long long)load_size,
           (uint64_t)delta == load_base, mem_size == sizes[nexec]);
    hsa_executable_t owner = {0};
    const void *host = NULL;
    bool found = ext.hsa_ven_amd_loader_query_executable((void *)(uintptr_t)(load_base + 16),
                                                         &owner) == HSA_STATUS_SUCCESS;
    bool hosted = ext.hsa_ven_amd_loader_query_host_address(
                      (void *)(uintptr_t)(load_base + 16), &host) == HSA_STATUS_SUCCESS;
    printf("query executable_ok=%d host_ok=%d\n", found && owner.handle == e.handle,
           hosted && host != NULL);
    nsyms = 0;
    hsa_executable_iterate_agent_symbols(e, agent, collect, NULL);
    qsort(syms, (size_t)nsyms, sizeof(syms[0]), by_name);
    for (int k = 0; k < nsyms; k++) {
      print_symbol(&syms[k], agent);
      hsa_executable_symbol_t again;
      if (hsa_executable_get_symbol_by_name(e, syms[k].name, &agent, &again) != HSA_STATUS_SUCCESS ||
          again.handle != syms[k].s.handle) {
        printf("get_symbol_by_name %s FAILED\n", syms[k].name);
        failures++;
      }
    }
    bool code_ok = code_matches(bytes[nexec], sizes[nexec]);
    printf("code bytes=%s\n", code_ok ? "match" : "DIFFER");
    if (!code_ok) failures++;
    check_pointers(e, agent);
    if (freeze) {
      st = hsa_executable_freeze(e, NULL);
      printf("freeze status=0x%x\n", st);
    }
    execs[nexec++] = e;
    if (fd >= 0) close(fd);   /* the reader keeps its own mapping */
  }
  if (rdebug) {
    int n = 0;
    for (struct link_map *m = _amdgpu_r_debug.r_map; m; m = m->l_next, n++) {
      const char *uri = m->l_name;
      /* The bytes the URI names must be those of one of the loaded files. */
      int which = -1;
      for (int k = 0; k < nexec && which < 0; k++)
        if (uri_matches(uri, bytes[k], sizes[k])) which = k;
      if (which < 0) {
        printf("rdebug uri %s bytes=MISMATCH (%s)\n",
               strncmp(uri, "file://", 7) == 0 ? "file" : "memory", uri);
        failures++;
        continue;
      }
      printf("rdebug uri %s bytes=match%s\n", strncmp(uri, "file://", 7) == 0 ? "file" : "memory",
             strchr(uri, '#') ? " fragment" : "");
      (void)m;
    }
    printf("rdebug entries=%d state=%d brk_set=%d\n", n, _amdgpu_r_debug.r_state,
           _amdgpu_r_debug.r_brk != 0);
  }
  for (int k = 0; k < nexec; k++) {
    hsa_executable_destroy(execs[k]);
    free(bytes[k]);
  }
  if (rdebug) printf("rdebug after destroy entries=%d\n", _amdgpu_r_debug.r_map ? 1 : 0);
  hsa_shut_down();
  return failures ? 1 : 0;
}
