/* entry.c - entry sets (Table 2): a domain registers its entry points;
 * another requests them and gets proxies to call them through (proxy.c),
 * or, for the loader, anycall proxies behind stubs (anycall.c). Below the
 * dispatcher (dispatch.c) and the import resolver (import.c), which both
 * request entries. */
#include <string.h>

#include "internal.h"

struct entry_set {
  uint32_t live, dom, count;
  struct dipc_entry_desc desc[DIPC_MAX_ENTRIES];
};
static struct entry_set *entry_sets;

int dipc_signature_ok(const struct dipc_signature *s) {
  return DIPC_SIGNATURE_OK(s);
}

long dipc_op_entry_register(struct dipc_gate_entry_args *ea) {
  struct dipc_gate_args *a = &ea->base;
  uint32_t d;
  long err =
      dipc_handle_get_dom((int64_t)a->arg[0], &d, NULL, DIPC_PERM_OWNER);
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
  if ((err = dipc_proxy_generate(e->dom, dipc_apl_column(p), (unsigned)count,
                                 e->desc, policy, proxy)))
    return err;
  for (unsigned i = 0; i < count; i++)
    ea->desc[i].address = proxy[i];
  return dipc_handle_new(H_DOM, p, DIPC_PERM_CALL);
}

/* OP_ANYCALL_REGISTER (anycall.c): the first entry of a set gets an
 * anycall proxy, reached through stub from any domain. Only the default
 * domain (the loader) registers: a named domain able to bind a stub it
 * does not own to an entry of its own could redirect a callback. */
long dipc_op_anycall_register(struct dipc_gate_entry_args *ea,
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

void dipc_entry_sets_in(uintptr_t lo, uintptr_t hi, uint8_t *dead) {
  memset(dead, 0, RT_MAX_ENTRY_OBJS);
  for (uint32_t s = 0; entry_sets && s < RT_MAX_ENTRY_OBJS; s++) {
    struct entry_set *e = &entry_sets[s];
    for (unsigned i = 0; e->live && i < e->count; i++) {
      uintptr_t at = (uintptr_t)e->desc[i].address;
      if (at >= lo && at < hi)
        dead[s] = 1;
    }
  }
}

unsigned dipc_entry_sets_drop(const uint8_t *dead) {
  unsigned n = 0;
  for (uint32_t s = 0; s < RT_MAX_ENTRY_OBJS; s++)
    if (dead[s]) {
      dipc_handle_drop_obj(H_ENTRY, s);
      entry_sets[s].live = 0;
      n++;
    }
  return n;
}
