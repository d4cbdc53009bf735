// Runtime C code that runs between a caller and its callee keeps the
// caller's whole vector state: every vector register the CPU has (zmm0-31
// and k0-7, or ymm0-15, or xmm0-15, filled with markers right before the
// call), MXCSR and the x87 control word (not the defaults), and leaves DF
// clear. The callee stores what it is entered with. Paths: the first call
// through a lazy import (resolved by the API gate mid-call), a thread's
// first call (its state is created), a thread's first call with a split
// stack (the callee stack is allocated), and calls to more domains than
// there are keys (domains are made resident again). A later call through
// each (proxy fast path) is the control. An API call, an ordinary call for
// the ABI, returns with every vector register zero: none of the runtime's
// values reach the caller.
// RUN: %rt-cc %s -o %t
// RUN: %t | FileCheck %s
// RUN: env DIPC_BACKEND=none %t | FileCheck %s
// RUN: env GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX512F,-AVX512VL,-AVX512BW,-AVX512DQ,-EVEX %t | FileCheck %s
// RUN: env DIPC_NO_PKU=1 %t | FileCheck %s
// CHECK: vector state: {{sse|avx|avx512}}
// CHECK-NEXT: lazy import, first call: as the caller left it
// CHECK-NEXT: lazy import, later call: as the caller left it
// CHECK-NEXT: split stack, first call: as the caller left it
// CHECK-NEXT: split stack, later call: as the caller left it
// CHECK-NEXT: new thread, first call: as the caller left it
// CHECK-NEXT: new thread, later call: as the caller left it
// CHECK-NEXT: new thread, split stack, first call: as the caller left it
// CHECK-NEXT: 40 domains, 400 calls: 400 as the caller left it, misses > 0
// CHECK-NEXT: API call: zeroed
#include <pthread.h>

#include "rt-test.h"
#include "vector-state.h"

/* The callee: stores the state it is entered with. */
DOMAIN_CODE("dom_vs") void peek(struct vstate *seen, long level) {
  __asm__ volatile(VS_DUMP : : "D"(seen), "S"(level) : "memory", "cc");
}

static long level;
static struct vstate want;

/* fn(seen, level) with the vector state of `want` (a SysV call below the
 * red zone, stack 16-byte aligned). */
static void call_filled(void *fn, struct vstate *seen) {
  const struct vstate *base = &want;
  long lvl = level;
  struct vstate *out = seen;
  __asm__ volatile("mov %%rsp, %%rbx\n\t"
                   "sub $128, %%rsp\n\t"
                   "and $-16, %%rsp\n\t" VS_FILL "mov %%rdx, %%rdi\n\t"
                   "call *%[fn]\n\t"
                   "mov %%rbx, %%rsp"
                   : "+D"(base), "+S"(lvl), "+d"(out)
                   : [fn] "r"(fn)
                   : "rax", "rbx", "rcx", "r8", "r9", "r10", "r11", "memory",
                     "cc", VS_CLOBBERS);
  vs_reset_control();
}

/* An API function with the vector state of `want`; stores the state it
 * returns with. */
static void api_call_filled(long (*fn)(void), struct vstate *seen) {
  register struct vstate *out __asm__("r13") = seen;
  register long lvl __asm__("r14") = level;
  const struct vstate *base = &want;
  long lvl2 = level;
  __asm__ volatile("mov %%rsp, %%rbx\n\t"
                   "sub $128, %%rsp\n\t"
                   "and $-16, %%rsp\n\t" VS_FILL "call *%[fn]\n\t"
                   "mov %%r13, %%rdi\n\t"
                   "mov %%r14, %%rsi\n\t" VS_DUMP "mov %%rbx, %%rsp"
                   : "+D"(base), "+S"(lvl2)
                   : [fn] "r"(fn), "r"(out), "r"(lvl)
                   : "rax", "rbx", "rcx", "rdx", "r8", "r9", "r10", "r11",
                     "memory", "cc", VS_CLOBBERS);
  vs_reset_control();
}

static void report(const char *what, void *fn) {
  struct vstate seen;
  char buf[160];
  memset(&seen, 0xee, sizeof seen);
  call_filled(fn, &seen);
  EXPECT_EQ(*__dipc_errno_location(), 0);
  printf("%s: %s\n", what, vs_judge(&want, &seen, level, buf, sizeof buf));
}

/* The loader's part of a lazy import: the first call through the slot
 * faults on its guard address; resume in the runtime's trampoline. */
static void import_or_die(int sig, siginfo_t *si, void *uc) {
  (void)si;
  if (!dipc_import_fault(uc))
    signal(sig, SIG_DFL);
}

static void *plain, *split;
static char thread_lines[3][200];

static void *thread_body(void *arg) {
  (void)arg;
  const char *what[3] = {"new thread, first call", "new thread, later call",
                         "new thread, split stack, first call"};
  void *fn[3] = {plain, plain, split};
  for (int i = 0; i < 3; i++) {
    struct vstate seen;
    char buf[160];
    memset(&seen, 0xee, sizeof seen);
    call_filled(fn[i], &seen);
    snprintf(thread_lines[i], sizeof thread_lines[i], "%s: %s", what[i],
             vs_judge(&want, &seen, level, buf, sizeof buf));
  }
  return NULL;
}

#define N 40
#define ROUNDS 10

int main(void) {
  level = vs_level();
  vs_markers(&want);
  printf("vector state: %s\n", vs_level_name(level));
  /* peek's code, for copies in other domains (unreadable once d's). */
  extern char __start_dom_vs[], __stop_dom_vs[];
  static char peek_code[4096];
  size_t code_len = (size_t)(__stop_dom_vs - __start_dom_vs);
  EXPECT(code_len <= sizeof peek_code);
  memcpy(peek_code, __start_dom_vs, code_len);
  dom_t d = dom_create();
  EXPECT(d >= 0);
  move_section_to(d, dom_vs);
  /* peek stores into the caller's `seen`, on the caller's stack: default-
   * domain memory (every callee runs on a stack of its own domain). */
  EXPECT(grant_create(d, dom_default()) >= 0);
  struct dipc_signature s = sig(2, 0, 0, 0, 0);
  plain = proxy_to(d, peek, s, 0, 0);
  split = proxy_to(d, peek, s, 0, stack_confidentiality);

  on_sigsegv(import_or_die, SA_NODEFER);
  static void *slot;
  struct dipc_entry_desc desc = {(void *)peek, s, 0};
  entry_t e = entry_register(d, 1, &desc);
  EXPECT(e >= 0);
  long imp = dipc_import_register(dom_default(), &slot, &s, 0, "peek");
  EXPECT(imp >= 0);
  EXPECT_EQ(dipc_import_bind(imp, e), 0);
  report("lazy import, first call", slot);
  report("lazy import, later call", slot);
  report("split stack, first call", split);
  report("split stack, later call", split);

  pthread_t t;
  EXPECT_EQ(pthread_create(&t, NULL, thread_body, NULL), 0);
  EXPECT_EQ(pthread_join(t, NULL), 0);
  for (int i = 0; i < 3; i++)
    printf("%s\n", thread_lines[i]);

  /* More domains than keys, each with its own copy of peek: calls make
   * evicted domains resident again in the proxy's slow path. */
  void *entry[N];
  for (int i = 0; i < N; i++) {
    dom_t di = dom_create();
    EXPECT(di >= 0);
    void *code = dom_mmap(di, NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
                          MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    EXPECT(!dipc_ptr_err(code));
    grant_t g = grant_create(dom_default(), di);
    EXPECT(g >= 0);
    memcpy(code, peek_code, code_len);
    EXPECT_EQ(grant_revoke(g), 0);
    EXPECT(grant_create(di, dom_default()) >= 0); /* for `seen` */
    entry[i] = proxy_to(di, code, s, 0, 0);
  }
  struct dipc_stats before, after;
  EXPECT_EQ(dipc_get_stats(&before), 0);
  int kept = 0;
  for (int r = 0; r < ROUNDS; r++)
    for (int i = 0; i < N; i++) {
      struct vstate seen;
      char buf[160];
      memset(&seen, 0xee, sizeof seen);
      call_filled(entry[i], &seen);
      const char *j = vs_judge(&want, &seen, level, buf, sizeof buf);
      if (!strcmp(j, "as the caller left it"))
        kept++;
      else if (N * r + i - kept < 3)
        printf("domain %d, round %d: %s\n", i, r, j);
    }
  EXPECT_EQ(dipc_get_stats(&after), 0);
  printf("%d domains, %d calls: %d as the caller left it, misses %s\n", N,
         N * ROUNDS, kept, after.apl_misses > before.apl_misses ? "> 0" : "0");

  struct vstate seen;
  char buf[160];
  memset(&seen, 0xee, sizeof seen);
  api_call_filled(dipc_kcs_depth, &seen);
  printf("API call: %s\n", vs_judge(&want, &seen, level, buf, sizeof buf));
  return 0;
}
