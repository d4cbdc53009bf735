/* interpose.h - how the loader's stand-ins (dlopen, pthread_create,
 * sigaction, longjmp, ...) reach the definition they stand in front of:
 * the next object's (libc's), found with dlsym(RTLD_NEXT). A missing one
 * stops the process with its name rather than calling through NULL. */
#ifndef DIPC_LOADER_INTERPOSE_H
#define DIPC_LOADER_INTERPOSE_H

/* The next definition of `name` after the loader's; never NULL. */
void *interpose_next(const char *name);

/* The next definition of `name` as a `type`, looked up once per use site
 * and kept in the loader's data. Not for code a domain may run without
 * write access to the default domain (longjmp.c calls interpose_next). */
#define INTERPOSE_NEXT(type, name)                                             \
  ({                                                                           \
    static __typeof__(type) next_;                                             \
    __typeof__(type) fn_ = __atomic_load_n(&next_, __ATOMIC_ACQUIRE);          \
    if (!fn_) {                                                                \
      fn_ = (type)interpose_next(name);                                        \
      __atomic_store_n(&next_, fn_, __ATOMIC_RELEASE);                         \
    }                                                                          \
    fn_;                                                                       \
  })

#endif
