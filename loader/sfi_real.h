/* sfi_real.h - how the libc interceptors (sfi_intercept.h) reach libc's
 * definitions: each use site keeps its function in a record of section
 * dipc_sfi_next, all of which the loader's constructor fills in
 * (sfi_next_resolve_all), so that no interceptor writes loader data when
 * a domain calls it later (under mpk a domain may lack write access to
 * the default domain's memory, which the loader's data is). One called
 * before the constructor (by libdipc's initialisation) looks its
 * function up then.
 *
 * dlsym, which finds them, may itself call mem* and str* functions: while
 * a lookup is under way those interceptors do the work with a plain loop
 * of their own, as sanitizer runtimes do (SFI_REAL). sfi_mem.c and
 * sfi_str.c are compiled with -fno-builtin, so that the compiler turns
 * none of those loops back into a call. */
#ifndef DIPC_LOADER_SFI_REAL_H
#define DIPC_LOADER_SFI_REAL_H

struct sfi_next {
  void *fn;
  const char *name;
};

/* The next definition of n->name, kept in n->fn; exits if there is none. */
void *sfi_next_lookup(struct sfi_next *n);
/* The same, or NULL while another lookup is under way. */
void *sfi_real_lookup(struct sfi_next *n);
/* Fills every record in (the loader's constructor). */
void sfi_next_resolve_all(void);

#define SFI_NEXT_RECORD_(sym)                                                  \
  static struct sfi_next next_                                                 \
      __attribute__((section("dipc_sfi_next"), used)) = {0, sym}

/* libc's definition of the symbol sym, as a `type`. */
#define NEXT_AS(type, sym)                                                     \
  ({                                                                           \
    SFI_NEXT_RECORD_(sym);                                                     \
    void *fn_ = __atomic_load_n(&next_.fn, __ATOMIC_ACQUIRE);                  \
    (type)(fn_ ? fn_ : sfi_next_lookup(&next_));                               \
  })

/* libc's `name`, typed as this file's declaration of it. */
#define NEXT(name) NEXT_AS(__typeof__(&name), #name)

/* libc's `name`, or NULL while dlsym runs (the caller's loop does it). */
#define SFI_REAL(name)                                                         \
  ({                                                                           \
    SFI_NEXT_RECORD_(#name);                                                   \
    void *fn_ = __atomic_load_n(&next_.fn, __ATOMIC_ACQUIRE);                  \
    (__typeof__(&name))(fn_ ? fn_ : sfi_real_lookup(&next_));                  \
  })

#endif
