// MetadataRecords.cpp - one retained global per record, in the record
// kind's section. References are self-relative (target - &field), which the
// assembler resolves to PC-relative relocations: no dynamic relocations, and
// the file reads like memory.
#include "MetadataRecords.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"
#include <set>

using namespace llvm;

namespace dipc {

namespace {

class RecordWriter {
public:
  explicit RecordWriter(Module &M)
      : M(M), Ctx(M.getContext()), I8(Type::getInt8Ty(Ctx)),
        I16(Type::getInt16Ty(Ctx)), I32(Type::getInt32Ty(Ctx)),
        I64(Type::getInt64Ty(Ctx)) {}

  // A record is a list of fields; a Rel field is filled in once the record's
  // own address exists.
  struct Field {
    Type *Ty;
    Constant *Value; // for Rel: the target, or nullptr for "none"
    bool Rel = false;
  };

  Field u8(unsigned V) { return {I8, ConstantInt::get(I8, V)}; }
  Field u16(unsigned V) { return {I16, ConstantInt::get(I16, V)}; }
  Field u32(uint64_t V) { return {I32, ConstantInt::get(I32, V)}; }
  Field rel(Constant *Target) { return {I64, Target, true}; }
  Field relString(StringRef S) { return rel(string(S)); }
  std::vector<Field> header(size_t Size) {
    return {u32(DIPC_METADATA_VERSION), u32(Size)};
  }
  std::vector<Field> signature(const dipc_signature &Sig) {
    return {u8(Sig.int_args),    u8(Sig.vec_args),     u8(Sig.int_results),
            u8(Sig.vec_results), u16(Sig.stack_bytes), u8(Sig.x87_results),
            u8(Sig.reserved)};
  }

  GlobalVariable *emit(StringRef Section, const Twine &Name,
                       std::vector<Field> Fields, size_t ExpectedSize);
  Constant *string(StringRef S);
  Constant *sectionBound(const std::string &Section, bool Start);

  Module &M;
  LLVMContext &Ctx;
  Type *I8, *I16, *I32, *I64;
  StringMap<Constant *> Strings;
  SmallVector<GlobalValue *, 16> Used;
};

} // namespace

Constant *RecordWriter::string(StringRef S) {
  Constant *&Str = Strings[S];
  if (!Str) {
    auto *GV = new GlobalVariable(
        M, ArrayType::get(I8, S.size() + 1), true, GlobalValue::PrivateLinkage,
        ConstantDataArray::getString(Ctx, S), "__dipc_name");
    GV->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
    GV->setAlignment(Align(1));
    Str = GV;
  }
  return Str;
}

Constant *RecordWriter::sectionBound(const std::string &Section, bool Start) {
  std::string Name = (Start ? "__start_" : "__stop_") + Section;
  if (GlobalVariable *GV = M.getGlobalVariable(Name))
    return GV;
  // Defined by the linker; hidden: every object has its own.
  auto *GV = new GlobalVariable(M, ArrayType::get(I8, 0), false,
                                GlobalValue::ExternalLinkage, nullptr, Name);
  GV->setVisibility(GlobalValue::HiddenVisibility);
  return GV;
}

GlobalVariable *RecordWriter::emit(StringRef Section, const Twine &Name,
                                  std::vector<Field> Fields,
                                  size_t ExpectedSize) {
  SmallVector<Type *, 16> Types;
  for (const Field &F : Fields)
    Types.push_back(F.Ty);
  auto *Ty = StructType::get(Ctx, Types);
  assert(M.getDataLayout().getTypeAllocSize(Ty) == ExpectedSize &&
         "record layout differs from include/dipc/metadata.h");
  (void)ExpectedSize;
  auto *GV = new GlobalVariable(M, Ty, true, GlobalValue::InternalLinkage,
                                nullptr, Name);
  SmallVector<Constant *, 16> Values;
  for (auto [I, F] : enumerate(Fields)) {
    if (!F.Rel) {
      Values.push_back(F.Value);
      continue;
    }
    if (!F.Value) {
      Values.push_back(ConstantInt::get(I64, 0));
      continue;
    }
    Constant *Here = ConstantExpr::getInBoundsGetElementPtr(
        Ty, GV,
        ArrayRef<Constant *>{ConstantInt::get(I32, 0),
                             ConstantInt::get(I32, I)});
    Values.push_back(
        ConstantExpr::getSub(ConstantExpr::getPtrToInt(F.Value, I64),
                             ConstantExpr::getPtrToInt(Here, I64)));
  }
  GV->setInitializer(ConstantStruct::get(Ty, Values));
  GV->setSection(Section);
  GV->setAlignment(Align(8));
  Used.push_back(GV);
  return GV;
}

void emitMetadataRecords(Module &M, const DomainModel &Model,
                         const DomainSections &Sections,
                         const std::vector<EntryStub> &Entries,
                         const std::vector<Import> &Imports,
                         const std::vector<Anycall> &Anycalls) {
  RecordWriter W(M);
  using Fields = std::vector<RecordWriter::Field>;
  auto Append = [](Fields &To, Fields More) {
    To.insert(To.end(), More.begin(), More.end());
  };

  // Every domain this object has code or data of, calls from, or grants to.
  SetVector<std::string, std::vector<std::string>, std::set<std::string>>
      Domains;
  for (const Function &F : M)
    if (!F.isDeclaration() && !F.getName().starts_with("__dipc_"))
      Domains.insert(Model.domainOf(&F).str());
  for (const auto &[GV, Domain] : Model.Domain)
    if (!GV->isDeclaration())
      Domains.insert(Domain);
  for (const Import &Imp : Imports)
    Domains.insert(Imp.CallerDomain);
  for (const Grant &G : Model.Grants)
    Domains.insert(G.From);

  for (const std::string &Domain : Domains) {
    bool IsDefault = Domain == DIPC_DEFAULT_DOMAIN;
    Fields F = W.header(sizeof(dipc_domain_record));
    Append(F, {W.relString(Domain), W.u32(IsDefault ? DIPC_DOMAIN_DEFAULT : 0),
               W.u32(0)});
    auto It = Sections.find(Domain);
    unsigned Kinds = IsDefault || It == Sections.end() ? 0 : It->second;
    for (unsigned K = 0; K < DIPC_NUM_SECTION_KINDS; ++K) {
      bool Has = Kinds & (1u << K);
      std::string Section = sectionName(dipc_section_kind(K), Domain);
      F.push_back(W.rel(Has ? W.sectionBound(Section, true) : nullptr));
      F.push_back(W.rel(Has ? W.sectionBound(Section, false) : nullptr));
    }
    W.emit(DIPC_DOMAINS_SECTION, "__dipc_domain." + Domain, F,
           sizeof(dipc_domain_record));
  }

  for (const EntryStub &E : Entries) {
    Fields F = W.header(sizeof(dipc_entry_record));
    Append(F, {W.relString(E.Entry->getName()),
               W.relString(Model.domainOf(E.Entry)), W.rel(E.Stub),
               W.rel(E.Entry)});
    Append(F, W.signature(E.Shape.Signature));
    Append(F, {W.u32(Model.isoCallee(E.Entry)), W.u32(0)});
    W.emit(DIPC_ENTRIES_SECTION, "__dipc_entry." + E.Entry->getName(), F,
           sizeof(dipc_entry_record));
  }

  for (const Import &Imp : Imports) {
    Fields F = W.header(sizeof(dipc_import_record));
    Append(F, {W.relString(Imp.Entry->getName()), W.relString(Imp.CallerDomain),
               W.relString(Model.domainOf(Imp.Entry)), W.rel(Imp.Slot)});
    Append(F, W.signature(Imp.Shape.Signature));
    Append(F, {W.u32(Imp.CallerPolicy), W.u32(Model.isoCallee(Imp.Entry))});
    W.emit(DIPC_IMPORTS_SECTION,
           "__dipc_import." + Imp.CallerDomain + "." + Imp.Entry->getName(), F,
           sizeof(dipc_import_record));
  }

  for (const Anycall &A : Anycalls) {
    Fields F = W.header(sizeof(dipc_anycall_record));
    Append(F, {W.relString(A.Entry->getName()),
               W.relString(Model.domainOf(A.Entry)), W.rel(A.Stub)});
    Append(F, W.signature(A.Shape.Signature));
    Append(F, {W.u32(Model.isoCallee(A.Entry)), W.u32(0)});
    GlobalVariable *GV =
        W.emit(DIPC_ANYCALLS_SECTION, "__dipc_anycall_record." +
                                          A.Entry->getName(),
               F, sizeof(dipc_anycall_record));
    // In the stub's comdat: the linker keeps one record per stub.
    GV->setComdat(A.Stub->getComdat());
  }

  for (const Grant &G : Model.Grants) {
    Fields F = W.header(sizeof(dipc_grant_record));
    Append(F,
           {W.relString(G.From), W.relString(G.To), W.u32(G.Perm), W.u32(0)});
    W.emit(DIPC_GRANTS_SECTION, "__dipc_grant." + G.From + "." + G.To, F,
           sizeof(dipc_grant_record));
  }

  if (!W.Used.empty())
    appendToUsed(M, W.Used);

  // Code that needs the loader refuses to run without it, at start rather
  // than at its first cross-domain call.
  bool NeedsLoader = !Entries.empty() || !Imports.empty() ||
                     !Anycalls.empty() ||
                     !Model.Grants.empty() ||
                     llvm::any_of(Domains, [](const std::string &D) {
                       return D != DIPC_DEFAULT_DOMAIN;
                     });
  if (NeedsLoader) {
    FunctionCallee Require = M.getOrInsertFunction(
        "__dipc_require_loader", Type::getVoidTy(M.getContext()));
    appendToGlobalCtors(M, cast<Function>(Require.getCallee()),
                        /*Priority=*/1);
  }
}

} // namespace dipc
