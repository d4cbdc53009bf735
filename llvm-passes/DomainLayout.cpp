// DomainLayout.cpp - sections and page markers of the named domains.
//
// For every section dipc_<kind>_<domain> this object populates, a begin
// marker aligned to a page is first in the module (the section then starts
// on a page) and an end marker aligned to a page is last (whatever the
// linker puts after it starts at or after the next page). Both are in
// llvm.used, which also sets SHF_GNU_RETAIN so --gc-sections keeps them.
// Constants with relocations go to the data section: in PIC code their
// section must be writable during relocation, and one section name cannot
// mix flags. Zero-initialised variables go to the bss section, zero-fill
// (SHT_NOBITS): LLVM gives an explicit section file bytes, so they name it
// with the "bss-section" attribute (as `#pragma clang section bss=` does),
// which the backend honours only for zero-fill data.
#include "DomainLayout.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

using namespace llvm;

namespace dipc {

static constexpr StringLiteral BeginPrefix = "__dipc_begin.";
static constexpr StringLiteral EndPrefix = "__dipc_end.";

std::string sectionName(dipc_section_kind Kind, StringRef Domain) {
  return ("dipc_" + Twine(dipc_section_kind_name(Kind)) + "_" + Domain).str();
}

static bool isOrdinaryGlobal(const GlobalVariable &GV) {
  return !GV.isDeclaration() && !GV.isThreadLocal() && !GV.hasSection() &&
         !GV.hasImplicitSection() &&
         !GV.hasCommonLinkage() && !GV.getName().starts_with("llvm.");
}

// The functions whose code refers to `C`, through constant expressions.
static void collectUserFunctions(const Value *V,
                                 SmallPtrSetImpl<const Function *> &Fns,
                                 bool &OtherUsers) {
  for (const User *U : V->users()) {
    if (const auto *I = dyn_cast<Instruction>(U))
      Fns.insert(I->getFunction());
    else if (isa<ConstantExpr>(U) || isa<ConstantAggregate>(U))
      collectUserFunctions(U, Fns, OtherUsers);
    else
      OtherUsers = true;
  }
}

void adoptPrivateGlobals(Module &M, DomainModel &Model) {
  for (GlobalVariable &GV : M.globals()) {
    if (!GV.hasLocalLinkage() || !isOrdinaryGlobal(GV) ||
        Model.Domain.count(&GV))
      continue;
    SmallPtrSet<const Function *, 4> Fns;
    bool OtherUsers = false;
    collectUserFunctions(&GV, Fns, OtherUsers);
    if (OtherUsers || Fns.empty())
      continue;
    auto It = Model.Domain.find(*Fns.begin());
    if (It == Model.Domain.end())
      continue;
    std::string Domain = It->second;
    if (llvm::all_of(Fns, [&](const Function *F) {
          return Model.domainOf(F) == Domain;
        }))
      Model.Domain[&GV] = Domain;
  }
}

static dipc_section_kind kindOf(const GlobalVariable &GV) {
  if (GV.isConstant() && !GV.getInitializer()->needsRelocation())
    return DIPC_SECTION_RODATA;
  if (!GV.isConstant() && GV.getInitializer()->isNullValue())
    return DIPC_SECTION_BSS;
  return DIPC_SECTION_DATA;
}

static void setSection(GlobalObject &GO, dipc_section_kind Kind,
                       StringRef Section) {
  if (Kind == DIPC_SECTION_BSS)
    cast<GlobalVariable>(GO).addAttribute("bss-section", Section);
  else
    GO.setSection(Section);
}

static void addMarkers(Module &M, StringRef Domain, dipc_section_kind Kind,
                       SmallVectorImpl<GlobalValue *> &Used) {
  LLVMContext &Ctx = M.getContext();
  std::string Section = sectionName(Kind, Domain);
  for (bool Begin : {true, false}) {
    std::string Name =
        ((Begin ? BeginPrefix : EndPrefix) + dipc_section_kind_name(Kind) +
         "." + Domain)
            .str();
    GlobalObject *Marker;
    if (Kind == DIPC_SECTION_TEXT) {
      // A naked function of no instructions: zero bytes, page aligned.
      auto *Fn =
          Function::Create(FunctionType::get(Type::getVoidTy(Ctx), false),
                           GlobalValue::InternalLinkage, Name);
      Fn->addFnAttr(Attribute::Naked);
      Fn->addFnAttr(Attribute::NoInline);
      Fn->addFnAttr(Attribute::NoUnwind);
      new UnreachableInst(Ctx, BasicBlock::Create(Ctx, "", Fn));
      if (Begin)
        M.getFunctionList().push_front(Fn);
      else
        M.getFunctionList().push_back(Fn);
      Marker = Fn;
    } else {
      auto *Ty = ArrayType::get(Type::getInt8Ty(Ctx), 1);
      auto *GV = new GlobalVariable(Ty, Kind == DIPC_SECTION_RODATA,
                                    GlobalValue::InternalLinkage,
                                    ConstantAggregateZero::get(Ty), Name);
      if (Begin)
        M.insertGlobalVariable(M.global_begin(), GV);
      else
        M.insertGlobalVariable(GV);
      Marker = GV;
    }
    setSection(*Marker, Kind, Section);
    Marker->setAlignment(Align(DIPC_PAGE_SIZE));
    Used.push_back(Marker);
  }
}

DomainSections layOutDomains(Module &M, const DomainModel &Model) {
  DomainSections Sections;
  auto Place = [&](GlobalObject &GO, dipc_section_kind Kind) {
    StringRef Domain = Model.domainOf(&GO);
    if (Domain == DIPC_DEFAULT_DOMAIN)
      return;
    setSection(GO, Kind, sectionName(Kind, Domain));
    Sections[Domain.str()] |= 1u << Kind;
  };
  for (Function &F : M)
    if (!F.isDeclaration() && Model.Domain.count(&F))
      Place(F, DIPC_SECTION_TEXT);
  for (GlobalVariable &GV : M.globals()) {
    if (!Model.Domain.count(&GV) || !isOrdinaryGlobal(GV))
      continue;
    dipc_section_kind Kind = kindOf(GV);
    // A mergeable constant would get a section of its own, past the end
    // marker.
    if (Kind == DIPC_SECTION_RODATA)
      GV.setUnnamedAddr(GlobalValue::UnnamedAddr::None);
    Place(GV, Kind);
  }
  SmallVector<GlobalValue *, 8> Used;
  for (auto &[Domain, Kinds] : Sections)
    for (unsigned Kind = 0; Kind < DIPC_NUM_SECTION_KINDS; ++Kind)
      if (Kinds & (1u << Kind))
        addMarkers(M, Domain, dipc_section_kind(Kind), Used);
  if (!Used.empty())
    appendToUsed(M, Used);
  return Sections;
}

void keepEndMarkersLast(Module &M) {
  SmallVector<Function *, 4> Fns;
  for (Function &F : M)
    if (F.getName().starts_with(EndPrefix))
      Fns.push_back(&F);
  for (Function *F : Fns) {
    F->removeFromParent();
    M.getFunctionList().push_back(F);
  }
  SmallVector<GlobalVariable *, 4> GVs;
  for (GlobalVariable &GV : M.globals())
    if (GV.getName().starts_with(EndPrefix))
      GVs.push_back(&GV);
  for (GlobalVariable *GV : GVs) {
    GV->removeFromParent();
    M.insertGlobalVariable(GV);
  }
}

} // namespace dipc
