/* recovery.c - the compiler-facing half of cross-domain fault recovery
 * (docs/abi.md §4): arming a setjmp buffer for the next proxy call and
 * finishing a try-style recovery in the caller's landing pad. */
#include <dipc.h>
#include <unwind.h>

#include "internal.h"

__attribute__((visibility("default"))) void __dipc_setjmp_arm(void **buf) {
  dipc_thread_arm_recovery(buf);
}

__attribute__((visibility("default"))) void
__dipc_fault_landed(void *exception) {
  _Unwind_DeleteException((struct _Unwind_Exception *)exception);
  *__dipc_errno_location() = DIPC_EFAULT;
}
