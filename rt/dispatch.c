/* dispatch.c - the trusted side of the API gate: copies the argument block
 * off the caller's stack (or its thread's unsafe stack, where -fdipc code
 * keeps a block whose address it passes on), runs one operation under the
 * global lock, and
 * leaves the image of the thread's current domain in st->cur_pkru for the
 * gate to install on the way out. */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>

#include "internal.h"

static long run(unsigned op, struct dipc_gate_args *a, struct dipc_thread *st);

/* The pthread_atfork handlers (api.c): the prepare gate returns with the
 * runtime's locks held, the parent and child gates release them. */
static struct dipc_thread *fork_owner; /* the thread holding the locks */

static long fork_op(uint64_t phase, struct dipc_thread *st) {
  switch (phase) {
  case FORK_PREPARE:
    dipc_fork_prepare();
    fork_owner = st;
    break;
  case FORK_PARENT:
  case FORK_CHILD:
    /* Only the thread that took the locks lets them go: another's call
     * would break the lock (written under it, read here by its holder). */
    if (__atomic_load_n(&fork_owner, __ATOMIC_RELAXED) != st)
      return -DIPC_EPERM;
    fork_owner = NULL;
    break;
  default:
    return -DIPC_EINVAL;
  }
  if (phase == FORK_CHILD)
    dipc_fork_child(st); /* reinitialised and taken again */
  dipc_domain_make_resident(st->cur_dom);
  st->cur_pkru = dipc_machine.pkru_rw[st->cur_dom];
  if (phase == FORK_PARENT)
    dipc_fork_parent();
  else if (phase == FORK_CHILD)
    dipc_unlock();
  return 0;
}

long dipc_dispatch(unsigned op, struct dipc_gate_args *user,
                   struct dipc_thread *st) {
  struct dipc_gate_entry_args a;
  size_t n = op == OP_ENTRY_REGISTER || op == OP_ENTRY_REQUEST ||
                     op == OP_ANYCALL_REGISTER
                 ? sizeof a
             : op == OP_IMPORT_REGISTER || op == OP_DOM_NAME
                 ? sizeof(struct dipc_gate_import_args)
                 : sizeof a.base;
  /* The gate let through a block at or above rsp on the stack in use, or
   * one in the unsafe-stack region: there it must be this thread's. */
  uintptr_t lo = (uintptr_t)user, hi = lo + n;
  int ok = dipc_in_unsafe_region(lo) ? dipc_thread_unsafe_holds(st, lo, hi)
                                     : hi > lo && hi <= st->stack_hi;
  if (!ok || op >= OP_COUNT)
    return -DIPC_EINVAL;
  memcpy(&a, user, n);
  if (op == OP_FORK)
    return fork_op(a.base.arg[0], st);
  dipc_lock();
  dipc_handle_act_for(st->cur_dom);
  long r = run(op, &a.base, st);
  dipc_domain_make_resident(st->cur_dom);
  st->cur_pkru = dipc_machine.pkru_rw[st->cur_dom];
  dipc_unlock();
  if (op != OP_THREAD_EXIT)
    memcpy(user->out, a.base.out, sizeof a.base.out);
  if (op == OP_ENTRY_REQUEST && r >= 0)
    memcpy(((struct dipc_gate_entry_args *)user)->desc, a.desc, sizeof a.desc);
  return r;
}

/* ---- domains ------------------------------------------------------------ */

static long get_dom(int64_t h, uint32_t *dom, uint8_t *perm, uint8_t need) {
  uint8_t p;
  int err = dipc_handle_get(h, H_DOM, dom, &p);
  if (err)
    return err;
  if (perm)
    *perm = p;
  return p >= need ? 0 : -DIPC_EPERM;
}

/* Table 2's owner handle is the process's: code of the default domain gets
 * it; code running in a named domain gets what its APL already gives it on
 * the default domain (nil, call, read or write), never more. */
static long op_dom_default(uint32_t cur) {
  uint8_t perm = cur == 0 ? DIPC_PERM_OWNER : dipc_apl_get(cur, 0);
  return dipc_handle_new(H_DOM, 0, perm);
}

static long op_dom_create(void) {
  uint32_t d;
  int err = dipc_domain_new(&d, 1);
  return err ? err : dipc_handle_new(H_DOM, d, DIPC_PERM_OWNER);
}

static long op_dom_copy(int64_t h, int64_t perm) {
  uint32_t d;
  uint8_t have;
  long err = get_dom(h, &d, &have, DIPC_PERM_NIL);
  if (err)
    return err;
  if (perm < DIPC_PERM_NIL || perm > DIPC_PERM_OWNER)
    return -DIPC_EINVAL;
  if (perm > have)
    return -DIPC_EPERM;
  return dipc_handle_new(H_DOM, d, (uint8_t)perm);
}

static long op_dom_mmap(struct dipc_gate_args *a) {
  uint32_t d;
  long err = get_dom((int64_t)a->arg[0], &d, NULL, DIPC_PERM_OWNER);
  return err ? err : dipc_op_dom_mmap(d, &a->arg[1]);
}

static long op_dom_remap(int64_t hdst, int64_t hsrc, uintptr_t addr,
                         size_t size) {
  uint32_t dst, src;
  long err = get_dom(hdst, &dst, NULL, DIPC_PERM_OWNER);
  if (!err)
    err = get_dom(hsrc, &src, NULL, DIPC_PERM_OWNER);
  return err ? err : dipc_op_dom_remap(dst, src, addr, size);
}

/* Only the default domain names domains (the loader, from the records):
 * a name picks a callee stack size (dstack.c). */
static long op_dom_name(struct dipc_gate_import_args *na,
                        const struct dipc_thread *st) {
  uint32_t d;
  if (st->cur_dom != 0)
    return -DIPC_EPERM;
  long err = get_dom((int64_t)na->base.arg[0], &d, NULL, DIPC_PERM_OWNER);
  return err ? err : dipc_op_dom_name(d, na->what, sizeof na->what);
}

/* ---- grants ------------------------------------------------------------- */

struct grant {
  uint32_t live, src, dst;
};
static struct grant *grants;

long dipc_op_grant_create(int64_t hsrc, int64_t hdst) {
  uint32_t src, dst;
  uint8_t perm;
  long err = get_dom(hsrc, &src, NULL, DIPC_PERM_OWNER);
  if (!err)
    err = get_dom(hdst, &dst, &perm, DIPC_PERM_NIL);
  if (err)
    return err;
  if (!grants)
    grants = dipc_alloc_runtime(RT_MAX_GRANTS * sizeof *grants);
  uint32_t g;
  for (g = 0; g < RT_MAX_GRANTS && grants[g].live; g++)
    ;
  if (g == RT_MAX_GRANTS)
    return -DIPC_ENOSPC;
  int64_t h = dipc_handle_new(H_GRANT, g, perm);
  if (h < 0)
    return h;
  grants[g] = (struct grant){1, src, dst};
  if (perm == DIPC_PERM_OWNER) /* CODOMs has no owner bit (paper §5.2.2) */
    perm = DIPC_PERM_WRITE;
  if (perm > dipc_apl_get(src, dst))
    dipc_apl_set(src, dst, perm);
  return h;
}

static long op_grant_revoke(int64_t h) {
  uint32_t g;
  int err = dipc_handle_get(h, H_GRANT, &g, NULL);
  if (err)
    return err;
  dipc_apl_set(grants[g].src, grants[g].dst, DIPC_PERM_NIL);
  grants[g].live = 0;
  return dipc_handle_close_locked(h);
}

/* ---- entries ------------------------------------------------------------ */

struct entry_set {
  uint32_t live, dom, count;
  struct dipc_entry_desc desc[DIPC_MAX_ENTRIES];
};
static struct entry_set *entry_sets;

int dipc_signature_ok(const struct dipc_signature *s) {
  return DIPC_SIGNATURE_OK(s);
}

static long op_entry_register(struct dipc_gate_entry_args *ea) {
  struct dipc_gate_args *a = &ea->base;
  uint32_t d;
  long err = get_dom((int64_t)a->arg[0], &d, NULL, DIPC_PERM_OWNER);
  if (err)
    return err;
  uint64_t count = a->arg[1];
  if (count == 0 || count > DIPC_MAX_ENTRIES)
    return -DIPC_EINVAL;
  for (unsigned i = 0; i < count; i++) {
    const struct dipc_entry_desc *e = &ea->desc[i];
    /* In d's own pages: never runtime code or a stack, for the default
     * domain either. */
    uintptr_t at = (uintptr_t)e->address;
    if (!dipc_signature_ok(&e->signature) || (e->policy & ~DIPC_POLICY_MASK) ||
        dipc_right_on(d, at, at + 1, 0) != DIPC_PERM_OWNER)
      return -DIPC_EINVAL;
  }
  if (!entry_sets)
    entry_sets = dipc_alloc_runtime(RT_MAX_ENTRY_OBJS * sizeof *entry_sets);
  uint32_t s;
  for (s = 0; s < RT_MAX_ENTRY_OBJS && entry_sets[s].live; s++)
    ;
  if (s == RT_MAX_ENTRY_OBJS)
    return -DIPC_ENOSPC;
  int64_t h = dipc_handle_new(H_ENTRY, s, DIPC_PERM_CALL);
  if (h < 0)
    return h;
  entry_sets[s].live = 1;
  entry_sets[s].dom = d;
  entry_sets[s].count = (uint32_t)count;
  memcpy(entry_sets[s].desc, ea->desc, count * sizeof ea->desc[0]);
  return h;
}

long dipc_op_entry_request(struct dipc_gate_entry_args *ea) {
  struct dipc_gate_args *a = &ea->base;
  uint32_t s;
  int err = dipc_handle_get((int64_t)a->arg[0], H_ENTRY, &s, NULL);
  if (err)
    return err;
  const struct entry_set *e = &entry_sets[s];
  uint64_t count = a->arg[1];
  if (count == 0 || count > e->count)
    return -DIPC_EINVAL;
  dipc_policy_t policy[DIPC_MAX_ENTRIES];
  for (unsigned i = 0; i < count; i++) {
    if (ea->desc[i].policy & ~DIPC_POLICY_MASK)
      return -DIPC_EINVAL;
    if (memcmp(&ea->desc[i].signature, &e->desc[i].signature,
               sizeof(struct dipc_signature)))
      return -DIPC_EPROTO;
    policy[i] = ea->desc[i].policy | e->desc[i].policy;
  }
  uint32_t p;
  if ((err = dipc_domain_new(&p, 0)))
    return err;
  void *proxy[DIPC_MAX_ENTRIES];
  if ((err = dipc_proxy_generate(e->dom, p, (unsigned)count, e->desc, policy,
                                 proxy)))
    return err;
  for (unsigned i = 0; i < count; i++)
    ea->desc[i].address = proxy[i];
  return dipc_handle_new(H_DOM, p, DIPC_PERM_CALL);
}

/* OP_ANYCALL_REGISTER (anycall.c): the first entry of a set gets an
 * anycall proxy, reached through stub from any domain. Only the default
 * domain (the loader) registers: a named domain able to bind a stub it
 * does not own to an entry of its own could redirect a callback. */
static long op_anycall_register(struct dipc_gate_entry_args *ea,
                                const struct dipc_thread *st) {
  if (st->cur_dom != 0)
    return -DIPC_EPERM;
  uint32_t s;
  int err = dipc_handle_get((int64_t)ea->base.arg[0], H_ENTRY, &s, NULL);
  if (err)
    return err;
  const struct entry_set *e = &entry_sets[s];
  if (memcmp(&ea->desc[0].signature, &e->desc[0].signature,
             sizeof(struct dipc_signature)))
    return -DIPC_EPROTO;
  uintptr_t stub = (uintptr_t)ea->desc[0].address;
  long bad = dipc_anycall_check_stub(stub);
  if (bad)
    return bad;
  void *proxy;
  dipc_policy_t policy = e->desc[0].policy; /* no caller policy is known */
  if ((err = dipc_proxy_generate(e->dom, DIPC_PROXY_ANYCALL, 1, e->desc,
                                 &policy, &proxy)))
    return err;
  return dipc_anycall_insert(stub, proxy, s);
}

/* 1 if no page of [lo, hi) is mapped. */
static int unmapped(uintptr_t lo, uintptr_t hi) {
  unsigned char v;
  for (uintptr_t p = lo; p < hi; p += RT_PAGE)
    if (mincore((void *)p, RT_PAGE, &v) == 0 || errno != ENOMEM)
      return 0;
  return 1;
}

/* OP_FORGET: the loader unloaded (dlclose) an object that spanned
 * [lo, hi), now unmapped. Its pages leave their domains' ranges, and every
 * way to call into it goes: its entry sets die (with every handle to
 * them), imports bound to them are unbound (their next call stops the
 * process, as an undefined import does, unless the entry is loaded again
 * first), imports whose slot was in it are dropped, and anycall stubs in it
 * or calling its entries are removed (a call through such an address
 * stops the process: dipc_anycall_miss). Proxies already handed out lose
 * their execute permission: a call through one kept faults there. Only the
 * default domain (the loader) may ask; nothing mapped may lose its owner. */
static long op_forget(uintptr_t lo, uintptr_t hi, const struct dipc_thread *st) {
  if (st->cur_dom != 0)
    return -DIPC_EPERM;
  if ((lo | hi) & (RT_PAGE - 1) || hi <= lo)
    return -DIPC_EINVAL;
  if (!unmapped(lo, hi))
    return -DIPC_EBUSY;
  static uint8_t dead[RT_MAX_ENTRY_OBJS]; /* under dipc_lock */
  memset(dead, 0, sizeof dead);
  unsigned n = dipc_domain_forget_pages(lo, hi);
  for (uint32_t s = 0; entry_sets && s < RT_MAX_ENTRY_OBJS; s++) {
    struct entry_set *e = &entry_sets[s];
    for (unsigned i = 0; e->live && i < e->count; i++) {
      uintptr_t at = (uintptr_t)e->desc[i].address;
      if (at >= lo && at < hi)
        dead[s] = 1;
    }
  }
  n += dipc_import_forget(lo, hi, dead);
  n += dipc_anycall_forget(lo, hi, dead);
  n += dipc_proxy_forget(lo, hi);
  for (uint32_t s = 0; s < RT_MAX_ENTRY_OBJS; s++)
    if (dead[s]) {
      dipc_handle_drop_obj(H_ENTRY, s);
      entry_sets[s].live = 0;
      n++;
    }
  return n;
}

/* ---- dispatch ----------------------------------------------------------- */

static long run(unsigned op, struct dipc_gate_args *a, struct dipc_thread *st) {
  uint64_t *x = a->arg;
  switch (op) {
  case OP_DOM_DEFAULT:
    return op_dom_default(st->cur_dom);
  case OP_DOM_CREATE:
    return op_dom_create();
  case OP_DOM_COPY:
    return op_dom_copy((int64_t)x[0], (int64_t)x[1]);
  case OP_DOM_MMAP:
    return op_dom_mmap(a);
  case OP_DOM_REMAP:
    return op_dom_remap((int64_t)x[0], (int64_t)x[1], x[2], x[3]);
  case OP_GRANT_CREATE:
    return dipc_op_grant_create((int64_t)x[0], (int64_t)x[1]);
  case OP_GRANT_REVOKE:
    return op_grant_revoke((int64_t)x[0]);
  case OP_ENTRY_REGISTER:
    return op_entry_register((struct dipc_gate_entry_args *)a);
  case OP_ENTRY_REQUEST:
    return dipc_op_entry_request((struct dipc_gate_entry_args *)a);
  case OP_HANDLE_CLOSE:
    return dipc_handle_close_locked((int64_t)x[0]);
  case OP_DOM_PKEY: {
    uint32_t d;
    long err = get_dom((int64_t)x[0], &d, NULL, DIPC_PERM_NIL);
    return err ? err : dipc_domain_pkey_of(d);
  }
  case OP_STATS:
    a->out[0] = dipc_machine.apl_misses;
    a->out[1] = dipc_domain_resident_count();
    a->out[2] = dipc_handle_live_count();
    return 0;
  case OP_KCS_DEPTH:
    return st->kcs_top - st->kcs_base;
  case OP_THREAD_STATE:
    return (long)st;
  case OP_CURRENT_DOM:
    return st->cur_dom;
  case OP_CAP_CREATE:
  case OP_CAP_DERIVE:
  case OP_CAP_PUSH:
  case OP_CAP_POP:
  case OP_CAP_REVOKE:
  case OP_CAP_READ:
  case OP_CAP_CHECK:
  case OP_DCS_DEPTH:
    return dipc_op_cap(op, a, st);
  case OP_THREAD_INIT:
    return 0;
  case OP_THREAD_INIT_RESERVED: /* the state is made by then */
    return dipc_thread_init_reserved_op(st);
  case OP_THREAD_RESERVE:
    return dipc_thread_reserve_op(a->arg[0] != 0);
  case OP_THREAD_EXIT:
    /* The thread-exit hook runs in the default domain, outside any call;
     * a domain releasing its state would get a fresh one there. */
    if (st->cur_dom != 0 || st->kcs_top != st->kcs_base)
      return -DIPC_EPERM;
    dipc_thread_release(st);
    return 0;
  case OP_IMPORT_REGISTER:
  case OP_IMPORT_BIND:
  case OP_IMPORT_RESOLVE:
    return dipc_op_import(op, a, st);
  case OP_MEMORY:
    return dipc_op_memory_call(a->arg, st->cur_dom);
  case OP_ANYCALL_REGISTER:
    return op_anycall_register((struct dipc_gate_entry_args *)a, st);
  case OP_ANYCALL_MISS:
    dipc_unlock(); /* stops the process */
    dipc_anycall_miss(a->arg[0]);
  case OP_SET_CALL_TIMEOUT:
    return dipc_op_set_call_timeout(st, x[0]);
  case OP_UNWIND_JUMP:
    return dipc_op_unwind_jump(st, x[0]);
  case OP_SET_FAULT_HOOK:
    return dipc_op_set_fault_hook(st, x[0]);
  case OP_FORGET:
    return op_forget(x[0], x[1], st);
  case OP_DOM_HEAP: {
    uint32_t d;
    long err = get_dom((int64_t)x[0], &d, NULL, DIPC_PERM_NIL);
    return err ? err : d == 0 ? -DIPC_ENOENT : (long)dipc_domain_heap(d);
  }
  case OP_DOM_NAME:
    return op_dom_name((struct dipc_gate_import_args *)a, st);
  }
  return -DIPC_EINVAL;
}
