// MetadataRecords.cpp - one retained global per record, in the record
// kind's section. References are self-relative (target - &field), which the
// assembler resolves to PC-relative relocations: no dynamic relocations, and
// the file reads like memory.
#include "MetadataRecords.h"
#include "ObjectNote.h"
#include "dipc/note.h"
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
        I32(Type::getInt32Ty(Ctx)), I64(Type::getInt64Ty(Ctx)) {}

  // One LLVM element of a record; a Rel element is filled in once the
  // record's own address exists.
  struct Field {
    Type *Ty;
    Constant *Value; // for Rel: the target, or nullptr for "none"
    bool Rel = false;
  };
  // The value of each field of a record by its records.def name, as one or
  // more elements (a signature or the ranges are several). The header and
  // reserved fields are the writer's own.
  using Values = StringMap<std::vector<Field>>;

  Field uint(unsigned Bytes, uint64_t V) {
    Type *Ty = Type::getIntNTy(Ctx, Bytes * 8);
    return {Ty, ConstantInt::get(Ty, V)};
  }
  Field u32(uint64_t V) { return uint(4, V); }
  Field rel(Constant *Target) { return {I64, Target, true}; }
  Field relString(StringRef S) { return rel(string(S)); }
  // Member by member, as dipc/signature.h lists them.
  std::vector<Field> signature(const dipc_signature &Sig) {
    std::vector<Field> Fields;
#define DIPC_SIGNATURE_ELEMENT(type, field, limit)                             \
  Fields.push_back(uint(sizeof(type), Sig.field));
    DIPC_SIGNATURE_FIELDS(DIPC_SIGNATURE_ELEMENT)
#undef DIPC_SIGNATURE_ELEMENT
    return Fields;
  }

  GlobalVariable *emit(dipc_record_kind Kind, const Twine &Name,
                       Values Given);
  void seal(const dipc_field_info &F, ArrayRef<Field> Elements);
  Constant *string(StringRef S);
  Constant *sectionBound(const std::string &Section, bool Start);

  Module &M;
  LLVMContext &Ctx;
  Type *I8, *I32, *I64;
  StringMap<Constant *> Strings;
  SmallVector<GlobalValue *, 16> Used;
  // What the object's note says of the records (dipc/note.h).
  unsigned Count[DIPC_NUM_RECORD_KINDS] = {};
  uint64_t Seal = DIPC_SEAL_BASIS;
};

} // namespace

Constant *RecordWriter::string(StringRef S) {
  Constant *&Str = Strings[S];
  if (!Str) {
    auto *GV = new GlobalVariable(
        M, ArrayType::get(I8, S.size() + 1), true, GlobalValue::PrivateLinkage,
        ConstantDataArray::getString(Ctx, S), "__dipc_name");
    GV->setAlignment(Align(1));
    // Not unnamed_addr, so not in a mergeable string section, where the
    // linker could merge a name into another's tail: a reader checks that
    // a name reference points at the start of a name (validate.h).
    GV->setSection(DIPC_NAMES_SECTION);
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

// A record whose layout differs from records.def would be misread by every
// loader: stop the compiler, in every build type.
[[noreturn]] static void layoutError(const dipc_record_info &Info,
                                     const Twine &Msg) {
  report_fatal_error("dIPC metadata writer: record " + Twine(Info.kind) + " " +
                         Msg + " (include/dipc/records.def)",
                     /*GenCrashDiag=*/false);
}

GlobalVariable *RecordWriter::emit(dipc_record_kind Kind, const Twine &Name,
                                   Values Given) {
  const dipc_record_info &Info = *dipc_record_info_of(Kind);
  auto ValueOf = [&](const dipc_field_info &F) -> std::vector<Field> {
    if (F.type == DIPC_FIELD_HEADER)
      return {u32(DIPC_METADATA_VERSION), u32(Info.size)};
    if (F.type == DIPC_FIELD_RESERVED)
      return {uint(F.size, 0)};
    auto It = Given.find(F.name);
    if (It == Given.end())
      layoutError(Info, "field " + Twine(F.name) + " is not written");
    std::vector<Field> Value = std::move(It->second);
    Given.erase(It);
    return Value;
  };
  // The elements in records.def order; FirstElement[i] begins field i.
  std::vector<Field> Fields;
  SmallVector<unsigned, 16> FirstElement;
  for (const dipc_field_info &F : ArrayRef(Info.fields, Info.num_fields)) {
    FirstElement.push_back(Fields.size());
    std::vector<Field> Value = ValueOf(F);
    Fields.insert(Fields.end(), Value.begin(), Value.end());
  }
  if (!Given.empty())
    layoutError(Info, "has no field " + Given.begin()->getKey());

  SmallVector<Type *, 16> Types;
  for (const Field &F : Fields)
    Types.push_back(F.Ty);
  auto *Ty = StructType::get(Ctx, Types);
  const DataLayout &DL = M.getDataLayout();
  const StructLayout *SL = DL.getStructLayout(Ty);
  for (unsigned I = 0; I < Info.num_fields; ++I) {
    const dipc_field_info &F = Info.fields[I];
    unsigned End =
        I + 1 < Info.num_fields ? FirstElement[I + 1] : Fields.size();
    uint64_t Offset = SL->getElementOffset(FirstElement[I]);
    uint64_t Size = (End < Fields.size() ? SL->getElementOffset(End)
                                          : SL->getSizeInBytes()) -
                    Offset;
    if (Offset != F.offset || Size != F.size)
      layoutError(Info, "field " + Twine(F.name) + " is written at [" +
                            Twine(Offset) + ", " + Twine(Offset + Size) +
                            "), not [" + Twine(F.offset) + ", " +
                            Twine(F.offset + F.size) + ")");
  }
  if (SL->getSizeInBytes() != Info.size)
    layoutError(Info, "is written with " + Twine(SL->getSizeInBytes()) +
                          " bytes, not " + Twine(Info.size));

  ++Count[Kind];
  if (Kind != DIPC_RECORD_KIND_anycall)
    for (unsigned I = 0; I < Info.num_fields; ++I)
      seal(Info.fields[I],
           ArrayRef(Fields).slice(FirstElement[I],
                                  (I + 1 < Info.num_fields ? FirstElement[I + 1]
                                                           : Fields.size()) -
                                      FirstElement[I]));

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
  GV->setSection(Info.section);
  GV->setAlignment(Align(8));
  Used.push_back(GV);
  return GV;
}

// Adds what the compiler knows of one field to the seal (dipc/note.h): a
// name's bytes, whether each other reference is set, the rest as written.
void RecordWriter::seal(const dipc_field_info &F, ArrayRef<Field> Elements) {
  for (const Field &E : Elements) {
    if (E.Rel && F.type == DIPC_FIELD_NAME) {
      StringRef Bytes = cast<ConstantDataArray>(
                            cast<GlobalVariable>(E.Value)->getInitializer())
                            ->getRawDataValues();
      Seal = dipc_seal(Seal, Bytes.data(), Bytes.size());
    } else if (E.Rel) {
      uint8_t Set = E.Value != nullptr;
      Seal = dipc_seal(Seal, &Set, 1);
    } else {
      uint64_t V = cast<ConstantInt>(E.Value)->getZExtValue();
      unsigned Bytes = E.Ty->getIntegerBitWidth() / 8;
      for (unsigned B = 0; B < Bytes; ++B) {
        uint8_t Byte = V >> (8 * B);
        Seal = dipc_seal(Seal, &Byte, 1);
      }
    }
  }
}

// A stub's back-link to the record that names it (dipc/note.h): prefix
// data, the magic and the record's address relative to the link itself.
static void linkStubToRecord(Function &Stub, GlobalVariable &Record) {
  LLVMContext &Ctx = Stub.getContext();
  Type *I64 = Type::getInt64Ty(Ctx);
  // Link = Record - (Stub - 8) = Record - Stub + 8.
  Constant *Link = ConstantExpr::getAdd(
      ConstantExpr::getSub(ConstantExpr::getPtrToInt(&Record, I64),
                           ConstantExpr::getPtrToInt(&Stub, I64)),
      ConstantInt::get(I64, 8));
  static_assert(DIPC_STUB_BACKLINK_SIZE == 16, "magic and link");
  Stub.setPrefixData(ConstantStruct::getAnon(
      {ConstantInt::get(I64, DIPC_STUB_MAGIC), Link}));
}

void emitMetadataRecords(Module &M, const DomainModel &Model,
                         const DomainSections &Sections,
                         const std::vector<EntryStub> &Entries,
                         const std::vector<Import> &Imports,
                         const std::vector<Anycall> &Anycalls) {
  RecordWriter W(M);

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
    auto It = Sections.find(Domain);
    unsigned Kinds = IsDefault || It == Sections.end() ? 0 : It->second;
    std::vector<RecordWriter::Field> Ranges;
    for (unsigned K = 0; K < DIPC_NUM_SECTION_KINDS; ++K) {
      bool Has = Kinds & (1u << K);
      std::string Section = sectionName(dipc_section_kind(K), Domain);
      Ranges.push_back(W.rel(Has ? W.sectionBound(Section, true) : nullptr));
      Ranges.push_back(W.rel(Has ? W.sectionBound(Section, false) : nullptr));
    }
    W.emit(DIPC_RECORD_KIND_domain, "__dipc_domain." + Domain,
           {{"name", {W.relString(Domain)}},
            {"flags", {W.u32(IsDefault ? DIPC_DOMAIN_DEFAULT : 0)}},
            {"ranges", Ranges}});
  }

  for (const EntryStub &E : Entries) {
    GlobalVariable *GV = W.emit(
        DIPC_RECORD_KIND_entry, "__dipc_entry." + E.Entry->getName(),
        {{"name", {W.relString(E.Entry->getName())}},
         {"domain", {W.relString(Model.domainOf(E.Entry))}},
         {"callee_stub", {W.rel(E.Stub)}},
         {"function", {W.rel(E.Entry)}},
         {"signature", W.signature(E.Shape.Signature)},
         {"callee_policy", {W.u32(Model.isoCallee(E.Entry))}}});
    linkStubToRecord(*E.Stub, *GV);
  }

  for (const Import &Imp : Imports)
    W.emit(DIPC_RECORD_KIND_import,
           "__dipc_import." + Imp.CallerDomain + "." + Imp.Entry->getName(),
           {{"name", {W.relString(Imp.Entry->getName())}},
            {"domain", {W.relString(Imp.CallerDomain)}},
            {"callee_domain", {W.relString(Model.domainOf(Imp.Entry))}},
            {"slot", {W.rel(Imp.Slot)}},
            {"signature", W.signature(Imp.Shape.Signature)},
            {"caller_policy", {W.u32(Imp.CallerPolicy)}},
            {"callee_policy", {W.u32(Model.isoCallee(Imp.Entry))}}});

  for (const Anycall &A : Anycalls) {
    GlobalVariable *GV = W.emit(
        DIPC_RECORD_KIND_anycall, "__dipc_anycall_record." + A.Entry->getName(),
        {{"name", {W.relString(A.Entry->getName())}},
         {"domain", {W.relString(Model.domainOf(A.Entry))}},
         {"stub", {W.rel(A.Stub)}},
         {"signature", W.signature(A.Shape.Signature)},
         {"callee_policy", {W.u32(Model.isoCallee(A.Entry))}}});
    // In the stub's comdat: the linker keeps one record per stub.
    GV->setComdat(A.Stub->getComdat());
    linkStubToRecord(*A.Stub, *GV);
  }

  for (const Grant &G : Model.Grants)
    W.emit(DIPC_RECORD_KIND_grant, "__dipc_grant." + G.From + "." + G.To,
           {{"from", {W.relString(G.From)}},
            {"to", {W.relString(G.To)}},
            {"perm", {W.u32(G.Perm)}}});

  if (!W.Used.empty())
    appendToUsed(M, W.Used);
  if (W.Count[DIPC_RECORD_KIND_domain])
    emitObjectNote(M, W.Count, W.Seal);

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
