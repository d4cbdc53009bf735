// ObjectNote.cpp - one SHT_NOTE global per translation unit: ELF note
// header, the name "dipc" padded to 8 bytes, and struct dipc_note_records.
// The section name .note.dipc gives it SHT_NOTE; the linker puts every
// translation unit's copy in the PT_NOTE segment.
#include "ObjectNote.h"
#include "dipc/metadata.h"
#include "dipc/note.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

using namespace llvm;

namespace dipc {

void emitObjectNote(Module &M) {
  unsigned Domains = 0, Entries = 0, Imports = 0, Grants = 0;
  for (const GlobalVariable &GV : M.globals()) {
    StringRef S = GV.getSection();
    Domains += S == DIPC_DOMAINS_SECTION;
    Entries += S == DIPC_ENTRIES_SECTION;
    Imports += S == DIPC_IMPORTS_SECTION;
    Grants += S == DIPC_GRANTS_SECTION;
  }
  if (!Domains)
    return; // no records: nothing to anchor
  LLVMContext &Ctx = M.getContext();
  Type *I32 = Type::getInt32Ty(Ctx);
  auto U32 = [&](uint32_t V) { return ConstantInt::get(I32, V); };
  // The name's 5 bytes ("dipc\0") padded to a multiple of 4.
  Constant *Name = ConstantDataArray::getRaw(StringRef("dipc\0\0\0\0", 8), 8,
                                             Type::getInt8Ty(Ctx));
  static_assert(sizeof(DIPC_NOTE_NAME) == 5, "the name is padded to 8");
  static_assert(sizeof(dipc_note_records) == 5 * sizeof(uint32_t),
                "the descriptor is five words");
  Constant *Fields[] = {U32(sizeof(DIPC_NOTE_NAME)),
                        U32(sizeof(dipc_note_records)),
                        U32(DIPC_NOTE_TYPE_RECORDS),
                        Name,
                        U32(DIPC_METADATA_VERSION),
                        U32(Domains),
                        U32(Entries),
                        U32(Imports),
                        U32(Grants)};
  Constant *Init = ConstantStruct::getAnon(Ctx, Fields, /*Packed=*/true);
  auto *GV = new GlobalVariable(M, Init->getType(), true,
                                GlobalValue::InternalLinkage, Init,
                                "__dipc_note");
  GV->setSection(DIPC_NOTE_SECTION);
  GV->setAlignment(Align(4));
  appendToUsed(M, {GV});
}

} // namespace dipc
