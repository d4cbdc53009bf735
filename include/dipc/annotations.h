// annotations.h - the contract between the dIPC clang plugin and the pass.
//
// The plugin lowers every dIPC attribute to an `annotate` string that reaches
// the IR in @llvm.global.annotations (for definitions and for referenced
// declarations), and the pass plugin reads them back:
//
//   dipc.dom:<name>             domain of a function or global
//   dipc.entry                  the function is an entry point
//   dipc.perm:<dom>:<perm>      APL grant, perm is call|read|write
//   dipc.iso_caller:<p>[,<p>]   caller policy, property names in bit order
//   dipc.iso_callee:<p>[,<p>]   callee policy
#ifndef DIPC_ANNOTATIONS_H
#define DIPC_ANNOTATIONS_H

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"

#include "dipc/perm.h"
#include "dipc/signature.h"
#include <iterator>

namespace dipc {

inline constexpr llvm::StringLiteral DomPrefix = "dipc.dom:";
inline constexpr llvm::StringLiteral Entry = "dipc.entry";
inline constexpr llvm::StringLiteral PermPrefix = "dipc.perm:";
inline constexpr llvm::StringLiteral IsoCallerPrefix = "dipc.iso_caller:";
inline constexpr llvm::StringLiteral IsoCalleePrefix = "dipc.iso_callee:";

// Bit order matches enum dipc_iso_property in dipc.h.
inline constexpr llvm::StringLiteral IsoPropertyNames[] = {
    DIPC_ISO_PROPERTY_NAMES};
inline constexpr unsigned NumIsoProperties = std::size(IsoPropertyNames);

// The permission `Name` (call, read or write) that __perm gives, 0 if none.
inline unsigned grantablePerm(llvm::StringRef Name) {
  for (unsigned P = DIPC_PERM_NIL; P <= DIPC_PERM_OWNER; ++P)
    if (DIPC_PERM_GRANTABLE(P) && Name == dipc_perm_name(P))
      return P;
  return 0;
}

// A domain name becomes part of section and symbol names.
inline bool isValidDomainName(llvm::StringRef Name) {
  if (Name.empty() || !(isalpha(Name[0]) || Name[0] == '_'))
    return false;
  return llvm::all_of(Name, [](char C) { return isalnum(C) || C == '_'; });
}

} // namespace dipc

#endif
