// ObjectNote.cpp - one SHT_NOTE global per translation unit with records:
// ELF note header, the name "dipc" padded to 8 bytes, and struct
// dipc_note_records. Under -fdipc-sfi its type says the unit's checks are
// compiled in (DIPC_NOTE_TYPE_RECORDS_SFI).
// The section name .note.dipc gives it SHT_NOTE; the linker puts every
// translation unit's copy in the PT_NOTE segment.
#include "ObjectNote.h"
#include "dipc/metadata.h"
#include "dipc/note.h"
#include "dipc/sfi.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

using namespace llvm;

namespace dipc {

// The name's 5 bytes ("dipc\0") padded to a multiple of 4.
static Constant *noteName(LLVMContext &Ctx) {
  static_assert(sizeof(DIPC_NOTE_NAME) == 5, "the name is padded to 8");
  return ConstantDataArray::getRaw(StringRef("dipc\0\0\0\0", 8), 8,
                                   Type::getInt8Ty(Ctx));
}

// In .note.dipc (SHT_NOTE by its name), 4-aligned, kept.
static void placeNote(Module &M, GlobalVariable *GV) {
  GV->setSection(DIPC_NOTE_SECTION);
  GV->setAlignment(Align(4));
  appendToUsed(M, {GV});
}

void emitObjectNote(Module &M, const unsigned (&Count)[DIPC_NUM_RECORD_KINDS],
                    uint64_t Seal) {
  LLVMContext &Ctx = M.getContext();
  Type *I32 = Type::getInt32Ty(Ctx);
  auto U32 = [&](uint32_t V) { return ConstantInt::get(I32, V); };
  // Two words, low first: the descriptor is 4-aligned in the file.
  auto U64 = [&](uint64_t V) {
    return std::pair{U32(uint32_t(V)), U32(uint32_t(V >> 32))};
  };
  Constant *Name = noteName(Ctx);
  static_assert(sizeof(dipc_note_records) == 8 * sizeof(uint32_t),
                "the descriptor is eight words");
  auto [SealLo, SealHi] = U64(Seal);
  Constant *Fields[] = {U32(sizeof(DIPC_NOTE_NAME)),
                        U32(sizeof(dipc_note_records)),
                        U32(DIPC_NOTE_TYPE_RECORDS),
                        Name,
                        U32(DIPC_METADATA_VERSION),
                        U32(Count[DIPC_RECORD_KIND_domain]),
                        U32(Count[DIPC_RECORD_KIND_entry]),
                        U32(Count[DIPC_RECORD_KIND_import]),
                        U32(Count[DIPC_RECORD_KIND_grant]),
                        U32(Count[DIPC_RECORD_KIND_anycall]),
                        SealLo,
                        SealHi};
  Constant *Init = ConstantStruct::getAnon(Ctx, Fields, /*Packed=*/true);
  auto *GV = new GlobalVariable(M, Init->getType(), true,
                                GlobalValue::InternalLinkage, Init,
                                "__dipc_note");
  placeNote(M, GV);
}

bool markNoteSfi(Module &M) {
  GlobalVariable *GV = M.getNamedGlobal("__dipc_note");
  if (!GV || !GV->hasInitializer())
    return false; // a unit without records has no note to mark
  auto *Init = cast<ConstantStruct>(GV->getInitializer());
  auto *Type = cast<ConstantInt>(Init->getOperand(2));
  if (Type->getZExtValue() == DIPC_NOTE_TYPE_RECORDS_SFI)
    return false;
  SmallVector<Constant *, 12> Fields;
  for (Use &Op : Init->operands())
    Fields.push_back(cast<Constant>(Op.get()));
  Fields[2] = ConstantInt::get(Type->getType(), DIPC_NOTE_TYPE_RECORDS_SFI);
  GV->setInitializer(ConstantStruct::get(Init->getType(), Fields));
  return true;
}

void emitCallsNote(Module &M, ArrayRef<std::string> Names) {
  if (Names.empty())
    return;
  LLVMContext &Ctx = M.getContext();
  Type *I32 = Type::getInt32Ty(Ctx);
  std::string Desc;
  for (const std::string &N : Names)
    Desc += N + '\0';
  Desc.resize(alignTo(Desc.size(), 4), '\0');
  static_assert(sizeof(DIPC_SFI_CALLS_NOTE_NAME) == 8, "no name padding");
  Constant *Fields[] = {
      ConstantInt::get(I32, sizeof(DIPC_SFI_CALLS_NOTE_NAME)),
      ConstantInt::get(I32, Desc.size()),
      ConstantInt::get(I32, DIPC_SFI_CALLS_NOTE_TYPE),
      ConstantDataArray::getRaw(StringRef(DIPC_SFI_CALLS_NOTE_NAME, 8), 8,
                                Type::getInt8Ty(Ctx)),
      ConstantDataArray::getRaw(Desc, Desc.size(), Type::getInt8Ty(Ctx))};
  Constant *Init = ConstantStruct::getAnon(Ctx, Fields, /*Packed=*/true);
  auto *GV = new GlobalVariable(M, Init->getType(), true,
                                GlobalValue::InternalLinkage, Init,
                                "__dipc_sfi_calls_note");
  GV->setSection(DIPC_SFI_CALLS_SECTION);
  GV->setAlignment(Align(4));
  appendToUsed(M, {GV});
}

} // namespace dipc
