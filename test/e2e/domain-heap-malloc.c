// A named domain's malloc family allocates from the domain's own heap region
// (dom_heap), not from the C library's heap: a library domain with only a
// read grant on the default domain mallocs, reallocs, callocs and frees
// (before per-domain heaps its first malloc wrote glibc's arena, a default-
// domain page, and faulted under mpk). Blocks keep their contents across
// 20,000 random operations, calloc zeroes reused memory, alignments hold,
// and a domain granted write on the default domain keeps using glibc's heap.
// RUN: %dipc-clang -fdipc -O0 %s -o %t0
// RUN: %dipc-bin-dir/dipc-run %t0 2>&1 | FileCheck %s
// RUN: %dipc-bin-dir/dipc-run --backend=none %t0 2>&1 | FileCheck %s
// RUN: %dipc-clang -fdipc -O2 %s -o %t2
// RUN: %dipc-bin-dir/dipc-readelf %t2 | FileCheck %s --check-prefix=ELF
// RUN: %dipc-bin-dir/dipc-run --info %t2 2>&1 | FileCheck %s --check-prefix=INFO
// RUN: %dipc-bin-dir/dipc-run %t2 2>&1 | FileCheck %s
// ELF: domain lib
// ELF: heap own (run-time region, dom_heap)
// ELF: domain trusted
// ELF: heap the C library's (write grant on default)
// INFO: dipc: domain lib: {{[0-9]+}} pages, protection key {{-?[0-9]+}}, heap 0x2{{[0-9a-f]+}}-0x2{{[0-9a-f]+}}
// CHECK: by name: unknown -2, from lib -1, default's heap -2
// CHECK-NEXT: lib blocks in lib's heap: 6 of 6
// CHECK-NEXT: churn: 20000 operations, 0 corrupted, calloc dirty 0, misaligned 0, errno 0
// CHECK-NEXT: after free-all: 0 corrupted
// CHECK-NEXT: trusted blocks in domain heaps: 0 of 2, errno 0
// CHECK-NEXT: kcs 0
#define _GNU_SOURCE
#include <dipc.h>
#include <dipc/rt.h>
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SLOTS 512

static unsigned char *blocks[SLOTS] __dom("lib");
static unsigned long sizes[SLOTS] __dom("lib");
static unsigned long rng __dom("lib");

static unsigned long next_random(void) __dom("lib");
static unsigned long next_random(void) {
  rng = rng * 6364136223846793005UL + 1442695040888963407UL;
  return rng >> 33;
}

static int intact(unsigned i) __dom("lib");
static int intact(unsigned i) {
  for (unsigned long k = 0; k < sizes[i]; k += 97)
    if (blocks[i][k] != (unsigned char)(i + k))
      return 0;
  return 1;
}

static void fill(unsigned i) __dom("lib");
static void fill(unsigned i) {
  for (unsigned long k = 0; k < sizes[i]; k += 97)
    blocks[i][k] = (unsigned char)(i + k);
}

// Six blocks of each kind of allocation; their addresses go to main.
long lib_first(uintptr_t *out) __dom("lib") __entry __perm("default", read);
long lib_first(uintptr_t *out) {
  void *p;
  out[0] = (uintptr_t)malloc(24);
  out[1] = (uintptr_t)malloc(200000);
  out[2] = (uintptr_t)calloc(10, 100);
  out[3] = (uintptr_t)realloc(NULL, 5000);
  out[4] = posix_memalign(&p, 4096, 100) == 0 ? (uintptr_t)p : 0;
  out[5] = (uintptr_t)aligned_alloc(64, 64);
  for (int i = 0; i < 6; i++)
    free((void *)out[i]);
  return 6;
}

// Random mallocs, reallocs, callocs and frees of 1 byte to 256 KiB.
long lib_churn(long ops) __dom("lib") __entry __perm("default", read);
long lib_churn(long ops) {
  long corrupted = 0, dirty = 0, misaligned = 0;
  rng = 42;
  for (long n = 0; n < ops; n++) {
    unsigned i = (unsigned)(next_random() % SLOTS);
    if (blocks[i] && !intact(i))
      corrupted++;
    unsigned long size = 1 + next_random() % (next_random() % 8 ? 2048 : 262144);
    switch (next_random() % 4) {
    case 0:
      free(blocks[i]);
      blocks[i] = malloc(size);
      break;
    case 1:
      blocks[i] = realloc(blocks[i], size);
      sizes[i] = sizes[i] < size ? sizes[i] : size;
      if (blocks[i] && !intact(i))
        corrupted++;
      break;
    case 2:
      free(blocks[i]);
      blocks[i] = calloc(1, size);
      for (unsigned long k = 0; blocks[i] && k < size; k += 61)
        dirty += blocks[i][k] != 0;
      break;
    default: {
      void *p = NULL;
      unsigned long align = 16UL << (next_random() % 9); // 16 .. 4096
      free(blocks[i]);
      blocks[i] = posix_memalign(&p, align, size) == 0 ? p : NULL;
      misaligned += ((uintptr_t)p & (align - 1)) != 0;
    }
    }
    if (!blocks[i])
      return -1;
    if (malloc_usable_size(blocks[i]) < size)
      return -2;
    sizes[i] = size;
    fill(i);
  }
  return corrupted * 1000000 + dirty * 1000 + misaligned;
}

long lib_free_all(void) __dom("lib") __entry __perm("default", read);
long lib_free_all(void) {
  long corrupted = 0;
  for (unsigned i = 0; i < SLOTS; i++) {
    if (blocks[i] && !intact(i))
      corrupted++;
    free(blocks[i]);
    blocks[i] = NULL;
  }
  return corrupted;
}

// Only the default domain gets handles by name.
long lib_named(void) __dom("lib") __entry __perm("default", read);
long lib_named(void) { return dipc_domain_named("lib"); }

// A domain trusted with the default domain's memory shares glibc's heap.
long trusted_alloc(uintptr_t *out) __dom("trusted") __entry
    __perm("default", write);
long trusted_alloc(uintptr_t *out) {
  out[0] = (uintptr_t)malloc(24);
  out[1] = (uintptr_t)malloc(200000);
  return 2;
}

static int in_heap(uintptr_t p, uintptr_t heap) {
  return p >= heap && p < heap + DIPC_HEAP_STRIDE;
}

int main(void) {
  dom_t lib = dipc_domain_named("lib");
  uintptr_t heap = (uintptr_t)dom_heap(lib);
  if (lib < 0 || dipc_ptr_err((void *)heap)) {
    printf("no heap for lib: %ld %ld\n", (long)lib,
           dipc_ptr_err((void *)heap));
    return 1;
  }
  printf("by name: unknown %ld, from lib %ld, default's heap %ld\n",
         (long)dipc_domain_named("nope"), lib_named(),
         dipc_ptr_err(dom_heap(dom_default())));
  uintptr_t got[6] = {0};
  long n = lib_first(got), inside = 0;
  for (long i = 0; i < n; i++)
    inside += in_heap(got[i], heap);
  printf("lib blocks in lib's heap: %ld of %ld\n", inside, n);
  long r = lib_churn(20000);
  int err = dipc_errno;
  if (r < 0)
    printf("churn failed: %ld errno %d\n", r, err);
  else
    printf("churn: 20000 operations, %ld corrupted, calloc dirty %ld, "
           "misaligned %ld, errno %d\n",
           r / 1000000, r / 1000 % 1000, r % 1000, err);
  printf("after free-all: %ld corrupted\n", lib_free_all());
  n = trusted_alloc(got);
  err = dipc_errno;
  inside = 0;
  for (long i = 0; i < n; i++)
    inside += got[i] - DIPC_HEAP_ADDR < 1024 * DIPC_HEAP_STRIDE; // any heap
  printf("trusted blocks in domain heaps: %ld of %ld, errno %d\n", inside, n,
         err);
  free((void *)got[0]); // glibc's: main may free them
  free((void *)got[1]);
  printf("kcs %ld\n", dipc_kcs_depth());
  return 0;
}
