/* errno.c - dipc_errno, the per-thread outcome of the last cross-domain
 * call (0 or DIPC_EFAULT), set by caller stubs and the fault handler. */
#include <dipc.h>

static __thread int dipc_errno_value;

__attribute__((visibility("default"))) int *__dipc_errno_location(void) {
  return &dipc_errno_value;
}
