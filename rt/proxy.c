/* proxy.c - run-time proxy generation (paper §6.1.1). A proxy is a copy of
 * one of the templates (gate.S: split stack, or split stack and DCS base,
 * chosen by the effective policy; every call runs the callee on a stack of
 * its domain), with its PH_* immediates relocated for
 * the callee, its domain and its signature (stack-argument bytes to copy).
 * Proxy pages are written once, then mapped read+execute under the runtime
 * key: never writable again, and readable only inside gates. On CPUs
 * without PKU (or with DIPC_NO_PKU=1) the rdpkru/wrpkru sites gate.S
 * recorded become NOPs. */
#define _GNU_SOURCE
#include <string.h>
#include <sys/mman.h>

#include "dipc/sfi.h"
#include "internal.h"

extern const uint8_t dipc_tpl_plain_begin[], dipc_tpl_plain_end[];
extern const uint8_t dipc_tpl_split_begin[], dipc_tpl_split_end[];
extern const uint8_t dipc_tpl_dcs_begin[], dipc_tpl_dcs_end[];
extern const uint8_t dipc_tpl_split_dcs_begin[], dipc_tpl_split_dcs_end[];
extern const uint8_t dipc_tpl_sfi_plain_begin[], dipc_tpl_sfi_plain_end[];
extern const uint8_t dipc_tpl_sfi_split_begin[], dipc_tpl_sfi_split_end[];
extern const uint8_t dipc_tpl_sfi_dcs_begin[], dipc_tpl_sfi_dcs_end[];
extern const uint8_t dipc_tpl_sfi_split_dcs_begin[],
    dipc_tpl_sfi_split_dcs_end[];
extern const uint8_t __dipc_helper_thread_pku[], __dipc_helper_thread_nopku[],
    __dipc_helper_resident_pku[], __dipc_helper_resident_nopku[],
    __dipc_helper_stack_pku[], __dipc_helper_stack_nopku[],
    __dipc_helper_panic_pku[], __dipc_helper_panic_nopku[];

#define TEMPLATE_MAX 2048
#define POLICY_SPLIT stack_confidentiality
#define POLICY_DCS (dcs_integrity | dcs_confidentiality)

/* Templates as they are copied on this machine (recorded PKRU sites NOPed
 * without PKU); index: bit 0 split stack, bit 1 DCS base, bit 2 the `sfi`
 * backend's (no PKRU site at all). The ones without the stack switch serve
 * only DIPC_SHARED_STACKS=1 (`none`). */
#define TEMPLATE_SFI 4
static uint8_t templates[8][TEMPLATE_MAX];
static size_t template_size[8];

/* Every proxy mapping, so that fault recovery can tell proxy code apart. */
struct proxy_pages {
  uintptr_t lo, hi;
  uintptr_t callee_lo, callee_hi; /* its callees' addresses */
};
static struct proxy_pages *proxy_pages;
static unsigned nproxy_pages;

int dipc_proxy_overlaps(uintptr_t lo, uintptr_t hi) {
  for (unsigned i = 0; i < nproxy_pages; i++)
    if (lo < proxy_pages[i].hi && proxy_pages[i].lo < hi)
      return 1;
  return 0;
}

int dipc_proxy_contains(uintptr_t addr) {
  return dipc_proxy_overlaps(addr, addr + 1);
}

static unsigned replace(uint8_t *buf, size_t len, const uint8_t *from,
                        const uint8_t *to, size_t n) {
  unsigned hits = 0;
  for (size_t i = 0; i + n <= len; i++)
    if (!memcmp(buf + i, from, n)) {
      memcpy(buf + i, to, n);
      hits++;
      i += n - 1;
    }
  return hits;
}

static unsigned patch(uint8_t *buf, size_t len, uint64_t ph, uint64_t v) {
  return replace(buf, len, (const uint8_t *)&ph, (const uint8_t *)&v, 8);
}

/* The rdpkru/wrpkru sites gate.S recorded (PKRU_SITE), each as its
 * distance from its own record. */
extern const int32_t __start_dipc_pkru_sites[], __stop_dipc_pkru_sites[];

static const uint8_t rdpkru[3] = {0x0f, 0x01, 0xee},
                     wrpkru[3] = {0x0f, 0x01, 0xef},
                     nop3[3] = {0x0f, 0x1f, 0x00};

static int is_pkru_insn(const uint8_t *p) {
  return !memcmp(p, rdpkru, 3) || !memcmp(p, wrpkru, 3);
}

/* Copies template t into buf with its recorded PKRU sites NOPed; returns
 * how many sites it NOPed. */
static unsigned copy_without_pkru(int t, const uint8_t *begin, size_t n,
                                  uint8_t *buf) {
  unsigned sites = 0;
  memcpy(buf, begin, n);
  for (const int32_t *s = __start_dipc_pkru_sites; s < __stop_dipc_pkru_sites;
       s++) {
    const uint8_t *site = (const uint8_t *)s + *s;
    if (site < begin || site + 3 > begin + n)
      continue;
    DIPC_CHECK(is_pkru_insn(site),
               "proxy template %d: recorded PKRU site +%#zx is not "
               "rdpkru/wrpkru",
               t, (size_t)(site - begin));
    memcpy(buf + (site - begin), nop3, 3);
    sites++;
  }
  return sites;
}

void dipc_proxy_init(void) {
  proxy_pages = dipc_alloc_runtime(RT_MAX_DOMAINS * sizeof *proxy_pages);
  const uint8_t *range[8][2] = {
      {dipc_tpl_plain_begin, dipc_tpl_plain_end},
      {dipc_tpl_split_begin, dipc_tpl_split_end},
      {dipc_tpl_dcs_begin, dipc_tpl_dcs_end},
      {dipc_tpl_split_dcs_begin, dipc_tpl_split_dcs_end},
      {dipc_tpl_sfi_plain_begin, dipc_tpl_sfi_plain_end},
      {dipc_tpl_sfi_split_begin, dipc_tpl_sfi_split_end},
      {dipc_tpl_sfi_dcs_begin, dipc_tpl_sfi_dcs_end},
      {dipc_tpl_sfi_split_dcs_begin, dipc_tpl_sfi_split_dcs_end},
  };
  for (int t = 0; t < 8; t++) {
    size_t n = (size_t)(range[t][1] - range[t][0]);
    /* The next proxy's flags follow it (P_FLAGS). */
    DIPC_CHECK(n <= TEMPLATE_MAX + P_FLAGS, "proxy template %d is %zu bytes",
               t, n);
    template_size[t] = n;
    /* Checked on every CPU, so that a PKU machine catches an unrecorded
     * site too: with the sites NOPed, no PKRU instruction may remain. */
    uint8_t without[TEMPLATE_MAX];
    unsigned sites = copy_without_pkru(t, range[t][0], n, without);
    DIPC_CHECK((sites > 0) == !(t & TEMPLATE_SFI),
               "proxy template %d: %u PKRU sites recorded", t, sites);
    for (size_t i = 0; i + 3 <= n; i++)
      DIPC_CHECK(!is_pkru_insn(without + i),
                 "proxy template %d: PKRU instruction at +%#zx is not a "
                 "recorded site (PKRU_SITE in gate.S)",
                 t, i);
    memcpy(templates[t], dipc_machine.cpu_pku ? range[t][0] : without, n);
  }
}

/* With `none` nothing is enforced, and anycall proxies let every domain
 * call: every caller finds this permission. */
static const uint8_t call_always_allowed = DIPC_PERM_CALL;
_Static_assert(DIPC_PERM_CALL == 1, "gate.S compares the APL byte with 1");

int dipc_proxy_generate(uint32_t dom, const uint8_t *callers, unsigned count,
                        const struct dipc_entry_desc *callee,
                        const dipc_policy_t *policy, void **out) {
  return dipc_proxy_generate_ex(dom, callers, callers == DIPC_PROXY_ANYCALL,
                                count, callee, policy, out);
}

int dipc_proxy_generate_ex(uint32_t dom, const uint8_t *callers, int return0,
                           unsigned count, const struct dipc_entry_desc *callee,
                           const dipc_policy_t *policy, void **out) {
  size_t stride = (TEMPLATE_MAX + 63) & ~(size_t)63;
  /* Each proxy is a call target of -fdipc-sfi code: DIPC_SFI_CALL_MAGIC
   * in the 4 bytes before it (dipc/sfi.h), the first one's in a line of
   * its own. */
  size_t first = 64;
  size_t size = (first + count * stride + RT_PAGE - 1) & ~(RT_PAGE - 1);
  /* One mapping per proxy domain. */
  if (nproxy_pages == RT_MAX_DOMAINS)
    return -DIPC_ENOSPC;
  /* Runtime memory while it is written, too. */
  uint8_t *page = dipc_alloc_runtime(size);
  /* Anycall proxies: the entry's address is the capability to call it. */
  int anycall = callers == DIPC_PROXY_ANYCALL;
  int enforce = dipc_machine.backend != DIPC_BACKEND_NONE && !anycall;
  uint64_t apl_col = enforce ? (uint64_t)callers
                             : (uint64_t)&call_always_allowed;
  /* Slow paths and panic in the variant for this CPU (gate.S). */
  int pku = dipc_machine.cpu_pku;
  uint64_t h_thread =
      (uint64_t)(pku ? __dipc_helper_thread_pku : __dipc_helper_thread_nopku);
  uint64_t h_resident = (uint64_t)(pku ? __dipc_helper_resident_pku
                                       : __dipc_helper_resident_nopku);
  uint64_t h_stack =
      (uint64_t)(pku ? __dipc_helper_stack_pku : __dipc_helper_stack_nopku);
  uint64_t panic =
      (uint64_t)(pku ? __dipc_helper_panic_pku : __dipc_helper_panic_nopku);
  /* The `sfi` templates neither publish nor check a PKRU image. */
  int sfi = dipc_machine.backend == DIPC_BACKEND_SFI;
  for (unsigned i = 0; i < count; i++) {
    /* Stacks are per domain: a callee never runs on its caller's stack.
     * Only DIPC_SHARED_STACKS=1 under `none` (benchmarks) keeps the
     * templates without the switch. */
    int split = !dipc_machine.shared_stacks || (policy[i] & POLICY_SPLIT);
    int t = split | (((policy[i] & POLICY_DCS) != 0) << 1) |
            (sfi ? TEMPLATE_SFI : 0);
    uint8_t *p = page + first + i * stride;
    size_t n = template_size[t];
    uint32_t magic = dipc_sfi_call_magic();
    memcpy(p - sizeof magic, &magic, sizeof magic);
    uint32_t bytes = callee[i].signature.stack_bytes;
    uint32_t flags = ((bytes + 15u) & ~15u) << K_FLAG_ARGBYTES_SHIFT |
                     (t & 2 ? K_FLAG_DCS : 0);
    memcpy(p + P_FLAGS, &flags, sizeof flags);
    memcpy(p, templates[t], n);
    struct {
      uint64_t ph, value;
      int required;
    } relocs[] = {
        {PH_SELF, (uint64_t)p, 1},
        {PH_DOM, dom, 1},
        {PH_RW_D, (uint64_t)&dipc_machine.pkru_rw[dom], !sfi},
        {PH_RO_D, (uint64_t)&dipc_machine.pkru_ro[dom], !sfi},
        {PH_VALID_D, (uint64_t)&dipc_machine.valid[dom], !sfi},
        {PH_STUB, (uint64_t)callee[i].address, 1},
        {PH_TLO, dipc_threads_lo, 1},
        {PH_THI, dipc_threads_hi, 1},
        {PH_DSOFF, (uint64_t)dom * DS_SIZE, t & 1},
        {PH_ARGBYTES, (bytes + 15u) & ~15u, t & 1},
        {PH_ARGQWORDS, bytes / 8, t & 1},
        {PH_RW_BASE, (uint64_t)dipc_machine.pkru_rw, !sfi},
        {PH_VALID_BASE, (uint64_t)dipc_machine.valid, !sfi},
        {PH_H_THREAD, h_thread, 1},
        {PH_H_RESIDENT, h_resident, !sfi},
        {PH_H_STACK, h_stack, 0},
        {PH_H_PANIC, panic, 1},
        {PH_APL_COL, apl_col, 1},
        {PH_APL_STRIDE, enforce ? RT_MAX_DOMAINS : 0, 1},
        {PH_NO_ARM, return0 ? RT_RECOVERY_RETURN0 : 0, 1},
    };
    for (size_t r = 0; r < sizeof relocs / sizeof relocs[0]; r++) {
      unsigned hits = patch(p, n, relocs[r].ph, relocs[r].value);
      DIPC_CHECK(hits || !relocs[r].required,
                 "proxy template %d lacks placeholder %#lx", t,
                 (unsigned long)relocs[r].ph);
    }
    out[i] = p;
  }
  DIPC_CHECK(dipc_seal_runtime_code(page, size) == 0,
             "cannot seal proxy pages");
  uintptr_t clo = UINTPTR_MAX, chi = 0;
  for (unsigned i = 0; i < count; i++) {
    uintptr_t at = (uintptr_t)callee[i].address;
    clo = at < clo ? at : clo;
    chi = at > chi ? at : chi;
  }
  proxy_pages[nproxy_pages++] =
      (struct proxy_pages){(uintptr_t)page, (uintptr_t)page + size, clo, chi};
  return 0;
}

unsigned dipc_proxy_forget(uintptr_t lo, uintptr_t hi) {
  unsigned n = 0;
  for (unsigned i = 0; i < nproxy_pages; i++) {
    struct proxy_pages *p = &proxy_pages[i];
    /* Its callees' span meets the object: a set with an entry there is
     * dead; one whose entries only straddle it loses these proxies too. */
    if (p->callee_hi < lo || p->callee_lo >= hi)
      continue;
    /* Still the runtime's and still proxy pages (recovery.c), but no
     * longer executable: a call through a proxy kept from before faults
     * on the proxy instead of jumping to whatever is mapped there next.
     * Readable, by the runtime alone: a KCS entry of such a call still
     * has its flags there (P_FLAGS). */
    void *at = (void *)p->lo;
    size_t len = p->hi - p->lo;
    DIPC_CHECK((dipc_machine.backend != DIPC_BACKEND_MPK
                    ? dipc_sys_mprotect(at, len, PROT_READ)
                    : dipc_sys_pkey_mprotect(at, len, PROT_READ,
                                             RT_PKEY_RUNTIME)) == 0,
               "cannot retire proxy pages");
    p->callee_lo = UINTPTR_MAX; /* an empty span: retired once */
    p->callee_hi = 0;
    n++;
  }
  return n;
}
