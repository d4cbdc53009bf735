// dipc-readelf - prints the dIPC metadata records of a linked ELF executable
// or shared object (include/dipc/metadata.h).
//
//   dipc-readelf PROGRAM...
//
// Each file goes through the loader's validator (validate/validate.h) first:
// what it refuses, dipc-readelf refuses with the same message
// ("dipc-readelf: error: FILE: <record>: <field>: <rule>", exit 1), and so
// does a file with no dIPC records. Only then is it printed.
#include "dipc.h"
#include "dipc/metadata.h"
#include "validate.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Object/ELF.h"
#include "llvm/Object/ELFTypes.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

using namespace llvm;
using ELFObject = object::ELFFile<object::ELF64LE>;
using Shdr = object::ELF64LE::Shdr;

namespace {

struct Section {
  std::string Name;
  uint64_t Addr, Size, Flags;
  ArrayRef<uint8_t> Bytes; // empty for NOBITS
};

class Reader {
public:
  Reader(StringRef File, const ELFObject &Obj) : File(File), Obj(Obj) {}
  Error load();
  Error dump(raw_ostream &OS);

private:
  Error fail(const Twine &Msg) {
    return createStringError(inconvertibleErrorCode(), File + ": " + Msg);
  }
  const Section *find(StringRef Name) const;
  const Section *containing(uint64_t Addr) const;
  // The target of the self-relative field at address `FieldAddr`.
  Expected<uint64_t> target(uint64_t FieldAddr, int64_t Rel, StringRef What);
  Expected<std::string> string(uint64_t FieldAddr, int64_t Rel, StringRef What);
  std::string symbolize(uint64_t Addr) const;
  template <typename Record>
  Expected<std::vector<std::pair<uint64_t, Record>>> records(StringRef Name);

  StringRef File;
  const ELFObject &Obj;
  std::vector<Section> Sections;
  std::multimap<uint64_t, std::string> Symbols;
};

} // namespace

// The file passed the validator (dumpFile): what is read here is printed,
// not checked again.
Error Reader::load() {
  auto Shdrs = Obj.sections();
  if (!Shdrs)
    return fail(toString(Shdrs.takeError()));
  for (const Shdr &S : *Shdrs) {
    auto Name = Obj.getSectionName(S);
    if (!Name)
      return fail(toString(Name.takeError()));
    Section Sec{Name->str(), S.sh_addr, S.sh_size, S.sh_flags, {}};
    if (S.sh_type != ELF::SHT_NOBITS && S.sh_type != ELF::SHT_NULL) {
      auto Bytes = Obj.getSectionContents(S);
      if (!Bytes)
        return fail("section '" + *Name + "': " + toString(Bytes.takeError()));
      Sec.Bytes = *Bytes;
    }
    Sections.push_back(std::move(Sec));
    if (S.sh_type != ELF::SHT_SYMTAB)
      continue;
    auto Syms = Obj.symbols(&S);
    auto Strtab = Obj.getStringTableForSymtab(S);
    if (!Syms || !Strtab) {
      // Symbols only name addresses in the listing: print addresses.
      consumeError(Syms.takeError());
      consumeError(Strtab.takeError());
      continue;
    }
    for (const auto &Sym : *Syms)
      if (auto SymName = Sym.getName(*Strtab);
          SymName && !SymName->empty() && Sym.st_shndx != ELF::SHN_UNDEF &&
          (Sym.getType() == ELF::STT_FUNC ||
           Sym.getType() == ELF::STT_OBJECT) &&
          Sym.st_size)
        Symbols.emplace(uint64_t(Sym.st_value), SymName->str());
      else if (!SymName)
        consumeError(SymName.takeError());
  }
  return Error::success();
}

const Section *Reader::find(StringRef Name) const {
  for (const Section &S : Sections)
    if (S.Name == Name)
      return &S;
  return nullptr;
}

const Section *Reader::containing(uint64_t Addr) const {
  for (const Section &S : Sections)
    if ((S.Flags & ELF::SHF_ALLOC) && Addr >= S.Addr && Addr - S.Addr < S.Size)
      return &S;
  return nullptr;
}

Expected<uint64_t> Reader::target(uint64_t FieldAddr, int64_t Rel,
                                  StringRef What) {
  uint64_t Addr = FieldAddr + Rel;
  // A section's end is a valid target (__stop_ symbols).
  for (const Section &S : Sections)
    if ((S.Flags & ELF::SHF_ALLOC) && Addr >= S.Addr && Addr - S.Addr <= S.Size)
      return Addr;
  return fail(What + " points to 0x" + utohexstr(Addr) +
              ", outside every loaded section");
}

Expected<std::string> Reader::string(uint64_t FieldAddr, int64_t Rel,
                                     StringRef What) {
  uint64_t Addr = FieldAddr + Rel;
  const Section *S = Rel ? containing(Addr) : nullptr;
  if (!S || S->Bytes.empty())
    return fail(What + " does not point to a string in a loaded section");
  ArrayRef<uint8_t> Rest = S->Bytes.drop_front(Addr - S->Addr);
  const auto *Nul = std::find(Rest.begin(), Rest.end(), 0);
  if (Nul == Rest.end())
    return fail(What + " runs past the end of section '" + S->Name + "'");
  return std::string(Rest.begin(), Nul);
}

std::string Reader::symbolize(uint64_t Addr) const {
  auto It = Symbols.find(Addr);
  if (It != Symbols.end())
    return It->second;
  return "0x" + utohexstr(Addr);
}

template <typename Record>
Expected<std::vector<std::pair<uint64_t, Record>>>
Reader::records(StringRef Name) {
  std::vector<std::pair<uint64_t, Record>> Out;
  const Section *S = find(Name);
  if (!S)
    return Out;
  if (S->Bytes.size() % sizeof(Record))
    return fail("section '" + Name + "' holds " + Twine(S->Bytes.size()) +
                " bytes, not a whole number of " + Twine(sizeof(Record)) +
                "-byte records");
  for (size_t Off = 0; Off < S->Bytes.size(); Off += sizeof(Record)) {
    Record R;
    std::memcpy(&R, S->Bytes.data() + Off, sizeof(Record));
    Out.push_back({S->Addr + Off, R});
  }
  return Out;
}

static std::string policyString(dipc_policy_t Policy) {
  static const char *const Names[] = {DIPC_ISO_PROPERTY_NAMES};
  std::string S;
  for (unsigned I = 0; I < std::size(Names); ++I)
    if (Policy & (1u << I))
      S += (S.empty() ? "" : ",") + std::string(Names[I]);
  if (Policy >> std::size(Names))
    S += (S.empty() ? "" : ",") + ("0x" + utohexstr(Policy));
  return S.empty() ? "none" : S;
}

static std::string signatureString(const dipc_signature &Sig) {
  return "int_args=" + std::to_string(Sig.int_args) +
         " vec_args=" + std::to_string(Sig.vec_args) +
         " stack_bytes=" + std::to_string(Sig.stack_bytes) +
         " int_results=" + std::to_string(Sig.int_results) +
         " vec_results=" + std::to_string(Sig.vec_results) +
         (Sig.x87_results ? " x87_results=1" : "");
}

#define FIELD(Rec, Addr, Field)                                                \
  (Addr) + offsetof(decltype(Rec), Field), (Rec).Field

Error Reader::dump(raw_ostream &OS) {
  auto Domains = records<dipc_domain_record>(DIPC_DOMAINS_SECTION);
  auto Entries = records<dipc_entry_record>(DIPC_ENTRIES_SECTION);
  auto Imports = records<dipc_import_record>(DIPC_IMPORTS_SECTION);
  auto Grants = records<dipc_grant_record>(DIPC_GRANTS_SECTION);
  auto Anycalls = records<dipc_anycall_record>(DIPC_ANYCALLS_SECTION);
  if (!Domains)
    return Domains.takeError();
  if (!Entries)
    return Entries.takeError();
  if (!Imports)
    return Imports.takeError();
  if (!Grants)
    return Grants.takeError();
  if (!Anycalls)
    return Anycalls.takeError();
  OS << File << ": dIPC metadata version " << DIPC_METADATA_VERSION << "\n";
  // One record per object and domain, all naming the same linked sections:
  // print each domain once, from a record of an object that has some of
  // its pages (an object that only calls or grants has empty ranges).
  auto HasRanges = [](const dipc_domain_record &D) {
    for (unsigned K = 0; K < DIPC_NUM_SECTION_KINDS; ++K)
      if (D.ranges[K][0] || D.ranges[K][1])
        return true;
    return false;
  };
  auto HasKind = [&](size_t I, unsigned K) {
    const dipc_domain_record &D = (*Domains)[I].second;
    return D.ranges[K][0] || D.ranges[K][1];
  };
  std::map<std::string, size_t> Chosen;
  std::vector<std::string> Names;
  for (size_t I = 0; I < Domains->size(); ++I) {
    auto Name = string(FIELD((*Domains)[I].second, (*Domains)[I].first, name),
                       "domain name");
    if (!Name)
      return Name.takeError();
    Names.push_back(*Name);
    auto [It, New] = Chosen.try_emplace(*Name, I);
    if (!New && !HasRanges((*Domains)[It->second].second) &&
        HasRanges((*Domains)[I].second))
      It->second = I;
  }
  for (size_t I = 0; I < Domains->size(); ++I) {
    auto &[Addr, D] = (*Domains)[I];
    auto Name = string(FIELD(D, Addr, name), "domain name");
    if (!Name)
      return Name.takeError();
    if (Chosen[*Name] != I)
      continue;
    OS << "domain " << *Name
       << ((D.flags & DIPC_DOMAIN_DEFAULT) ? " (default)" : "") << "\n";
    for (unsigned K = 0; K < DIPC_NUM_SECTION_KINDS; ++K) {
      // Records of one domain name the same linked sections, but an object
      // names only the kinds it populates (a wrapper with no initialised
      // data has no data range): take each kind from a record that has it.
      size_t J = I;
      for (size_t O = 0; O < Domains->size() && !HasKind(J, K); ++O)
        if (Names[O] == *Name && HasKind(O, K))
          J = O;
      if (!HasKind(J, K))
        continue;
      uint64_t KAddr = (*Domains)[J].first;
      const dipc_domain_record &KD = (*Domains)[J].second;
      uint64_t FieldAddr = KAddr + offsetof(dipc_domain_record, ranges) +
                           K * 2 * sizeof(dipc_rel_t);
      auto Begin = target(FieldAddr, KD.ranges[K][0], "domain range");
      auto Stop = target(FieldAddr + 8, KD.ranges[K][1], "domain range");
      if (!Begin)
        return Begin.takeError();
      if (!Stop)
        return Stop.takeError();
      // The section ends with a page-aligned guard shorter than a page.
      uint64_t End = *Stop & ~uint64_t(DIPC_PAGE_SIZE - 1);
      if (End == *Begin) { // --gc-sections removed everything but markers
        OS << "  " << dipc_section_kind_name(K) << " empty\n";
        continue;
      }
      const Section *S = containing(*Begin);
      if (!S || End < *Begin)
        return fail("domain '" + *Name + "': " + dipc_section_kind_name(K) +
                    " range [0x" + utohexstr(*Begin) + ", 0x" +
                    utohexstr(*Stop) + ") is not in a loaded section");
      OS << "  " << dipc_section_kind_name(K) << " " << S->Name << " [0x"
         << utohexstr(*Begin) << ", 0x" << utohexstr(End) << ") "
         << (End - *Begin) / DIPC_PAGE_SIZE << " page(s)\n";
    }
    if (D.flags & DIPC_DOMAIN_DEFAULT)
      continue;
    // Which heap its malloc uses at run time (docs/loader.md, "Heaps").
    bool WritesDefault = false;
    for (auto &[GAddr, G] : *Grants) {
      auto From = string(FIELD(G, GAddr, from), "grant domain");
      auto To = string(FIELD(G, GAddr, to), "granted domain");
      if (!From || !To)
        return joinErrors(From.takeError(), To.takeError());
      WritesDefault |= *From == *Name && *To == DIPC_DEFAULT_DOMAIN &&
                       G.perm >= DIPC_PERM_WRITE;
    }
    OS << "  heap " << (WritesDefault ? "the C library's (write grant on "
                                        "default)"
                                      : "own (run-time region, dom_heap)")
       << "\n";
  }
  for (auto &[Addr, E] : *Entries) {
    auto Name = string(FIELD(E, Addr, name), "entry name");
    auto Domain = string(FIELD(E, Addr, domain), "entry domain");
    auto Stub = target(FIELD(E, Addr, callee_stub), "entry callee stub");
    if (!Name || !Domain || !Stub)
      return joinErrors(joinErrors(Name.takeError(), Domain.takeError()),
                        Stub.takeError());
    OS << "entry " << *Name << " domain=" << *Domain
       << " stub=" << symbolize(*Stub) << " " << signatureString(E.signature)
       << " callee_policy=" << policyString(E.callee_policy) << "\n";
  }
  for (auto &[Addr, I] : *Imports) {
    auto Name = string(FIELD(I, Addr, name), "import name");
    auto From = string(FIELD(I, Addr, domain), "import domain");
    auto To = string(FIELD(I, Addr, callee_domain), "import callee domain");
    auto Slot = target(FIELD(I, Addr, slot), "import slot");
    if (!Name || !From || !To || !Slot)
      return joinErrors(joinErrors(Name.takeError(), From.takeError()),
                        joinErrors(To.takeError(), Slot.takeError()));
    OS << "import " << *Name << " from=" << *From << " to=" << *To
       << " slot=" << symbolize(*Slot) << " " << signatureString(I.signature)
       << " caller_policy=" << policyString(I.caller_policy)
       << " callee_policy=" << policyString(I.callee_policy) << "\n";
  }
  for (auto &[Addr, C] : *Anycalls) {
    auto Name = string(FIELD(C, Addr, name), "anycall entry name");
    auto Domain = string(FIELD(C, Addr, domain), "anycall domain");
    auto Stub = target(FIELD(C, Addr, stub), "anycall stub");
    if (!Name || !Domain || !Stub)
      return joinErrors(joinErrors(Name.takeError(), Domain.takeError()),
                        Stub.takeError());
    const Section *S = containing(*Stub);
    if (!S || !(S->Flags & ELF::SHF_EXECINSTR))
      return fail("anycall stub of '" + *Name + "' (0x" + utohexstr(*Stub) +
                  ") is not in code");
    OS << "anycall " << *Name << " domain=" << *Domain
       << " stub=" << symbolize(*Stub) << " " << signatureString(C.signature)
       << " callee_policy=" << policyString(C.callee_policy) << "\n";
  }
  // Each translation unit that sees a __perm declaration emits its record;
  // the loader applies a repeated grant once, so it is printed once.
  std::set<std::tuple<std::string, unsigned, std::string>> Printed;
  for (auto &[Addr, G] : *Grants) {
    auto From = string(FIELD(G, Addr, from), "grant domain");
    auto To = string(FIELD(G, Addr, to), "granted domain");
    if (!From || !To)
      return joinErrors(From.takeError(), To.takeError());
    if (!Printed.emplace(*From, G.perm, *To).second)
      continue;
    OS << "grant " << *From << " " << dipc_perm_name(G.perm) << " "
       << *To << "\n";
  }
  return Error::success();
}

static Error dumpFile(StringRef Path) {
  {
    char Why[512];
    int Status = dipc_validate_path(Path.str().c_str(), Why, sizeof Why);
    if (Status < 0)
      return createStringError(inconvertibleErrorCode(), Path + ": " + Why);
    if (Status == 0)
      return createStringError(
          inconvertibleErrorCode(),
          Path + ": no dIPC metadata (no dIPC note and no section "
                 "'" DIPC_DOMAINS_SECTION "'): was it built with -fdipc?");
  }
  auto Buffer = MemoryBuffer::getFile(Path, /*IsText=*/false,
                                      /*RequiresNullTerminator=*/false);
  if (!Buffer)
    return createStringError(Buffer.getError(),
                             Path + ": " + Buffer.getError().message());
  auto Obj = ELFObject::create((*Buffer)->getBuffer());
  if (!Obj)
    return createStringError(inconvertibleErrorCode(),
                             Path + ": " + toString(Obj.takeError()));
  Reader R(Path, *Obj);
  if (Error E = R.load())
    return E;
  return R.dump(outs());
}

int main(int Argc, char **Argv) {
  if (Argc < 2 || StringRef(Argv[1]) == "--help") {
    errs() << "usage: dipc-readelf PROGRAM...\n"
              "Prints the dIPC domains, entries, imports, anycalls and grants of linked "
              "-fdipc ELF files.\n";
    return Argc < 2 ? 1 : 0;
  }
  int Status = 0;
  for (int I = 1; I < Argc; ++I)
    if (Error E = dumpFile(Argv[I])) {
      errs() << "dipc-readelf: error: " << toString(std::move(E)) << "\n";
      Status = 1;
    }
  return Status;
}
