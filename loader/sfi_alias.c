/* sfi_alias.c - libc exports most functions under more than one name
 * (madvise is also __madvise, pthread_key_create __pthread_key_create,
 * fcntl __fcntl and __libc_fcntl64): an instrumented object importing
 * another name than the interceptor's reached libc's function unchecked,
 * and so did a pointer from dlsym. Import slots of instrumented objects
 * holding such a function are pointed at its interceptor instead, once
 * the dynamic linker has bound them (LD_BIND_NOW, dipc-run), and the
 * runtime's check of indirect calls refuses the function itself
 * (__dipc_loader_sfi_bypass, rt/sfi_cfi.c). The table is made at start,
 * in the loader's memory, which no domain may read or write. */
#define _GNU_SOURCE
#include "sfi_alias.h"
#include "sfi_code.h"
#include "sfi_dl.h"
#include "sfi_real.h"

#include <dlfcn.h>
#include <elf.h>
#include <stdlib.h>
#include <sys/mman.h>

extern struct sfi_next __start_dipc_sfi_next[], __stop_dipc_sfi_next[];

struct alias {
  uintptr_t real, interceptor;
};

#define MAX_ALIASES 1024
static struct alias aliases[MAX_ALIASES];
static unsigned num_aliases;

static int by_real(const void *a, const void *b) {
  uintptr_t x = ((const struct alias *)a)->real,
            y = ((const struct alias *)b)->real;
  return x < y ? -1 : x > y;
}

void sfi_alias_init(void) {
  if (!sfi_code_on)
    return;
  Dl_info self;
  if (!dladdr((void *)sfi_alias_init, &self))
    return;
  for (struct sfi_next *n = __start_dipc_sfi_next;
       n < __stop_dipc_sfi_next && num_aliases < MAX_ALIASES; ++n) {
    void *mine = dlsym(RTLD_DEFAULT, n->name);
    Dl_info at;
    if (!n->fn || !mine || mine == n->fn || !dladdr(mine, &at) ||
        at.dli_fbase != self.dli_fbase)
      continue; /* no interceptor of that name here (NEXT_AS's others) */
    aliases[num_aliases++] =
        (struct alias){(uintptr_t)n->fn, (uintptr_t)mine};
  }
  for (unsigned i = 0; i < SFI_DL_RENAMED && num_aliases < MAX_ALIASES; ++i)
    aliases[num_aliases++] = (struct alias){sfi_dl_renamed[i].real,
                                            sfi_dl_renamed[i].interceptor};
  qsort(aliases, num_aliases, sizeof aliases[0], by_real);
}

static uintptr_t interceptor_of(uintptr_t real) {
  struct alias key = {real, 0};
  const struct alias *a =
      bsearch(&key, aliases, num_aliases, sizeof aliases[0], by_real);
  return a ? a->interceptor : 0;
}

/* The runtime's check of an indirect call's target: a function of libc
 * that only its interceptor may call. */
__attribute__((visibility("default"))) int
__dipc_loader_sfi_bypass(uintptr_t target) {
  return interceptor_of(target) != 0;
}

/* A dynamic entry's address: relocated in memory, or not. */
static uintptr_t dyn_ptr(const struct dl_phdr_info *info, uintptr_t p) {
  return p < info->dlpi_addr ? p + info->dlpi_addr : p;
}

static void bind_slot(uintptr_t slot, uintptr_t relro_lo, uintptr_t relro_hi) {
  uintptr_t to = interceptor_of(*(const uintptr_t *)slot);
  if (!to)
    return;
  int relro = slot >= relro_lo && slot < relro_hi;
  void *page = (void *)(slot & -(uintptr_t)4096);
  if (relro)
    mprotect(page, 4096, PROT_READ | PROT_WRITE);
  *(uintptr_t *)slot = to;
  if (relro)
    mprotect(page, 4096, PROT_READ);
}

static void bind_table(const struct dl_phdr_info *info, const ElfW(Rela) *r,
                       size_t bytes, uintptr_t relro_lo, uintptr_t relro_hi) {
  for (size_t i = 0; r && i < bytes / sizeof *r; ++i) {
    unsigned type = ELF64_R_TYPE(r[i].r_info);
    if (type == R_X86_64_JUMP_SLOT || type == R_X86_64_GLOB_DAT ||
        type == R_X86_64_64)
      bind_slot(info->dlpi_addr + r[i].r_offset, relro_lo, relro_hi);
  }
}

void sfi_alias_bind(const struct dl_phdr_info *info) {
  if (!sfi_code_on || !num_aliases)
    return;
  const ElfW(Dyn) *dyn = NULL;
  uintptr_t relro_lo = 0, relro_hi = 0;
  for (unsigned i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type == PT_DYNAMIC)
      dyn = (const void *)(info->dlpi_addr + ph->p_vaddr);
    else if (ph->p_type == PT_GNU_RELRO) {
      relro_lo = info->dlpi_addr + ph->p_vaddr;
      relro_hi = relro_lo + ph->p_memsz;
    }
  }
  const ElfW(Rela) *rela = NULL, *jmprel = NULL;
  size_t rela_bytes = 0, jmprel_bytes = 0;
  for (; dyn && dyn->d_tag != DT_NULL; ++dyn)
    switch (dyn->d_tag) {
    case DT_RELA:
      rela = (const void *)dyn_ptr(info, dyn->d_un.d_ptr);
      break;
    case DT_RELASZ:
      rela_bytes = dyn->d_un.d_val;
      break;
    case DT_JMPREL:
      jmprel = (const void *)dyn_ptr(info, dyn->d_un.d_ptr);
      break;
    case DT_PLTRELSZ:
      jmprel_bytes = dyn->d_un.d_val;
      break;
    }
  bind_table(info, rela, rela_bytes, relro_lo, relro_hi);
  bind_table(info, jmprel, jmprel_bytes, relro_lo, relro_hi);
}
