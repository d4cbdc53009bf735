/* dstack.c - how large each domain's callee stacks are, and the domains'
 * names the runtime reports them by.
 *
 * A callee runs on a stack of its own domain (thread.c allocates one per
 * domain per thread on its first call there). DIPC_CALLEE_STACK, set by
 * `dipc-run --callee-stack=...`, is a comma-separated list of SIZE (every
 * domain) and NAME=SIZE (the domain the loader names NAME); later items
 * win. SIZE is a number of bytes with an optional K, M or G suffix,
 * between RT_CALLEE_STACK_MIN and RT_CALLEE_STACK_MAX, rounded up to
 * pages. Stacks are reserved MAP_NORESERVE: an unused size costs address
 * space only, so the default is as large as a thread's usual main stack.
 * A fault in the guard below a callee stack is reported as its overflow. */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>
#include <unistd.h>

#include <dipc/metadata.h>

#include "internal.h"

enum { MAX_NAMED = 64 };

static size_t default_size = RT_CALLEE_STACK_DEFAULT;
static struct {
  char name[RT_DOMAIN_NAME];
  size_t size;
} named[MAX_NAMED];
static unsigned num_named;
/* Per domain: its name ("" if none) and its size (0: default_size). */
static char names[RT_MAX_DOMAINS][RT_DOMAIN_NAME];
static size_t sizes[RT_MAX_DOMAINS];

static const char *setting;

static __attribute__((noreturn)) void refuse(const char *item,
                                             const char *why) {
  dipc_say("dipc: DIPC_CALLEE_STACK=%s (dipc-run --callee-stack): '%s': %s\n",
           setting, item, why);
  _exit(DIPC_EXIT_REFUSED);
}

/* Domain names are identifiers, as __dom("...") requires. */
static int valid_name(const char *s, size_t len) {
  if (len == 0 || len >= RT_DOMAIN_NAME || isdigit((unsigned char)s[0]))
    return 0;
  for (size_t i = 0; i < len; i++)
    if (!isalnum((unsigned char)s[i]) && s[i] != '_')
      return 0;
  return 1;
}

static size_t parse_size(const char *item, const char *s, size_t len) {
  size_t digits = 0;
  while (digits < len && isdigit((unsigned char)s[digits]))
    digits++;
  if (digits == 0 || digits > 12 || len - digits > 1)
    refuse(item, "expected a size: a number with an optional K, M or G "
                 "suffix");
  unsigned long long n = strtoull(s, NULL, 10);
  static const char suffixes[] = "KkMmGg"; /* 2^10, 2^20, 2^30 */
  const char *suffix = digits < len ? strchr(suffixes, s[digits]) : NULL;
  if (digits < len && (!suffix || !*suffix))
    refuse(item, "unknown size suffix (expected K, M or G)");
  unsigned shift = suffix ? 10 * (1 + (unsigned)(suffix - suffixes) / 2) : 0;
  if (n > RT_CALLEE_STACK_MAX >> shift) /* before shifting: no wrap-around */
    refuse(item, "a callee stack is 64K to 1G");
  n <<= shift;
  if (n < RT_CALLEE_STACK_MIN)
    refuse(item, "a callee stack is 64K to 1G");
  return (size_t)((n + RT_PAGE - 1) & ~(RT_PAGE - 1));
}

static void add_item(const char *item, size_t len) {
  char copy[128];
  snprintf(copy, sizeof copy, "%.*s", (int)len, item);
  const char *eq = memchr(item, '=', len);
  if (!eq) {
    default_size = parse_size(copy, item, len);
    return;
  }
  size_t nlen = (size_t)(eq - item);
  if (!valid_name(item, nlen))
    refuse(copy, "expected DOMAIN=SIZE with DOMAIN a domain's name");
  size_t size = parse_size(copy, eq + 1, len - nlen - 1);
  unsigned i = 0;
  while (i < num_named &&
         !(strlen(named[i].name) == nlen && !memcmp(named[i].name, item, nlen)))
    i++;
  if (i == MAX_NAMED)
    refuse(copy, "too many domains named");
  if (i == num_named)
    snprintf(named[num_named++].name, RT_DOMAIN_NAME, "%.*s", (int)nlen, item);
  named[i].size = size;
}

static void apply_named(uint32_t dom) {
  for (unsigned i = 0; i < num_named; i++)
    if (!strcmp(named[i].name, names[dom]))
      sizes[dom] = named[i].size;
}

void dipc_dstack_config_init(void) {
  setting = getenv("DIPC_CALLEE_STACK");
  if (setting) {
    if (!*setting)
      refuse(setting, "empty setting");
    for (const char *p = setting;;) {
      size_t len = strcspn(p, ",");
      if (len == 0)
        refuse(setting, "empty item");
      add_item(p, len);
      if (!p[len])
        break;
      p += len + 1;
    }
  }
  strcpy(names[0], DIPC_DEFAULT_DOMAIN);
  apply_named(0);
}

size_t dipc_dstack_size(uint32_t dom) {
  return sizes[dom] ? sizes[dom] : default_size;
}

long dipc_op_dom_name(uint32_t dom, const char *name, size_t room) {
  size_t len = strnlen(name, room);
  if (len == room || !valid_name(name, len))
    return -DIPC_EINVAL;
  if (names[dom][0])
    return -DIPC_EEXIST;
  for (unsigned d = 0; d < RT_MAX_DOMAINS; d++)
    if (!strcmp(names[d], name))
      return -DIPC_EEXIST;
  memcpy(names[dom], name, len + 1);
  apply_named(dom);
  return 0;
}

void dipc_dstack_report_overflow(const struct dipc_thread *st,
                                 const void *ucv) {
  const ucontext_t *uc = ucv;
  const struct dipc_dstack *ds = st->cur_ds;
  uintptr_t addr = (uintptr_t)uc->uc_mcontext.gregs[REG_CR2];
  if (!ds || !ds->hi || uc->uc_mcontext.gregs[REG_TRAPNO] != 14 /* #PF */ ||
      addr >= ds->lo || addr < ds->lo - RT_CALLEE_GUARD)
    return;
  uint32_t dom = (uint32_t)(ds - st->dstacks);
  const char *name = dom < RT_MAX_DOMAINS ? names[dom] : "";
  char self[32];
  if (!*name)
    snprintf(self, sizeof self, "#%u", dom);
  dipc_say("dipc: callee stack overflow in domain '%s': the call used up "
           "its %zu KiB callee stack and fails with DIPC_EFAULT; raise the "
           "size with dipc-run --callee-stack=%s%sSIZE\n",
           *name ? name : self, (size_t)(ds->hi - ds->lo) >> 10, name,
           *name ? "=" : "");
}
