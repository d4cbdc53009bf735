/* recovery_caller.c - the caller side of the recovery-stub benchmark,
 * compiled twice with dipc-clang -fdipc, once per recovery style
 * (-fdipc-recovery=setjmp|try, -DRECOVERY_STYLE=setjmp|try). The calls below
 * cross from the default domain into "bench_callee", so the pass puts its
 * caller stub, with that style's recovery, around each of them. */
#include "recovery_entries.h"

#define CALLER_NAME2(style, what) recovery_##style##_##what
#define CALLER_NAME(style, what) CALLER_NAME2(style, what)

__attribute__((noinline)) int CALLER_NAME(RECOVERY_STYLE, call)(int x) {
  return recovery_increment(x);
}

__attribute__((noinline)) int CALLER_NAME(RECOVERY_STYLE, crash)(int x) {
  const int result = recovery_crash(x);
  return result == 0 && dipc_errno == DIPC_EFAULT;
}
