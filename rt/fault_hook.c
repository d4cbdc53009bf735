/* fault_hook.c - a domain's fault hook (dipc_set_fault_hook): after a call
 * into the domain crashed, timed out or threw, the hook runs in the domain,
 * on the thread whose call failed, before that thread's caller resumes, so
 * that the domain can release the locks the dead call held and reset its
 * state (docs/loader.md, "Detecting a callee crash").
 *
 * Recovery (recovery.c) has set the signal context to resume the caller;
 * dipc_fault_hook_divert then makes it resume in __dipc_fault_hook_tramp
 * (gate.S) instead, with the hook's proxy and the resume address stored
 * below the caller's stack pointer. The trampoline runs as the caller,
 * keeps every register and dipc_errno, calls the hook through its proxy
 * (an anycall proxy: the caller needs no grant) and goes on where recovery
 * said. A hook that crashes itself is not run again for that. */
#define _GNU_SOURCE
#include <sys/ucontext.h>

#include "internal.h"

/* Each proxy takes a page of a limited supply (proxy.c): a domain gets
 * proxies for this many different hooks, then -DIPC_ENOSPC. */
#define MAX_HOOKS 8

/* Per domain (runtime memory): the hook in use (0: none) and the proxies
 * made for its hooks so far. */
static struct hooks {
  uintptr_t proxy;
  uintptr_t made[MAX_HOOKS][2]; /* hook, its proxy */
} *hooks;

long dipc_op_set_fault_hook(const struct dipc_thread *st, uintptr_t hook) {
  uint32_t d = st->cur_dom;
  if (d == 0)
    return -DIPC_EPERM; /* the default domain is nobody's callee */
  /* The trampoline resumes from words on the caller's stack, which the
   * caller's domain may write (the hook itself, when it is the caller's,
   * or another thread): under sfi that is a jump anywhere. */
  if (dipc_machine.backend == DIPC_BACKEND_SFI)
    return -DIPC_ENOTSUP;
  if (!hooks)
    hooks = dipc_alloc_runtime(RT_MAX_DOMAINS * sizeof *hooks);
  struct hooks *h = &hooks[d];
  if (!hook) {
    h->proxy = 0;
    return 0;
  }
  if (!dipc_domain_code(d, hook))
    return -DIPC_EINVAL; /* only code of the domain runs as the domain */
  if (!dipc_sfi_proxy_target_ok(hook))
    return -DIPC_EPERM; /* the proxy would jump inside a function */
  unsigned i = 0;
  while (i < MAX_HOOKS && h->made[i][0] && h->made[i][0] != hook)
    i++;
  if (i == MAX_HOOKS)
    return -DIPC_ENOSPC;
  if (!h->made[i][0]) {
    struct dipc_entry_desc desc = {.address = (void *)hook};
    dipc_policy_t policy = 0;
    void *proxy;
    int err = dipc_proxy_generate(d, DIPC_PROXY_ANYCALL, 1, &desc, &policy,
                                  &proxy);
    if (err)
      return err;
    h->made[i][0] = hook;
    h->made[i][1] = (uintptr_t)proxy;
  }
  h->proxy = h->made[i][1];
  return 0;
}

/* Bytes the trampoline finds below the resumed stack pointer: the hook's
 * proxy, the resume address, then a gap for the red zone. */
#define RED_ZONE 128

void dipc_fault_hook_divert(const struct dipc_kcs_entry *e, void *ucv) {
  ucontext_t *uc = ucv;
  uintptr_t proxy = hooks ? hooks[e->callee_dom].proxy : 0;
  if (!proxy || e->proxy == proxy)
    return;
  extern const char __dipc_fault_hook_tramp[];
  greg_t *r = uc->uc_mcontext.gregs;
  uintptr_t *sp = (uintptr_t *)((uintptr_t)r[REG_RSP] - RED_ZONE) - 2;
  sp[0] = proxy;
  sp[1] = (uintptr_t)r[REG_RIP];
  r[REG_RSP] = (greg_t)sp;
  r[REG_RIP] = (greg_t)__dipc_fault_hook_tramp;
}
