/* domains.c - turns verified records into runtime objects (dipc/rt.h):
 * domains own their pages, entries are registered, grants applied, and
 * imports are resolved on their first call (paper §6.2.1, steps A-B). */
#define _GNU_SOURCE
#include "domains.h"

#include <dipc/abi.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* The loader's tables hold what the runtime's hold (dipc/limits.h): a
 * record that would overflow one is refused, naming the limit. */
#define REFUSE_FULL(object, what, limit)                                       \
  (fprintf(stderr, "dipc-loader: refusing %s: more than %d %s (" #limit ")\n", \
           object, limit, what),                                               \
   -1)

struct domain {
  char name[DIPC_DOMAIN_NAME_MAX];
  dom_t owner;
  size_t pages;
  uintptr_t heap; /* its heap region (dom_heap), 0 for the default domain */
};

struct entry {
  const char *name; /* in the object's records */
  unsigned domain;
  entry_t set;
  void *stub; /* its callee stub */
  struct dipc_signature signature;
  dipc_policy_t policy;
  const char *object;
};

struct import {
  const struct dipc_import_record *record;
  unsigned domain;
  long id;   /* the runtime's import, which owns the slot */
  int bound; /* its entry is loaded */
};

/* An entry address taken by an object: its anycall stub is registered
 * once the entry is loaded (a call through it before stops the process). */
struct anycall {
  const struct dipc_anycall_record *record;
  char *object;
  int registered;
};

struct grant {
  unsigned from, to, perm;
};

static struct domain domains[DIPC_MAX_DOMAINS];
static unsigned num_domains;
static struct entry entries[DIPC_MAX_ENTRY_SETS];
static unsigned num_entries;
/* In the loader's image, which no domain writes (not the C library's heap,
 * which is the default domain's). */
static struct import imports[DIPC_MAX_IMPORTS];
static unsigned num_imports;
static struct anycall anycalls[DIPC_MAX_IMPORTS];
static unsigned num_anycalls;
static struct grant grants[DIPC_MAX_GRANTS];
/* Pages given to domains, to name the owner of a faulting address. */
static struct {
  uintptr_t begin, end;
  unsigned domain;
} ranges[DIPC_MAX_RANGES];
static unsigned num_ranges;
static unsigned num_grants;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static const char *perm_name(unsigned perm) {
  return dipc_perm_name(perm);
}

static const char *name_of(const dipc_rel_t *field) {
  return metadata_ref(field);
}

static int domain_index(const char *name, const char *object) {
  for (unsigned i = 0; i < num_domains; ++i)
    if (strcmp(domains[i].name, name) == 0)
      return i;
  if (num_domains == DIPC_MAX_DOMAINS)
    return REFUSE_FULL(object, "domains", DIPC_MAX_DOMAINS);
  if (strlen(name) >= sizeof domains[0].name) {
    fprintf(stderr,
            "dipc-loader: refusing %s: domain name '%s' is longer than %d "
            "characters (DIPC_DOMAIN_NAME_MAX)\n",
            object, name, DIPC_DOMAIN_NAME_MAX - 1);
    return -1;
  }
  int is_default = strcmp(name, DIPC_DEFAULT_DOMAIN) == 0;
  dom_t owner = is_default ? dom_default() : dom_create();
  if (owner < 0) {
    fprintf(stderr, "dipc-loader: %s: cannot create domain '%s': error %ld\n",
            object, name, (long)-owner);
    return -1;
  }
  /* The runtime knows it by name too: reports, its callee stack size. */
  long err = is_default ? 0 : dipc_domain_name(owner, name);
  if (err < 0) {
    fprintf(stderr, "dipc-loader: %s: cannot name domain '%s': error %ld\n",
            object, name, -err);
    return -1;
  }
  struct domain *d = &domains[num_domains];
  snprintf(d->name, sizeof d->name, "%s", name);
  d->owner = owner;
  void *heap = dom_heap(owner);
  d->heap = dipc_ptr_err(heap) ? 0 : (uintptr_t)heap;
  __atomic_store_n(&num_domains, num_domains + 1, __ATOMIC_RELEASE);
  return num_domains - 1;
}

/* The objects linked into one file each have a record of a domain they
 * share, naming the same linked sections: its pages are given once. */
static int given_to(int d, uintptr_t begin, uintptr_t end) {
  for (unsigned i = 0; i < num_ranges; ++i)
    if (ranges[i].begin == begin && ranges[i].end == end &&
        ranges[i].domain == (unsigned)d)
      return 1;
  return 0;
}

static int apply_domain(const struct object_metadata *object,
                        const struct dipc_domain_record *record) {
  const char *name = name_of(&record->name);
  int d = domain_index(name, object->path);
  if (d < 0)
    return -1;
  if (record->flags & DIPC_DOMAIN_DEFAULT)
    return 0;
  for (int kind = 0; kind < DIPC_NUM_SECTION_KINDS; ++kind) {
    const dipc_rel_t *range = record->ranges[kind];
    if (!range[0])
      continue;
    uintptr_t begin = (uintptr_t)metadata_ref(&range[0]);
    uintptr_t end = (uintptr_t)metadata_ref(&range[1]) & -DIPC_PAGE_SIZE;
    if (end <= begin || given_to(d, begin, end))
      continue;
    if (num_ranges == DIPC_MAX_RANGES)
      return REFUSE_FULL(object->path, "page ranges of domains",
                         DIPC_MAX_RANGES);
    int err =
        dom_remap(domains[d].owner, dom_default(), (void *)begin, end - begin);
    if (err) {
      fprintf(stderr,
              "dipc-loader: refusing %s: pages %#lx-%#lx of domain '%s' "
              "cannot be given to it (error %d: they overlap another "
              "domain or are not mapped)\n",
              object->path, (unsigned long)begin, (unsigned long)end, name,
              -err);
      return -1;
    }
    domains[d].pages += (end - begin) / DIPC_PAGE_SIZE;
    ranges[num_ranges++] = (typeof(ranges[0])){begin, end, d};
  }
  return 0;
}

static int apply_entry(const struct object_metadata *object,
                       const struct dipc_entry_record *record) {
  const char *name = name_of(&record->name);
  for (unsigned i = 0; i < num_entries; ++i)
    if (strcmp(entries[i].name, name) == 0) {
      fprintf(stderr,
              "dipc-loader: refusing %s: entry '%s' is already defined by "
              "%s\n",
              object->path, name, entries[i].object);
      return -1;
    }
  int d = domain_index(name_of(&record->domain), object->path);
  if (d < 0)
    return -1;
  if (num_entries == DIPC_MAX_ENTRY_SETS)
    return REFUSE_FULL(object->path, "entries", DIPC_MAX_ENTRY_SETS);
  struct dipc_entry_desc desc = {(void *)metadata_ref(&record->callee_stub),
                                 record->signature, record->callee_policy};
  entry_t set = entry_register(domains[d].owner, 1, &desc);
  if (set < 0) {
    fprintf(stderr,
            "dipc-loader: refusing %s: entry '%s' of domain '%s' cannot be "
            "registered (error %ld: its stub must lie in the domain's "
            "pages)\n",
            object->path, name, domains[d].name, (long)-set);
    return -1;
  }
  entries[num_entries++] =
      (struct entry){name,         d, set, desc.address, record->signature,
                     record->callee_policy, object->path};
  return 0;
}

static int apply_grant(const struct object_metadata *object,
                       const struct dipc_grant_record *record) {
  int from = domain_index(name_of(&record->from), object->path);
  int to = domain_index(name_of(&record->to), object->path);
  if (from < 0 || to < 0)
    return -1;
  for (unsigned i = 0; i < num_grants; ++i)
    if (grants[i].from == (unsigned)from && grants[i].to == (unsigned)to &&
        grants[i].perm >= record->perm)
      return 0;
  if (num_grants == DIPC_MAX_GRANTS)
    return REFUSE_FULL(object->path, "grants", DIPC_MAX_GRANTS);
  dom_t access = dom_copy(domains[to].owner, record->perm);
  long err = access < 0 ? access : grant_create(domains[from].owner, access);
  if (access >= 0)
    dipc_handle_close(access);
  if (err < 0) {
    fprintf(stderr,
            "dipc-loader: refusing %s: cannot grant domain '%s' %s access "
            "to '%s' (error %ld)\n",
            object->path, domains[from].name, perm_name(record->perm),
            domains[to].name, -err);
    return -1;
  }
  grants[num_grants++] = (struct grant){from, to, record->perm};
  return 0;
}

/* An import bound to an entry of the wrong domain is like a symbol of the
 * wrong type: the object is refused. */
static int refuse_import(const struct object_metadata *object,
                         const struct import *m, const char *why) {
  fprintf(stderr,
          "dipc-loader: refusing %s: cannot resolve entry '%s' of domain "
          "'%s' called from domain '%s': %s\n",
          object->path, name_of(&m->record->name),
          name_of(&m->record->callee_domain), domains[m->domain].name, why);
  return -1;
}

/* The runtime owns the slot from here on: it points it at a guard address
 * whose first call requests the proxy (paper §6.2.1, steps A-B; see
 * dipc_import_register). */
static int apply_import(const struct object_metadata *object,
                        const struct dipc_import_record *record) {
  int d = domain_index(name_of(&record->domain), object->path);
  if (d < 0)
    return -1;
  if (num_imports == DIPC_MAX_IMPORTS)
    return REFUSE_FULL(object->path, "imports", DIPC_MAX_IMPORTS);
  struct import *m = &imports[num_imports];
  *m = (struct import){record, d, -1, 0};
  char what[DIPC_IMPORT_WHAT];
  snprintf(
      what, sizeof what, "entry '%s' of domain '%s' called from domain '%s'",
      name_of(&record->name), name_of(&record->callee_domain), domains[d].name);
  m->id = dipc_import_register(domains[d].owner,
                               (void **)metadata_ref(&record->slot),
                               &record->signature, record->caller_policy, what);
  if (m->id < 0) {
    fprintf(stderr,
            "dipc-loader: refusing %s: cannot register the import of %s (error "
            "%ld)\n",
            object->path, what, -m->id);
    return -1;
  }
  ++num_imports;
  return 0;
}

/* The loaded entry called `name`, or NULL. */
static const struct entry *loaded_entry(const char *name) {
  for (unsigned j = 0; j < num_entries; ++j)
    if (strcmp(entries[j].name, name) == 0)
      return &entries[j];
  return NULL;
}

/* Binds every import whose entry is loaded by now; imports of entries not
 * loaded yet are bound after a later dlopen, or stop the process at their
 * first call. */
static int bind_imports(const struct object_metadata *object) {
  for (unsigned i = 0; i < num_imports; ++i) {
    struct import *m = &imports[i];
    if (m->bound)
      continue;
    const struct entry *e = loaded_entry(name_of(&m->record->name));
    if (!e)
      continue;
    if (strcmp(domains[e->domain].name, name_of(&m->record->callee_domain)))
      return refuse_import(object, m, "it is defined in another domain");
    int err = dipc_import_bind(m->id, e->set);
    if (err)
      return refuse_import(object, m, "the runtime refused to bind it");
    m->bound = 1;
  }
  return 0;
}

static int apply_anycall(const struct object_metadata *object,
                         const struct dipc_anycall_record *record) {
  if (num_anycalls == DIPC_MAX_IMPORTS)
    return REFUSE_FULL(object->path, "entry addresses", DIPC_MAX_IMPORTS);
  char *path = strdup(object->path);
  if (!path) {
    perror("dipc-loader: anycall table");
    return -1;
  }
  anycalls[num_anycalls++] = (struct anycall){record, path, 0};
  return 0;
}

static int refuse_anycall(const struct anycall *c, const char *why) {
  fprintf(stderr,
          "dipc-loader: refusing %s: cannot register the address of entry "
          "'%s' of domain '%s': %s\n",
          c->object, name_of(&c->record->name), name_of(&c->record->domain),
          why);
  return -1;
}

/* Registers the anycall stub of every entry address whose entry is loaded
 * by now (docs/abi.md §4). */
static int bind_anycalls(void) {
  for (unsigned i = 0; i < num_anycalls; ++i) {
    struct anycall *c = &anycalls[i];
    if (c->registered)
      continue;
    const struct entry *e = loaded_entry(name_of(&c->record->name));
    if (!e)
      continue;
    if (strcmp(domains[e->domain].name, name_of(&c->record->domain)))
      return refuse_anycall(c, "it is defined in another domain");
    long err = dipc_anycall_register(
        e->set, (void *)metadata_ref(&c->record->stub), &c->record->signature);
    if (err == -DIPC_EPROTO)
      return refuse_anycall(c, "its declaration's prototype does not match "
                               "the entry's signature (P4)");
    if (err == -DIPC_EEXIST)
      return refuse_anycall(c, "its stub's address is already registered");
    if (err)
      return refuse_anycall(c, "the runtime refused its stub");
    c->registered = 1;
  }
  return 0;
}

int domains_apply(const struct object_metadata *object) {
  int status = 0;
  pthread_mutex_lock(&lock);
#define EACH(array, type, fn)                                                  \
  for (size_t i = 0; status == 0 && i < object->array.count; ++i)              \
    status = fn(object, METADATA_RECORD(object->array, type, i));
  /* Entries need their domain's pages; grants and imports need domains. */
  EACH(domains, struct dipc_domain_record, apply_domain)
  EACH(entries, struct dipc_entry_record, apply_entry)
  EACH(grants, struct dipc_grant_record, apply_grant)
  EACH(imports, struct dipc_import_record, apply_import)
  EACH(anycalls, struct dipc_anycall_record, apply_anycall)
#undef EACH
  if (status == 0)
    status = bind_imports(object);
  if (status == 0)
    status = bind_anycalls();
  pthread_mutex_unlock(&lock);
  return status;
}

/* ---- cross-process (xproc_listen.c, xproc_connect.c) --------------------- */

void domains_each_entry(domains_entry_fn fn, void *arg) {
  pthread_mutex_lock(&lock);
  for (unsigned i = 0; i < num_entries; ++i)
    fn(entries[i].name, domains[entries[i].domain].name, entries[i].stub,
       &entries[i].signature, entries[i].policy, arg);
  pthread_mutex_unlock(&lock);
}

void domains_each_missing_entry(const char *domain, domains_missing_fn fn,
                                void *arg) {
  pthread_mutex_lock(&lock);
  for (unsigned i = 0; i < num_imports; ++i) {
    const struct import *m = &imports[i];
    const char *name = name_of(&m->record->name);
    if (m->bound ||
        strcmp(name_of(&m->record->callee_domain), domain))
      continue;
    int seen = 0; /* several objects or domains may import it */
    for (unsigned j = 0; j < i && !seen; ++j)
      seen = !imports[j].bound &&
             !strcmp(name_of(&imports[j].record->name), name) &&
             !strcmp(name_of(&imports[j].record->callee_domain), domain);
    if (!seen)
      fn(name, &m->record->signature, arg);
  }
  pthread_mutex_unlock(&lock);
}

int domains_define_remote(const char *domain, void *code, size_t len,
                          const char *const *names, void *const *stubs,
                          const struct dipc_signature *signatures,
                          unsigned count) {
  static const char who[] = "--connect";
  int status = -1;
  pthread_mutex_lock(&lock);
  int d = domain_index(domain, who);
  if (d < 0 || num_ranges == DIPC_MAX_RANGES ||
      num_entries + count > DIPC_MAX_ENTRY_SETS)
    goto out;
  int err = dom_remap(domains[d].owner, dom_default(), code, len);
  if (err) {
    fprintf(stderr, "dipc-loader: %s: cannot give domain '%s' its thunks "
            "(error %d)\n", who, domain, -err);
    goto out;
  }
  ranges[num_ranges++] =
      (typeof(ranges[0])){(uintptr_t)code, (uintptr_t)code + len, d};
  /* Under mpk the loader runs on the other's behalf in calls to it (the
   * thunks' xproc_enter, the delegation of its system calls), as that
   * domain: it may write the default domain's memory, the loader's. The
   * importer trusts the other process as a library it loads
   * (docs/cross-process.md §8); not the other way round. */
  if (!strcmp(dipc_backend(), "mpk")) {
    dom_t access = dom_copy(dom_default(), DIPC_PERM_WRITE);
    long gerr = access < 0 ? access
                           : grant_create(domains[d].owner, access);
    if (access >= 0)
      dipc_handle_close(access);
    if (gerr < 0) {
      fprintf(stderr, "dipc-loader: %s: cannot let domain '%s' write the "
              "default domain's memory (error %ld)\n", who, domain, -gerr);
      goto out;
    }
  }
  for (unsigned k = 0; k < count; ++k) {
    struct dipc_entry_desc desc = {stubs[k], signatures[k], 0};
    entry_t set = entry_register(domains[d].owner, 1, &desc);
    if (set < 0) {
      fprintf(stderr, "dipc-loader: %s: cannot register entry '%s' of "
              "domain '%s' (error %ld)\n", who, names[k], domain, (long)-set);
      goto out;
    }
    entries[num_entries++] = (struct entry){
        names[k], d, set, stubs[k], signatures[k], 0, who};
  }
  status = 0;
  for (unsigned i = 0; status == 0 && i < num_imports; ++i) {
    struct import *m = &imports[i];
    if (m->bound)
      continue;
    const struct entry *e = loaded_entry(name_of(&m->record->name));
    if (!e || e->domain != (unsigned)d)
      continue;
    if (dipc_import_bind(m->id, e->set) != 0) {
      fprintf(stderr, "dipc-loader: %s: cannot bind the import of '%s'\n",
              who, e->name);
      status = -1;
    }
    m->bound = 1;
  }
out:
  pthread_mutex_unlock(&lock);
  return status;
}

int domains_open_to_default(void) {
  int status = 0;
  pthread_mutex_lock(&lock);
  for (unsigned d = 0; d < num_domains && status == 0; ++d) {
    dom_t access = dom_copy(domains[d].owner, DIPC_PERM_WRITE);
    long err = access < 0 ? access : grant_create(dom_default(), access);
    if (access >= 0)
      dipc_handle_close(access);
    if (err < 0) {
      fprintf(stderr, "dipc-loader: --listen: cannot let the default "
              "domain write domain '%s' (error %ld)\n", domains[d].name,
              -err);
      status = -1;
    }
  }
  pthread_mutex_unlock(&lock);
  return status;
}

static int inside(const void *p, uintptr_t lo, uintptr_t hi) {
  return (uintptr_t)p >= lo && (uintptr_t)p < hi;
}

void domains_forget(uintptr_t lo, uintptr_t hi) {
  pthread_mutex_lock(&lock);
  unsigned n = 0;
  for (unsigned i = 0; i < num_ranges; ++i)
    if (ranges[i].begin >= lo && ranges[i].end <= hi)
      domains[ranges[i].domain].pages -=
          (ranges[i].end - ranges[i].begin) / DIPC_PAGE_SIZE;
    else
      ranges[n++] = ranges[i];
  __atomic_store_n(&num_ranges, n, __ATOMIC_RELEASE);
  n = 0;
  for (unsigned i = 0; i < num_entries; ++i)
    if (!inside(entries[i].name, lo, hi))
      entries[n++] = entries[i];
    else
      dipc_handle_close(entries[i].set); /* stale already: the runtime */
  num_entries = n;
  n = 0;
  for (unsigned i = 0; i < num_imports; ++i) {
    struct import *m = &imports[i];
    if (inside(m->record, lo, hi))
      continue;
    /* The runtime unbound it with its entry's set. */
    if (m->bound && !loaded_entry(name_of(&m->record->name)))
      m->bound = 0;
    imports[n++] = *m;
  }
  num_imports = n;
  n = 0;
  for (unsigned i = 0; i < num_anycalls; ++i) {
    struct anycall *c = &anycalls[i];
    if (inside(c->record, lo, hi)) {
      free(c->object);
      continue;
    }
    if (c->registered && !loaded_entry(name_of(&c->record->name)))
      c->registered = 0;
    anycalls[n++] = *c;
  }
  num_anycalls = n;
  pthread_mutex_unlock(&lock);
}

const char *domains_owner_of(uintptr_t addr) {
  for (unsigned i = 0; i < num_ranges; ++i)
    if (addr >= ranges[i].begin && addr < ranges[i].end)
      return domains[ranges[i].domain].name;
  unsigned n = __atomic_load_n(&num_domains, __ATOMIC_ACQUIRE);
  for (unsigned i = 0; i < n; ++i)
    if (domains[i].heap && addr - domains[i].heap < DIPC_HEAP_STRIDE)
      return domains[i].name;
  return NULL;
}

const char *domains_name_of_heap(uintptr_t region) {
  unsigned n = __atomic_load_n(&num_domains, __ATOMIC_ACQUIRE);
  for (unsigned i = 0; i < n; ++i)
    if (domains[i].heap == region)
      return domains[i].name;
  return NULL;
}

dom_t domains_handle_named(const char *name) {
  dom_t h = -DIPC_ENOENT;
  pthread_mutex_lock(&lock);
  for (unsigned i = 0; name && i < num_domains; ++i)
    if (strcmp(domains[i].name, name) == 0)
      h = dom_copy(domains[i].owner, DIPC_PERM_OWNER);
  pthread_mutex_unlock(&lock);
  return h;
}

static void print_policy(FILE *out, dipc_policy_t policy) {
  static const char *const names[] = {DIPC_ISO_PROPERTY_NAMES};
  int any = 0;
  for (size_t i = 0; i < sizeof names / sizeof names[0]; ++i)
    if (policy & (1u << i))
      fprintf(out, "%s%s", any++ ? "," : "", names[i]);
  if (!any)
    fputs("none", out);
}

/* What each backend enforces, in a line (docs/runtime.md §1). */
static const char *backend_enforces(const char *backend) {
  if (!strcmp(backend, "mpk"))
    return "isolation enforced by protection keys on every access, the "
           "kernel's system calls filtered";
  if (!strcmp(backend, "sfi"))
    return "isolation enforced by checks compiled into -fdipc-sfi code and "
           "by libc interceptors; uninstrumented code is trusted";
  return "isolation NOT enforced";
}

void domains_print(FILE *out) {
  pthread_mutex_lock(&lock);
  struct dipc_stats stats;
  dipc_get_stats(&stats);
  fprintf(out, "dipc: backend %s (%s)\n", dipc_backend(),
          backend_enforces(dipc_backend()));
  /* Under sfi a domain's pages carry its tag (its number, which its heap
   * region gives), not a key. */
  int sfi = strcmp(dipc_backend(), "sfi") == 0;
  for (unsigned i = 0; i < num_domains; ++i) {
    int mark = sfi ? (int)(domains[i].heap ? (domains[i].heap - DIPC_HEAP_ADDR) /
                                                 DIPC_HEAP_STRIDE
                                           : 0)
                   : dipc_domain_pkey(domains[i].owner);
    const char *what = sfi ? "tag" : "protection key";
    if (domains[i].heap)
      fprintf(out, "dipc: domain %s: %zu pages, %s %d, heap %#lx-%#lx\n",
              domains[i].name, domains[i].pages, what, mark,
              (unsigned long)domains[i].heap,
              (unsigned long)(domains[i].heap + DIPC_HEAP_STRIDE));
    else
      fprintf(out, "dipc: domain %s: %zu pages, %s %d\n", domains[i].name,
              domains[i].pages, what, mark);
  }
  for (unsigned i = 0; i < num_entries; ++i) {
    const struct entry *e = &entries[i];
    fprintf(out,
            "dipc: entry %s in %s: %u int + %u vector args, %u stack bytes, "
            "%u int + %u vector results; policy ",
            e->name, domains[e->domain].name, e->signature.int_args,
            e->signature.vec_args, e->signature.stack_bytes,
            e->signature.int_results, e->signature.vec_results);
    print_policy(out, e->policy);
    fputc('\n', out);
  }
  for (unsigned i = 0; i < num_imports; ++i) {
    const struct import *m = &imports[i];
    fprintf(out, "dipc: import %s from %s to %s (%s); policy ",
            name_of(&m->record->name), domains[m->domain].name,
            name_of(&m->record->callee_domain),
            m->bound ? "proxy requested on first call" : "entry not loaded");
    print_policy(out, m->record->caller_policy);
    fputc('\n', out);
  }
  for (unsigned i = 0; i < num_anycalls; ++i) {
    const struct anycall *c = &anycalls[i];
    const char *entry = name_of(&c->record->name),
               *domain = name_of(&c->record->domain); /* verified: not NULL */
    fprintf(out, "dipc: address of %s of %s: %s\n", entry ? entry : "?",
            domain ? domain : "?",
            c->registered ? "callable from any domain" : "entry not loaded");
  }
  for (unsigned i = 0; i < num_grants; ++i)
    fprintf(out, "dipc: grant %s -> %s: %s\n", domains[grants[i].from].name,
            domains[grants[i].to].name, perm_name(grants[i].perm));
  pthread_mutex_unlock(&lock);
}

int domains_check_settings(void) {
  const char *setting = getenv("DIPC_CALLEE_STACK");
  for (const char *p = setting; p && *p;) {
    size_t len = strcspn(p, ","), name = strcspn(p, "=");
    int known = name >= len || /* the default size */
                (name == strlen(DIPC_DEFAULT_DOMAIN) &&
                 !strncmp(p, DIPC_DEFAULT_DOMAIN, name));
    for (unsigned i = 0; !known && i < num_domains; ++i)
      known =
          strlen(domains[i].name) == name && !strncmp(domains[i].name, p, name);
    if (!known) {
      fprintf(stderr,
              "dipc-loader: DIPC_CALLEE_STACK=%s (dipc-run --callee-stack): "
              "'%.*s': the program has no domain '%.*s' (its domains:",
              setting, (int)len, p, (int)name, p);
      for (unsigned i = 0; i < num_domains; ++i)
        fprintf(stderr, " %s", domains[i].name);
      fprintf(stderr, "%s)\n", num_domains ? "" : " none");
      return -1;
    }
    p += len + (p[len] == ',');
  }
  return 0;
}
