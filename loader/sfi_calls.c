/* sfi_calls.c - under `sfi`, instrumented code may not call a function
 * of the C library, the dynamic linker or libgcc_s whose arguments go
 * unchecked. The compiler lists in each object's calls note (dipc/sfi.h)
 * every function it calls and does not define but the C library functions
 * LLVM knows that take no pointer, whatever the parameters say (its own
 * checks cover a known function's first byte per pointer, an unknown
 * function's pointers' tags only): an attack round's swab(secret, own,
 * 30) copied another domain's secret, getloadavg declared as taking a
 * long wrote over it, and modf wrote past its first byte into the next
 * page. Each listed function that those objects define must be one the
 * loader intercepts (under any of its names), one whose pointers name no
 * memory, or one that takes none; otherwise the program is refused
 * before it runs. The runtime refuses the same functions as targets of
 * indirect calls. */
#define _GNU_SOURCE
#include "sfi_calls.h"
#include "sfi_code.h"

#include <dipc/limits.h>
#include <dipc/loaded-notes.h>
#include <dipc/sfi.h>
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int __dipc_loader_sfi_bypass(uintptr_t target); /* sfi_alias.c */

/* Their pointers are handles or values, never written; globfree frees
 * what its glob_t lists, through the loader's free, which frees only the
 * running domain's blocks, then writes 0 to its gl_pathv (a glob_t in
 * another domain's memory listing a block of the caller's gets those 8
 * bytes: docs/runtime.md; an interceptor would not do as an exit handler,
 * which a library's static glob_t's is: sfi_callbacks.c). */
static const char *const opaque[] = {
    "timer_delete",
    "globfree",
};

/* Their parameters are numbers only and they touch no memory of the
 * caller's (what they return is checked where the program uses it): a
 * call of one with any registers set reads or writes nothing through
 * them. */
static const char *const no_memory[] = {
    "abort", "_exit", "_Exit", "__stack_chk_fail",
    "__errno_location", "__ctype_b_loc", "__ctype_tolower_loc",
    "__ctype_toupper_loc", "getpid", "getppid", "gettid", "getuid",
    "geteuid", "getgid", "getegid", "sysconf", "getpagesize", "sleep",
    "usleep", "sched_yield", "pthread_self", "rand", "srand", "random",
    "srandom", "clock", "raise", "kill", "close", "dup",
    "dup2", "socket", "ftruncate", "fsync", "difftime", "localeconv",
    "getauxval",
    /* <ctype.h> as C++ calls it (C has macros): toupper and tolower
     * index their tables only for -128..255 (the class functions do not:
     * sfi_misc.c) */
    "isascii", "toascii", "tolower", "toupper",
};

/* The uninstrumented objects every program has, whose functions nothing
 * checks but what the loader intercepts, each found by a function only it
 * defines: libc, libm, the dynamic linker (an attack round's
 * _dl_exception_create copied vault's secret, its
 * _dl_get_tls_static_info wrote over it) and libgcc_s
 * (__register_frame_info wrote 48 bytes of its own). Other libraries are
 * the program's choice, and trusted (docs/runtime.md). */
static const char *const system_object_marks[] = {
    "gnu_get_libc_version", "lgamma", "_dl_exception_create",
    "_Unwind_Find_FDE",
};

#define COUNT(a) (sizeof(a) / sizeof *(a))
#define MAX_ALLOWED (COUNT(opaque) + COUNT(no_memory))

/* Set at start (sfi_calls_init), read-only after: the system objects'
 * bases, and the addresses of the functions above. */
static void *system_objects[COUNT(system_object_marks)];
/* libstdc++, found by std::locale::classic(): NULL when not loaded. */
static void *libstdcxx;
static uintptr_t allowed[MAX_ALLOWED];
static unsigned num_allowed;

/* The base of the object that defines sym (NULL: none loaded). */
static void *base_of(const char *sym) {
  Dl_info at;
  void *p = dlsym(RTLD_DEFAULT, sym);
  return p && dladdr(p, &at) ? at.dli_fbase : NULL;
}

static void allow(const char *const *names, size_t n) {
  for (size_t i = 0; i < n && num_allowed < MAX_ALLOWED; ++i) {
    void *fn = dlsym(RTLD_DEFAULT, names[i]);
    if (fn)
      allowed[num_allowed++] = (uintptr_t)fn;
  }
}

void sfi_calls_init(void) {
  if (!sfi_code_on)
    return;
  for (size_t i = 0; i < COUNT(system_object_marks); ++i)
    system_objects[i] = base_of(system_object_marks[i]);
  libstdcxx = base_of("_ZNSt6locale7classicEv");
  allow(opaque, COUNT(opaque));
  allow(no_memory, COUNT(no_memory));
}

static int in_system_object(const void *base) {
  for (size_t i = 0; i < COUNT(system_objects); ++i)
    if (base && base == system_objects[i])
      return 1;
  return 0;
}

/* Whether fn is a function of a system object that nothing checks: not
 * one only its interceptor may call (the loader rebinds the program's
 * slots holding it), nor one of the lists above under any of its names. */
static int unchecked_at(uintptr_t fn) {
  Dl_info at;
  if (!dladdr((void *)fn, &at) || !in_system_object(at.dli_fbase))
    return 0; /* an interceptor, another library, or the program */
  if (__dipc_loader_sfi_bypass(fn))
    return 0;
  for (unsigned i = 0; i < num_allowed; ++i)
    if (allowed[i] == fn)
      return 0;
  return 1;
}

/* The runtime's check of an indirect call (rt/sfi_cfi.c): a function
 * pointer's parameters say nothing of what the function reads or writes,
 * so instrumented code calls no function of a system object through one
 * that it could not call by name. */
__attribute__((visibility("default"))) int
__dipc_loader_sfi_unchecked(uintptr_t target) {
  return sfi_code_on && unchecked_at(target);
}

/* The names refused so far, and whether libstdc++ is called. */
struct refused {
  char names[512];
  size_t used;
  int cxx;
};

/* Each name of the note's descriptor, as the program's objects see it:
 * appended to r if it is a function of a system object that nothing
 * checks; r->cxx set if it is libstdc++'s. */
static void add_calls_note(uint32_t type, const char *desc, size_t size,
                           void *arg) {
  struct refused *r = arg;
  if (type != DIPC_SFI_CALLS_NOTE_TYPE)
    return;
  for (const char *s = desc, *stop = desc + size; s < stop && *s;) {
    size_t len = strnlen(s, (size_t)(stop - s));
    if (len == (size_t)(stop - s))
      break; /* not NUL-terminated */
    void *fn = dlsym(RTLD_DEFAULT, s);
    Dl_info at;
    if (fn && unchecked_at((uintptr_t)fn) &&
        r->used + len + 3 < sizeof r->names)
      r->used += (size_t)snprintf(r->names + r->used,
                                  sizeof r->names - r->used, "%s%s",
                                  r->used ? ", " : "", s);
    if (libstdcxx && fn && dladdr(fn, &at) && at.dli_fbase == libstdcxx)
      r->cxx = 1;
    s += len + 1;
  }
}

/* libstdc++ is not instrumented and its out-of-line code reads and writes
 * what a domain hands it: said once, at the first object that calls it. */
static void warn_libstdcxx(const char *object) {
  static int said;
  if (__atomic_exchange_n(&said, 1, __ATOMIC_RELAXED))
    return;
  fprintf(stderr,
          "dipc-loader: sfi: warning: %s calls libstdc++, which is not "
          "instrumented: C++ code in a named domain is not isolated from "
          "the others (docs/runtime.md, \"What stays trusted under sfi\")\n",
          object);
}

void sfi_calls_check(const struct dl_phdr_info *info) {
  if (!sfi_code_on)
    return;
  struct refused r = {"", 0, 0};
  dipc_each_loaded_note(info, DIPC_SFI_CALLS_NOTE_NAME, add_calls_note, &r);
  if (r.cxx)
    warn_libstdcxx(*info->dlpi_name ? info->dlpi_name : "the program");
  const char *refused = r.names;
  size_t used = r.used;
  if (!used)
    return;
  fprintf(stderr,
          "dipc-loader: sfi: %s calls functions of the C library, the "
          "dynamic linker or libgcc_s that neither its checks nor the "
          "loader's check: %s; "
          "refused (docs/runtime.md, \"What stays trusted under sfi\")\n",
          *info->dlpi_name ? info->dlpi_name : "the program", refused);
  _exit(DIPC_EXIT_REFUSED);
}
