/* sfi_real.h - how the mem* and str* interceptors (sfi_mem.c, sfi_str.c)
 * reach libc's definitions. dlsym, which finds them, may itself call some
 * of them: while a lookup is under way, an interceptor whose definition is
 * not known yet does the work with a plain loop of its own, as sanitizer
 * runtimes do. These files are compiled with -fno-builtin, so that the
 * compiler turns none of those loops back into a call. */
#ifndef DIPC_LOADER_SFI_REAL_H
#define DIPC_LOADER_SFI_REAL_H

/* The next definition of name, kept in *slot; NULL while another lookup
 * is under way (the caller uses its own loop then). */
void *sfi_real_lookup(void **slot, const char *name);

/* libc's `name`, typed as this file's declaration of it, or NULL (above). */
#define SFI_REAL(name)                                                         \
  ({                                                                           \
    static void *slot_;                                                        \
    void *fn_ = __atomic_load_n(&slot_, __ATOMIC_ACQUIRE);                     \
    (__typeof__(&name))(fn_ ? fn_ : sfi_real_lookup(&slot_, #name));           \
  })

#endif
