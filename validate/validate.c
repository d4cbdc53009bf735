/* validate.c - the rules of validate.h, over the file image of one object.
 * A refusal names the record and the rule; callers add the object. */
#define _GNU_SOURCE
#include "validate.h"
#include "elf_image.h"
#include "sfi_magic.h"
#include "sfi_names.h"

#include <dipc/metadata.h>
#include <dipc/note.h>
#include <dipc/sfi.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* One kind's name, section and record size, from records.def. */
#define KIND_NAME(k) (dipc_record_info_of(k)->kind)
#define KIND_SECTION(k) (dipc_record_info_of(k)->section)
#define KIND_SIZE(k) ((size_t)dipc_record_info_of(k)->size)

/* Policy bits a record may carry: one per DIPC_ISO_PROPERTY_NAMES. */
#define NUM_ISO_PROPERTIES                                                    \
  (sizeof((const char *[]){DIPC_ISO_PROPERTY_NAMES}) / sizeof(const char *))
#define KNOWN_POLICY_BITS ((1u << NUM_ISO_PROPERTIES) - 1)

struct validator {
  const struct dipc_elf_image *img;
  struct dipc_validated *out;
  char *err;
  size_t errlen;
  int sealed; /* the object has dIPC notes: seals and back-links */
};

static int fail(struct validator *v, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(v->err, v->errlen, fmt, ap);
  va_end(ap);
  return -1;
}

/* Record i of a kind, copied out of the file (records are 8-aligned in
 * memory, but nothing promises it of a file offset). */
static void record(const struct validator *v, enum dipc_record_kind k,
                   size_t i, void *to) {
  const struct dipc_record_table *t = &v->out->tables[k];
  memcpy(to, t->bytes + i * KIND_SIZE(k), KIND_SIZE(k));
}

/* The address a self-relative field at offset `field` of record i points
 * to (wrapping, as the hardware would). */
static uint64_t target(const struct validator *v, enum dipc_record_kind k,
                       size_t i, size_t field, dipc_rel_t rel) {
  return v->out->tables[k].vaddr + i * KIND_SIZE(k) + field +
         (uint64_t)rel;
}

/* Prefix of every refusal about record i of kind k. */
#define RECORD_FMT "%s record %zu%s%s%s: "
#define RECORD_ARGS(k, i, name)                                               \
  KIND_NAME(k), (size_t)(i), (name) ? " ('" : "",               \
      (name) ? (name) : "", (name) ? "')" : ""

/* Is `at` the first byte of a name that ends inside the object's name
 * section (plain read-only loaded data, no mergeable strings)? */
static int at_name_start(const struct validator *v, uint64_t at) {
  int duplicate;
  const Elf64_Shdr *s =
      dipc_elf_section(v->img, DIPC_NAMES_SECTION, &duplicate);
  if (!s || s->sh_type != SHT_PROGBITS ||
      (s->sh_flags & ~(uint64_t)SHF_GNU_RETAIN) != SHF_ALLOC ||
      at < s->sh_addr || at - s->sh_addr >= s->sh_size)
    return 0;
  const uint8_t *name = dipc_elf_bytes(v->img, at, s->sh_addr + s->sh_size - at);
  if (!name || !memchr(name, '\0', s->sh_addr + s->sh_size - at))
    return 0;
  if (at == s->sh_addr)
    return 1;
  const uint8_t *before = dipc_elf_bytes(v->img, at - 1, 1);
  return before && *before == '\0';
}

static int is_ident_char(char c, int symbol) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c == '_' || (symbol && (c == '.' || c == '$'));
}

/* A name field: a NUL-terminated identifier in the object's file bytes.
 * Domain names make up section names (identifier characters only); entry
 * names are symbols (also '.' and '$'). */
static int name_at(struct validator *v, enum dipc_record_kind k, size_t i,
                   size_t field, dipc_rel_t rel, const char *what, int symbol,
                   const char *label, const char **name) {
  if (rel == 0)
    return fail(v, RECORD_FMT "%s: missing", RECORD_ARGS(k, i, label), what);
  uint64_t at = target(v, k, i, field, rel);
  const Elf64_Phdr *p = dipc_elf_segment(v->img, at, 1);
  if (!p || at - p->p_vaddr >= p->p_filesz)
    return fail(v, RECORD_FMT "%s: points to %#llx, outside the object's "
                "loaded bytes", RECORD_ARGS(k, i, label), what,
                (unsigned long long)at);
  if (v->sealed && !at_name_start(v, at))
    return fail(v, RECORD_FMT "%s: %#llx is not the start of a name in "
                "the plain read-only section " DIPC_NAMES_SECTION, RECORD_ARGS(k, i, label), what,
                (unsigned long long)at);
  const char *s = (const char *)v->img->file + p->p_offset + (at - p->p_vaddr);
  uint64_t room = p->p_filesz - (at - p->p_vaddr);
  for (uint64_t n = 0; n < room && n <= DIPC_MAX_NAME_LEN; ++n) {
    if (s[n] == '\0') {
      if (n == 0)
        return fail(v, RECORD_FMT "%s: empty name", RECORD_ARGS(k, i, label),
                    what);
      *name = s;
      return 0;
    }
    if (!is_ident_char(s[n], symbol))
      return fail(v, RECORD_FMT "%s: not a name (character %#x at %llu)",
                  RECORD_ARGS(k, i, label), what, (unsigned char)s[n],
                  (unsigned long long)n);
  }
  return fail(v, RECORD_FMT "%s: not a NUL-terminated name of at most %d "
              "characters", RECORD_ARGS(k, i, label), what,
              DIPC_MAX_NAME_LEN);
}

static int header_ok(struct validator *v, enum dipc_record_kind k, size_t i,
                     const struct dipc_record_header *h) {
  if (h->version != DIPC_METADATA_VERSION)
    return fail(v, "%s record %zu: version %u; this reader reads version %d",
                KIND_NAME(k), i, h->version,
                DIPC_METADATA_VERSION);
  if (h->size != KIND_SIZE(k))
    return fail(v, "%s record %zu: size %u; version %d %s records have %zu",
                KIND_NAME(k), i, h->size, DIPC_METADATA_VERSION,
                KIND_NAME(k), KIND_SIZE(k));
  return 0;
}

static int signature_ok(struct validator *v, enum dipc_record_kind k,
                        size_t i, const char *name,
                        const struct dipc_signature *s) {
  if (!DIPC_SIGNATURE_OK(s))
    return fail(v, RECORD_FMT "signature: outside the calling convention's "
                "limits (int_args %u, vec_args %u, stack_bytes %u, "
                "int_results %u, vec_results %u, x87 %u, reserved %u)",
                RECORD_ARGS(k, i, name), s->int_args, s->vec_args,
                s->stack_bytes, s->int_results, s->vec_results,
                s->x87_results, s->reserved);
  return 0;
}

static int policy_ok(struct validator *v, enum dipc_record_kind k, size_t i,
                     const char *name, const char *what, dipc_policy_t p) {
  if (p & ~KNOWN_POLICY_BITS)
    return fail(v, RECORD_FMT "%s: unknown isolation property bits %#x",
                RECORD_ARGS(k, i, name), what, p & ~KNOWN_POLICY_BITS);
  return 0;
}

/* The section dipc_<kind>_<domain>, or NULL. */
static const Elf64_Shdr *domain_section(const struct validator *v,
                                        unsigned kind, const char *domain) {
  char name[DIPC_MAX_NAME_LEN + 32];
  snprintf(name, sizeof name, "dipc_%s_%s", dipc_section_kind_name(kind),
           domain);
  int duplicate;
  return dipc_elf_section(v->img, name, &duplicate);
}

/* A domain's pages of one kind: [start, stop rounded down to a page). */
static uint64_t pages_end(const Elf64_Shdr *s) {
  return (s->sh_addr + s->sh_size) & ~(uint64_t)(DIPC_PAGE_SIZE - 1);
}

static int in_section_pages(const Elf64_Shdr *s, uint64_t at, uint64_t size) {
  return s && at >= s->sh_addr && at <= pages_end(s) &&
         size <= pages_end(s) - at;
}

/* Is the section one of a named domain's (dipc_<kind>_<name>)? Sets *kind
 * and *domain (inside the name table). */
static int parse_domain_section(const char *name, unsigned *kind,
                                const char **domain) {
  for (unsigned k = 0; k < DIPC_NUM_SECTION_KINDS; ++k) {
    size_t n = strlen(dipc_section_kind_name(k));
    if (strncmp(name, "dipc_", 5) == 0 &&
        strncmp(name + 5, dipc_section_kind_name(k), n) == 0 &&
        name[5 + n] == '_' && name[6 + n]) {
      *kind = k;
      *domain = name + 6 + n;
      return 1;
    }
  }
  return 0;
}

/* Code of the default domain: executable, outside every named domain. */
static int in_shared_code(const struct validator *v, uint64_t at) {
  const Elf64_Phdr *p = dipc_elf_segment(v->img, at, 1);
  if (!p || !(p->p_flags & PF_X) || at - p->p_vaddr >= p->p_filesz)
    return 0;
  for (unsigned i = 0; i < v->img->shnum; ++i) {
    const Elf64_Shdr *s = &v->img->sh[i];
    unsigned kind;
    const char *domain;
    if ((s->sh_flags & SHF_ALLOC) && at >= s->sh_addr &&
        at - s->sh_addr < s->sh_size)
      return (s->sh_flags & SHF_EXECINSTR) &&
             !parse_domain_section(dipc_elf_section_name(v->img, s), &kind,
                                   &domain);
  }
  return 0;
}

/* Code of a domain: its text pages, or shared code for the default one. */
static int in_domain_code(const struct validator *v, const char *domain,
                          uint64_t at) {
  if (strcmp(domain, DIPC_DEFAULT_DOMAIN) == 0)
    return in_shared_code(v, at);
  return in_section_pages(domain_section(v, DIPC_SECTION_TEXT, domain), at, 1);
}

/* Does the name field at offset `field` of record j of kind k read
 * `want`? Reads at most strlen(want) + 1 bytes of the object. */
static int name_is(const struct validator *v, unsigned k, size_t j,
                   size_t field, const char *want) {
  dipc_rel_t rel;
  memcpy(&rel, v->out->tables[k].bytes + j * KIND_SIZE(k) + field,
         sizeof rel);
  size_t n = strlen(want) + 1;
  const char *s =
      (const char *)dipc_elf_bytes(v->img, target(v, k, j, field, rel), n);
  return s && memcmp(s, want, n) == 0;
}

/* Does some domain record of the object carry this name? */
static int has_domain_record(const struct validator *v, const char *domain) {
  const enum dipc_record_kind k = DIPC_RECORD_KIND_domain;
  for (size_t i = 0; i < v->out->tables[k].count; ++i)
    if (name_is(v, k, i, offsetof(struct dipc_domain_record, name), domain))
      return 1;
  return 0;
}

/* Page ownership (DESIGN §5) and the section's kind, for one section of a
 * named domain. */
static int domain_section_ok(struct validator *v, const Elf64_Shdr *s,
                             const char *sname, unsigned kind) {
  static const struct {
    uint64_t set, clear;
    uint32_t type;
  } want[DIPC_NUM_SECTION_KINDS] = {
      [DIPC_SECTION_TEXT] = {SHF_ALLOC | SHF_EXECINSTR, SHF_WRITE,
                             SHT_PROGBITS},
      [DIPC_SECTION_RODATA] = {SHF_ALLOC, SHF_WRITE | SHF_EXECINSTR,
                               SHT_PROGBITS},
      [DIPC_SECTION_DATA] = {SHF_ALLOC | SHF_WRITE, SHF_EXECINSTR,
                             SHT_PROGBITS},
      [DIPC_SECTION_BSS] = {SHF_ALLOC | SHF_WRITE, SHF_EXECINSTR,
                            SHT_NOBITS},
  };
  if ((s->sh_flags & want[kind].set) != want[kind].set ||
      (s->sh_flags & want[kind].clear) || s->sh_type != want[kind].type)
    return fail(v, "section %s: flags %#llx or type %u do not fit a domain's "
                "%s", sname, (unsigned long long)s->sh_flags, s->sh_type,
                dipc_section_kind_name(kind));
  if (s->sh_addr % DIPC_PAGE_SIZE)
    return fail(v, "section %s: does not start on a page boundary (%#llx): "
                "its pages would be shared with other code or data",
                sname, (unsigned long long)s->sh_addr);
  uint64_t end = pages_end(s);
  if (end == s->sh_addr)
    return 0; /* only the markers are left */
  const Elf64_Phdr *p = dipc_elf_segment(v->img, s->sh_addr, end - s->sh_addr);
  int px = kind == DIPC_SECTION_TEXT, pw = kind >= DIPC_SECTION_DATA;
  if (!p || !!(p->p_flags & PF_X) != px || !!(p->p_flags & PF_W) != pw)
    return fail(v, "section %s: not in one loadable segment with the "
                "access of a domain's %s", sname,
                dipc_section_kind_name(kind));
  for (unsigned i = 0; i < v->img->shnum; ++i) {
    const Elf64_Shdr *o = &v->img->sh[i];
    if (o == s || !(o->sh_flags & SHF_ALLOC) || !o->sh_size)
      continue;
    if (o->sh_addr < end && o->sh_addr + o->sh_size > s->sh_addr)
      return fail(v, "section %s: section %s shares its pages [%#llx, "
                  "%#llx)", sname, dipc_elf_section_name(v->img, o),
                  (unsigned long long)s->sh_addr, (unsigned long long)end);
  }
  return 0;
}

/* The largest number of fields of a record (records.def). */
#define MAX_FIELDS 16

/* What the rules of the field types (records.def) found in one record: the
 * names its NAME fields hold, by field index, and the first of them, which
 * messages call the record by. */
struct record_names {
  const char *of[MAX_FIELDS];
  const char *label;
};

/* The name field `field` of a record whose fields_ok passed. */
static const char *named(unsigned k, const struct record_names *n,
                         const char *field) {
  const struct dipc_record_info *info = dipc_record_info_of(k);
  for (uint32_t f = 0; f < info->num_fields; ++f)
    if (strcmp(info->fields[f].name, field) == 0)
      return n->of[f];
  return NULL;
}

/* Every field of record i of kind k follows the rule of its type
 * (records.def): header, names, flags, permission, signature, policy and
 * reserved bytes. References to code, slots and ranges are the kind's own
 * checks (below). */
static int fields_ok(struct validator *v, unsigned k, size_t i,
                     struct record_names *n) {
  const struct dipc_record_info *info = dipc_record_info_of(k);
  const uint8_t *r = v->out->tables[k].bytes + i * info->size;
  memset(n, 0, sizeof *n);
  for (uint32_t f = 0; f < info->num_fields && f < MAX_FIELDS; ++f) {
    const struct dipc_field_info *field = &info->fields[f];
    const uint8_t *at = r + field->offset;
    uint32_t u32 = 0;
    if (field->size == sizeof u32)
      memcpy(&u32, at, sizeof u32);
    switch (field->type) {
    case DIPC_FIELD_HEADER: {
      struct dipc_record_header h;
      memcpy(&h, at, sizeof h);
      if (header_ok(v, k, i, &h))
        return -1;
      break;
    }
    case DIPC_FIELD_NAME: {
      dipc_rel_t rel;
      memcpy(&rel, at, sizeof rel);
      /* An entry's own name is a symbol; the rest name domains. */
      int symbol = k != DIPC_RECORD_KIND_domain &&
                   strcmp(field->name, "name") == 0;
      if (name_at(v, k, i, field->offset, rel, field->name, symbol, n->label,
                  &n->of[f]))
        return -1;
      if (!n->label)
        n->label = n->of[f];
      break;
    }
    case DIPC_FIELD_FLAGS:
      if (u32 & ~DIPC_DOMAIN_FLAGS)
        return fail(v, RECORD_FMT "%s: unknown bits %#x",
                    RECORD_ARGS(k, i, n->label), field->name,
                    u32 & ~DIPC_DOMAIN_FLAGS);
      break;
    case DIPC_FIELD_PERM:
      if (!DIPC_PERM_GRANTABLE(u32))
        return fail(v, RECORD_FMT "%s: %u is not %s (%d), %s (%d) or %s (%d)",
                    RECORD_ARGS(k, i, n->label), field->name, u32,
                    dipc_perm_name(DIPC_PERM_CALL), DIPC_PERM_CALL,
                    dipc_perm_name(DIPC_PERM_READ), DIPC_PERM_READ,
                    dipc_perm_name(DIPC_PERM_WRITE), DIPC_PERM_WRITE);
      break;
    case DIPC_FIELD_SIGNATURE: {
      struct dipc_signature sig;
      memcpy(&sig, at, sizeof sig);
      if (signature_ok(v, k, i, n->label, &sig))
        return -1;
      break;
    }
    case DIPC_FIELD_POLICY:
      if (policy_ok(v, k, i, n->label, field->name, u32))
        return -1;
      break;
    case DIPC_FIELD_RESERVED:
      for (uint32_t b = 0; b < field->size; ++b)
        if (at[b])
          return fail(v, RECORD_FMT "%s: must be 0", RECORD_ARGS(
                          k, i, n->label), field->name);
      break;
    default: /* CODE, SLOT, RANGES: the kind's own checks */
      break;
    }
  }
  return 0;
}

static int check_domains(struct validator *v) {
  const enum dipc_record_kind k = DIPC_RECORD_KIND_domain;
  for (size_t i = 0; i < v->out->tables[k].count; ++i) {
    struct dipc_domain_record d;
    struct record_names n;
    record(v, k, i, &d);
    if (fields_ok(v, k, i, &n))
      return -1;
    const char *name = n.label;
    int is_default = strcmp(name, DIPC_DEFAULT_DOMAIN) == 0;
    if (!!(d.flags & DIPC_DOMAIN_DEFAULT) != is_default)
      return fail(v, RECORD_FMT "flags: the default flag belongs to the "
                  "domain '" DIPC_DEFAULT_DOMAIN "' alone",
                  RECORD_ARGS(k, i, name));
    for (unsigned kind = 0; kind < DIPC_NUM_SECTION_KINDS; ++kind) {
      const dipc_rel_t *range = d.ranges[kind];
      if (!range[0] && !range[1])
        continue;
      if (is_default)
        return fail(v, RECORD_FMT "ranges: the default domain has none",
                    RECORD_ARGS(k, i, name));
      size_t field = offsetof(struct dipc_domain_record, ranges) +
                     kind * 2 * sizeof(dipc_rel_t);
      uint64_t begin = target(v, k, i, field, range[0]);
      uint64_t end = target(v, k, i, field + sizeof(dipc_rel_t), range[1]);
      const Elf64_Shdr *s = domain_section(v, kind, name);
      if (!s)
        return fail(v, RECORD_FMT "%s range: no section dipc_%s_%s",
                    RECORD_ARGS(k, i, name), dipc_section_kind_name(kind),
                    dipc_section_kind_name(kind), name);
      if (!range[0] || !range[1] || begin != s->sh_addr ||
          end != s->sh_addr + s->sh_size)
        return fail(v, RECORD_FMT "%s range: [%#llx, %#llx) is not its "
                    "section dipc_%s_%s [%#llx, %#llx)",
                    RECORD_ARGS(k, i, name), dipc_section_kind_name(kind),
                    (unsigned long long)begin, (unsigned long long)end,
                    dipc_section_kind_name(kind), name,
                    (unsigned long long)s->sh_addr,
                    (unsigned long long)(s->sh_addr + s->sh_size));
    }
  }
  return 0;
}

/* Does the stub lack the back-link to record i of kind k (dipc/note.h)?
 * Only objects with the dIPC note have back-links. */
static int stub_backlink_bad(const struct validator *v, unsigned k,
                             size_t i, uint64_t stub) {
  if (!v->sealed)
    return 0;
  if (stub < DIPC_STUB_BACKLINK_SIZE)
    return 1;
  const uint8_t *b = dipc_elf_bytes(v->img, stub - DIPC_STUB_BACKLINK_SIZE,
                                    DIPC_STUB_BACKLINK_SIZE);
  if (!b)
    return 1;
  uint64_t magic;
  int64_t link;
  memcpy(&magic, b, sizeof magic);
  memcpy(&link, b + 8, sizeof link);
  uint64_t record = v->out->tables[k].vaddr + i * KIND_SIZE(k);
  return magic != DIPC_STUB_MAGIC || stub - 8 + (uint64_t)link != record;
}

static int check_entries(struct validator *v) {
  const enum dipc_record_kind k = DIPC_RECORD_KIND_entry;
  for (size_t i = 0; i < v->out->tables[k].count; ++i) {
    struct dipc_entry_record e;
    struct record_names n;
    record(v, k, i, &e);
    if (fields_ok(v, k, i, &n))
      return -1;
    const char *name = n.label, *domain = named(k, &n, "domain");
    if (!has_domain_record(v, domain))
      return fail(v, RECORD_FMT "domain: '%s' has no domain record",
                  RECORD_ARGS(k, i, name), domain);
    uint64_t stub = target(v, k, i, offsetof(struct dipc_entry_record,
                                             callee_stub), e.callee_stub);
    uint64_t fn = target(v, k, i, offsetof(struct dipc_entry_record, function),
                         e.function);
    if (!e.callee_stub || !in_domain_code(v, domain, stub))
      return fail(v, RECORD_FMT "callee_stub: %#llx is not in the code of "
                  "domain '%s'", RECORD_ARGS(k, i, name),
                  (unsigned long long)stub, domain);
    if (stub_backlink_bad(v, k, i, stub))
      return fail(v, RECORD_FMT "callee_stub: %#llx is not the stub that "
                  "links back to this record", RECORD_ARGS(k, i, name),
                  (unsigned long long)stub);
    if (!e.function || !in_domain_code(v, domain, fn))
      return fail(v, RECORD_FMT "function: %#llx is not in the code of "
                  "domain '%s'", RECORD_ARGS(k, i, name),
                  (unsigned long long)fn, domain);
    for (size_t j = 0; j < i; ++j)
      if (name_is(v, k, j, offsetof(struct dipc_entry_record, name), name))
        return fail(v, RECORD_FMT "name: entry records %zu and %zu define "
                    "the same entry", RECORD_ARGS(k, i, name), j, i);
  }
  return 0;
}

/* An import or anycall of an entry the object defines itself is checked
 * now, as the runtime would at its first call or registration (P4): same
 * domain, signature and callee policy. */
static int matches_own_entry(struct validator *v, unsigned kind, size_t i,
                             const char *name, const char *callee,
                             const struct dipc_signature *signature,
                             dipc_policy_t callee_policy) {
  const enum dipc_record_kind ke = DIPC_RECORD_KIND_entry;
  for (size_t j = 0; j < v->out->tables[ke].count; ++j) {
    if (!name_is(v, ke, j, offsetof(struct dipc_entry_record, name), name))
      continue;
    struct dipc_entry_record e;
    record(v, ke, j, &e);
    if (!name_is(v, ke, j, offsetof(struct dipc_entry_record, domain),
                 callee))
      return fail(v, RECORD_FMT "callee_domain: '%s', but entry record %zu "
                  "defines it in another domain", RECORD_ARGS(kind, i, name),
                  callee, j);
    if (memcmp(&e.signature, signature, sizeof e.signature) != 0)
      return fail(v, RECORD_FMT "signature: differs from entry record %zu's "
                  "(P4)", RECORD_ARGS(kind, i, name), j);
    if (e.callee_policy != callee_policy)
      return fail(v, RECORD_FMT "callee_policy: %#x, entry record %zu says "
                  "%#x", RECORD_ARGS(kind, i, name), callee_policy, j,
                  e.callee_policy);
    return 0;
  }
  return 0;
}

/* Is [at, at + 8) writable data that stays writable (not RELRO)? */
static int writable_pointer(const struct validator *v, uint64_t at) {
  const Elf64_Phdr *p = dipc_elf_segment(v->img, at, sizeof(void *));
  if (!p || !(p->p_flags & PF_W))
    return 0;
  for (unsigned i = 0; i < v->img->eh->e_phnum; ++i) {
    const Elf64_Phdr *r = &v->img->ph[i];
    if (r->p_type == PT_GNU_RELRO && at + sizeof(void *) > r->p_vaddr &&
        at < r->p_vaddr + r->p_memsz)
      return 0;
  }
  return 1;
}

static int check_imports(struct validator *v) {
  const enum dipc_record_kind k = DIPC_RECORD_KIND_import;
  int duplicate;
  const Elf64_Shdr *slots = dipc_elf_section(v->img, DIPC_SLOTS_SECTION,
                                             &duplicate);
  for (size_t i = 0; i < v->out->tables[k].count; ++i) {
    struct dipc_import_record m;
    struct record_names n;
    record(v, k, i, &m);
    if (fields_ok(v, k, i, &n))
      return -1;
    const char *name = n.label, *domain = named(k, &n, "domain"),
               *callee = named(k, &n, "callee_domain");
    if (!has_domain_record(v, domain))
      return fail(v, RECORD_FMT "domain: '%s' has no domain record",
                  RECORD_ARGS(k, i, name), domain);
    uint64_t slot = target(v, k, i, offsetof(struct dipc_import_record, slot),
                           m.slot);
    /* Where the calling domain's stubs read it: its own memory. */
    int is_default = strcmp(domain, DIPC_DEFAULT_DOMAIN) == 0;
    const Elf64_Shdr *home =
        is_default ? slots : domain_section(v, DIPC_SECTION_DATA, domain);
    if (is_default && slots &&
        (slots->sh_type != SHT_PROGBITS ||
         (slots->sh_flags & (SHF_ALLOC | SHF_WRITE | SHF_EXECINSTR)) !=
             (SHF_ALLOC | SHF_WRITE)))
      return fail(v, "section " DIPC_SLOTS_SECTION ": not writable loaded "
                  "data");
    int inside = home && (is_default ? slot >= home->sh_addr &&
                                           slot - home->sh_addr < home->sh_size
                                     : in_section_pages(home, slot, 8));
    if (!m.slot || slot % 8 || !inside)
      return fail(v, RECORD_FMT "slot: %#llx is not a slot in the memory of "
                  "its calling domain '%s' (%s)", RECORD_ARGS(k, i, name),
                  (unsigned long long)slot, domain,
                  is_default ? DIPC_SLOTS_SECTION : "its dipc_data_ pages");
    const char *initial = dipc_elf_reloc_symbol(v->img, slot);
    if (v->sealed &&
        (!initial || strcmp(initial, DIPC_UNRESOLVED_IMPORT_SYMBOL) != 0))
      return fail(v, RECORD_FMT "slot: %#llx is not a slot (a pointer the "
                  "dynamic linker sets to " DIPC_UNRESOLVED_IMPORT_SYMBOL ")",
                  RECORD_ARGS(k, i, name), (unsigned long long)slot);
    if (!writable_pointer(v, slot))
      return fail(v, RECORD_FMT "slot: %#llx is not in data that stays "
                  "writable", RECORD_ARGS(k, i, name),
                  (unsigned long long)slot);
    if (matches_own_entry(v, k, i, name, callee, &m.signature,
                          m.callee_policy))
      return -1;
    /* Several translation units' records share one slot: they must be the
     * same import, or two imports would be bound through one slot. */
    for (size_t j = 0; j < i; ++j) {
      struct dipc_import_record o;
      record(v, k, j, &o);
      if (target(v, k, j, offsetof(struct dipc_import_record, slot), o.slot) !=
          slot)
        continue;
      int same =
          !memcmp(&o.signature, &m.signature, sizeof m.signature) &&
          o.caller_policy == m.caller_policy &&
          o.callee_policy == m.callee_policy &&
          name_is(v, k, j, offsetof(struct dipc_import_record, name), name) &&
          name_is(v, k, j, offsetof(struct dipc_import_record, domain),
                  domain) &&
          name_is(v, k, j, offsetof(struct dipc_import_record, callee_domain),
                  callee);
      if (!same)
        return fail(v, RECORD_FMT "slot: shared with import record %zu, "
                    "which describes another import",
                    RECORD_ARGS(k, i, name), j);
    }
  }
  return 0;
}

static int check_anycalls(struct validator *v) {
  const enum dipc_record_kind k = DIPC_RECORD_KIND_anycall;
  for (size_t i = 0; i < v->out->tables[k].count; ++i) {
    struct dipc_anycall_record c;
    struct record_names n;
    record(v, k, i, &c);
    if (fields_ok(v, k, i, &n))
      return -1;
    const char *name = n.label, *domain = named(k, &n, "domain");
    uint64_t stub = target(v, k, i, offsetof(struct dipc_anycall_record, stub),
                           c.stub);
    if (!c.stub || !in_shared_code(v, stub))
      return fail(v, RECORD_FMT "stub: %#llx is not in shared code",
                  RECORD_ARGS(k, i, name), (unsigned long long)stub);
    if (stub_backlink_bad(v, k, i, stub))
      return fail(v, RECORD_FMT "stub: %#llx is not the stub that links back "
                  "to this record", RECORD_ARGS(k, i, name),
                  (unsigned long long)stub);
    if (matches_own_entry(v, k, i, name, domain, &c.signature,
                          c.callee_policy))
      return -1;
    for (size_t j = 0; j < i; ++j) {
      struct dipc_anycall_record o;
      record(v, k, j, &o);
      if (target(v, k, j, offsetof(struct dipc_anycall_record, stub),
                 o.stub) == stub)
        return fail(v, RECORD_FMT "stub: also the stub of anycall record "
                    "%zu", RECORD_ARGS(k, i, name), j);
    }
  }
  return 0;
}

static int check_grants(struct validator *v) {
  const enum dipc_record_kind k = DIPC_RECORD_KIND_grant;
  for (size_t i = 0; i < v->out->tables[k].count; ++i) {
    struct record_names n;
    if (fields_ok(v, k, i, &n))
      return -1;
    const char *from = named(k, &n, "from");
    if (!has_domain_record(v, from))
      return fail(v, RECORD_FMT "from: '%s' has no domain record",
                  RECORD_ARGS(k, i, from), from);
  }
  return 0;
}

/* Locates one kind's record section: loaded data, whole records, address
 * and file offset agreeing with its segment. (Writable in a shared object
 * whose records refer to preemptible symbols: the loader checks that no
 * relocation changed them, loader/metadata.c.) */
static int find_table(struct validator *v, enum dipc_record_kind k) {
  const char *sname = KIND_SECTION(k);
  int duplicate;
  const Elf64_Shdr *s = dipc_elf_section(v->img, sname, &duplicate);
  struct dipc_record_table *t = &v->out->tables[k];
  if (duplicate)
    return fail(v, "section %s: appears more than once", sname);
  if (!s)
    return 0;
  if (s->sh_type != SHT_PROGBITS || !(s->sh_flags & SHF_ALLOC) ||
      (s->sh_flags & SHF_EXECINSTR) || s->sh_addr % 8)
    return fail(v, "section %s: not aligned loaded data (type %u, "
                "flags %#llx, address %#llx)", sname, s->sh_type,
                (unsigned long long)s->sh_flags,
                (unsigned long long)s->sh_addr);
  if (s->sh_size % KIND_SIZE(k))
    return fail(v, "section %s: %llu bytes, not a whole number of %zu-byte "
                "%s records", sname, (unsigned long long)s->sh_size,
                KIND_SIZE(k), KIND_NAME(k));
  const Elf64_Phdr *p = dipc_elf_segment(v->img, s->sh_addr, s->sh_size);
  if (!p || s->sh_offset != p->p_offset + (s->sh_addr - p->p_vaddr) ||
      s->sh_addr - p->p_vaddr > p->p_filesz ||
      s->sh_size > p->p_filesz - (s->sh_addr - p->p_vaddr))
    return fail(v, "section %s: [%#llx, +%#llx) at file offset %#llx is not "
                "where a loadable segment maps it", sname,
                (unsigned long long)s->sh_addr,
                (unsigned long long)s->sh_size,
                (unsigned long long)s->sh_offset);
  t->vaddr = s->sh_addr;
  t->bytes = v->img->file + s->sh_offset;
  t->count = s->sh_size / KIND_SIZE(k);
  return 0;
}

/* Is the section's name one of the contract's: a record section, the
 * slots or a domain's section? */
static int contract_section(const char *name) {
  unsigned kind;
  const char *domain;
  if (strcmp(name, DIPC_SLOTS_SECTION) == 0 ||
      strcmp(name, DIPC_NAMES_SECTION) == 0 ||
      parse_domain_section(name, &kind, &domain))
    return 1;
  for (unsigned k = 0; k < DIPC_NUM_RECORD_KINDS; ++k)
    if (strcmp(name, KIND_SECTION(k)) == 0)
      return 1;
  return 0;
}

/* Does the object have a section of the contract? (Other dipc_ names are
 * not the contract's: the runtime's own objects use some.) */
static int any_contract_section(const struct validator *v) {
  for (unsigned i = 0; i < v->img->shnum; ++i)
    if (contract_section(dipc_elf_section_name(v->img, &v->img->sh[i])))
      return 1;
  return 0;
}

/* In a dIPC object, every dipc_ section is one of the contract's: a name
 * damaged into another dipc_ name is refused, not ignored. */
static int known_sections(struct validator *v) {
  for (unsigned i = 0; i < v->img->shnum; ++i) {
    const char *n = dipc_elf_section_name(v->img, &v->img->sh[i]);
    if (strncmp(n, "dipc_", 5) == 0 && !contract_section(n))
      return fail(v, "section %s: not a dIPC section this reader knows", n);
  }
  return 0;
}

/* Each named domain's section is described by a domain record, and keeps
 * its pages to itself. */
static int domain_sections(struct validator *v) {
  for (unsigned i = 0; i < v->img->shnum; ++i) {
    const Elf64_Shdr *s = &v->img->sh[i];
    const char *n = dipc_elf_section_name(v->img, s);
    unsigned kind;
    const char *domain;
    if (!parse_domain_section(n, &kind, &domain))
      continue;
    if (domain_section_ok(v, s, n, kind))
      return -1;
    int described = 0;
    const struct dipc_record_table *t = &v->out->tables[DIPC_RECORD_KIND_domain];
    for (size_t r = 0; !described && r < t->count; ++r) {
      struct dipc_domain_record d;
      record(v, DIPC_RECORD_KIND_domain, r, &d);
      described = name_is(v, DIPC_RECORD_KIND_domain, r,
                          offsetof(struct dipc_domain_record, name), domain) &&
                  (d.ranges[kind][0] || d.ranges[kind][1]);
    }
    if (!described)
      return fail(v, "section %s: no domain record describes it, so its "
                  "%s would not be isolated", n,
                  kind == DIPC_SECTION_TEXT ? "code" : "data");
  }
  return 0;
}

struct note_sum {
  struct validator *v;
  unsigned notes;
  uint64_t counts[DIPC_NUM_RECORD_KINDS];
  uint32_t most_anycalls; /* the largest unit's anycall count */
};

static int add_note(void *ctx, const char *name, uint32_t type,
                    const uint8_t *desc, uint32_t descsz) {
  struct note_sum *sum = ctx;
  if (strcmp(name, DIPC_NOTE_NAME) != 0)
    return 0;
  struct dipc_note_records n;
  int sfi = type == DIPC_NOTE_TYPE_RECORDS_SFI;
  if ((type != DIPC_NOTE_TYPE_RECORDS && !sfi) || descsz != sizeof n)
    return fail(sum->v, "dIPC note: type %u, %u bytes; this reader reads "
                "types %d and %d, %zu bytes", type, descsz,
                DIPC_NOTE_TYPE_RECORDS, DIPC_NOTE_TYPE_RECORDS_SFI, sizeof n);
  memcpy(&n, desc, sizeof n);
  if (n.version != DIPC_METADATA_VERSION)
    return fail(sum->v, "dIPC note: version %u; this reader reads version %d",
                n.version, DIPC_METADATA_VERSION);
  ++sum->notes;
  sum->v->out->sfi_units += sfi;
  sum->counts[DIPC_RECORD_KIND_domain] += n.domains;
  sum->counts[DIPC_RECORD_KIND_entry] += n.entries;
  sum->counts[DIPC_RECORD_KIND_import] += n.imports;
  sum->counts[DIPC_RECORD_KIND_grant] += n.grants;
  sum->counts[DIPC_RECORD_KIND_anycall] += n.anycalls;
  if (n.anycalls > sum->most_anycalls)
    sum->most_anycalls = n.anycalls;
  return 0;
}

/* Adds record i of kind k to a seal, as the compiler did (dipc/note.h). */
static uint64_t seal_record(const struct validator *v, unsigned k, size_t i,
                            uint64_t seal) {
  const struct dipc_record_info *info = dipc_record_info_of(k);
  const uint8_t *r = v->out->tables[k].bytes + i * info->size;
  for (uint32_t f = 0; f < info->num_fields; ++f) {
    const struct dipc_field_info *field = &info->fields[f];
    const uint8_t *at = r + field->offset;
    switch (field->type) {
    case DIPC_FIELD_NAME: {
      dipc_rel_t rel;
      memcpy(&rel, at, sizeof rel);
      uint64_t addr = target(v, k, i, field->offset, rel);
      /* Validated: a NUL-terminated name in the file's bytes. */
      const char *name = (const char *)dipc_elf_bytes(v->img, addr, 1);
      seal = dipc_seal(seal, name, strlen(name) + 1);
      break;
    }
    case DIPC_FIELD_CODE:
    case DIPC_FIELD_SLOT:
    case DIPC_FIELD_RANGES:
      for (uint32_t o = 0; o < field->size; o += sizeof(dipc_rel_t)) {
        dipc_rel_t rel;
        memcpy(&rel, at + o, sizeof rel);
        uint8_t set = rel != 0;
        seal = dipc_seal(seal, &set, 1);
      }
      break;
    default:
      seal = dipc_seal(seal, at, field->size);
    }
  }
  return seal;
}

struct seal_walk {
  struct validator *v;
  size_t next[DIPC_NUM_RECORD_KINDS]; /* first record of the next unit */
  unsigned unit;
};

/* One translation unit's note: its run of records has its seal. */
static int check_unit_seal(void *ctx, const char *name, uint32_t type,
                           const uint8_t *desc, uint32_t descsz) {
  struct seal_walk *w = ctx;
  (void)type;
  (void)descsz;
  if (strcmp(name, DIPC_NOTE_NAME) != 0)
    return 0;
  struct dipc_note_records n;
  memcpy(&n, desc, sizeof n); /* checked by add_note */
  const uint32_t counts[] = {
      [DIPC_RECORD_KIND_domain] = n.domains,
      [DIPC_RECORD_KIND_entry] = n.entries,
      [DIPC_RECORD_KIND_import] = n.imports,
      [DIPC_RECORD_KIND_grant] = n.grants};
  static const unsigned order[] = {
      DIPC_RECORD_KIND_domain, DIPC_RECORD_KIND_entry,
      DIPC_RECORD_KIND_import, DIPC_RECORD_KIND_grant};
  uint64_t seal = DIPC_SEAL_BASIS;
  for (unsigned o = 0; o < sizeof order / sizeof order[0]; ++o) {
    unsigned k = order[o];
    for (uint32_t j = 0; j < counts[k]; ++j)
      seal = seal_record(w->v, k, w->next[k] + j, seal);
    w->next[k] += counts[k];
  }
  if (seal != n.seal)
    return fail(w->v, "dIPC note %u: its records (domain %zu.., entry %zu.., "
                "import %zu.., grant %zu..) are not the ones the compiler "
                "sealed: a name, flag, signature, policy or permission "
                "was changed",
                w->unit, w->next[DIPC_RECORD_KIND_domain] - n.domains,
                w->next[DIPC_RECORD_KIND_entry] - n.entries,
                w->next[DIPC_RECORD_KIND_import] - n.imports,
                w->next[DIPC_RECORD_KIND_grant] - n.grants);
  ++w->unit;
  return 0;
}

/* -fdipc-sfi code: where the call magic sits other than right before a
 * function (out->sfi_magic_stray), and a function under a runtime name
 * (out->sfi_runtime_name), which the loader refuses under sfi. */
static int check_sfi_magic(struct validator *v) {
  int r = dipc_sfi_magic_stray(v->img, &v->out->sfi_magic_at);
  if (r < 0)
    return fail(v, "no memory to look for the sfi call magic in its code");
  v->out->sfi_magic_stray = r;
  v->out->sfi_runtime_name = dipc_sfi_runtime_name_defined(
      v->img, v->out->sfi_runtime_name_at,
      sizeof v->out->sfi_runtime_name_at);
  return 1;
}

int dipc_validate(const struct dipc_elf_image *img, struct dipc_validated *out,
                  char *err, size_t errlen) {
  struct validator v = {img, out, err, errlen, 0};
  memset(out, 0, sizeof *out);
  struct note_sum sum = {&v, 0, {0}, 0};
  if (dipc_elf_notes(img, add_note, &sum, err, errlen))
    return -1;
  int any_section = img->sh && any_contract_section(&v);
  if (!sum.notes && !any_section)
    return 0;
  v.sealed = sum.notes > 0;
  out->units = sum.notes;
  if (!img->sh)
    return fail(&v, "has dIPC notes but no section headers to find its "
                "records by");
  if (known_sections(&v))
    return -1;
  for (unsigned k = 0; k < DIPC_NUM_RECORD_KINDS; ++k)
    if (find_table(&v, k))
      return -1;
  if (!out->tables[DIPC_RECORD_KIND_domain].count)
    return fail(&v, "has dIPC %s but no domain records (section "
                DIPC_DOMAINS_SECTION " missing or empty)",
                sum.notes ? "notes" : "sections");
  size_t anycalls = out->tables[DIPC_RECORD_KIND_anycall].count;
  if (sum.notes &&
      (anycalls > sum.counts[DIPC_RECORD_KIND_anycall] ||
       anycalls < sum.most_anycalls))
    return fail(&v, "section " DIPC_ANYCALLS_SECTION ": %zu anycall records, "
                "but the object's dIPC notes count %llu of which one unit "
                "alone has %u", anycalls,
                (unsigned long long)sum.counts[DIPC_RECORD_KIND_anycall],
                sum.most_anycalls);
  for (unsigned k = 0; sum.notes && k < DIPC_NUM_RECORD_KINDS; ++k)
    if (k != DIPC_RECORD_KIND_anycall && sum.counts[k] != out->tables[k].count)
      return fail(&v, "section %s: %zu %s records, but the object's dIPC "
                  "notes count %llu", KIND_SECTION(k),
                  out->tables[k].count, KIND_NAME(k),
                  (unsigned long long)sum.counts[k]);
  if (check_domains(&v) || domain_sections(&v) || check_entries(&v) ||
      check_imports(&v) || check_grants(&v) || check_anycalls(&v))
    return -1;
  /* Last, so that a record breaking a rule is refused by that rule. */
  struct seal_walk walk = {&v, {0}, 0};
  if (v.sealed && dipc_elf_notes(img, check_unit_seal, &walk, err, errlen))
    return -1;
  return out->sfi_units ? check_sfi_magic(&v) : 1;
}

int dipc_validate_file(const char *path, struct dipc_elf_image *img,
                       struct dipc_validated *out, char *err, size_t errlen) {
  memset(img, 0, sizeof *img);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    snprintf(err, errlen, "cannot open: %s", strerror(errno));
    return -1;
  }
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size == 0) {
    close(fd);
    snprintf(err, errlen, "not a regular, non-empty file");
    return -1;
  }
  /* A private copy, not a mapping of the file: a file truncated while it
   * is read must not fault (SIGBUS) inside the loader, and the bytes
   * validated are the bytes used. */
  size_t size = st.st_size, got = 0;
  uint8_t *copy = mmap(NULL, size, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (copy == MAP_FAILED) {
    close(fd);
    snprintf(err, errlen, "cannot allocate %zu bytes: %s", size,
             strerror(errno));
    return -1;
  }
  while (got < size) {
    ssize_t n = read(fd, copy + got, size - got);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break;
    got += (size_t)n;
  }
  close(fd);
  if (dipc_elf_open(img, copy, got, err, errlen) != 0) {
    munmap(copy, size);
    memset(img, 0, sizeof *img);
    return -1;
  }
  img->mapped = size;
  int status = dipc_validate(img, out, err, errlen);
  if (status < 0)
    dipc_validate_close(img);
  return status;
}

void dipc_validate_close(struct dipc_elf_image *img) {
  if (img->file)
    munmap((void *)img->file, img->mapped);
  memset(img, 0, sizeof *img);
}

int dipc_validate_path(const char *path, char *err, size_t errlen) {
  struct dipc_elf_image img;
  struct dipc_validated v;
  int status = dipc_validate_file(path, &img, &v, err, errlen);
  if (status >= 0)
    dipc_validate_close(&img);
  return status;
}
