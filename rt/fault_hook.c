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

/* Proxies of the hooks, per domain (0: none): runtime memory. */
static uintptr_t *hook_proxy;

long dipc_op_set_fault_hook(const struct dipc_thread *st, uintptr_t hook) {
  uint32_t d = st->cur_dom;
  if (d == 0)
    return -DIPC_EPERM; /* the default domain is nobody's callee */
  if (!hook_proxy)
    hook_proxy = dipc_alloc_runtime(RT_MAX_DOMAINS * sizeof *hook_proxy);
  if (!hook) {
    hook_proxy[d] = 0;
    return 0;
  }
  if (!dipc_domain_code(d, hook))
    return -DIPC_EINVAL; /* only code of the domain runs as the domain */
  struct dipc_entry_desc desc = {.address = (void *)hook};
  dipc_policy_t policy = 0;
  void *proxy;
  int err = dipc_proxy_generate(d, DIPC_PROXY_ANYCALL, 1, &desc, &policy,
                                &proxy);
  if (err)
    return err;
  hook_proxy[d] = (uintptr_t)proxy;
  return 0;
}

/* Bytes the trampoline finds below the resumed stack pointer: the hook's
 * proxy, the resume address, then a gap for the red zone. */
#define RED_ZONE 128

void dipc_fault_hook_divert(const struct dipc_kcs_entry *e, void *ucv) {
  ucontext_t *uc = ucv;
  uintptr_t proxy = hook_proxy ? hook_proxy[e->callee_dom] : 0;
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
