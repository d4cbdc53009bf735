/* handle.c - opaque, validated handles. A handle packs a table index, the
 * object kind and the slot's generation, XORed with a per-process secret and
 * sealed with a check field, so forged or mistyped values are recognised
 * (-EBADF) and closed ones are told apart (-ESTALE). Handles are the
 * emulation's file descriptors and domains its processes: each belongs to
 * the domain whose code obtained it, and is no handle (-EBADF) to code
 * running in any other domain, which may have read its value (the
 * loader's are in default-domain memory). */
#include <sys/random.h>

#include "internal.h"

#define IDX_BITS 14
#define KIND_BITS 2
#define GEN_BITS 26
#define BODY_BITS (IDX_BITS + KIND_BITS + GEN_BITS) /* 42 */
#define CHECK_BITS 10
#define BODY_MASK ((1ULL << BODY_BITS) - 1)
_Static_assert((1 << IDX_BITS) == RT_MAX_HANDLES, "handle index bits");

struct slot {
  uint32_t gen : GEN_BITS;
  uint32_t kind : 2;
  uint32_t live : 1;
  uint8_t perm;
  uint32_t obj;
  uint32_t holder; /* domain whose code may use it */
};

static struct slot *slots;
static uint64_t secret[2];
static unsigned live_count;
static uint32_t acting; /* domain the runtime acts for: holds new handles */

void dipc_handle_act_for(uint32_t dom) { acting = dom; }
uint32_t dipc_handle_acting(void) { return acting; }

static uint64_t check_of(uint64_t body) {
  uint64_t x = (body ^ secret[1]) * 0x9e3779b97f4a7c15ULL;
  return (x >> 40) & ((1ULL << CHECK_BITS) - 1);
}

static void init_once(void) {
  if (slots)
    return;
  slots = dipc_alloc_runtime(RT_MAX_HANDLES * sizeof *slots);
  DIPC_CHECK(getrandom(secret, sizeof secret, 0) == sizeof secret,
             "getrandom for the handle secret");
  secret[0] &= BODY_MASK;
}

int64_t dipc_handle_new(enum dipc_handle_kind kind, uint32_t obj,
                        uint8_t perm) {
  init_once();
  for (uint32_t i = 1; i < RT_MAX_HANDLES; i++) {
    struct slot *s = &slots[i];
    if (s->live)
      continue;
    s->live = 1;
    s->kind = kind;
    s->perm = perm;
    s->obj = obj;
    s->holder = acting;
    live_count++;
    uint64_t body = ((uint64_t)s->gen << (IDX_BITS + KIND_BITS)) |
                    ((uint64_t)kind << IDX_BITS) | i;
    body ^= secret[0];
    return (int64_t)((check_of(body) << BODY_BITS) | body);
  }
  return -DIPC_ENOSPC;
}

static int decode(int64_t h, enum dipc_handle_kind kind, struct slot **out) {
  init_once();
  if (h < 0 || (uint64_t)h >> (BODY_BITS + CHECK_BITS))
    return -DIPC_EBADF;
  uint64_t body = (uint64_t)h & BODY_MASK;
  if (check_of(body) != (uint64_t)h >> BODY_BITS)
    return -DIPC_EBADF;
  body ^= secret[0];
  uint32_t i = body & (RT_MAX_HANDLES - 1);
  uint32_t k = (body >> IDX_BITS) & 3;
  uint32_t gen = (uint32_t)(body >> (IDX_BITS + KIND_BITS));
  struct slot *s = &slots[i];
  if (i == 0 || (kind && k != (uint32_t)kind))
    return -DIPC_EBADF;
  if (gen == s->gen && s->live) {
    *out = s;
    return s->holder == acting ? 0 : -DIPC_EBADF;
  }
  /* Generations only grow: an older one was issued and closed since. */
  return gen < s->gen ? -DIPC_ESTALE : -DIPC_EBADF;
}

int dipc_handle_get(int64_t h, enum dipc_handle_kind kind, uint32_t *obj,
                    uint8_t *perm) {
  struct slot *s;
  int err = decode(h, kind, &s);
  if (err)
    return err;
  *obj = s->obj;
  if (perm)
    *perm = s->perm;
  return 0;
}

int dipc_handle_close_locked(int64_t h) {
  struct slot *s;
  int err = decode(h, 0, &s);
  if (err)
    return err;
  s->live = 0;
  s->gen++;
  live_count--;
  return 0;
}

/* Closes every handle of `kind` naming obj, whoever holds it: the object
 * is gone and its slot may be reused (dipc_op_forget). */
void dipc_handle_drop_obj(enum dipc_handle_kind kind, uint32_t obj) {
  init_once();
  for (uint32_t i = 1; i < RT_MAX_HANDLES; i++) {
    struct slot *s = &slots[i];
    if (s->live && s->kind == kind && s->obj == obj) {
      s->live = 0;
      s->gen++;
      live_count--;
    }
  }
}

unsigned dipc_handle_live_count(void) { return live_count; }

long dipc_handle_get_dom(int64_t h, uint32_t *dom, uint8_t *perm,
                         uint8_t need) {
  uint8_t p;
  int err = dipc_handle_get(h, H_DOM, dom, &p);
  if (err)
    return err;
  if (perm)
    *perm = p;
  return p >= need ? 0 : -DIPC_EPERM;
}
