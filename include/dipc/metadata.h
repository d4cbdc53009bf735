/* metadata.h - the ELF records the compiler emits for every -fdipc object
 * and the loader (and dipc-readelf) read back. Shared by C (loader/) and
 * C++ (llvm-passes/, tools/).
 *
 * Each record kind lives in a section of its own, named as a C identifier so
 * that __start_<name>/__stop_<name> exist; a section is an array of records,
 * each 8-byte aligned, each starting with a dipc_record_header. Records are
 * kept with llvm.used (SHF_GNU_RETAIN), so lld's --gc-sections keeps them.
 *
 * References are self-relative (dipc_rel_t): the target's address minus the
 * address of the field itself, 0 for "none". They need no dynamic
 * relocation, and read the same in the file and in memory:
 *   target = (const char *)&record->field + record->field
 *
 * Domain layout: the code and data of domain D are in sections
 * dipc_text_D, dipc_rodata_D, dipc_data_D and dipc_bss_D (zero-initialised
 * variables, SHT_NOBITS). Every object's
 * part of such a section starts on a page and ends with a page-aligned guard
 * shorter than a page, so the domain's pages are
 *   [__start_<section>, __stop_<section> rounded down to DIPC_PAGE_SIZE)
 * and no other domain's code or data shares them. The program's default
 * domain ("default", DIPC_DOMAIN_DEFAULT) is everything else.
 */
#ifndef DIPC_METADATA_H
#define DIPC_METADATA_H

#include <stdint.h>

#include "dipc/perm.h"
#include "dipc/signature.h"

#define DIPC_METADATA_VERSION 1
#define DIPC_PAGE_SIZE 4096

/* Record sections. */
#define DIPC_DOMAINS_SECTION "dipc_domains"
#define DIPC_ENTRIES_SECTION "dipc_entries"
#define DIPC_IMPORTS_SECTION "dipc_imports"
#define DIPC_GRANTS_SECTION "dipc_grants"
/* Import slots: one pointer per (caller domain, caller policy, entry) per
 * object, initially &__dipc_unresolved_import; the loader stores the proxy. */
#define DIPC_SLOTS_SECTION "dipc_slots"
#define DIPC_ANYCALLS_SECTION "dipc_anycalls"

/* Name of the domain of unannotated code and data. */
#define DIPC_DEFAULT_DOMAIN "default"

typedef int64_t dipc_rel_t;

struct dipc_record_header {
  uint32_t version; /* DIPC_METADATA_VERSION */
  uint32_t size; /* bytes of the whole record: sizeof(struct dipc_*_record) */
};

/* The kinds of a domain's sections, in dipc_domain_record.ranges order. */
enum dipc_section_kind {
  DIPC_SECTION_TEXT,
  DIPC_SECTION_RODATA,
  DIPC_SECTION_DATA,
  DIPC_SECTION_BSS, /* zero-initialised data: zero-fill, no file bytes */
  DIPC_NUM_SECTION_KINDS
};

#define DIPC_DOMAIN_DEFAULT 0x1u /* the default domain: has no ranges */

/* A domain with code or data in this object (one record per object that
 * has any; records of one domain in several objects name the same
 * sections). */
struct dipc_domain_record {
  struct dipc_record_header header;
  dipc_rel_t name; /* NUL-terminated domain name */
  uint32_t flags;  /* DIPC_DOMAIN_* */
  uint32_t reserved;
  /* [begin, end) = __start_/__stop_ of dipc_<kind>_<name>; 0, 0 if the
   * object has nothing of that kind in the domain. */
  dipc_rel_t ranges[DIPC_NUM_SECTION_KINDS][2];
};

/* An entry point defined in this object. */
struct dipc_entry_record {
  struct dipc_record_header header;
  dipc_rel_t name;        /* the entry's symbol name */
  dipc_rel_t domain;      /* its domain's name */
  dipc_rel_t callee_stub; /* where proxies jump: a SysV function with the
                             entry's signature */
  dipc_rel_t function;    /* the entry itself */
  struct dipc_signature signature;
  dipc_policy_t callee_policy; /* __iso_callee */
  uint32_t reserved;
};

/* A foreign entry this object calls (or takes the address of). */
struct dipc_import_record {
  struct dipc_record_header header;
  dipc_rel_t name;          /* the entry's symbol name */
  dipc_rel_t domain;        /* the calling domain */
  dipc_rel_t callee_domain; /* the domain its declaration names */
  dipc_rel_t slot;          /* void *: the loader stores the proxy here */
  struct dipc_signature signature; /* from the declaration: must match (P4) */
  dipc_policy_t caller_policy;     /* __iso_caller of the calls through slot */
  dipc_policy_t callee_policy;     /* __iso_callee as the declaration says */
};

/* An entry whose address this object takes: every such address is the
 * entry's anycall stub (docs/compiler.md), one per object, in shared text.
 * The loader asks the runtime for the entry's anycall proxy and registers
 * stub -> proxy in the runtime's anycall table (docs/abi.md §4). */
struct dipc_anycall_record {
  struct dipc_record_header header;
  dipc_rel_t name;   /* the entry's symbol name */
  dipc_rel_t domain; /* the domain its declaration names */
  dipc_rel_t stub;   /* __dipc_anycall.<name>, in this object's text */
  struct dipc_signature signature; /* from the declaration: must match (P4) */
  dipc_policy_t callee_policy;     /* __iso_callee as the declaration says */
  uint32_t reserved;
};

/* __perm(to, perm) on an item of domain `from`: an APL entry of `from`. */
struct dipc_grant_record {
  struct dipc_record_header header;
  dipc_rel_t from; /* domain receiving the access */
  dipc_rel_t to;   /* domain accessed */
  uint32_t perm;   /* enum dipc_perm: call, read or write */
  uint32_t reserved;
};

#endif /* DIPC_METADATA_H */
