// A C++ callee domain for exception-escapes-entry-c-caller.c: its entry
// throws when asked.
#include <dipc.h>
#include <stdexcept>
extern "C" long cxx_work(int how) __dom("worker") __entry
    __perm("default", write) {
  if (how)
    throw std::runtime_error("escapes");
  return 7;
}
