// DomainLayout.h - places each named domain's code and data in sections of
// their own, each object's part bracketed by page-aligned markers, so the
// linked domain occupies whole pages (include/dipc/metadata.h).
#ifndef DIPC_PASS_DOMAINLAYOUT_H
#define DIPC_PASS_DOMAINLAYOUT_H

#include "DomainModel.h"
#include "dipc/metadata.h"
#include <map>
#include <string>

namespace dipc {

// Which dipc_section_kind sections of a domain hold something: bit 1 << kind.
// Ordered, so the output does not depend on hashing.
using DomainSections = std::map<std::string, unsigned, std::less<>>;

std::string sectionName(dipc_section_kind Kind, llvm::StringRef Domain);

// Unannotated internal globals used only by one named domain's functions
// (string literals, mostly) join that domain.
void adoptPrivateGlobals(llvm::Module &M, DomainModel &Model);

// Sets the sections and adds the markers; returns the sections used.
DomainSections layOutDomains(llvm::Module &M, const DomainModel &Model);

// Moves the end markers back to the end of the module, after anything a
// later pass appended.
void keepEndMarkersLast(llvm::Module &M);

} // namespace dipc

#endif
