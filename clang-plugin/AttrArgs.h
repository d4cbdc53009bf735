// AttrArgs.h - validation of dIPC attribute arguments.
//
// Each helper reports its own error (a custom diagnostic pointing at the
// attribute) and returns std::nullopt when the argument is unusable.
#ifndef DIPC_CLANG_PLUGIN_ATTRARGS_H
#define DIPC_CLANG_PLUGIN_ATTRARGS_H

#include "clang/Sema/ParsedAttr.h"
#include "clang/Sema/Sema.h"
#include <optional>
#include <string>

namespace dipc {

// Reports `Format` (with %0, %1 ... placeholders) at `Loc` with level `L`.
clang::DiagnosticBuilder report(clang::DiagnosticsEngine &Diags,
                                clang::SourceLocation Loc,
                                clang::DiagnosticsEngine::Level L,
                                const char *Format);

// The domain name in argument `Index` of `Attr` (a string literal).
std::optional<std::string> domainNameArg(clang::Sema &S,
                                         const clang::ParsedAttr &Attr,
                                         unsigned Index, llvm::StringRef User);

// The permission in argument `Index`: call, read or write.
std::optional<std::string>
permissionArg(clang::Sema &S, const clang::ParsedAttr &Attr, unsigned Index);

// The isolation properties named by all arguments, as a dipc_iso_property
// bit mask.
std::optional<unsigned> isoPropertiesArgs(clang::Sema &S,
                                          const clang::ParsedAttr &Attr,
                                          llvm::StringRef User);

// "reg_integrity,stack_integrity" for a bit mask.
std::string isoPropertyList(unsigned Mask);

} // namespace dipc

#endif
