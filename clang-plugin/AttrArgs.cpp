// AttrArgs.cpp - validation of dIPC attribute arguments.
#include "AttrArgs.h"
#include "dipc/annotations.h"
#include "clang/AST/Expr.h"
#include "clang/Sema/Lookup.h"
#include "llvm/ADT/StringExtras.h"

using namespace clang;

namespace dipc {

DiagnosticBuilder report(DiagnosticsEngine &Diags, SourceLocation Loc,
                         DiagnosticsEngine::Level L, const char *Format) {
  unsigned ID = Diags.getDiagnosticIDs()->getCustomDiagID(
      static_cast<DiagnosticIDs::Level>(L), Format);
  return Diags.Report(Loc, ID);
}

static DiagnosticBuilder error(Sema &S, SourceLocation Loc,
                               const char *Format) {
  return report(S.getDiagnostics(), Loc, DiagnosticsEngine::Error, Format);
}

static SourceLocation argLoc(const ParsedAttr &Attr, unsigned Index) {
  if (Attr.isArgIdent(Index))
    return Attr.getArgAsIdent(Index)->Loc;
  return Attr.getArgAsExpr(Index)->getBeginLoc();
}

// The text of a string-literal argument, or nullopt for anything else.
static std::optional<std::string> stringArg(const ParsedAttr &Attr,
                                            unsigned Index) {
  if (Attr.isArgIdent(Index))
    return std::nullopt;
  const auto *Lit =
      dyn_cast<StringLiteral>(Attr.getArgAsExpr(Index)->IgnoreParenImpCasts());
  if (!Lit || !Lit->isOrdinary())
    return std::nullopt;
  return Lit->getString().str();
}

std::optional<std::string> domainNameArg(Sema &S, const ParsedAttr &Attr,
                                         unsigned Index, StringRef User) {
  if (Attr.getNumArgs() <= Index) {
    error(S, Attr.getLoc(), "'%0' needs a domain name, e.g. %0(\"db\")")
        << User;
    return std::nullopt;
  }
  std::optional<std::string> Name = stringArg(Attr, Index);
  if (!Name) {
    error(S, argLoc(Attr, Index),
          "the domain name of '%0' must be a string literal, e.g. "
          "%0(\"db\")")
        << User;
    return std::nullopt;
  }
  if (!isValidDomainName(*Name)) {
    error(S, argLoc(Attr, Index),
          "domain name '%0' is not a C identifier (it names sections and "
          "symbols)")
        << *Name;
    return std::nullopt;
  }
  return Name;
}

std::optional<std::string> permissionArg(Sema &S, const ParsedAttr &Attr,
                                         unsigned Index) {
  if (Attr.getNumArgs() <= Index) {
    error(S, Attr.getLoc(),
          "'__perm' needs a domain and a permission, e.g. "
          "__perm(\"db\", read)");
    return std::nullopt;
  }
  std::optional<std::string> Perm = stringArg(Attr, Index);
  if (!Perm) {
    error(S, argLoc(Attr, Index),
          "the permission of '__perm' must be call, read or write");
    return std::nullopt;
  }
  // dipc.h stringizes the word, so "read" written with quotes arrives quoted.
  StringRef P = StringRef(*Perm).trim();
  if (P.size() >= 2 && P.front() == '"' && P.back() == '"')
    P = P.drop_front().drop_back();
  if (!grantablePerm(P)) {
    error(S, argLoc(Attr, Index),
          "unknown permission '%0' in '__perm'; expected call, read or write")
        << P;
    return std::nullopt;
  }
  return P.str();
}

static std::optional<unsigned> propertyBit(StringRef Name) {
  for (unsigned I = 0; I < NumIsoProperties; ++I)
    if (IsoPropertyNames[I] == Name)
      return 1u << I;
  return std::nullopt;
}

static constexpr const char *UnknownProperty =
    "unknown isolation property '%0' in '%1'; expected reg_integrity, "
    "reg_confidentiality, stack_integrity, stack_confidentiality, "
    "dcs_integrity or dcs_confidentiality";

// A bare identifier: a property name, or an enum constant of the program's
// own that combines properties.
static std::optional<unsigned>
identifierProperties(Sema &S, const IdentifierLoc &Id, StringRef User) {
  if (std::optional<unsigned> Bit = propertyBit(Id.Ident->getName()))
    return Bit;
  LookupResult R(S, DeclarationName(Id.Ident), Id.Loc,
                 Sema::LookupOrdinaryName);
  if (S.LookupName(R, S.getCurScope()) && R.isSingleResult())
    if (auto *C = dyn_cast<EnumConstantDecl>(R.getFoundDecl()))
      return C->getInitVal().getZExtValue();
  error(S, Id.Loc, UnknownProperty) << Id.Ident->getName() << User;
  return std::nullopt;
}

// A string such as "reg_integrity, stack_integrity" or "a|b".
static std::optional<unsigned>
stringProperties(Sema &S, StringRef Text, SourceLocation Loc, StringRef User) {
  SmallVector<StringRef, 8> Names;
  Text.split(Names, ',', -1, false);
  unsigned Mask = 0;
  for (StringRef Part : Names) {
    SmallVector<StringRef, 8> Alternatives;
    Part.split(Alternatives, '|', -1, false);
    for (StringRef Name : Alternatives) {
      Name = Name.trim();
      std::optional<unsigned> Bit = propertyBit(Name);
      if (!Bit) {
        error(S, Loc, UnknownProperty) << Name << User;
        return std::nullopt;
      }
      Mask |= *Bit;
    }
  }
  return Mask;
}

std::optional<unsigned> isoPropertiesArgs(Sema &S, const ParsedAttr &Attr,
                                          StringRef User) {
  const unsigned AllBits = (1u << NumIsoProperties) - 1;
  unsigned Mask = 0;
  bool Ok = true;
  for (unsigned I = 0; I < Attr.getNumArgs(); ++I) {
    std::optional<unsigned> Bits;
    SourceLocation Loc = argLoc(Attr, I);
    if (Attr.isArgIdent(I)) {
      Bits = identifierProperties(S, *Attr.getArgAsIdent(I), User);
    } else if (std::optional<std::string> Text = stringArg(Attr, I)) {
      Bits = stringProperties(S, *Text, Loc, User);
    } else {
      Expr *E = Attr.getArgAsExpr(I);
      std::optional<llvm::APSInt> V =
          E->isValueDependent() ? std::nullopt
                                : E->getIntegerConstantExpr(S.Context);
      if (!V) {
        error(S, Loc,
              "isolation properties of '%0' must be constants from dipc.h "
              "or strings")
            << User;
      } else if (V->getZExtValue() & ~AllBits) {
        error(S, Loc, "unknown isolation property bits 0x%0 in '%1'")
            << llvm::utohexstr(V->getZExtValue() & ~AllBits) << User;
      } else {
        Bits = V->getZExtValue();
      }
    }
    if (!Bits) {
      Ok = false;
      continue;
    }
    if (unsigned Twice = Mask & *Bits)
      report(S.getDiagnostics(), Loc, DiagnosticsEngine::Warning,
             "isolation property '%0' listed twice in '%1'")
          << isoPropertyList(Twice) << User;
    Mask |= *Bits;
  }
  if (!Ok)
    return std::nullopt;
  if (Mask == 0)
    report(S.getDiagnostics(), Attr.getLoc(), DiagnosticsEngine::Warning,
           "'%0' without isolation properties has no effect")
        << User;
  return Mask;
}

std::string isoPropertyList(unsigned Mask) {
  std::string List;
  for (unsigned I = 0; I < NumIsoProperties; ++I) {
    if (!(Mask & (1u << I)))
      continue;
    if (!List.empty())
      List += ',';
    List += IsoPropertyNames[I].str();
  }
  return List;
}

} // namespace dipc
