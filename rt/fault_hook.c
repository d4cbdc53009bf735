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
#include <string.h>
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

/* Under sfi the trampoline keeps nothing on the caller's stack, which the
 * caller's domain may write (its other threads, or the hook itself when
 * it is the caller's: an attack rewrote the resume address there): the
 * context it resumes, the hook's proxy and dipc_errno stay in the
 * thread's state, and it asks for them (gate.S). No room: no hook. */
static void divert_sfi(uintptr_t proxy, ucontext_t *uc) {
  extern const char __dipc_fault_hook_tramp_sfi[];
  struct dipc_thread *st = dipc_current_thread();
  if (!st || st->n_hook_resume == RT_HOOK_DEPTH)
    return;
  struct dipc_hook_resume *h = &st->hook_resume[st->n_hook_resume];
  _Static_assert(sizeof h->gregs == sizeof uc->uc_mcontext.gregs, "NGREG");
  memcpy(h->gregs, uc->uc_mcontext.gregs, sizeof h->gregs);
  h->proxy = proxy;
  h->err = *(volatile int *)((char *)st + DIPC_ERRNO_GS_OFFSET);
  st->n_hook_resume++;
  uc->uc_mcontext.gregs[REG_RIP] = (greg_t)__dipc_fault_hook_tramp_sfi;
}

DIPC_HIDDEN uintptr_t dipc_fault_hook_proxy(void);
uintptr_t dipc_fault_hook_proxy(void) {
  struct dipc_thread *st = dipc_current_thread();
  DIPC_CHECK(st && st->n_hook_resume, "fault hook trampoline entered twice");
  return st->hook_resume[st->n_hook_resume - 1].proxy;
}

/* The registers to resume with (gregset_t order), after the hook; and
 * dipc_errno as recovery left it. */
DIPC_HIDDEN const uint64_t *dipc_fault_hook_resume(void);
const uint64_t *dipc_fault_hook_resume(void) {
  struct dipc_thread *st = dipc_current_thread();
  DIPC_CHECK(st && st->n_hook_resume, "fault hook trampoline entered twice");
  const struct dipc_hook_resume *h = &st->hook_resume[--st->n_hook_resume];
  *(volatile int *)((char *)st + DIPC_ERRNO_GS_OFFSET) = h->err;
  return h->gregs;
}

void dipc_fault_hook_divert(const struct dipc_kcs_entry *e, void *ucv) {
  ucontext_t *uc = ucv;
  uintptr_t proxy = hooks ? hooks[e->callee_dom].proxy : 0;
  if (!proxy || e->proxy == proxy)
    return;
  if (dipc_machine.backend == DIPC_BACKEND_SFI) {
    divert_sfi(proxy, uc);
    return;
  }
  extern const char __dipc_fault_hook_tramp[];
  greg_t *r = uc->uc_mcontext.gregs;
  uintptr_t *sp = (uintptr_t *)((uintptr_t)r[REG_RSP] - RED_ZONE) - 2;
  sp[0] = proxy;
  sp[1] = (uintptr_t)r[REG_RIP];
  r[REG_RSP] = (greg_t)sp;
  r[REG_RIP] = (greg_t)__dipc_fault_hook_tramp;
}
