/* recovery.c - the compiler-facing half of cross-domain fault recovery
 * (docs/abi.md §4). __dipc_setjmp_arm is a gate (gate.S, picked in
 * backend.c); this file finishes a try-style recovery in the caller's
 * landing pad. */
#include <dipc.h>
#include <unwind.h>

#include "internal.h"

DIPC_EXPORT void __dipc_fault_landed(void *exception) {
  _Unwind_DeleteException((struct _Unwind_Exception *)exception);
  *__dipc_errno_location() = DIPC_EFAULT;
}
