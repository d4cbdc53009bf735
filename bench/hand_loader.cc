// hand_loader.cc - loads a callee domain by hand (see hand_loader.h).
#include "hand_loader.h"

#include "records.h"

namespace dipc_bench {

std::string CheckHandle(long result, const char *what) {
  if (result >= 0)
    return "";
  return std::string(what) + " failed: -" + std::to_string(-result);
}

LoadedDomain LoadDomainByHand(const char *domain,
                              const std::vector<const char *> &entries) {
  LoadedDomain loaded;
  std::string &error = loaded.error;
  loaded.self = dom_default();
  loaded.callee = dom_create();
  error = CheckHandle(loaded.self, "dom_default");
  if (error.empty())
    error = CheckHandle(loaded.callee, "dom_create");
  char *begin[3], *end[3];
  if (error.empty() && bench_domain_pages(domain, begin, end) != 0)
    error = std::string("no domain record for ") + domain;
  for (int kind = 0; error.empty() && kind < 3; ++kind)
    if (end[kind] > begin[kind])
      error = CheckHandle(dom_remap(loaded.callee, loaded.self, begin[kind],
                                    end[kind] - begin[kind]),
                          "dom_remap");
  if (!error.empty())
    return loaded;

  std::vector<bench_entry_info> info(entries.size());
  std::vector<dipc_entry_desc> descs(entries.size());
  for (size_t i = 0; i < entries.size(); ++i) {
    if (bench_find_entry(entries[i], &info[i]) != 0) {
      error = std::string("no matching entry and import records for ") +
              entries[i];
      return loaded;
    }
    descs[i] = {info[i].callee_stub, info[i].signature, info[i].callee_policy};
  }
  const entry_t entry =
      entry_register(loaded.callee, static_cast<unsigned>(descs.size()),
                     descs.data());
  if (!(error = CheckHandle(entry, "entry_register")).empty())
    return loaded;
  for (size_t i = 0; i < descs.size(); ++i)
    descs[i].policy = info[i].caller_policy;
  const dom_t proxies = entry_request(
      entry, static_cast<unsigned>(descs.size()), descs.data());
  error = CheckHandle(proxies, "entry_request");
  if (error.empty())
    error = CheckHandle(grant_create(loaded.self, proxies),
                        "grant_create (call the proxies)");
  if (!error.empty())
    return loaded;
  for (size_t i = 0; i < descs.size(); ++i) {
    *info[i].slot = descs[i].address;
    loaded.proxies.push_back(descs[i].address);
  }
  return loaded;
}

} // namespace dipc_bench
