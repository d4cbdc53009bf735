/* sfi_code.h - under the `sfi` backend, which code carries the compiled-in
 * checks (the objects the loader validated as -fdipc-sfi units, dipc/sfi.h)
 * and how the loader's libc interceptors (sfi_intercept.h) ask whether
 * their caller is such code. */
#ifndef DIPC_LOADER_SFI_CODE_H
#define DIPC_LOADER_SFI_CODE_H

#include <link.h>
#include <stdint.h>

/* Whether the backend is sfi: set once by sfi_code_start. */
extern int sfi_code_on;

/* Reads the backend (the loader's constructor, before any object is
 * added). */
void sfi_code_start(void);

/* Under sfi, copies in place what was loaded from files since the last
 * time (scan.c's scan_pin_code), but in a process of a cross-process
 * pair (loader.c). 0, or -1 after printing why. */
int loader_pin_code(void);

/* Adds the executable segments of an object whose every unit was compiled
 * with -fdipc-sfi (under sfi, every object with dIPC records the loader
 * accepts); a no-op under other backends. Under the loader's lock. */
void sfi_code_add(const struct dl_phdr_info *info);

/* Forgets the segments of an object that spanned [lo, hi), unloaded.
 * Under the loader's lock. */
void sfi_code_forget(uintptr_t lo, uintptr_t hi);

/* The segments, for sfi_code_contains (inline: every interceptor asks
 * on every call). An entry is published by its hi, cleared first. */
enum { SFI_CODE_MAX_RANGES = 64 };
struct sfi_code_range {
  uintptr_t lo, hi;
};
extern struct sfi_code_range sfi_code_ranges[SFI_CODE_MAX_RANGES];
extern unsigned sfi_code_num_ranges;

/* Whether pc lies in instrumented code. Lock-free. */
static inline int sfi_code_contains(uintptr_t pc) {
  unsigned n = __atomic_load_n(&sfi_code_num_ranges, __ATOMIC_ACQUIRE);
  for (unsigned i = 0; i < n; ++i) {
    uintptr_t hi = __atomic_load_n(&sfi_code_ranges[i].hi, __ATOMIC_ACQUIRE);
    if (pc < hi &&
        pc >= __atomic_load_n(&sfi_code_ranges[i].lo, __ATOMIC_RELAXED))
      return 1;
  }
  return 0;
}

/* Whether an interceptor called from `ret` must check its caller's memory
 * ranges: the backend is sfi and the call came from instrumented code.
 * Calls from libc, libdipc and the loader pass through unchecked. */
static inline int sfi_code_checks(const void *ret) {
  return __builtin_expect(sfi_code_on, 0) &&
         sfi_code_contains((uintptr_t)ret);
}

#endif
