// peer.cc - caller pinning and callee child processes (see peer.h).
#include "peer.h"

#include "argument.h"

#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <string>

namespace dipc_bench {

namespace {

const char *PlacementName(Placement placement) {
  return placement == Placement::kSameCpu ? "same_cpu" : "cross_cpu";
}

// The first two CPUs this process may run on; -1 where there is none.
void AllowedCpus(const cpu_set_t &allowed, int *first, int *second) {
  *first = *second = -1;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (!CPU_ISSET(cpu, &allowed))
      continue;
    if (*first < 0) {
      *first = cpu;
    } else {
      *second = cpu;
      return;
    }
  }
}

bool PinThisThread(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  return sched_setaffinity(0, sizeof set, &set) == 0;
}

void IgnoreSignal(int) {}

} // namespace

bool RegisterIpcBenchmark(const char *primitive, IpcBenchmark benchmark) {
  cpu_set_t allowed;
  int first = -1, second = -1;
  if (sched_getaffinity(0, sizeof allowed, &allowed) == 0)
    AllowedCpus(allowed, &first, &second);
  for (Placement placement : {Placement::kSameCpu, Placement::kCrossCpu}) {
    if (placement == Placement::kCrossCpu && second < 0)
      continue; // one CPU: "cross-CPU" does not apply
    const std::string name =
        std::string("ipc/") + primitive + "/" + PlacementName(placement);
    benchmark::RegisterBenchmark(name.c_str(), benchmark, placement)
        ->Apply(ArgumentSizes)
        ->UseRealTime();
  }
  return true;
}

CallerPin::CallerPin(Placement placement) {
  if (sched_getaffinity(0, sizeof saved_, &saved_) != 0)
    return;
  int first, second;
  AllowedCpus(saved_, &first, &second);
  callee_cpu_ = placement == Placement::kSameCpu ? first : second;
  ok_ = first >= 0 && callee_cpu_ >= 0 && PinThisThread(first);
}

CallerPin::~CallerPin() {
  if (ok_)
    sched_setaffinity(0, sizeof saved_, &saved_);
}

PeerProcess::PeerProcess(int cpu, std::function<int()> serve) {
  struct sigaction on_child = {};
  on_child.sa_handler = IgnoreSignal; // no SA_RESTART: waits return EINTR
  // On the alternate stack when there is one: under dIPC's mpk backend the
  // thread's own stack is not writable to a signal handler.
  on_child.sa_flags = SA_ONSTACK;
  sigemptyset(&on_child.sa_mask);
  sigaction(SIGCHLD, &on_child, &saved_sigchld_);

  const pid_t caller = getpid();
  pid_ = fork();
  if (pid_ != 0)
    return;
  signal(SIGCHLD, SIG_DFL);
  if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != caller)
    _exit(120); // the caller is gone already
  if (cpu >= 0 && !PinThisThread(cpu))
    _exit(121);
  _exit(serve()); // never run the caller's atexit handlers or stdio flushes
}

bool PeerProcess::Exited() {
  if (pid_ <= 0 || reaped_)
    return true;
  if (waitpid(pid_, &status_, WNOHANG) == pid_)
    reaped_ = true;
  return reaped_;
}

std::string PeerProcess::Finish() {
  if (pid_ <= 0)
    return "fork failed";
  // Bounded: 5 s in steps of 1 ms, then the child is killed.
  const struct timespec step = {0, 1000 * 1000};
  for (int i = 0; i < 5000 && !Exited(); ++i)
    nanosleep(&step, nullptr);
  if (!Exited()) {
    kill(pid_, SIGKILL);
    waitpid(pid_, &status_, 0);
    reaped_ = true;
    return "the callee process did not exit; killed";
  }
  if (WIFEXITED(status_) && WEXITSTATUS(status_) == 0)
    return "";
  if (WIFSIGNALED(status_))
    return "the callee process died of signal " +
           std::to_string(WTERMSIG(status_));
  return "the callee process exited with status " +
         std::to_string(WEXITSTATUS(status_));
}

PeerProcess::~PeerProcess() {
  if (pid_ > 0 && !Exited()) {
    kill(pid_, SIGKILL);
    waitpid(pid_, &status_, 0);
  }
  sigaction(SIGCHLD, &saved_sigchld_, nullptr);
}

} // namespace dipc_bench
