// DipcAttrs.cpp - the five dIPC attributes, validated and lowered to
// `annotate` strings (see include/dipc/annotations.h) that the pass plugin
// reads back from the IR.
//
//   clang -fplugin=DipcAttrs.so -D__DIPC__ -S -emit-llvm file.c
//
// Users write the dipc.h macros (__dom, __entry, ...), so diagnostics name
// those rather than the GNU spellings.
#include "AttrArgs.h"
#include "dipc/annotations.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/Sema/ParsedAttr.h"
#include "clang/Sema/Sema.h"

using namespace clang;

namespace {

enum class Appertains { Functions, FunctionsAndGlobals };

class DipcAttrInfo : public ParsedAttrInfo {
public:
  DipcAttrInfo(const char *UserName, ArrayRef<Spelling> S, Appertains To)
      : UserName(UserName), To(To) {
    OptArgs = 15; // arguments are counted here, with dIPC's own messages
    Spellings = S;
    // `#pragma clang attribute push(__attribute__((dipc_dom("lib"))), ...)`
    // puts every declaration of an included library in a domain.
    IsSupportedByPragmaAttribute = 1;
  }

  void getPragmaAttributeMatchRules(
      SmallVectorImpl<std::pair<attr::SubjectMatchRule, bool>> &Rules,
      const LangOptions &) const override {
    Rules.push_back({attr::SubjectMatchRule_function, true});
    if (To == Appertains::FunctionsAndGlobals)
      Rules.push_back({attr::SubjectMatchRule_variable_is_global, true});
  }

  // Clang 19 decides whether to parse the arguments of a [[scope::name]]
  // plugin attribute by matching the bare `name` against plugin spellings, so
  // each attribute also spells its bare name; unscoped use is refused here.
  bool diagAppertainsToDecl(Sema &S, const ParsedAttr &Attr,
                            const Decl *D) const override {
    if ((Attr.isCXX11Attribute() || Attr.isC23Attribute()) &&
        !Attr.hasScope()) {
      dipc::report(S.getDiagnostics(), Attr.getLoc(), DiagnosticsEngine::Error,
                   "write '[[dipc::%0]]': dIPC attributes need their scope")
          << Attr.getAttrName()->getName();
      return false;
    }
    // A pragma's `variable(is_global)` also matches static locals (they
    // follow their function's domain) and `function` non-static members:
    // those keep the pragma's attribute silently.
    if (Attr.isPragmaClangAttribute() && !appertains(D))
      return false;
    if (const auto *MD = dyn_cast<CXXMethodDecl>(D); MD && !MD->isStatic()) {
      dipc::report(S.getDiagnostics(), Attr.getLoc(), DiagnosticsEngine::Error,
                   "'%0' cannot be applied to a non-static member function")
          << UserName;
      return false;
    }
    if (isa<FunctionDecl>(D))
      return true;
    if (const auto *VD = dyn_cast<VarDecl>(D);
        VD && VD->isFileVarDecl() && To == Appertains::FunctionsAndGlobals)
      return true;
    dipc::report(S.getDiagnostics(), Attr.getLoc(), DiagnosticsEngine::Error,
                 "'%0' only applies to %1")
        << UserName
        << (To == Appertains::Functions ? "functions"
                                        : "functions and global variables");
    return false;
  }

protected:
  bool appertains(const Decl *D) const {
    if (const auto *MD = dyn_cast<CXXMethodDecl>(D))
      return MD->isStatic();
    if (isa<FunctionDecl>(D))
      return true;
    const auto *VD = dyn_cast<VarDecl>(D);
    return VD && VD->isFileVarDecl() && To == Appertains::FunctionsAndGlobals;
  }

  bool checkArgCount(Sema &S, const ParsedAttr &Attr, unsigned Max,
                     const char *What) const {
    if (Attr.getNumArgs() <= Max)
      return true;
    dipc::report(S.getDiagnostics(), Attr.getLoc(), DiagnosticsEngine::Error,
                 "'%0' takes %1")
        << UserName << What;
    return false;
  }

  static AttrHandling annotate(Sema &S, Decl *D, const ParsedAttr &Attr,
                               const std::string &Text) {
    D->addAttr(AnnotateAttr::Create(S.Context, Text, nullptr, 0, Attr));
    return AttributeApplied;
  }

  const char *UserName;
  Appertains To;
};

class DomAttrInfo : public DipcAttrInfo {
  static constexpr Spelling S[] = {{ParsedAttr::AS_GNU, "dipc_dom"},
                                   {ParsedAttr::AS_C23, "dipc::dom"},
                                   {ParsedAttr::AS_CXX11, "dipc::dom"},
                                   {ParsedAttr::AS_C23, "dom"},
                                   {ParsedAttr::AS_CXX11, "dom"}};

public:
  DomAttrInfo() : DipcAttrInfo("__dom", S, Appertains::FunctionsAndGlobals) {}

  AttrHandling handleDeclAttribute(Sema &S, Decl *D,
                                   const ParsedAttr &Attr) const override {
    if (!checkArgCount(S, Attr, 1, "exactly one domain name"))
      return AttributeNotApplied;
    std::optional<std::string> Name = dipc::domainNameArg(S, Attr, 0, UserName);
    if (!Name)
      return AttributeNotApplied;
    // A declaration's own __dom (or an earlier declaration's) wins over a
    // pragma's.
    if (Attr.isPragmaClangAttribute() && hasDomain(D))
      return AttributeApplied;
    return annotate(S, D, Attr, (dipc::DomPrefix + *Name).str());
  }

private:
  static bool hasDomain(const Decl *D) {
    for (const Decl *R : D->redecls())
      for (const auto *A : R->specific_attrs<AnnotateAttr>())
        if (A->getAnnotation().starts_with(dipc::DomPrefix))
          return true;
    return false;
  }
};

class EntryAttrInfo : public DipcAttrInfo {
  static constexpr Spelling S[] = {{ParsedAttr::AS_GNU, "dipc_entry"},
                                   {ParsedAttr::AS_C23, "dipc::entry"},
                                   {ParsedAttr::AS_CXX11, "dipc::entry"},
                                   {ParsedAttr::AS_C23, "entry"},
                                   {ParsedAttr::AS_CXX11, "entry"}};

public:
  EntryAttrInfo() : DipcAttrInfo("__entry", S, Appertains::Functions) {}

  AttrHandling handleDeclAttribute(Sema &S, Decl *D,
                                   const ParsedAttr &Attr) const override {
    if (!checkArgCount(S, Attr, 0, "no arguments"))
      return AttributeNotApplied;
    const auto *FD = cast<FunctionDecl>(D);
    // The proxy copies a fixed number of argument registers and stack bytes.
    if (FD->isVariadic()) {
      dipc::report(S.getDiagnostics(), Attr.getLoc(), DiagnosticsEngine::Error,
                   "entry point '%0' cannot be variadic: its signature must "
                   "be fixed")
          << FD->getName();
      return AttributeNotApplied;
    }
    if (!FD->hasPrototype()) {
      dipc::report(S.getDiagnostics(), Attr.getLoc(), DiagnosticsEngine::Error,
                   "entry point '%0' needs a prototype, e.g. '%0(void)'")
          << FD->getName();
      return AttributeNotApplied;
    }
    return annotate(S, D, Attr, dipc::Entry.str());
  }
};

class PermAttrInfo : public DipcAttrInfo {
  static constexpr Spelling S[] = {{ParsedAttr::AS_GNU, "dipc_perm"},
                                   {ParsedAttr::AS_C23, "dipc::perm"},
                                   {ParsedAttr::AS_CXX11, "dipc::perm"},
                                   {ParsedAttr::AS_C23, "perm"},
                                   {ParsedAttr::AS_CXX11, "perm"}};

public:
  PermAttrInfo() : DipcAttrInfo("__perm", S, Appertains::FunctionsAndGlobals) {}

  AttrHandling handleDeclAttribute(Sema &S, Decl *D,
                                   const ParsedAttr &Attr) const override {
    if (!checkArgCount(S, Attr, 2, "a domain and a permission"))
      return AttributeNotApplied;
    std::optional<std::string> Dom = dipc::domainNameArg(S, Attr, 0, UserName);
    if (!Dom)
      return AttributeNotApplied;
    std::optional<std::string> Perm = dipc::permissionArg(S, Attr, 1);
    if (!Perm)
      return AttributeNotApplied;
    return annotate(S, D, Attr, (dipc::PermPrefix + *Dom + ":" + *Perm).str());
  }
};

class IsoAttrInfo : public DipcAttrInfo {
public:
  IsoAttrInfo(const char *UserName, ArrayRef<Spelling> S, StringRef Prefix)
      : DipcAttrInfo(UserName, S, Appertains::Functions), Prefix(Prefix) {}

  AttrHandling handleDeclAttribute(Sema &S, Decl *D,
                                   const ParsedAttr &Attr) const override {
    std::optional<unsigned> Mask = dipc::isoPropertiesArgs(S, Attr, UserName);
    if (!Mask)
      return AttributeNotApplied;
    return annotate(S, D, Attr, (Prefix + dipc::isoPropertyList(*Mask)).str());
  }

private:
  StringRef Prefix;
};

class IsoCallerAttrInfo : public IsoAttrInfo {
  static constexpr Spelling S[] = {{ParsedAttr::AS_GNU, "dipc_iso_caller"},
                                   {ParsedAttr::AS_C23, "dipc::iso_caller"},
                                   {ParsedAttr::AS_CXX11, "dipc::iso_caller"},
                                   {ParsedAttr::AS_C23, "iso_caller"},
                                   {ParsedAttr::AS_CXX11, "iso_caller"}};

public:
  IsoCallerAttrInfo() : IsoAttrInfo("__iso_caller", S, dipc::IsoCallerPrefix) {}
};

class IsoCalleeAttrInfo : public IsoAttrInfo {
  static constexpr Spelling S[] = {{ParsedAttr::AS_GNU, "dipc_iso_callee"},
                                   {ParsedAttr::AS_C23, "dipc::iso_callee"},
                                   {ParsedAttr::AS_CXX11, "dipc::iso_callee"},
                                   {ParsedAttr::AS_C23, "iso_callee"},
                                   {ParsedAttr::AS_CXX11, "iso_callee"}};

public:
  IsoCalleeAttrInfo() : IsoAttrInfo("__iso_callee", S, dipc::IsoCalleePrefix) {}
};

} // namespace

static ParsedAttrInfoRegistry::Add<DomAttrInfo> Dom("dipc_dom", "");
static ParsedAttrInfoRegistry::Add<EntryAttrInfo> Entry("dipc_entry", "");
static ParsedAttrInfoRegistry::Add<PermAttrInfo> Perm("dipc_perm", "");
static ParsedAttrInfoRegistry::Add<IsoCallerAttrInfo>
    IsoCaller("dipc_iso_caller", "");
static ParsedAttrInfoRegistry::Add<IsoCalleeAttrInfo>
    IsoCallee("dipc_iso_callee", "");
