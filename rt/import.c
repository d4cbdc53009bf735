/* import.c - lazy imports (paper §6.2.1, steps A-B). The loader registers
 * every import slot; the runtime points it at a guard address of its own,
 * in a never-accessible region. The first call through the slot faults
 * there on the instruction fetch, with the return address pushed and every
 * argument register intact. The loader's crash handler passes the fault to
 * dipc_import_fault(), which resumes the thread in __dipc_lazy_import
 * (gate.S) on the caller's own stack and in the caller's domain; that
 * trampoline enters the API gate with OP_IMPORT_RESOLVE, which requests the
 * proxy (step A: P4 check, policies merged, call grant for the caller) and
 * patches the slot (step B), and then jumps to the proxy as if the slot had
 * held it all along. Later calls go straight to the proxy. */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include "dipc/sfi.h"
#include "internal.h"

struct import {
  uint32_t caller;      /* calling domain */
  uint32_t registrar;   /* domain that registered it, the one that binds */
  int64_t caller_owner; /* its owner handle, to create the call grant */
  int64_t entry;        /* entry-set handle, -1 until bound */
  uint32_t set;         /* its entry set, once bound */
  void **slot;
  void *proxy; /* requested on the first call */
  struct dipc_signature signature;
  dipc_policy_t policy;
  char what[DIPC_IMPORT_WHAT];
};

static struct import *imports; /* runtime key */
static uint32_t num_imports;

/* The guard region. Its bounds are also kept here, in default-domain
 * memory, for dipc_import_fault(), which runs in a signal handler with
 * only key 0 accessible. Forging them gains nothing: OP_IMPORT_RESOLVE
 * checks the guard against the runtime's own table. */
static uintptr_t guard_base;
static uint32_t guard_count;

/* Import id's guard: GUARD_STRIDE bytes apart, each right after a
 * DIPC_SFI_CALL_MAGIC, so that -fdipc-sfi caller stubs, which check the
 * target of their call like any indirect call (dipc/sfi.h), let the first
 * call reach it. The pages are readable by every domain and never
 * executable: the call still faults on its fetch at the guard. */
#define GUARD_STRIDE 8
static uintptr_t guard_of(uintptr_t base, uint32_t id) {
  return base + ((uintptr_t)id + 1) * GUARD_STRIDE;
}
/* The id whose guard pc is, or -1. */
static int64_t guard_id(uintptr_t base, uint32_t count, uintptr_t pc) {
  if (!base || pc <= base || (pc - base) % GUARD_STRIDE)
    return -1;
  uintptr_t id = (pc - base) / GUARD_STRIDE - 1;
  return id < count ? (int64_t)id : -1;
}

static void *guards_map(void) {
  size_t size = ((size_t)RT_MAX_IMPORTS + 1) * GUARD_STRIDE;
  uint32_t *g = dipc_alloc_runtime(size);
  uint32_t magic = dipc_sfi_call_magic();
  for (size_t i = 0; i < size / sizeof *g; i++)
    g[i] = magic;
  DIPC_CHECK(dipc_tag_pages(g, size, PROT_READ, RT_PKEY_STACK) == 0,
             "cannot seal the import guards");
  return g;
}

/* The runtime writes an import's slot with every right, so the slot must
 * be memory the importing domain may write: its own pages or pages its APL
 * lets it write (never runtime state or a stack), mapped writable. The
 * domain registering it (the loader, for another domain's imports) must
 * be able to write there too, unless the slot is in the importer's own
 * pages, whose owner handle it presented. */
static long slot_ok(uintptr_t slot, uint32_t importer, uint32_t registrar) {
  uintptr_t hi = slot + sizeof(void *);
  if (!slot || slot % sizeof(void *) || hi < slot)
    return -DIPC_EINVAL;
  uint32_t owner = dipc_domain_of(slot);
  if (dipc_right_on(importer, slot, hi, 0) < DIPC_PERM_WRITE ||
      (owner != importer &&
       dipc_right_on(registrar, slot, hi, 0) < DIPC_PERM_WRITE))
    return -DIPC_EPERM;
  int prot = dipc_mapping_prot(slot, hi);
  return prot >= 0 && (prot & PROT_WRITE) ? 0 : -DIPC_EINVAL;
}

static long op_register(struct dipc_gate_import_args *ia,
                        struct dipc_thread *st) {
  uint32_t caller;
  uint8_t perm;
  int64_t owner = (int64_t)ia->base.arg[0];
  int err = dipc_handle_get(owner, H_DOM, &caller, &perm);
  if (err)
    return err;
  if (perm < DIPC_PERM_OWNER)
    return -DIPC_EPERM;
  void **slot = (void **)ia->base.arg[1];
  long bad = slot_ok((uintptr_t)slot, caller, st->cur_dom);
  if (bad)
    return bad;
  /* Refused now rather than at the first call (DIPC_EXIT_REFUSED). */
  if (!dipc_signature_ok(&ia->desc.signature) ||
      (ia->desc.policy & ~DIPC_POLICY_MASK))
    return -DIPC_EINVAL;
  if (!imports) {
    /* In the window: no domain may map code where a first call lands. */
    void *guard = guards_map();
    imports = dipc_alloc_runtime(RT_MAX_IMPORTS * sizeof *imports);
    guard_base = (uintptr_t)guard;
  }
  if (num_imports == RT_MAX_IMPORTS)
    return -DIPC_ENOSPC;
  struct import *m = &imports[num_imports];
  *m = (struct import){caller, st->cur_dom, owner, -1, 0, slot,
                       NULL,   ia->desc.signature, ia->desc.policy, ""};
  memcpy(m->what, ia->what, sizeof m->what);
  m->what[sizeof m->what - 1] = '\0';
  /* The table entry exists before a thread can fault on its guard. */
  __atomic_store_n(&guard_count, num_imports + 1, __ATOMIC_RELEASE);
  __atomic_store_n(slot, (void *)guard_of(guard_base, num_imports),
                   __ATOMIC_RELEASE);
  return num_imports++;
}

/* Import ids are small integers anyone can guess: only the domain that
 * registered an import binds it. */
static long op_bind(uint64_t id, int64_t entry, const struct dipc_thread *st) {
  if (id >= num_imports || imports[id].entry >= 0)
    return -DIPC_EINVAL;
  if (imports[id].registrar != st->cur_dom)
    return -DIPC_EPERM;
  uint32_t set;
  int err = dipc_handle_get(entry, H_ENTRY, &set, NULL);
  if (err)
    return err;
  imports[id].entry = entry;
  imports[id].set = set;
  return 0;
}

/* A dropped import keeps its table row (ids stay valid) but no slot: its
 * guard is never reached again, and it is never bound or resolved. */
#define NO_DOMAIN UINT32_MAX

unsigned dipc_import_forget(uintptr_t lo, uintptr_t hi, const uint8_t *dead) {
  unsigned n = 0;
  for (uint32_t id = 0; id < num_imports; id++) {
    struct import *m = &imports[id];
    if (m->caller == NO_DOMAIN)
      continue;
    if ((uintptr_t)m->slot >= lo && (uintptr_t)m->slot < hi) {
      m->caller = m->registrar = NO_DOMAIN;
      m->slot = NULL;
      n++;
    } else if (m->entry >= 0 && dead[m->set]) {
      /* Unbound, as before its entry was loaded: the next call faults on
       * the guard and stops the process, unless the entry is loaded (and
       * bound) again first. */
      m->entry = -1;
      m->proxy = NULL;
      __atomic_store_n(m->slot, (void *)guard_of(guard_base, id),
                       __ATOMIC_RELEASE);
      n++;
    }
  }
  return n;
}

/* An import that cannot be resolved is like an undefined symbol at its
 * first call: the process stops, with the loader's refusal status. */
static _Noreturn void unresolvable(const struct import *m, const char *why) {
  fflush(NULL); /* what the program printed so far is not lost */
  fprintf(stderr, "dipc: cannot resolve %s: %s\n", m->what, why);
  _exit(DIPC_EXIT_REFUSED);
}

static long request_proxy(struct import *m) {
  struct dipc_gate_entry_args req = {.base = {.arg = {(uint64_t)m->entry, 1}}};
  req.desc[0] = (struct dipc_entry_desc){NULL, m->signature, m->policy};
  long proxies = dipc_op_entry_request(&req);
  if (proxies == -DIPC_EPROTO)
    unresolvable(m, "the caller's prototype does not match the entry's "
                    "signature (P4)");
  if (proxies < 0)
    unresolvable(m, "the runtime refused the proxy request");
  if (dipc_op_grant_create(m->caller_owner, proxies) < 0)
    unresolvable(m, "the runtime refused the call grant");
  dipc_handle_close_locked(proxies);
  m->proxy = req.desc[0].address;
  __atomic_store_n(m->slot, m->proxy, __ATOMIC_RELEASE);
  return (long)m->proxy;
}

static long op_resolve(uintptr_t guard, struct dipc_thread *st) {
  int64_t id = imports ? guard_id(guard_base, num_imports, guard) : -1;
  if (id < 0)
    return -DIPC_EINVAL;
  struct import *m = &imports[id];
  /* Only the importing domain's own call reaches the slot's guard. */
  if (st->cur_dom != m->caller)
    return -DIPC_EPERM;
  if (m->proxy)
    return (long)m->proxy; /* another thread came first */
  if (m->entry < 0)
    unresolvable(m, "no loaded object defines it");
  /* Checked again: the slot's page may have changed hands or protection
   * since it was registered. A refusal is a crash of the calling domain. */
  if (slot_ok((uintptr_t)m->slot, m->caller, m->caller))
    return -DIPC_EPERM;
  /* The import's handles are its registrar's (the loader's). */
  uint32_t acting = dipc_handle_acting();
  dipc_handle_act_for(m->registrar);
  long proxy = request_proxy(m);
  dipc_handle_act_for(acting);
  return proxy;
}

long dipc_op_import(unsigned op, struct dipc_gate_args *a,
                    struct dipc_thread *st) {
  switch (op) {
  case OP_IMPORT_REGISTER:
    return op_register((struct dipc_gate_import_args *)a, st);
  case OP_IMPORT_BIND:
    return op_bind(a->arg[0], (int64_t)a->arg[1], st);
  case OP_IMPORT_RESOLVE:
    return op_resolve(a->arg[0], st);
  }
  return -DIPC_EINVAL;
}

DIPC_EXPORT int dipc_import_fault(void *ucontext) {
  ucontext_t *uc = ucontext;
  if (!uc)
    return 0;
  DIPC_USER_WRITE(uc, sizeof *uc);
  uintptr_t pc = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
  uintptr_t base = __atomic_load_n(&guard_base, __ATOMIC_RELAXED);
  uint32_t count = __atomic_load_n(&guard_count, __ATOMIC_ACQUIRE);
  if (guard_id(base, count, pc) < 0)
    return 0;
  extern const char __dipc_lazy_import[];
  uc->uc_mcontext.gregs[REG_R11] = (greg_t)pc;
  uc->uc_mcontext.gregs[REG_RIP] = (greg_t)__dipc_lazy_import;
  return 1;
}
