/* SPDX-License-Identifier: MIT */
/* loader_api.c — the executable and reader API's error paths and bookkeeping, run under
 * hsa-sim on one code object (argv[1], for the first GPU; argv[2] a file that is not a code
 * object): invalid handles and arguments, frozen executables, variable definitions, program
 * code objects, the loader extension's counts and lookups, the deprecated code object API.
 * Prints one line per failed check; exit status = number of failures. */
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hsa/hsa.h"
#include "hsa/hsa_ven_amd_loader.h"

extern struct r_debug _amdgpu_r_debug;

static int failures;
#define CHECK(cond) \
  do { if (!(cond)) { printf("FAIL line %d: %s\n", __LINE__, #cond); failures++; } } while (0)
#define ST(call, want) \
  do { hsa_status_t st_ = (call); if (st_ != (want)) { \
    printf("FAIL line %d: %s = 0x%x, want 0x%x\n", __LINE__, #call, st_, (unsigned)(want)); \
    failures++; } } while (0)

static hsa_agent_t gpu, cpu;
static hsa_status_t find(hsa_agent_t a, void *d) {
  (void)d;
  hsa_device_type_t t;
  hsa_agent_get_info(a, HSA_AGENT_INFO_DEVICE, &t);
  if (t == HSA_DEVICE_TYPE_GPU && !gpu.handle) gpu = a;
  if (t == HSA_DEVICE_TYPE_CPU && !cpu.handle) cpu = a;
  return HSA_STATUS_SUCCESS;
}

static int count;
static hsa_status_t count_exec(hsa_executable_t e, void *d) { (void)e; (void)d; count++; return HSA_STATUS_SUCCESS; }
static hsa_status_t count_sym(hsa_executable_t e, hsa_executable_symbol_t s, void *d) {
  (void)e; (void)s; (void)d; count++; return HSA_STATUS_SUCCESS; }
static hsa_status_t count_agent_sym(hsa_executable_t e, hsa_agent_t a, hsa_executable_symbol_t s,
                                    void *d) { (void)e; (void)a; (void)s; (void)d; count++; return HSA_STATUS_SUCCESS; }
static hsa_status_t stop_sym(hsa_executable_t e, hsa_executable_symbol_t s, void *d) {
  (void)e; (void)s; (void)d; count++; return HSA_STATUS_INFO_BREAK; }
static hsa_status_t count_code_sym(hsa_code_object_t c, hsa_code_symbol_t s, void *d) {
  (void)c; (void)s; (void)d; count++; return HSA_STATUS_SUCCESS; }
static hsa_status_t alloc_cb(size_t n, hsa_callback_data_t d, void **p) {
  (void)d; *p = malloc(n); return *p ? HSA_STATUS_SUCCESS : HSA_STATUS_ERROR_OUT_OF_RESOURCES; }

/* Threads loading, looking up, freezing and destroying executables at once (HSA calls are
 * thread-safe); the r_debug list must end empty and every round must succeed. */
static hsa_code_object_reader_t shared_reader;
static int thread_failures;
static void *stress(void *arg) {
  (void)arg;
  static uint64_t var[2];
  for (int i = 0; i < 25; i++) {
    hsa_executable_t x;
    hsa_executable_symbol_t sym;
    uint64_t obj = 0;
    if (hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, NULL, &x) ||
        hsa_executable_agent_global_variable_define(x, gpu, "ext_var", var) ||
        hsa_executable_load_agent_code_object(x, gpu, shared_reader, NULL, NULL) ||
        hsa_executable_get_symbol_by_name(x, "big.kd", &gpu, &sym) ||
        hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT, &obj) || !obj ||
        hsa_executable_freeze(x, NULL) || hsa_executable_destroy(x))
      __atomic_add_fetch(&thread_failures, 1, __ATOMIC_RELAXED);
  }
  return NULL;
}

int main(int argc, char **argv) {
  if (argc < 3) return 100;
  hsa_code_object_reader_t r = {0}, bogus_r = {0x1234};
  hsa_executable_t e = {0}, bogus_e = {0x5678};
  hsa_executable_symbol_t bogus_s = {0x9abc};
  /* Before hsa_init. */
  ST(hsa_code_object_reader_create_from_memory("x", 1, &r), HSA_STATUS_ERROR_NOT_INITIALIZED);
  ST(hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, NULL, &e),
     HSA_STATUS_ERROR_NOT_INITIALIZED);
  if (hsa_init() != HSA_STATUS_SUCCESS) return 101;
  hsa_iterate_agents(find, NULL);
  hsa_ven_amd_loader_1_03_pfn_t ext;
  ST(hsa_system_get_major_extension_table(HSA_EXTENSION_AMD_LOADER, 1, sizeof(ext), &ext),
     HSA_STATUS_SUCCESS);

  /* Readers. */
  int fd = open(argv[1], O_RDONLY), junk = open(argv[2], O_RDONLY);
  off_t size = lseek(fd, 0, SEEK_END);
  ST(hsa_code_object_reader_create_from_file(-1, &r), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ST(hsa_code_object_reader_create_from_file(999, &r), HSA_STATUS_ERROR_INVALID_FILE);
  ST(hsa_code_object_reader_create_from_file(fd, NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ST(hsa_code_object_reader_create_from_memory(NULL, 10, &r), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ST(hsa_code_object_reader_create_from_memory("x", 0, &r), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ST(ext.hsa_ven_amd_loader_code_object_reader_create_from_file_with_offset_size(fd, 0, 0, &r),
     HSA_STATUS_ERROR_INVALID_CODE_OBJECT);
  ST(ext.hsa_ven_amd_loader_code_object_reader_create_from_file_with_offset_size(
         fd, (size_t)size - 16, 64, &r), HSA_STATUS_ERROR_INVALID_CODE_OBJECT);   /* past EOF */
  ST(ext.hsa_ven_amd_loader_code_object_reader_create_from_file_with_offset_size(
         fd, (size_t)size, 1, &r), HSA_STATUS_ERROR_INVALID_CODE_OBJECT);
  ST(hsa_code_object_reader_destroy(bogus_r), HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER);
  ST(hsa_code_object_reader_create_from_file(fd, &r), HSA_STATUS_SUCCESS);

  /* Executables. */
  ST(hsa_executable_create_alt((hsa_profile_t)7, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, NULL, &e),
     HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ST(hsa_executable_create_alt(HSA_PROFILE_FULL, (hsa_default_float_rounding_mode_t)9, NULL, &e),
     HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ST(hsa_executable_create(HSA_PROFILE_FULL, (hsa_executable_state_t)5, NULL, &e),
     HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ST(hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_NEAR, NULL, NULL),
     HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ST(hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_NEAR, NULL, &e),
     HSA_STATUS_SUCCESS);
  hsa_default_float_rounding_mode_t mode = 0;
  hsa_executable_state_t state = 9;
  ST(hsa_executable_get_info(e, HSA_EXECUTABLE_INFO_DEFAULT_FLOAT_ROUNDING_MODE, &mode), HSA_STATUS_SUCCESS);
  CHECK(mode == HSA_DEFAULT_FLOAT_ROUNDING_MODE_NEAR);
  ST(hsa_executable_get_info(e, HSA_EXECUTABLE_INFO_STATE, &state), HSA_STATUS_SUCCESS);
  CHECK(state == HSA_EXECUTABLE_STATE_UNFROZEN);
  ST(hsa_executable_get_info(e, (hsa_executable_info_t)99, &state), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ST(hsa_executable_get_info(bogus_e, HSA_EXECUTABLE_INFO_STATE, &state), HSA_STATUS_ERROR_INVALID_EXECUTABLE);
  ST(hsa_executable_load_agent_code_object(bogus_e, gpu, r, NULL, NULL), HSA_STATUS_ERROR_INVALID_EXECUTABLE);
  ST(hsa_executable_load_agent_code_object(e, gpu, bogus_r, NULL, NULL),
     HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER);
  ST(hsa_executable_load_agent_code_object(e, (hsa_agent_t){42}, r, NULL, NULL), HSA_STATUS_ERROR_INVALID_AGENT);
  ST(hsa_executable_load_agent_code_object(e, cpu, r, NULL, NULL), HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS);
  /* Not a code object. */
  hsa_code_object_reader_t jr;
  ST(hsa_code_object_reader_create_from_file(junk, &jr), HSA_STATUS_SUCCESS);
  ST(hsa_executable_load_agent_code_object(e, gpu, jr, NULL, NULL), HSA_STATUS_ERROR_INVALID_CODE_OBJECT);
  ST(hsa_code_object_reader_destroy(jr), HSA_STATUS_SUCCESS);
  ST(hsa_code_object_reader_destroy(jr), HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER);
  /* The external it needs, then the load; a second definition and a second load collide. */
  static uint64_t ext_var[2];
  hsa_executable_symbol_t s, s2;
  ST(hsa_executable_load_agent_code_object(e, gpu, r, NULL, NULL), HSA_STATUS_ERROR_VARIABLE_UNDEFINED);
  ST(hsa_executable_agent_global_variable_define(e, gpu, NULL, ext_var), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ST(hsa_executable_agent_global_variable_define(e, (hsa_agent_t){42}, "ext_var", ext_var),
     HSA_STATUS_ERROR_INVALID_AGENT);
  ST(hsa_executable_agent_global_variable_define(e, gpu, "ext_var", ext_var), HSA_STATUS_SUCCESS);
  ST(hsa_executable_agent_global_variable_define(e, gpu, "ext_var", ext_var),
     HSA_STATUS_ERROR_VARIABLE_ALREADY_DEFINED);
  ST(hsa_executable_global_variable_define(e, "prog_var", ext_var + 1), HSA_STATUS_SUCCESS);
  hsa_loaded_code_object_t lco = {0};
  ST(hsa_executable_load_agent_code_object(e, gpu, r, NULL, &lco), HSA_STATUS_SUCCESS);
  CHECK(lco.handle != 0);
  ST(hsa_executable_load_agent_code_object(e, gpu, r, NULL, NULL),
     HSA_STATUS_ERROR_VARIABLE_ALREADY_DEFINED);
  /* Lookups: kernels by "name.kd" for the agent; program symbols without one. */
  ST(hsa_executable_get_symbol_by_name(e, "add.kd", &gpu, &s), HSA_STATUS_SUCCESS);
  ST(hsa_executable_get_symbol_by_name(e, "add", &gpu, &s2), HSA_STATUS_ERROR_INVALID_SYMBOL_NAME);
  ST(hsa_executable_get_symbol_by_name(e, "add.kd", NULL, &s2), HSA_STATUS_ERROR_INVALID_SYMBOL_NAME);
  ST(hsa_executable_get_symbol_by_name(e, "prog_var", NULL, &s2), HSA_STATUS_SUCCESS);
  ST(hsa_executable_get_symbol(e, NULL, "add.kd", gpu, 0, &s2), HSA_STATUS_SUCCESS);
  CHECK(s2.handle == s.handle);
  ST(hsa_executable_get_symbol(e, NULL, "", gpu, 0, &s2), HSA_STATUS_ERROR_INVALID_SYMBOL_NAME);
  ST(hsa_executable_get_symbol(e, NULL, "prog_var", gpu, 0, &s2), HSA_STATUS_SUCCESS);
  uint64_t addr = 0;
  ST(hsa_executable_symbol_get_info(s2, HSA_EXECUTABLE_SYMBOL_INFO_VARIABLE_ADDRESS, &addr), HSA_STATUS_SUCCESS);
  CHECK(addr == (uint64_t)(uintptr_t)(ext_var + 1));
  ST(hsa_executable_symbol_get_info(bogus_s, HSA_EXECUTABLE_SYMBOL_INFO_TYPE, &addr),
     HSA_STATUS_ERROR_INVALID_EXECUTABLE_SYMBOL);
  ST(hsa_executable_symbol_get_info((hsa_executable_symbol_t){s.handle + 1}, HSA_EXECUTABLE_SYMBOL_INFO_TYPE,
                                    &addr), HSA_STATUS_ERROR_INVALID_EXECUTABLE_SYMBOL);
  ST(hsa_executable_symbol_get_info(s, HSA_EXECUTABLE_SYMBOL_INFO_TYPE, NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ST(hsa_executable_symbol_get_info(s, (hsa_executable_symbol_info_t)77, &addr), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  /* Iteration: program symbols (prog_var), agent symbols (2 kernels, 4 variables, ext_var). */
  count = 0;
  ST(hsa_executable_iterate_program_symbols(e, count_sym, NULL), HSA_STATUS_SUCCESS);
  CHECK(count == 1);
  count = 0;
  ST(hsa_executable_iterate_agent_symbols(e, gpu, count_agent_sym, NULL), HSA_STATUS_SUCCESS);
  CHECK(count == 7);
  count = 0;
  ST(hsa_executable_iterate_agent_symbols(e, cpu, count_agent_sym, NULL), HSA_STATUS_SUCCESS);
  CHECK(count == 0);
  count = 0;
  ST(hsa_executable_iterate_symbols(e, count_sym, NULL), HSA_STATUS_SUCCESS);
  CHECK(count == 8);
  count = 0;
  ST(hsa_executable_iterate_symbols(e, stop_sym, NULL), HSA_STATUS_INFO_BREAK);
  CHECK(count == 1);
  ST(hsa_executable_iterate_symbols(e, NULL, NULL), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ST(hsa_executable_iterate_agent_symbols(e, (hsa_agent_t){42}, count_agent_sym, NULL),
     HSA_STATUS_ERROR_INVALID_AGENT);
  uint32_t result = 7;
  ST(hsa_executable_validate(e, &result), HSA_STATUS_SUCCESS);
  CHECK(result == 0);
  ST(hsa_executable_validate_alt(bogus_e, NULL, &result), HSA_STATUS_ERROR_INVALID_EXECUTABLE);

  /* Loader extension: one loaded code object, found by address; segment descriptors. */
  size_t n = 0;
  ST(ext.hsa_ven_amd_loader_query_segment_descriptors(NULL, &n), HSA_STATUS_SUCCESS);
  CHECK(n == 1);
  hsa_ven_amd_loader_segment_descriptor_t d[2];
  size_t two = 2;
  ST(ext.hsa_ven_amd_loader_query_segment_descriptors(d, &two), HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS);
  ST(ext.hsa_ven_amd_loader_query_segment_descriptors(d, &n), HSA_STATUS_SUCCESS);
  CHECK(d[0].executable.handle == e.handle && d[0].agent.handle == gpu.handle);
  CHECK(d[0].code_object_storage_size == (size_t)size);
  uint64_t kobj = 0;
  hsa_executable_symbol_get_info(s, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT, &kobj);
  CHECK(kobj >= (uint64_t)(uintptr_t)d[0].segment_base &&
        kobj < (uint64_t)(uintptr_t)d[0].segment_base + d[0].segment_size);
  hsa_executable_t found = {0};
  ST(ext.hsa_ven_amd_loader_query_executable((void *)(uintptr_t)kobj, &found), HSA_STATUS_SUCCESS);
  CHECK(found.handle == e.handle);
  ST(ext.hsa_ven_amd_loader_query_executable((void *)8, &found), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  const void *host = NULL;
  ST(ext.hsa_ven_amd_loader_query_host_address((void *)(uintptr_t)kobj, &host), HSA_STATUS_SUCCESS);
  CHECK(host && memcmp(host, (const void *)(uintptr_t)kobj, 64) == 0);
  uint32_t urilen = 0;
  ST(ext.hsa_ven_amd_loader_loaded_code_object_get_info(lco, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_URI_LENGTH, &urilen), HSA_STATUS_SUCCESS);
  char uri[4096] = {0};
  ST(ext.hsa_ven_amd_loader_loaded_code_object_get_info(lco, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_URI, uri), HSA_STATUS_SUCCESS);
  CHECK(strlen(uri) == urilen && strncmp(uri, "file:///", 8) == 0);
  ST(ext.hsa_ven_amd_loader_loaded_code_object_get_info((hsa_loaded_code_object_t){77},
     HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_URI, uri), HSA_STATUS_ERROR_INVALID_CODE_OBJECT);
  ST(ext.hsa_ven_amd_loader_loaded_code_object_get_info(lco, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_CODE_OBJECT_STORAGE_FILE, uri), HSA_STATUS_ERROR_INVALID_ARGUMENT);

  /* Freeze: r_debug gets the entry; nothing more may be loaded or defined. */
  CHECK(_amdgpu_r_debug.r_map == NULL);
  ST(hsa_executable_freeze(e, NULL), HSA_STATUS_SUCCESS);
  CHECK(_amdgpu_r_debug.r_map != NULL && _amdgpu_r_debug.r_state == RT_CONSISTENT);
  CHECK(_amdgpu_r_debug.r_map && strcmp(_amdgpu_r_debug.r_map->l_name, uri) == 0);
  ST(hsa_executable_freeze(e, NULL), HSA_STATUS_ERROR_FROZEN_EXECUTABLE);
  ST(hsa_executable_load_agent_code_object(e, gpu, r, NULL, NULL), HSA_STATUS_ERROR_FROZEN_EXECUTABLE);
  ST(hsa_executable_global_variable_define(e, "late", ext_var), HSA_STATUS_ERROR_FROZEN_EXECUTABLE);

  /* A program code object (system memory), in a second executable, created frozen = error. */
  hsa_executable_t p, f;
  ST(hsa_executable_create(HSA_PROFILE_FULL, HSA_EXECUTABLE_STATE_FROZEN, NULL, &f), HSA_STATUS_SUCCESS);
  ST(hsa_executable_load_agent_code_object(f, gpu, r, NULL, NULL), HSA_STATUS_ERROR_FROZEN_EXECUTABLE);
  ST(hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, NULL, &p),
     HSA_STATUS_SUCCESS);
  ST(hsa_executable_global_variable_define(p, "ext_var", ext_var), HSA_STATUS_SUCCESS);
  hsa_loaded_code_object_t plco;
  ST(hsa_executable_load_program_code_object(p, r, NULL, &plco), HSA_STATUS_SUCCESS);
  uint32_t kind = 0;
  ST(ext.hsa_ven_amd_loader_loaded_code_object_get_info(plco, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_KIND, &kind), HSA_STATUS_SUCCESS);
  CHECK(kind == HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_KIND_PROGRAM);
  hsa_agent_t none;
  ST(ext.hsa_ven_amd_loader_loaded_code_object_get_info(plco, HSA_VEN_AMD_LOADER_LOADED_CODE_OBJECT_INFO_AGENT, &none), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ST(hsa_executable_get_symbol_by_name(p, "add.kd", NULL, &s2), HSA_STATUS_SUCCESS);
  count = 0;
  ST(ext.hsa_ven_amd_loader_iterate_executables(count_exec, NULL), HSA_STATUS_SUCCESS);
  CHECK(count == 3);

  /* Deprecated code objects. */
  size_t bytes_size = (size_t)size;
  void *bytes = malloc(bytes_size);
  CHECK(pread(fd, bytes, bytes_size, 0) == (ssize_t)bytes_size);
  hsa_code_object_t co;
  ST(hsa_code_object_deserialize(bytes, 0, NULL, &co), HSA_STATUS_ERROR_INVALID_ARGUMENT);
  ST(hsa_code_object_deserialize(bytes, bytes_size, NULL, &co), HSA_STATUS_SUCCESS);
  void *ser = NULL;
  size_t ser_size = 0;
  ST(hsa_code_object_serialize(co, alloc_cb, (hsa_callback_data_t){0}, NULL, &ser, &ser_size), HSA_STATUS_SUCCESS);
  CHECK(ser_size == bytes_size && ser && memcmp(ser, bytes, bytes_size) == 0);
  free(ser);
  hsa_isa_t isa = {0}, agent_isa = {0};
  ST(hsa_code_object_get_info(co, HSA_CODE_OBJECT_INFO_ISA, &isa), HSA_STATUS_SUCCESS);
  bool compatible = false;
  hsa_agent_get_info(gpu, HSA_AGENT_INFO_ISA, &agent_isa);
  ST(hsa_isa_compatible(isa, agent_isa, &compatible), HSA_STATUS_SUCCESS);
  CHECK(compatible);
  hsa_code_symbol_t cs;
  ST(hsa_code_object_get_symbol(co, "add.kd", &cs), HSA_STATUS_SUCCESS);
  uint32_t ks = 0;
  ST(hsa_code_symbol_get_info(cs, HSA_CODE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE, &ks), HSA_STATUS_SUCCESS);
  uint32_t ks_exec = 1;
  hsa_executable_symbol_get_info(s, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE, &ks_exec);
  CHECK(ks == ks_exec);
  ST(hsa_code_symbol_get_info((hsa_code_symbol_t){cs.handle + 3}, HSA_CODE_SYMBOL_INFO_TYPE, &ks),
     HSA_STATUS_ERROR_INVALID_CODE_SYMBOL);
  ST(hsa_code_object_get_symbol(co, "nope", &cs), HSA_STATUS_ERROR_INVALID_SYMBOL_NAME);
  count = 0;
  ST(hsa_code_object_iterate_symbols(co, count_code_sym, NULL), HSA_STATUS_SUCCESS);
  CHECK(count == 6);
  hsa_executable_t c;
  ST(hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, NULL, &c), HSA_STATUS_SUCCESS);
  ST(hsa_executable_agent_global_variable_define(c, gpu, "ext_var", ext_var), HSA_STATUS_SUCCESS);
  ST(hsa_executable_load_code_object(c, gpu, co, NULL), HSA_STATUS_SUCCESS);
  ST(hsa_executable_load_code_object(c, gpu, (hsa_code_object_t){(uint64_t)(uintptr_t)bytes}, NULL),
     HSA_STATUS_ERROR_INVALID_CODE_OBJECT);
  ST(hsa_code_object_destroy(co), HSA_STATUS_SUCCESS);
  ST(hsa_code_object_destroy(co), HSA_STATUS_ERROR_INVALID_CODE_OBJECT);

  /* Destroy: r_debug is empty again; handles die. */
  ST(hsa_executable_destroy(e), HSA_STATUS_SUCCESS);
  ST(hsa_executable_destroy(e), HSA_STATUS_ERROR_INVALID_EXECUTABLE);
  CHECK(_amdgpu_r_debug.r_map == NULL);
  ST(hsa_executable_symbol_get_info(s, HSA_EXECUTABLE_SYMBOL_INFO_TYPE, &addr),
     HSA_STATUS_ERROR_INVALID_EXECUTABLE_SYMBOL);
  ST(hsa_executable_destroy(p), HSA_STATUS_SUCCESS);
  ST(hsa_executable_destroy(f), HSA_STATUS_SUCCESS);
  /* Concurrency. */
  shared_reader = r;
  pthread_t th[4];
  for (int i = 0; i < 4; i++) pthread_create(&th[i], NULL, stress, NULL);
  for (int i = 0; i < 50; i++) {
    count = 0;
    ext.hsa_ven_amd_loader_iterate_executables(count_exec, NULL);
    size_t nd = 0;
    ext.hsa_ven_amd_loader_query_segment_descriptors(NULL, &nd);
  }
  for (int i = 0; i < 4; i++) pthread_join(th[i], NULL);
  CHECK(thread_failures == 0);
  /* Only c, loaded from the deprecated code object, is left, not frozen: nothing listed. */
  CHECK(_amdgpu_r_debug.r_map == NULL && _amdgpu_r_debug.r_state == RT_CONSISTENT);
  /* c and r stay alive: hsa_shut_down must release them. */
  free(bytes);
  close(fd);
  close(junk);
  hsa_shut_down();
  printf("%d failures\n", failures);
  return failures;
}
