// hand_loader.h - the loader's job (issue 5, not there yet) for one callee
// domain of this executable, done by hand with the runtime API: move the
// domain's pages out of the default domain, register its entries (callee
// stubs, recorded policies), request their proxies with the callers'
// policies, and store them in the import slots the compiler's caller stubs
// call through.
#ifndef DIPC_BENCH_HAND_LOADER_H
#define DIPC_BENCH_HAND_LOADER_H

#include <dipc/rt.h>

#include <string>
#include <vector>

namespace dipc_bench {

struct LoadedDomain {
  std::string error; // "" when loaded
  dom_t self = -1;   // owner handle of the default domain
  dom_t callee = -1; // owner handle of the loaded domain
  std::vector<void *> proxies; // one per entry, in the order asked
};

// Loads `domain` with the entries named in `entries` (each called through
// exactly one import slot of this executable).
LoadedDomain LoadDomainByHand(const char *domain,
                              const std::vector<const char *> &entries);

// "" if `result` (a handle or 0) is not an error, else "<what> failed: -N".
std::string CheckHandle(long result, const char *what);

} // namespace dipc_bench

#endif // DIPC_BENCH_HAND_LOADER_H
