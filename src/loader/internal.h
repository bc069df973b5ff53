/* SPDX-License-Identifier: MIT */
/* internal.h — what the loader's files share and keep to themselves: image parsing,
 * metadata, kernel descriptors, relocations, segments, symbols, executables, the debugger
 * list. Other modules include loader/loader.h only. */
#ifndef LOADER_INTERNAL_H
#define LOADER_INTERNAL_H

#include <link.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/agent.h"
#include "core/isa.h"
#include "hsa.h"
#include "loader/loader.h"

/* Says why a code object was refused (stderr, one line; HSA_LOADER_QUIET=1 silences it). */
void ldr_complain(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ---- image.c / elf.c: a code object parsed from bytes ------------------------------- */

struct ldr_load_segment {     /* one PT_LOAD */
  uint64_t vaddr, memsz, offset, filesz, align;
  uint32_t flags;             /* PF_X / PF_W / PF_R */
};

struct ldr_elf_symbol {
  const char *name;           /* points into the image's string table */
  uint64_t value, size;
  uint8_t type, bind, other;
  uint16_t shndx;
  uint64_t sec_flags, sec_align;   /* of the section it is defined in (0 if none) */
};

struct ldr_rela {
  uint64_t offset;
  uint32_t type, sym;         /* sym indexes ldr_image.rsyms */
  int64_t addend;
};

struct ldr_kernel_md;
struct ldr_metadata;

struct ldr_image {
  const uint8_t *data;
  size_t size;
  unsigned version, version_minor;  /* code object version (2..6) */
  uint32_t e_flags;
  const struct core_isa *isa;       /* NULL when the target is not a known processor */
  char target[64];                  /* "gfx906:sramecc+:xnack-" (what the code says) */
  unsigned generic_version;         /* v6 generic targets, else 0 */
  unsigned generic_family;          /* 0, or the EF_AMDGPU_MACH of a generic target */
  struct ldr_load_segment *loads;
  unsigned nloads;
  struct ldr_elf_symbol *syms;      /* .symtab (or .dynsym when that is all there is) */
  unsigned nsyms;
  struct ldr_elf_symbol *rsyms;     /* the table the dynamic relocations name (.dynsym) */
  unsigned nrsyms;
  struct ldr_rela *relas;
  unsigned nrelas;
  const void *md_note;              /* v3+: the NT_AMDGPU_METADATA msgpack bytes (NULL if */
  size_t md_size;                   /* none); checked for shape, parsed when needed */
  char producer[64];                /* v2 NT_AMD_HSA_PRODUCER name, if any */
  uint32_t producer_major, producer_minor;
};

/* Parses and checks `data` (not copied: it must outlive the image). Returns
 * HSA_STATUS_SUCCESS or HSA_STATUS_ERROR_INVALID_CODE_OBJECT (bad ELF, bad notes, bad
 * metadata), HSA_STATUS_ERROR_OUT_OF_RESOURCES. On failure *img is left empty. */
hsa_status_t ldr_image_open(struct ldr_image *img, const void *data, size_t size);
void ldr_image_close(struct ldr_image *img);
/* The size of the ELF file starting at `data` (end of the furthest header, section or
 * segment), 0 if it is not an ELF64 header; reads at most `limit` bytes. */
size_t ldr_elf_size(const void *data, size_t limit);

/* target.c: the processor an EF_AMDGPU_MACH value names (0 if none) and the code object's
 * ISA from e_flags (v3+) or the v2 ISA note. */
bool ldr_mach_processor(unsigned mach, uint32_t *major, uint32_t *minor, uint32_t *stepping);
hsa_status_t ldr_image_target(struct ldr_image *img, const void *isa_note, size_t note_size);
/* Whether the code object's target can run on `agent` (a GPU agent). */
bool ldr_target_compatible(const struct ldr_image *img, const struct core_agent *agent);

/* ---- metadata.c: the v3+ msgpack metadata ------------------------------------------- */

struct ldr_arg_md {
  char *name, *type_name, *value_kind, *address_space;
  uint32_t size, offset, pointee_align;
};

struct ldr_kernel_md {
  char *name, *symbol;
  uint32_t kernarg_size, kernarg_align, group_fixed, private_fixed, wavefront_size;
  uint32_t sgpr_count, vgpr_count, max_flat_workgroup_size;
  bool uses_dynamic_stack, uniform_work_group_size;
  struct ldr_arg_md *args;
  unsigned nargs;
};

struct ldr_metadata {
  uint32_t version[2];        /* amdhsa.version */
  char *target;               /* amdhsa.target */
  struct ldr_kernel_md *kernels;
  unsigned nkernels;
};

/* Whether `desc` is one well-formed msgpack map whose counts fit its bytes: what a load
 * checks (a full parse costs more than the rest of the load, and ROCR does not read it). */
bool ldr_metadata_sane(const void *desc, size_t size);
/* Parses a msgpack NT_AMDGPU_METADATA descriptor. INVALID_CODE_OBJECT when it is not a map
 * or a kernel entry is malformed (missing .name/.symbol, wrong types). */
hsa_status_t ldr_metadata_parse(const void *desc, size_t size, struct ldr_metadata **out);
void ldr_metadata_free(struct ldr_metadata *md);
const struct ldr_kernel_md *ldr_metadata_kernel(const struct ldr_metadata *md,
                                                const char *symbol);

/* ---- kernel_descriptor.c ------------------------------------------------------------- */

struct ldr_kernel_info {
  uint32_t kernarg_size, kernarg_align, group_size, private_size, wavefront_size;
  bool dynamic_callstack;
  uint32_t object_size, object_align;
  int64_t entry_offset;       /* from the descriptor to the first instruction */
};

/* Reads a 64-byte code object v3+ kernel descriptor; false when reserved fields are set or
 * values are implausible. */
bool ldr_kd_read(const void *kd, struct ldr_kernel_info *out);
/* Reads a 256-byte amd_kernel_code_t (v2); false when it is not one. */
bool ldr_akc_read(const void *akc, struct ldr_kernel_info *out);

/* ---- reloc.c ------------------------------------------------------------------------- */

/* Resolves an undefined symbol (an external variable) by name; 0 when not defined. */
typedef uint64_t (*ldr_resolve_fn)(const char *name, void *ctx);

/* Applies img's dynamic relocations to `host`, the loaded copy of the segments whose GPU
 * address is `base`, `span` bytes long, for vaddr `vbase` (so address = vaddr - vbase + base).
 * INVALID_CODE_OBJECT for unknown types or targets outside the segments,
 * VARIABLE_UNDEFINED for an undefined external. */
hsa_status_t ldr_relocate(const struct ldr_image *img, uint8_t *host, uint64_t base,
                          uint64_t vbase, uint64_t span, ldr_resolve_fn resolve, void *ctx);

/* ---- segment.c ----------------------------------------------------------------------- */

struct ldr_layout {
  uint64_t vbase, span, align;      /* lowest vaddr (aligned down), bytes to allocate */
};
/* Checks PT_LOAD ordering/overlap/sizes and computes the one allocation covering them. */
hsa_status_t ldr_layout(const struct ldr_image *img, struct ldr_layout *out);
/* Copies the file bytes of each PT_LOAD into `host` and zero-fills the rest of the span,
 * unless `zeroed` says it is zero already (a bss of GiBs is then never touched). */
void ldr_copy_segments(const struct ldr_image *img, const struct ldr_layout *lay, uint8_t *host,
                       bool zeroed);
/* Zeroed host memory for a span, committed only where written (spans may be GiBs of bss);
 * NULL when the address space cannot hold it. */
uint8_t *ldr_host_image(uint64_t span);
void ldr_host_image_free(uint8_t *p, uint64_t span);
/* GPU-visible memory for a loaded code object: agent's VRAM (host-visible, executable) or
 * system memory for program code objects. NULL when out of memory. */
void *ldr_segment_alloc(const struct core_agent *agent, size_t size, size_t align);
void ldr_segment_free(void *ptr);
/* Makes CPU writes to loaded segments visible to the GPU's instruction/data fetch. */
void ldr_segment_flush(const struct core_agent *agent, void *ptr, size_t size);

/* ---- executable.c: executables, loaded code objects, symbols ------------------------- */

struct ldr_executable;

struct ldr_symbol {
  struct ldr_executable *exec;
  struct ldr_symbol *hash_next;
  char *name;
  hsa_symbol_kind_t kind;
  hsa_symbol_linkage_t linkage;
  bool agent_bound, is_definition, is_loaded;
  hsa_agent_t agent;
  uint64_t address;
  struct ldr_kernel_info k;   /* kernels */
  hsa_variable_allocation_t allocation;   /* variables */
  hsa_variable_segment_t segment;
  uint32_t var_align;
  uint64_t var_size;
  bool is_const;
};

struct ldr_lco {              /* a loaded code object */
  struct ldr_executable *exec;
  struct ldr_lco *next;
  hsa_agent_t agent;          /* {0} for program code objects */
  const struct core_agent *core_agent;
  const void *storage;        /* the reader's bytes */
  size_t storage_size;
  void *mem;                  /* the one allocation */
  uint64_t load_base, load_size;
  int64_t delta;              /* load_base - vaddr of the allocation's start */
  struct ldr_symbol *syms;
  unsigned nsyms;
  struct link_map lm;         /* _amdgpu_r_debug entry (l_name = URI) */
  bool listed;
};

struct ldr_external {         /* a variable the application defined (…_variable_define) */
  struct ldr_external *next;
  struct ldr_symbol sym;
};

struct ldr_executable {
  struct ldr_executable *next;
  hsa_profile_t profile;
  hsa_default_float_rounding_mode_t rounding;
  hsa_executable_state_t state;
  struct ldr_lco *lcos, *lcos_tail;
  struct ldr_external *externals;
  struct ldr_symbol **hash;     /* by (name, agent) */
  unsigned hash_size, nsyms;
};

/* symbol.c: the symbol table of an executable. */
/* The symbol named `name` (full name) for `agent` (NULL: program symbols), or NULL. */
struct ldr_symbol *ldr_symbol_lookup(struct ldr_executable *exec, const char *name,
                                     const hsa_agent_t *agent);
/* Makes room for `more` symbols, so that that many inserts cannot fail. */
hsa_status_t ldr_symbol_reserve(struct ldr_executable *exec, unsigned more);
/* Adds a symbol to the executable's table (it must not be there yet). */
hsa_status_t ldr_symbol_insert(struct ldr_executable *exec, struct ldr_symbol *sym);
void ldr_symbols_free(struct ldr_executable *exec);
/* The live symbol for a handle (any executable), or NULL. */
struct ldr_symbol *ldr_symbol_find(hsa_executable_symbol_t handle);
hsa_executable_symbol_t ldr_symbol_handle(const struct ldr_symbol *sym);
/* hsa_executable_symbol_get_info / hsa_code_symbol_get_info for one symbol. */
hsa_status_t ldr_symbol_info(const struct ldr_symbol *sym, int attribute, void *value);
/* Builds the symbols of a loaded image (code at `host`, GPU address `base`). */
hsa_status_t ldr_symbols_build(struct ldr_executable *exec, const struct ldr_image *img,
                               const struct ldr_layout *lay, const uint8_t *host,
                               uint64_t base, const struct core_agent *agent,
                               struct ldr_symbol **out, unsigned *count);

/* ---- reader.c ------------------------------------------------------------------------ */

struct ldr_reader {
  struct ldr_reader *next;
  const uint8_t *data;
  size_t size;
  void *map;                  /* mmap of a file reader (NULL for memory readers) */
  size_t map_size;
  char *uri;
};

/* The live reader for a handle, or NULL. Call with the loader lock held. */
struct ldr_reader *ldr_reader_find(hsa_code_object_reader_t handle);
/* URI of `size` bytes at `data` in this process ("memory://PID#offset=0x...&size=N"); the
 * caller frees it. */
char *ldr_uri_memory(const void *data, size_t size);
void ldr_readers_destroy_all(void);

/* code_object.c: the deprecated hsa_code_object_* API's objects. */
void ldr_code_objects_destroy_all(void);

/* ---- debug.c: _amdgpu_r_debug -------------------------------------------------------- */

/* Adds (RT_ADD) or removes (RT_DELETE) the loaded code objects of an executable from the
 * debugger list, calling the r_brk breakpoint before and after. Loader lock held. */
void ldr_debug_add(struct ldr_lco *first);
void ldr_debug_remove(struct ldr_lco *first);
void ldr_debug_reset(void);

/* ---- the loader lock (executable.c) -------------------------------------------------- */
void ldr_lock(void);
void ldr_unlock(void);

/* Loads `data` into `exec` for `agent` (NULL: a program code object); the URI is copied. */
/* core_code_namer_fn of the loader (describe.c): which code object and kernel hold addr. */
bool ldr_describe_code(uint64_t addr, char *out, size_t size);
hsa_status_t ldr_load(struct ldr_executable *exec, const struct core_agent *agent,
                      const void *data, size_t size, const char *uri, struct ldr_lco **out);
struct ldr_executable *ldr_executable_find(hsa_executable_t handle);
struct ldr_lco *ldr_lco_find(hsa_loaded_code_object_t handle);
hsa_executable_t ldr_executable_handle(const struct ldr_executable *exec);
/* First executable / next in creation order (loader lock held). */
struct ldr_executable *ldr_executable_first(void);
struct ldr_executable *ldr_executable_next(const struct ldr_executable *exec);
struct ldr_lco *ldr_executable_lcos(const struct ldr_executable *exec);

#endif
