/* recovery_none.c - the recovery benchmark's call without recovery: the same
 * proxy the stubs call, called directly (no caller stub: no dipc_errno, no
 * recovery). Compiled with the same clang as the stubs, without -fdipc. */
int (*recovery_increment_proxy)(int);

__attribute__((noinline)) int recovery_none_call(int x) {
  return recovery_increment_proxy(x);
}
