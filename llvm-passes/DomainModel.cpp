// DomainModel.cpp - reads the annotate strings of include/dipc/annotations.h
// from @llvm.global.annotations into a DomainModel.
#include "DomainModel.h"
#include "RecoveryOption.h"
#include "dipc/annotations.h"
#include "dipc/metadata.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace dipc {

StringRef DomainModel::domainOf(const GlobalValue *GV) const {
  auto It = Domain.find(GV);
  return It == Domain.end() ? StringRef(DIPC_DEFAULT_DOMAIN)
                            : StringRef(It->second);
}

static std::optional<dipc_policy_t> parsePolicy(StringRef List) {
  dipc_policy_t Mask = 0;
  SmallVector<StringRef, 6> Names;
  List.split(Names, ',', -1, /*KeepEmpty=*/false);
  for (StringRef Name : Names) {
    const auto *It = llvm::find(IsoPropertyNames, Name.trim());
    if (It == std::end(IsoPropertyNames))
      return std::nullopt;
    Mask |= 1u << (It - std::begin(IsoPropertyNames));
  }
  return Mask;
}

namespace {
// One dIPC annotation: the annotated item and the text.
struct Fact {
  GlobalValue *Item;
  StringRef Text;
};
} // namespace

// The dIPC facts among @llvm.global.annotations. They stay there: the
// attribute tests and other tools read them after the pipeline, and they
// are never emitted (section llvm.metadata).
static std::vector<Fact> collectFacts(Module &M) {
  std::vector<Fact> Facts;
  GlobalVariable *Annotations = M.getGlobalVariable("llvm.global.annotations");
  if (!Annotations || !Annotations->hasInitializer())
    return Facts;
  auto *Array = dyn_cast<ConstantArray>(Annotations->getInitializer());
  if (!Array)
    return Facts;
  for (Use &Op : Array->operands()) {
    auto *Entry = dyn_cast<ConstantStruct>(Op.get());
    if (!Entry || Entry->getNumOperands() < 2)
      continue;
    auto *Item =
        dyn_cast<GlobalValue>(Entry->getOperand(0)->stripPointerCasts());
    auto *TextVar =
        dyn_cast<GlobalVariable>(Entry->getOperand(1)->stripPointerCasts());
    auto *TextData =
        TextVar && TextVar->hasInitializer()
            ? dyn_cast<ConstantDataArray>(TextVar->getInitializer())
            : nullptr;
    StringRef Text = TextData && TextData->isCString()
                         ? TextData->getAsCString()
                         : StringRef();
    if (Item && Text.starts_with("dipc."))
      Facts.push_back({Item, Text});
  }
  return Facts;
}

static void reportBadFact(Module &M, const Fact &F, StringRef Why) {
  M.getContext().emitError("dipc: annotation '" + F.Text + "' on '" +
                           F.Item->getName() + "': " + Why);
}

// -dipc-domain=NAME: every unannotated definition joins NAME. main,
// constructors and destructors stay in the default domain, which runs them;
// thread-locals, items with a section of their own and linkonce items (C++
// inline functions and variables, templates: other files' copies are the
// default domain's, and the linker keeps one) stay where they are.
static bool assignModuleDomain(Module &M, DomainModel &Model) {
  StringRef Name = moduleDomain();
  if (Name.empty())
    return true;
  if (!isValidDomainName(Name)) {
    M.getContext().emitError("dipc: -fdipc-domain='" + Name +
                             "': domain names must be C identifiers");
    return false;
  }
  if (Name == DIPC_DEFAULT_DOMAIN)
    return true;
  SmallPtrSet<const Function *, 4> Startup;
  for (const char *List : {"llvm.global_ctors", "llvm.global_dtors"})
    if (GlobalVariable *GV = M.getGlobalVariable(List);
        GV && GV->hasInitializer())
      if (auto *Array = dyn_cast<ConstantArray>(GV->getInitializer()))
        for (Use &Op : Array->operands())
          if (auto *S = dyn_cast<ConstantStruct>(Op.get());
              S && S->getNumOperands() > 1)
            if (auto *F = dyn_cast<Function>(
                    S->getOperand(1)->stripPointerCasts()))
              Startup.insert(F);
  for (Function &F : M)
    if (!F.isDeclaration() && !F.isIntrinsic() && !F.hasSection() &&
        !F.hasLinkOnceLinkage() &&
        !Startup.count(&F) && F.getName() != "main")
      Model.Domain.try_emplace(&F, Name.str());
  for (GlobalVariable &GV : M.globals())
    if (!GV.isDeclaration() && !GV.isThreadLocal() && !GV.hasSection() &&
        !GV.hasLinkOnceLinkage() &&
        !GV.getName().starts_with("llvm."))
      Model.Domain.try_emplace(&GV, Name.str());
  return true;
}

std::optional<DomainModel> readDomainModel(Module &M) {
  DomainModel Model;
  bool Ok = true;
  // A grant's receiving domain is the item's, known once every fact is read.
  std::vector<std::pair<const GlobalValue *, Grant>> PendingGrants;
  for (const Fact &F : collectFacts(M)) {
    StringRef Rest = F.Text;
    auto *Fn = dyn_cast<Function>(F.Item);
    if (Rest.consume_front(DomPrefix)) {
      if (!isValidDomainName(Rest)) {
        reportBadFact(M, F, "domain names must be C identifiers");
        Ok = false;
        continue;
      }
      auto [It, New] = Model.Domain.try_emplace(F.Item, Rest.str());
      if (!New && It->second != Rest) {
        reportBadFact(M, F, "it is already in domain '" + It->second + "'");
        Ok = false;
      }
    } else if (Rest == Entry) {
      if (!Fn) {
        reportBadFact(M, F, "only functions can be entry points");
        Ok = false;
        continue;
      }
      Model.Entries.insert(Fn);
    } else if (Rest.consume_front(IsoCallerPrefix) ||
               Rest.consume_front(IsoCalleePrefix)) {
      std::optional<dipc_policy_t> Mask = parsePolicy(Rest);
      if (!Fn || !Mask) {
        reportBadFact(M, F,
                      !Fn ? "policies apply to functions only"
                          : "unknown isolation property");
        Ok = false;
        continue;
      }
      auto &Map = F.Text.starts_with(IsoCallerPrefix) ? Model.IsoCaller
                                                      : Model.IsoCallee;
      Map[Fn] |= *Mask;
    } else if (Rest.consume_front(PermPrefix)) {
      auto [To, Perm] = Rest.split(':');
      unsigned PermValue = grantablePerm(Perm);
      if (!isValidDomainName(To) || !PermValue) {
        reportBadFact(M, F, "expected dipc.perm:<domain>:call|read|write");
        Ok = false;
        continue;
      }
      PendingGrants.push_back({F.Item, {"", To.str(), PermValue}});
    } else {
      reportBadFact(M, F, "unknown dIPC annotation");
      Ok = false;
    }
  }
  if (!Ok || !assignModuleDomain(M, Model))
    return std::nullopt;
  for (auto &[Item, G] : PendingGrants) {
    G.From = Model.domainOf(Item).str();
    Model.Grants.push_back(std::move(G));
  }
  return Model;
}

} // namespace dipc
