/* sfi_code.c - the text ranges of instrumented objects (sfi_code.h). Few
 * objects carry dIPC records, so a small table scanned linearly; readers
 * take no lock (an entry is published by its count, cleared before it is
 * reused), writers hold the loader's lock. */
#define _GNU_SOURCE
#include "sfi_code.h"

#include <dipc/limits.h>
#include <dipc/rt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int sfi_code_on;

struct sfi_code_range sfi_code_ranges[SFI_CODE_MAX_RANGES];
unsigned sfi_code_num_ranges;
#define ranges sfi_code_ranges
#define num_ranges sfi_code_num_ranges
#define MAX_RANGES SFI_CODE_MAX_RANGES

void sfi_code_start(void) { sfi_code_on = !strcmp(dipc_backend(), "sfi"); }

static void add(uintptr_t lo, uintptr_t hi) {
  for (unsigned i = 0; i < num_ranges; ++i)
    if (__atomic_load_n(&ranges[i].hi, __ATOMIC_RELAXED) == 0) {
      __atomic_store_n(&ranges[i].lo, lo, __ATOMIC_RELAXED);
      __atomic_store_n(&ranges[i].hi, hi, __ATOMIC_RELEASE);
      return;
    }
  if (num_ranges == MAX_RANGES) {
    /* Its calls into libc would go unchecked: stop rather than run so. */
    fputs("dipc-loader: more than 64 instrumented code segments: the libc "
          "interceptors cannot track them\n", stderr);
    _exit(DIPC_EXIT_REFUSED);
  }
  ranges[num_ranges].lo = lo;
  ranges[num_ranges].hi = hi;
  __atomic_store_n(&num_ranges, num_ranges + 1, __ATOMIC_RELEASE);
}

void sfi_code_add(const struct dl_phdr_info *info) {
  if (!sfi_code_on)
    return;
  for (unsigned i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X) && ph->p_memsz)
      add(info->dlpi_addr + ph->p_vaddr,
          info->dlpi_addr + ph->p_vaddr + ph->p_memsz);
  }
}

void sfi_code_forget(uintptr_t lo, uintptr_t hi) {
  for (unsigned i = 0; i < num_ranges; ++i)
    if (ranges[i].hi && ranges[i].lo >= lo && ranges[i].hi <= hi) {
      __atomic_store_n(&ranges[i].hi, 0, __ATOMIC_RELEASE);
      __atomic_store_n(&ranges[i].lo, 0, __ATOMIC_RELAXED);
    }
}
