/* perm.h - dIPC permissions, ordered owner > write > read > call > nil
 * (paper Table 2). Shared by the runtime API (dipc/rt.h), the grant
 * records the compiler emits (dipc/metadata.h), the plugin that reads
 * __perm, and the loader and dumper that print them. */
#ifndef DIPC_PERM_H
#define DIPC_PERM_H

/* X(CONSTANT, name), in value order from 0: the enum and the names. */
#define DIPC_PERMS(X)                                                          \
  X(NIL, nil)                                                                  \
  X(CALL, call)                                                                \
  X(READ, read)                                                                \
  X(WRITE, write)                                                              \
  X(OWNER, owner)

enum dipc_perm {
#define DIPC_PERM_ENUMERATOR(CONSTANT, name) DIPC_PERM_##CONSTANT,
  DIPC_PERMS(DIPC_PERM_ENUMERATOR)
#undef DIPC_PERM_ENUMERATOR
};

/* What __perm(domain, perm) and grant records may give: call, read or
 * write (owner is not grantable, nil grants nothing). */
#define DIPC_PERM_GRANTABLE(perm)                                              \
  ((perm) >= DIPC_PERM_CALL && (perm) <= DIPC_PERM_WRITE)

/* "call", "read" ...; "?" for a value that is no permission. */
static inline const char *dipc_perm_name(unsigned perm) {
#define DIPC_PERM_NAME(CONSTANT, name) #name,
  static const char *const names[] = {DIPC_PERMS(DIPC_PERM_NAME)};
#undef DIPC_PERM_NAME
  return perm < sizeof names / sizeof names[0] ? names[perm] : "?";
}

#endif /* DIPC_PERM_H */
