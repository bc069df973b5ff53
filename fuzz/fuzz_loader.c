/* SPDX-License-Identifier: MIT */
/* fuzz_loader.c — libFuzzer target over the code object reader and loader: any bytes go
 * through ELF/notes/metadata parsing, the target check, segment layout, kernel descriptor and
 * symbol reading and every relocation, as hsa_executable_load_agent_code_object would run
 * them (into host memory instead of GPU memory). Built and run by `make fuzz`. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "loader/internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint64_t resolve(const char *name, void *ctx) {
  (void)ctx;
  return name[0] ? 0x7f0000001000ull : 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  /* The reader keeps the caller's bytes; copy so that reads past `size` are caught. */
  uint8_t *copy = malloc(size ? size : 1);
  memcpy(copy, data, size);
  (void)ldr_elf_size(copy, size);
  struct ldr_image img;
  if (ldr_image_open(&img, copy, size) == HSA_STATUS_SUCCESS) {
    struct core_agent agent = {.kind = CORE_AGENT_GPU};
    agent.isa = core_isa_find(9, 0, 0, CORE_FEATURE_UNSUPPORTED, CORE_FEATURE_OFF);
    (void)ldr_target_compatible(&img, &agent);
    struct ldr_metadata *note_md = NULL;
    if (img.md_note && ldr_metadata_parse(img.md_note, img.md_size, &note_md) == HSA_STATUS_SUCCESS)
      ldr_metadata_free(note_md);
    struct ldr_layout lay;
    /* Spans up to the GPU's address space are legal; the host image is committed only where
     * written, as the deprecated code object API does it. */
    uint8_t *host = NULL;
    if (ldr_layout(&img, &lay) == HSA_STATUS_SUCCESS && (host = ldr_host_image(lay.span))) {
      ldr_copy_segments(&img, &lay, host, true);
      static struct ldr_executable exec;
      struct ldr_symbol *syms;
      unsigned n;
      const uint64_t base = 0x100000000ull;
      if (ldr_symbols_build(&exec, &img, &lay, host, base, &agent, &syms, &n) ==
          HSA_STATUS_SUCCESS) {
        for (unsigned i = 0; i < n; i++) {
          /* Room for every attribute, the name included. */
          uint64_t *v = calloc(1, strlen(syms[i].name) + 64);
          for (int a = 0; a < 24; a++) (void)ldr_symbol_info(&syms[i], a, v);
          free(v);
          free(syms[i].name);
        }
        free(syms);
      }
      (void)ldr_relocate(&img, host, base, lay.vbase, lay.span, resolve, NULL);
      ldr_host_image_free(host, lay.span);
    }
    ldr_image_close(&img);
  }
  /* The metadata parser on raw bytes too (it sees a note descriptor in real use). */
  struct ldr_metadata *md = NULL;
  if (ldr_metadata_parse(copy, size, &md) == HSA_STATUS_SUCCESS) ldr_metadata_free(md);
  free(copy);
  return 0;
}
