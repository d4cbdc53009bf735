// ipc_semaphore.cc - paper "Sem.": a synchronous call to another process
// through a shared buffer, signalled with POSIX semaphores (futex). The
// caller writes the argument into the shared buffer (no kernel copy); the
// callee reads it there and returns its sum.
#include "argument.h"
#include "callee.h"
#include "peer.h"

#include <benchmark/benchmark.h>

#include <semaphore.h>
#include <sys/mman.h>

#include <cerrno>
#include <cstring>
#include <string>

namespace dipc_bench {
namespace {

// Anonymous shared memory: inherited by the child, gone with both processes,
// so no named object can leak.
struct SharedCall {
  sem_t request;
  sem_t reply;
  std::size_t size;
  bool stop;
  std::uint64_t sum;
  alignas(64) unsigned char argument[kMaxArgumentBytes];
};

// sem_wait that gives up when `give_up` says so after an interruption.
template <typename GiveUp> bool Wait(sem_t *semaphore, GiveUp give_up) {
  while (sem_wait(semaphore) != 0)
    if (errno != EINTR || give_up())
      return false;
  return true;
}

int ServeCalls(SharedCall *call) {
  for (;;) {
    if (!Wait(&call->request, [] { return false; }))
      return 1;
    if (call->stop)
      return 0;
    call->sum = bench_sum_bytes(call->argument, call->size);
    sem_post(&call->reply);
  }
}

void SemaphoreCall(benchmark::State &state, Placement placement) {
  const auto size = static_cast<std::size_t>(state.range(0));
  void *memory = mmap(nullptr, sizeof(SharedCall), PROT_READ | PROT_WRITE,
                      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (memory == MAP_FAILED) {
    state.SkipWithError("mmap of the shared buffer failed");
    return;
  }
  auto *call = new (memory) SharedCall();
  std::string error;
  if (sem_init(&call->request, 1, 0) != 0 || sem_init(&call->reply, 1, 0) != 0)
    error = "sem_init failed";
  {
    CallerPin pin(placement);
    if (error.empty() && !pin.ok())
      error = "cannot pin the caller";
    if (error.empty()) {
      PeerProcess peer(pin.callee_cpu(), [call] { return ServeCalls(call); });
      if (!peer.started())
        error = "fork failed";
      ArgumentPattern pattern;
      auto callee_died = [&peer] { return peer.Exited(); };
      if (error.empty()) {
        for (auto _ : state) {
          const unsigned char fill = pattern.Next();
          std::memset(call->argument, fill, size);
          call->size = size;
          sem_post(&call->request);
          if (!Wait(&call->reply, callee_died)) {
            error = "the callee stopped answering";
            break;
          }
          if (call->sum != ArgumentPattern::ExpectedSum(fill, size)) {
            error = "the callee read a wrong argument";
            break;
          }
        }
        call->stop = true;
        sem_post(&call->request);
        const std::string exit_error = peer.Finish();
        if (error.empty())
          error = exit_error;
      }
    }
  }
  sem_destroy(&call->request);
  sem_destroy(&call->reply);
  munmap(memory, sizeof(SharedCall));
  if (!error.empty())
    state.SkipWithError(error.c_str());
  state.SetBytesProcessed(state.iterations() * state.range(0));
}

const bool registered = RegisterIpcBenchmark("semaphore", SemaphoreCall);

} // namespace
} // namespace dipc_bench
