/* SPDX-License-Identifier: MIT */
/* object.c — image and sampler objects: made in host memory every GPU maps (the handle is the
 * descriptor's address, which kernels load), and a registry of the live ones, so a handle is
 * checked before use and a destroyed one is refused rather than freed twice. */
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "image/image.h"
#include "image/internal.h"
#include "mem/mem.h"

#define IMG_MAGIC 0x494d475f4f424a31ull /* "IMG_OBJ1" */
#define SMP_MAGIC 0x534d505f4f424a31ull /* "SMP_OBJ1" */

/* The live objects: a hash set of their addresses (open addressing, linear probing,
 * deleted slots marked), so a handle is checked in O(1) without reading its memory. */
#define DELETED ((void *)1)
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static void **slots;          /* guarded by lock; capacity a power of two */
static size_t cap, used;      /* used counts live and deleted slots */

static size_t hash(const void *p) {
  uint64_t x = (uint64_t)(uintptr_t)p >> 6;   /* objects are 64-byte aligned */
  x *= 0x9e3779b97f4a7c15ull;
  return (size_t)(x >> 20);
}

/* The slot holding p, or NULL. Under lock. */
static void **find(const void *p) {
  if (!cap) return NULL;
  for (size_t i = hash(p) & (cap - 1), n = 0; n < cap; i = (i + 1) & (cap - 1), n++) {
    if (!slots[i]) return NULL;
    if (slots[i] == p) return &slots[i];
  }
  return NULL;
}

static bool insert_locked(void *p) {
  if ((used + 1) * 2 > cap) {   /* grow (and drop deleted slots) at half full */
    size_t ncap = cap ? cap * 2 : 256;
    void **n = calloc(ncap, sizeof(*n)), **old = slots;
    if (!n) return false;
    size_t ocap = cap;
    slots = n;
    cap = ncap;
    used = 0;
    for (size_t i = 0; i < ocap; i++)
      if (old[i] && old[i] != DELETED) insert_locked(old[i]);
    free(old);
  }
  size_t i = hash(p) & (cap - 1);
  while (slots[i] && slots[i] != DELETED) i = (i + 1) & (cap - 1);
  if (!slots[i]) used++;
  slots[i] = p;
  return true;
}

static bool add(void *p) {
  pthread_mutex_lock(&lock);
  bool ok = insert_locked(p);
  pthread_mutex_unlock(&lock);
  return ok;
}

static uint64_t magic_at(const void *p, size_t off) {
  uint64_t m;
  memcpy(&m, (const char *)p + off, sizeof(m));
  return m;
}

/* Removes p when it is a live object of `magic` (at `off`); true when it was. */
static bool take(void *p, uint64_t magic, size_t off) {
  pthread_mutex_lock(&lock);
  void **slot = find(p);
  bool found = slot && magic_at(p, off) == magic;
  if (found) *slot = DELETED;
  pthread_mutex_unlock(&lock);
  return found;
}

static bool is_live(const void *p, uint64_t magic, size_t off) {
  pthread_mutex_lock(&lock);
  bool found = find(p) && magic_at(p, off) == magic;
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
  if (!handle || !take(p, IMG_MAGIC, offsetof(struct img_image, magic))) return false;
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
  if (!handle || !take(p, SMP_MAGIC, offsetof(struct img_sampler, magic))) return false;
  memset(p, 0, sizeof(struct img_sampler));
  mem_release(p);
  return true;
}

void img_shutdown(void) {
  /* mem_shutdown frees the memory itself; forget the records. */
  pthread_mutex_lock(&lock);
  free(slots);
  slots = NULL;
  cap = used = 0;
  pthread_mutex_unlock(&lock);
}
