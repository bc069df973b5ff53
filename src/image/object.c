/* SPDX-License-Identifier: MIT */
/* object.c — image and sampler objects: made in host memory every GPU maps (the handle is the
 * descriptor's address, which kernels load), and a registry of the live ones, so a handle is
 * checked before use and a destroyed one is refused rather than freed twice. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "image/image.h"
#include "image/internal.h"
#include "mem/mem.h"

#define IMG_MAGIC 0x494d475f4f424a31ull /* "IMG_OBJ1" */
#define SMP_MAGIC 0x534d505f4f424a31ull /* "SMP_OBJ1" */

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static void **live;           /* guarded by lock */
static size_t live_count, live_cap;

static bool add(void *p) {
  pthread_mutex_lock(&lock);
  if (live_count == live_cap) {
    size_t cap = live_cap ? live_cap * 2 : 64;
    void **n = realloc(live, cap * sizeof(*n));
    if (!n) {
      pthread_mutex_unlock(&lock);
      return false;
    }
    live = n;
    live_cap = cap;
  }
  live[live_count++] = p;
  pthread_mutex_unlock(&lock);
  return true;
}

/* Removes p when present and of `magic`; true when it was. */
static bool take(void *p, uint64_t magic) {
  bool found = false;
  pthread_mutex_lock(&lock);
  for (size_t i = 0; i < live_count; i++)
    if (live[i] == p) {
      found = *(const uint64_t *)((const char *)p + (magic == IMG_MAGIC
                                                        ? offsetof(struct img_image, magic)
                                                        : offsetof(struct img_sampler, magic))) == magic;
      if (found) live[i] = live[--live_count];
      break;
    }
  pthread_mutex_unlock(&lock);
  return found;
}

static bool is_live(const void *p, uint64_t magic, size_t magic_off) {
  bool found = false;
  pthread_mutex_lock(&lock);
  for (size_t i = 0; i < live_count; i++)
    if (live[i] == p) {
      found = *(const uint64_t *)((const char *)p + magic_off) == magic;
      break;
    }
  pthread_mutex_unlock(&lock);
  return found;
}

struct img_image *img_image_new(void) {
  struct img_image *im = mem_system(sizeof(*im), 64, MEM_F_ZERO);
  if (!im) return NULL;
  memset(im, 0, sizeof(*im));
  im->magic = IMG_MAGIC;
  if (!add(im)) {
    mem_release(im);
    return NULL;
  }
  return im;
}

struct img_image *img_image_from_handle(uint64_t handle) {
  void *p = (void *)(uintptr_t)handle;
  if (!handle || !is_live(p, IMG_MAGIC, offsetof(struct img_image, magic))) return NULL;
  return p;
}

bool img_image_free(uint64_t handle) {
  void *p = (void *)(uintptr_t)handle;
  if (!handle || !take(p, IMG_MAGIC)) return false;
  struct img_image *im = p;
  memset(im, 0, sizeof(*im));
  mem_release(im);
  return true;
}

struct img_sampler *img_sampler_new(void) {
  struct img_sampler *s = mem_system(sizeof(*s), 64, MEM_F_ZERO);
  if (!s) return NULL;
  memset(s, 0, sizeof(*s));
  s->magic = SMP_MAGIC;
  if (!add(s)) {
    mem_release(s);
    return NULL;
  }
  return s;
}

bool img_sampler_free(uint64_t handle) {
  void *p = (void *)(uintptr_t)handle;
  if (!handle || !take(p, SMP_MAGIC)) return false;
  memset(p, 0, sizeof(struct img_sampler));
  mem_release(p);
  return true;
}

void img_shutdown(void) {
  /* mem_shutdown frees the memory itself; forget the records. */
  pthread_mutex_lock(&lock);
  free(live);
  live = NULL;
  live_count = live_cap = 0;
  pthread_mutex_unlock(&lock);
}
