/* grant.c - grants (Table 2): a domain's owner gives another domain a
 * permission on it, which becomes an APL entry; revoking takes it back.
 * Below the dispatcher (dispatch.c) and the import resolver (import.c),
 * which both create grants. */
#include "internal.h"

struct grant {
  uint32_t live, src, dst;
};
static struct grant *grants;

long dipc_op_grant_create(int64_t hsrc, int64_t hdst) {
  uint32_t src, dst;
  uint8_t perm;
  long err = dipc_handle_get_dom(hsrc, &src, NULL, DIPC_PERM_OWNER);
  if (!err)
    err = dipc_handle_get_dom(hdst, &dst, &perm, DIPC_PERM_NIL);
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

long dipc_op_grant_revoke(int64_t h) {
  uint32_t g;
  int err = dipc_handle_get(h, H_GRANT, &g, NULL);
  if (err)
    return err;
  dipc_apl_set(grants[g].src, grants[g].dst, DIPC_PERM_NIL);
  grants[g].live = 0;
  return dipc_handle_close_locked(h);
}
