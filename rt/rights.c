/* rights.c - what memory an API argument may name. The runtime writes and
 * reads with every right, so an address a caller passes is checked against
 * the caller's rights first: the runtime's own state (tables, thread
 * region, proxies, import guards, libdipc's image) belongs to no domain,
 * whatever key its pages carry, and stacks belong to the stack machinery:
 * they are never pages to hand out or import slots. Where stacks count
 * (capabilities, signal contexts), a thread's own stack is the default
 * domain's, a callee stack its domain's, and the unsafe stacks every
 * domain's to write (docs/runtime.md §2). */
#include "internal.h"

int dipc_default_memory(uintptr_t lo, uintptr_t hi, int stacks_too) {
  return hi > lo && dipc_domain_owns(0, lo, hi) &&
         !dipc_runtime_owned(lo, hi) &&
         (stacks_too || !dipc_stack_owned(lo, hi)) && dipc_mapped(lo, hi);
}

uint8_t dipc_right_on(uint32_t dom, uintptr_t lo, uintptr_t hi,
                      int stacks_too) {
  if (hi <= lo || hi > RT_USER_TOP)
    return DIPC_PERM_NIL;
  if (stacks_too) {
    int owner = dipc_stack_owner(lo, hi);
    if (owner == STACK_MIXED)
      return DIPC_PERM_NIL;
    if (owner == STACK_SHARED)
      return dipc_mapped(lo, hi) ? DIPC_PERM_WRITE : DIPC_PERM_NIL;
    if (owner > 0) /* a callee stack: its domain's, like its pages */
      return (uint32_t)owner == dom ? DIPC_PERM_OWNER
                                    : dipc_apl_get(dom, (uint32_t)owner);
  }
  uint32_t x = dipc_domain_of(lo);
  if (x == 0 ? !dipc_default_memory(lo, hi, stacks_too)
             : !dipc_domain_owns(x, dipc_page_down(lo), hi))
    return DIPC_PERM_NIL;
  return x == dom ? DIPC_PERM_OWNER : dipc_apl_get(dom, x);
}
