/* cap.c - emulated CODOMs capabilities (paper §4): 8 registers and the
 * domain capability stack (DCS) per thread, in runtime memory. They are
 * created from the current domain's APL or derived from another register
 * with narrower bounds and permissions; never forged or widened. The DCS
 * base moves up for callees with dcs_integrity/confidentiality (proxies),
 * so a callee can neither pop nor see its caller's entries. */
#include <string.h>

#include "internal.h"

static int perm_ok(int64_t perm) {
  return perm >= DIPC_PERM_CALL && perm <= DIPC_PERM_WRITE;
}

/* The current domain's right to [lo, hi): all pages in one domain X, and
 * the APL entry for X (its own pages: write). Never the runtime's state,
 * unmapped pages or kernel addresses; the stacks count as the default
 * domain's memory. */
static uint8_t apl_right(uint32_t cur, uintptr_t lo, uintptr_t hi,
                         uint32_t *owner) {
  uint8_t p = dipc_right_on(cur, lo, hi, 1);
  *owner = dipc_domain_of(lo);
  return p == DIPC_PERM_OWNER ? DIPC_PERM_WRITE : p;
}

/* Under `sfi` a capability is an access right the checks honour, so it
 * may cover only pages a domain could be given: none tagged the
 * runtime's (the loader's data, which the range tables above count as
 * the default domain's, the tag shadow), nor callee stacks: a capability
 * outlives the moment it is made, when a range of the thread's own stack
 * could be written, and would let a callback write libc's frames above
 * it (sfi.c). Its pages must have one tag, which it keeps (*tag: the tag
 * + 1, 0 under other backends): it covers them only while they keep it.
 * An attack round's domain made one over its data mirror of a thread's
 * callee stack; the thread ended, vault's mirror came at the same address
 * and the capability read and wrote vault's locals. */
static int sfi_tags_allow_cap(uintptr_t lo, uintptr_t hi, uint64_t *tag) {
  *tag = 0;
  if (dipc_machine.backend != DIPC_BACKEND_SFI)
    return 1;
  if (hi > DIPC_SFI_SHADOW_ADDR &&
      lo < DIPC_SFI_SHADOW_ADDR + DIPC_SFI_SHADOW_SIZE)
    return 0; /* the shadow: its own tags are not mapped */
  uint32_t first = dipc_sfi_tag_of(dipc_page_down(lo));
  for (uintptr_t p = dipc_page_down(lo); p < hi; p += RT_PAGE) {
    uint32_t t = dipc_sfi_tag_of(p);
    if ((t >= DIPC_MAX_DOMAINS && t != DIPC_SFI_TAG_SHARED) || t != first)
      return 0;
  }
  *tag = (uint64_t)first + 1;
  return 1;
}

long dipc_op_cap(unsigned op, struct dipc_gate_args *a,
                 struct dipc_thread *st) {
  uint64_t *x = a->arg;
  if (op == OP_DCS_DEPTH)
    return st->dcs_top - st->dcs_base;
  if (x[0] >= DIPC_CAP_REGS)
    return -DIPC_EINVAL;
  struct dipc_cap_reg *r = &st->caps[x[0]];
  switch (op) {
  case OP_CAP_CREATE: {
    uintptr_t lo = x[1], size = x[2], hi = lo + size;
    if (!perm_ok((int64_t)x[3]) || size == 0 || hi < lo)
      return -DIPC_EINVAL;
    uint32_t owner = 0;
    uint64_t tag;
    if (apl_right(st->cur_dom, lo, hi, &owner) < x[3] ||
        !sfi_tags_allow_cap(lo, hi, &tag))
      return -DIPC_EPERM;
    *r = (struct dipc_cap_reg){lo, size, (uint32_t)x[3], owner, tag};
    return 0;
  }
  case OP_CAP_DERIVE: {
    if (x[1] >= DIPC_CAP_REGS || !perm_ok((int64_t)x[4]) || x[3] == 0)
      return -DIPC_EINVAL;
    const struct dipc_cap_reg *s = &st->caps[x[1]];
    uint64_t off = x[2], size = x[3];
    if (s->perm == DIPC_PERM_NIL || off > s->size || size > s->size - off ||
        x[4] > s->perm)
      return -DIPC_EPERM;
    *r = (struct dipc_cap_reg){s->base + off, size, (uint32_t)x[4], s->dom,
                               s->sfi_tag};
    return 0;
  }
  case OP_CAP_PUSH:
    if (st->dcs_top == RT_DCS_ENTRIES)
      return -DIPC_ENOSPC;
    st->dcs[st->dcs_top++] = *r;
    return 0;
  case OP_CAP_POP:
    if (st->dcs_top <= st->dcs_base)
      return -DIPC_EPERM;
    *r = st->dcs[--st->dcs_top];
    st->dcs[st->dcs_top] = (struct dipc_cap_reg){0};
    return 0;
  case OP_CAP_REVOKE:
    *r = (struct dipc_cap_reg){0};
    return 0;
  case OP_CAP_READ:
    memcpy(a->out, r, sizeof *r);
    return 0;
  case OP_CAP_CHECK: {
    uint64_t addr = x[1], size = x[2];
    if (!perm_ok((int64_t)x[3]))
      return -DIPC_EINVAL;
    if (r->perm < x[3] || addr < r->base || size > r->size ||
        addr - r->base > r->size - size)
      return -DIPC_EPERM;
    return 0;
  }
  }
  return -DIPC_EINVAL;
}
