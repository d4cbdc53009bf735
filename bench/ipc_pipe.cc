// ipc_pipe.cc - paper "Pipe": a synchronous call to another process over two
// pipes. The caller writes the argument into the request pipe (a kernel
// copy); the callee reads it into its own buffer and writes back its sum.
#include "argument.h"
#include "callee.h"
#include "peer.h"

#include <benchmark/benchmark.h>

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

namespace dipc_bench {
namespace {

// Reads exactly `size` bytes. Returns size, 0 on end of file before the
// first byte, or -1 on an error or a truncated message.
ssize_t ReadAll(int fd, void *buffer, std::size_t size) {
  std::size_t done = 0;
  while (done < size) {
    const ssize_t n = read(fd, static_cast<char *>(buffer) + done, size - done);
    if (n > 0)
      done += static_cast<std::size_t>(n);
    else if (n == 0)
      return done == 0 ? 0 : -1;
    else if (errno != EINTR)
      return -1;
  }
  return static_cast<ssize_t>(done);
}

bool WriteAll(int fd, const void *buffer, std::size_t size) {
  std::size_t done = 0;
  while (done < size) {
    const ssize_t n =
        write(fd, static_cast<const char *>(buffer) + done, size - done);
    if (n > 0)
      done += static_cast<std::size_t>(n);
    else if (n < 0 && errno != EINTR)
      return false;
  }
  return true;
}

// Serves calls until the caller closes the request pipe.
int ServeCalls(int request, int reply, std::size_t size) {
  static unsigned char argument[kMaxArgumentBytes];
  for (;;) {
    const ssize_t got = ReadAll(request, argument, size);
    if (got == 0)
      return 0;
    if (got < 0)
      return 1;
    const std::uint64_t sum = bench_sum_bytes(argument, size);
    if (!WriteAll(reply, &sum, sizeof sum))
      return 1;
  }
}

struct Pipe {
  int fds[2] = {-1, -1};
  bool Open() { return pipe2(fds, O_CLOEXEC) == 0; }
  void Close(int end) {
    if (fds[end] >= 0)
      close(fds[end]);
    fds[end] = -1;
  }
  ~Pipe() {
    Close(0);
    Close(1);
  }
};

void PipeCall(benchmark::State &state, Placement placement) {
  const auto size = static_cast<std::size_t>(state.range(0));
  alignas(64) static unsigned char argument[kMaxArgumentBytes];
  Pipe request, reply;
  std::string error;
  CallerPin pin(placement);
  if (!request.Open() || !reply.Open())
    error = "pipe failed";
  else if (!pin.ok())
    error = "cannot pin the caller";
  if (!error.empty()) {
    state.SkipWithError(error.c_str());
    return;
  }
  PeerProcess peer(pin.callee_cpu(), [&] {
    request.Close(1);
    reply.Close(0);
    return ServeCalls(request.fds[0], reply.fds[1], size);
  });
  request.Close(0);
  reply.Close(1);
  if (!peer.started())
    error = "fork failed";
  ArgumentPattern pattern;
  if (error.empty()) {
    for (auto _ : state) {
      const unsigned char fill = pattern.Next();
      std::memset(argument, fill, size);
      std::uint64_t sum = 0;
      if (!WriteAll(request.fds[1], argument, size) ||
          ReadAll(reply.fds[0], &sum, sizeof sum) != sizeof sum) {
        error = "the callee stopped answering";
        break;
      }
      if (sum != ArgumentPattern::ExpectedSum(fill, size)) {
        error = "the callee read a wrong argument";
        break;
      }
    }
    request.Close(1); // end of file: the callee exits
    const std::string exit_error = peer.Finish();
    if (error.empty())
      error = exit_error;
  }
  if (!error.empty())
    state.SkipWithError(error.c_str());
  state.SetBytesProcessed(state.iterations() * state.range(0));
}

const bool registered = RegisterIpcBenchmark("pipe", PipeCall);

} // namespace
} // namespace dipc_bench
