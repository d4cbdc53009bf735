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
  uintptr_t lo = (uintptr_t)user, hi = lo + n, stack_lo, stack_hi;
  dipc_stack_in_use(st, &stack_lo, &stack_hi);
  int ok = dipc_in_unsafe_region(lo) ? dipc_thread_unsafe_holds(st, lo, hi)
                                     : hi > lo && hi <= stack_hi;
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
  if (op == OP_LENT_FS && r == 0)
    dipc_lent_fs_apply(st);
  if (op != OP_THREAD_EXIT)
    memcpy(user->out, a.base.out, sizeof a.base.out);
  if (op == OP_ENTRY_REQUEST && r >= 0)
    memcpy(((struct dipc_gate_entry_args *)user)->desc, a.desc, sizeof a.desc);
  return r;
}

/* ---- domains ------------------------------------------------------------ */

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
  long err = dipc_handle_get_dom(h, &d, &have, DIPC_PERM_NIL);
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
  long err =
      dipc_handle_get_dom((int64_t)a->arg[0], &d, NULL, DIPC_PERM_OWNER);
  return err ? err : dipc_op_dom_mmap(d, &a->arg[1]);
}

static long op_dom_remap(int64_t hdst, int64_t hsrc, uintptr_t addr,
                         size_t size) {
  uint32_t dst, src;
  long err = dipc_handle_get_dom(hdst, &dst, NULL, DIPC_PERM_OWNER);
  if (!err)
    err = dipc_handle_get_dom(hsrc, &src, NULL, DIPC_PERM_OWNER);
  return err ? err : dipc_op_dom_remap(dst, src, addr, size);
}

/* Only the default domain names domains (the loader, from the records):
 * a name picks a callee stack size (dstack.c). */
static long op_dom_name(struct dipc_gate_import_args *na,
                        const struct dipc_thread *st) {
  uint32_t d;
  if (st->cur_dom != 0)
    return -DIPC_EPERM;
  long err = dipc_handle_get_dom((int64_t)na->base.arg[0], &d, NULL,
                                 DIPC_PERM_OWNER);
  return err ? err : dipc_op_dom_name(d, na->what, sizeof na->what);
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
  unsigned n = dipc_domain_forget_pages(lo, hi);
  dipc_entry_sets_in(lo, hi, dead);
  n += dipc_import_forget(lo, hi, dead);
  n += dipc_anycall_forget(lo, hi, dead);
  n += dipc_proxy_forget(lo, hi);
  return n + dipc_entry_sets_drop(dead);
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
    return dipc_op_grant_revoke((int64_t)x[0]);
  case OP_ENTRY_REGISTER:
    return dipc_op_entry_register((struct dipc_gate_entry_args *)a);
  case OP_ENTRY_REQUEST:
    return dipc_op_entry_request((struct dipc_gate_entry_args *)a);
  case OP_HANDLE_CLOSE:
    return dipc_handle_close_locked((int64_t)x[0]);
  case OP_DOM_PKEY: {
    uint32_t d;
    long err = dipc_handle_get_dom((int64_t)x[0], &d, NULL, DIPC_PERM_NIL);
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
  case OP_THREAD_SPAWN:
    return dipc_thread_spawn_op(st, x[0], x[1]);
  case OP_THREAD_ADOPT:
    return dipc_thread_adopt_op(st, x[0], a->out);
  case OP_THREAD_SPAWN_DROP:
    return dipc_thread_spawn_drop_op(st, x[0]);
  case OP_CALLBACK_PROXY:
    return dipc_callback_proxy_op(st, x[0], x[1]);
  case OP_THREAD_EXIT_VALUE:
    return dipc_thread_exit_value_op(st, x[0] != 0, x[1], a->out);
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
    return dipc_op_anycall_register((struct dipc_gate_entry_args *)a, st);
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
  case OP_LEND_UNSAFE:
    return dipc_op_lend_unsafe(st, x[0], x[1]);
  case OP_LENT_FS:
    return dipc_op_lent_fs(st, x[0]);
  case OP_SHARE_MAP:
    return dipc_op_share_map(st, x);
  case OP_SFI_UNMAP:
    return dipc_op_sfi_unmap(x[0], x[1]);
  case OP_DOM_HEAP: {
    uint32_t d;
    long err = dipc_handle_get_dom((int64_t)x[0], &d, NULL, DIPC_PERM_NIL);
    return err ? err : d == 0 ? -DIPC_ENOENT : (long)dipc_domain_heap(d);
  }
  case OP_DOM_NAME:
    return op_dom_name((struct dipc_gate_import_args *)a, st);
  }
  return -DIPC_EINVAL;
}
