/* xproc_caller.c - dipc-bench-xproc's side of dIPC between processes
 * (xproc_entries.h): each function makes one cross-process call, so the
 * pass puts a caller stub around it with the function's policy. */
#include "xproc_entries.h"

__attribute__((noinline)) int dipc_proc_low_call(int x) {
  return proc_low_increment(x);
}

__attribute__((noinline)) int dipc_proc_high_call(int x)
    __iso_caller(BENCH_HIGH_POLICY) {
  return proc_high_increment(x);
}

__attribute__((noinline)) int dipc_proc_syscall_call(int x) {
  return proc_syscall_increment(x);
}
