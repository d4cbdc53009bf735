// peer.h - the two ends of an IPC benchmark: the caller's CPU pinning and the
// callee as a child process pinned to its own CPU (or the caller's).
#ifndef DIPC_BENCH_PEER_H
#define DIPC_BENCH_PEER_H

#include <benchmark/benchmark.h>

#include <sched.h>
#include <signal.h>
#include <sys/types.h>

#include <functional>
#include <string>

namespace dipc_bench {

// Where the callee runs relative to the caller (paper: "=CPU" and "≠CPU").
enum class Placement { kSameCpu, kCrossCpu };

// An IPC benchmark: a caller loop talking to a callee process.
using IpcBenchmark = void (*)(benchmark::State &, Placement);

// Registers ipc/<primitive>/same_cpu and, when the process may use two CPUs,
// ipc/<primitive>/cross_cpu, each over every argument size. Returns a dummy
// so that it can initialise a namespace-scope constant.
bool RegisterIpcBenchmark(const char *primitive, IpcBenchmark benchmark);

// Pins the calling thread to the caller's CPU; restores its affinity when
// destroyed. The callee's CPU is the same or the next allowed one.
class CallerPin {
public:
  explicit CallerPin(Placement placement);
  ~CallerPin();
  CallerPin(const CallerPin &) = delete;
  CallerPin &operator=(const CallerPin &) = delete;
  bool ok() const { return ok_; }
  int callee_cpu() const { return callee_cpu_; }

private:
  cpu_set_t saved_;
  bool ok_ = false;
  int callee_cpu_ = -1;
};

// A forked child that pins itself to `cpu` (unless it is negative), runs
// `serve` and exits with its result. It dies with the caller (PR_SET_PDEATHSIG), and the destructor
// kills and reaps it if Finish() was not reached, so no run leaks a process.
// While it lives, SIGCHLD interrupts blocking waits in the caller (EINTR), so
// a caller blocked on a dead callee notices (see Exited()).
class PeerProcess {
public:
  PeerProcess(int cpu, std::function<int()> serve);
  ~PeerProcess();
  PeerProcess(const PeerProcess &) = delete;
  PeerProcess &operator=(const PeerProcess &) = delete;

  bool started() const { return pid_ > 0; }
  // Whether the child has already exited (reaps it if so). Nonblocking.
  bool Exited();
  // Waits a bounded time for the child to exit with status 0, killing it
  // otherwise. Returns an error message, or "" when it exited cleanly.
  std::string Finish();

private:
  pid_t pid_ = -1;
  int status_ = 0;
  bool reaped_ = false;
  struct sigaction saved_sigchld_;
};

} // namespace dipc_bench

#endif // DIPC_BENCH_PEER_H
