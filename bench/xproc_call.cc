// xproc_call.cc - dIPC between two processes (paper Figure 5 "dIPC +
// proc"), run under dipc-run --connect=bench_proc=SOCKET against
// dipc-bench-xproc-server run with --listen=SOCKET (bench/run-programs.sh):
// this process's thread runs the other process's entries, with its TLS,
// on its stacks. dipc_proc/syscall is the Low call whose callee makes one
// system call (getppid), which the other process runs for it.
#include "count_calls.h"
#include "xproc_entries.h"

#include <benchmark/benchmark.h>
#include <dipc/rt.h>

namespace dipc_bench {
namespace {

void ProcCall(benchmark::State &state, int (*call)(int)) {
  if (countCalls(state, call) && dipc_errno != 0)
    state.SkipWithError("a call failed (dipc_errno set)");
}

// The TLS switch of a cross-process call alone: the two WRFSBASE the
// loader's xproc_enter.S makes (to the callee's TCB and back), here both
// to this thread's own, so that its TLS stays valid.
void TlsSwitch(benchmark::State &state) {
  uintptr_t fs;
  __asm__ volatile("rdfsbase %0" : "=r"(fs));
  for (auto _ : state)
    __asm__ volatile("wrfsbase %0\n\twrfsbase %0" ::"r"(fs) : "memory");
}

const bool registered = [] {
  benchmark::AddCustomContext("dipc_backend", dipc_backend());
  benchmark::RegisterBenchmark("dipc_proc/low", ProcCall, dipc_proc_low_call)
      ->UseRealTime();
  benchmark::RegisterBenchmark("dipc_proc/high", ProcCall,
                               dipc_proc_high_call)
      ->UseRealTime();
  benchmark::RegisterBenchmark("dipc_proc/syscall", ProcCall,
                               dipc_proc_syscall_call)
      ->UseRealTime();
  benchmark::RegisterBenchmark("dipc_proc/tls_switch", TlsSwitch)
      ->UseRealTime();
  return true;
}();

} // namespace
} // namespace dipc_bench
