// Consistency.cpp - checks that need every declaration of an entity:
// conflicting domains across redeclarations, __iso_callee without __entry,
// and grants a domain gives itself. Runs before the main action so its
// errors stop code generation like any other.
#include "AttrArgs.h"
#include "dipc/annotations.h"
#include "clang/AST/ASTConsumer.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"
#include "llvm/ADT/SetVector.h"

using namespace clang;

namespace {

// The dIPC annotation of `D` itself (not inherited) starting with `Prefix`.
const AnnotateAttr *ownAnnotation(const Decl *D, StringRef Prefix) {
  for (const auto *A : D->specific_attrs<AnnotateAttr>())
    if (!A->isInherited() && A->getAnnotation().starts_with(Prefix))
      return A;
  return nullptr;
}

// Any annotation of `D`, own or inherited from an earlier declaration.
const AnnotateAttr *anyAnnotation(const Decl *D, StringRef Prefix) {
  for (const auto *A : D->specific_attrs<AnnotateAttr>())
    if (A->getAnnotation().starts_with(Prefix))
      return A;
  return nullptr;
}

class ConsistencyChecker : public ASTConsumer {
public:
  explicit ConsistencyChecker(DiagnosticsEngine &Diags) : Diags(Diags) {}

  bool HandleTopLevelDecl(DeclGroupRef Group) override {
    for (Decl *D : Group) {
      if (!isa<FunctionDecl, VarDecl>(D) || !anyAnnotation(D, "dipc."))
        continue;
      checkOwnDomains(D);
      checkRedeclaredDomain(D);
      Entities.insert(D->getCanonicalDecl());
    }
    return true;
  }

  void HandleTranslationUnit(ASTContext &) override {
    for (const Decl *Canonical : Entities) {
      const Decl *D = Canonical->getMostRecentDecl();
      checkIsoCalleeOnEntry(D);
      checkSelfGrants(D);
    }
  }

private:
  void checkOwnDomains(const Decl *D) {
    const AnnotateAttr *First = nullptr;
    for (const auto *A : D->specific_attrs<AnnotateAttr>()) {
      if (A->isInherited() || !A->getAnnotation().starts_with(dipc::DomPrefix))
        continue;
      if (First && First->getAnnotation() != A->getAnnotation())
        dipc::report(Diags, A->getLocation(), DiagnosticsEngine::Error,
                     "conflicting domains '%0' and '%1' for one declaration")
            << domainOf(First) << domainOf(A);
      First = First ? First : A;
    }
  }

  void checkRedeclaredDomain(const Decl *D) {
    const AnnotateAttr *Mine = ownAnnotation(D, dipc::DomPrefix);
    if (!Mine)
      return;
    for (const Decl *Prev = D->getPreviousDecl(); Prev;
         Prev = Prev->getPreviousDecl()) {
      const AnnotateAttr *Theirs = ownAnnotation(Prev, dipc::DomPrefix);
      if (!Theirs)
        continue;
      if (Theirs->getAnnotation() != Mine->getAnnotation()) {
        dipc::report(Diags, Mine->getLocation(), DiagnosticsEngine::Error,
                     "'%0' is redeclared in domain '%1' but was declared in "
                     "domain '%2'")
            << cast<NamedDecl>(D)->getName() << domainOf(Mine)
            << domainOf(Theirs);
        dipc::report(Diags, Theirs->getLocation(), DiagnosticsEngine::Note,
                     "previous domain given here");
      }
      return;
    }
  }

  void checkIsoCalleeOnEntry(const Decl *D) {
    const AnnotateAttr *Iso = anyAnnotation(D, dipc::IsoCalleePrefix);
    if (Iso && !anyAnnotation(D, dipc::Entry))
      dipc::report(Diags, Iso->getLocation(), DiagnosticsEngine::Error,
                   "'__iso_callee' on '%0', which is not an entry point; "
                   "add '__entry'")
          << cast<NamedDecl>(D)->getName();
  }

  void checkSelfGrants(const Decl *D) {
    const AnnotateAttr *Dom = anyAnnotation(D, dipc::DomPrefix);
    if (!Dom)
      return;
    for (const auto *A : D->specific_attrs<AnnotateAttr>()) {
      StringRef Grant = A->getAnnotation();
      if (A->isInherited() || !Grant.consume_front(dipc::PermPrefix))
        continue;
      if (Grant.split(':').first == domainOf(Dom))
        dipc::report(Diags, A->getLocation(), DiagnosticsEngine::Warning,
                     "'__perm' grants domain '%0' access to itself; this "
                     "has no effect")
            << domainOf(Dom);
    }
  }

  static StringRef domainOf(const AnnotateAttr *A) {
    return A->getAnnotation().drop_front(dipc::DomPrefix.size());
  }

  DiagnosticsEngine &Diags;
  llvm::SetVector<const Decl *> Entities;
};

class ConsistencyAction : public PluginASTAction {
protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 StringRef) override {
    return std::make_unique<ConsistencyChecker>(CI.getDiagnostics());
  }
  bool ParseArgs(const CompilerInstance &,
                 const std::vector<std::string> &) override {
    return true;
  }
  ActionType getActionType() override { return AddBeforeMainAction; }
};

} // namespace

static FrontendPluginRegistry::Add<ConsistencyAction>
    Consistency("dipc-consistency", "check dIPC annotations across "
                                    "redeclarations");
