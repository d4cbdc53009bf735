/* perm.h - dIPC permissions, ordered owner > write > read > call > nil
 * (paper Table 2). Shared by the runtime API (dipc/rt.h) and the grant
 * records the compiler emits (dipc/metadata.h). */
#ifndef DIPC_PERM_H
#define DIPC_PERM_H

enum dipc_perm {
  DIPC_PERM_NIL = 0,
  DIPC_PERM_CALL = 1,
  DIPC_PERM_READ = 2,
  DIPC_PERM_WRITE = 3,
  DIPC_PERM_OWNER = 4,
};

#endif /* DIPC_PERM_H */
