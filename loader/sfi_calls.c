/* sfi_calls.c - under `sfi`, an instrumented object may not call a C
 * library function whose pointers go unchecked. The compiler checks the
 * first byte of each pointer given to a C library function LLVM knows,
 * and only the tag (not a callee stack) of those given to any other
 * function, which it lists in the object's calls note (dipc/sfi.h): an
 * attack round's swab(secret, own, 30) copied another domain's secret.
 * Each listed function that libc or libm defines must be one the loader
 * intercepts (under any of its names), or one whose pointers name no
 * memory; otherwise the program is refused before it runs. */
#define _GNU_SOURCE
#include "sfi_calls.h"
#include "sfi_code.h"

#include <dipc/limits.h>
#include <dipc/sfi.h>
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int __dipc_loader_sfi_bypass(uintptr_t target); /* sfi_alias.c */

/* Their pointers are handles or values, never written; dlsym and dlvsym
 * read a name (which answers whether it is a symbol's, no more), and
 * cannot be interposed (sfi_unknown.c); globfree frees what its glob_t
 * lists, through the loader's free, which frees only the running
 * domain's blocks (and an interceptor would not do as an exit handler:
 * sfi_callbacks.c). */
static const char *const opaque[] = {
    "pthread_setspecific", "tss_set", "timer_delete", "dlclose",
    "dlsym", "dlvsym", "globfree",
};

static int is_opaque(const char *name) {
  for (size_t i = 0; i < sizeof opaque / sizeof *opaque; ++i)
    if (!strcmp(opaque[i], name))
      return 1;
  return 0;
}

/* The base of the object that defines sym (NULL: none loaded). */
static void *base_of(const char *sym) {
  Dl_info at;
  void *p = dlsym(RTLD_DEFAULT, sym);
  return p && dladdr(p, &at) ? at.dli_fbase : NULL;
}

/* Whether name, as the program's objects see it, is a function of libc or
 * libm that nothing checks. */
static int unchecked(const char *name) {
  static void *libc, *libm, *self;
  if (!libc) {
    libc = base_of("gnu_get_libc_version");
    libm = base_of("lgamma");
    Dl_info me;
    self = dladdr((void *)unchecked, &me) ? me.dli_fbase : NULL;
  }
  void *fn = dlsym(RTLD_DEFAULT, name);
  Dl_info at;
  if (!fn || !dladdr(fn, &at) || at.dli_fbase == self ||
      (at.dli_fbase != libc && (!libm || at.dli_fbase != libm)))
    return 0; /* an interceptor, another library, or the program */
  return !__dipc_loader_sfi_bypass((uintptr_t)fn) && !is_opaque(name);
}

/* Appends to refused (used bytes so far) each name of the note's
 * descriptor that nothing checks; returns the new length. */
static size_t add_refused(const char *desc, size_t size, char *refused,
                          size_t room, size_t used) {
  for (const char *s = desc, *stop = desc + size; s < stop && *s;) {
    size_t len = strnlen(s, (size_t)(stop - s));
    if (len == (size_t)(stop - s))
      break; /* not NUL-terminated */
    if (unchecked(s) && used + len + 3 < room)
      used += (size_t)snprintf(refused + used, room - used, "%s%s",
                               used ? ", " : "", s);
    s += len + 1;
  }
  return used;
}

void sfi_calls_check(const struct dl_phdr_info *info) {
  if (!sfi_code_on)
    return;
  char refused[512] = "";
  size_t used = 0;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type != PT_NOTE)
      continue;
    const char *at = (const char *)(info->dlpi_addr + ph->p_vaddr);
    const char *end = at + ph->p_memsz;
    while (at + sizeof(ElfW(Nhdr)) <= end) {
      const ElfW(Nhdr) *nh = (const void *)at;
      size_t name = (nh->n_namesz + 3) & ~3u, desc = (nh->n_descsz + 3) & ~3u;
      const char *nm = (const char *)(nh + 1), *d = nm + name;
      if (name > (size_t)(end - nm) || desc > (size_t)(end - d))
        break;
      if (nh->n_type == DIPC_SFI_CALLS_NOTE_TYPE &&
          nh->n_namesz == sizeof DIPC_SFI_CALLS_NOTE_NAME &&
          !memcmp(nm, DIPC_SFI_CALLS_NOTE_NAME, nh->n_namesz))
        used = add_refused(d, nh->n_descsz, refused, sizeof refused, used);
      at = d + desc;
    }
  }
  if (!used)
    return;
  fprintf(stderr,
          "dipc-loader: sfi: %s calls C library functions whose pointer "
          "arguments neither its checks nor the loader's check: %s; "
          "refused (docs/runtime.md, \"What stays trusted under sfi\")\n",
          *info->dlpi_name ? info->dlpi_name : "the program", refused);
  _exit(DIPC_EXIT_REFUSED);
}
