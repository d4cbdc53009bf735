// Every call of the runtime API (dipc/rt.h: Table 2, capabilities,
// introspection, the loader's calls; the ABI's gates) with forged, stale,
// wrong-kind, out-of-range, NULL and runtime-owned arguments, from the
// default domain and from a named domain: each returns its documented
// error code. Each call runs in a child process under alarm(), so a crash
// or a hang is counted (and named) instead of stopping the test, and
// after each call the child checks that nothing was escalated: two victim
// words keep their values, the thread still runs in its domain, and (with
// `none`, where it is readable) the runtime's permission table is
// unchanged. Before the checks this test counted crashes (NULL output
// pointers, dom_mmap's prot, a forged recovery context), a hang
// (dom_remap(d, d, ...)) and wrong results (runtime memory accepted as
// slots, remap sources, capabilities and entry addresses).
// RUN: %rt-cc %s -o %t && %t | FileCheck %s
// RUN: env DIPC_BACKEND=none %t 2>&1 | FileCheck %s
// CHECK: calls: {{[0-9]+}}, crashes: 0, hangs: 0, wrong results: 0, escalations: 0
#include "rt-symbol.h"
#include "rt-test.h"

#include <dipc/abi.h>
#include <errno.h>
#include <limits.h>
#include <sys/auxv.h>
#include <ucontext.h>

#define OP_THREAD_EXIT 24 /* rt/internal.h, enum dipc_op */
#define OP_IMPORT_RESOLVE 27
#define OP_MEMORY 28
#define OP_THREAD_RESERVE 29
#define OP_FORK 31
#define OP_ANYCALL_REGISTER 32
#define OP_DOM_NAME 38
#define OP_THREAD_SPAWN 40
#define OP_THREAD_ADOPT 41
#define OP_THREAD_SPAWN_DROP 42
#define OP_THREAD_EXIT_VALUE 43
#define OP_COUNT 45
#define PAGE 4096UL

int __dipc_recover_from_fault(void *ucontext);
void __dipc_setjmp_arm(void **buf);
void __dipc_fault_landed(void *exception);

struct gate_args {
  uint64_t arg[8], out[4];
};
typedef long gate_fn(unsigned, struct gate_args *);
typedef long any_fn(long, long, long, long, long);

/* Domain b calls fn(a0..a4) with its own rights (libdipc through a
 * pointer: b cannot read the default domain's GOT). */
DOMAIN_CODE("dom_b")
long b_run(void *fn, long a0, long a1, long a2, long a3, long a4) {
  return ((any_fn *)fn)(a0, a1, a2, a3, a4);
}
/* The same in domain c, which may read the default domain: libdipc's
 * wrappers that call libc (through a GOT) work there. */
DOMAIN_CODE("dom_c")
long c_run(void *fn, long a0, long a1, long a2, long a3, long a4) {
  return ((any_fn *)fn)(a0, a1, a2, a3, a4);
}
/* b calls the gate with an argument block on its own stack (a block on
 * its caller's stack is out of its reach: the gate stops the process). */
DOMAIN_CODE("dom_b")
long b_gate(void *gate, long op, long a1, long a2, long a3, long a4) {
  (void)a1, (void)a2, (void)a3, (void)a4;
  struct gate_args a;
  for (unsigned i = 0; i < sizeof a / sizeof(uint64_t); i++)
    ((volatile uint64_t *)&a)[i] = 0;
  return ((gate_fn *)gate)((unsigned)op, &a);
}
/* b gets a start ticket for routine and tries to run it itself: a ticket
 * is only taken by a thread running as the default domain (thread.c). */
DOMAIN_CODE("dom_b")
long b_spawn_adopt(void *gate, long routine, long a2, long a3, long a4,
                   long a5) {
  (void)a2, (void)a3, (void)a4, (void)a5;
  struct gate_args a;
  for (unsigned i = 0; i < sizeof a / sizeof(uint64_t); i++)
    ((volatile uint64_t *)&a)[i] = 0;
  a.arg[0] = (uint64_t)routine;
  long t = ((gate_fn *)gate)(OP_THREAD_SPAWN, &a);
  if (t <= 0)
    return 1000 + t;
  a.arg[0] = (uint64_t)t;
  return ((gate_fn *)gate)(OP_THREAD_ADOPT, &a);
}
/* b gets a ticket (routine, arg 7); returns it. */
DOMAIN_CODE("dom_b")
long b_spawn(void *gate, long routine, long a2, long a3, long a4, long a5) {
  (void)a2, (void)a3, (void)a4, (void)a5;
  struct gate_args a;
  for (unsigned i = 0; i < sizeof a / sizeof(uint64_t); i++)
    ((volatile uint64_t *)&a)[i] = 0;
  a.arg[0] = (uint64_t)routine;
  a.arg[1] = 7;
  return ((gate_fn *)gate)(OP_THREAD_SPAWN, &a);
}
static long (*in_b)(void *, long, long, long, long, long);
static long (*in_c)(void *, long, long, long, long, long);
#define IN_B(fn, ...) in_b((void *)(fn), __VA_ARGS__)
#define IN_C(fn, ...) in_c((void *)(fn), __VA_ARGS__)

/* ---- the harness: one child process per call --------------------------- */

static int calls, crashes, hangs, wrong, escalations;
static long victim = 42;  /* default domain */
static long *b_victim;    /* domain b's page; default may read it */
static uint8_t *apl;      /* the runtime's permission table */
static uint8_t *apl_copy; /* as it was, when readable (none) */
static int result_pipe[2];
static long adopt_b_ticket(gate_fn *gate);

static int escalated(void) {
  return victim != 42 || *b_victim != 43 || dipc_current_domain() != 0 ||
         (apl_copy && memcmp(apl, apl_copy, 1024 * 1024) != 0);
}

static pid_t begin_call(void) {
  fflush(stdout);
  EXPECT_EQ(pipe(result_pipe), 0);
  pid_t pid = fork();
  EXPECT(pid >= 0);
  if (pid == 0) {
    close(result_pipe[0]);
    alarm(5);
  }
  return pid;
}

static void send_result(long r, long escalation) {
  long out[2] = {r, escalation};
  write(result_pipe[1], out, sizeof out);
  _exit(0);
}

static void end_call(long r) { send_result(r, escalated()); }

/* Collects the child's result; ok(r) says whether it is the right one. */
static void finish_call(pid_t pid, const char *what, int line, long r_want,
                        int (*ok)(long, long)) {
  long out[2] = {0, 0};
  close(result_pipe[1]);
  ssize_t n = read(result_pipe[0], out, sizeof out);
  close(result_pipe[0]);
  int status;
  EXPECT(waitpid(pid, &status, 0) == pid);
  calls++;
  if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM) {
    hangs++;
    printf("HANG line %d: %s\n", line, what);
  } else if (!WIFEXITED(status) || n != sizeof out) {
    crashes++;
    printf("CRASH line %d: %s (signal %d)\n", line, what,
           WIFSIGNALED(status) ? WTERMSIG(status) : 0);
  } else {
    if (!ok(out[0], r_want)) {
      wrong++;
      printf("WRONG line %d: %s = %ld\n", line, what, out[0]);
    }
    if (out[1]) {
      escalations++;
      printf("ESCALATION line %d: %s\n", line, what);
    }
  }
}

static int equal(long r, long want) { return r == want; }
static int nonneg(long r, long want) { return (void)want, r >= 0; }
static int ptr_ok(long r, long want) {
  return (void)want, r != 0 && !dipc_ptr_err((void *)r);
}
static int not_at(long r, long want) {
  return !dipc_ptr_err((void *)r) && (r & ~(PAGE - 1)) != want;
}
static int bad_handle(long r, long want) {
  return (void)want, r == -DIPC_EBADF || r == -DIPC_ESTALE;
}

#define CALL_WITH(ok, want, expr)                                              \
  do {                                                                         \
    pid_t pid_ = begin_call();                                                 \
    if (pid_ == 0)                                                             \
      end_call((long)(expr));                                                  \
    finish_call(pid_, #expr, __LINE__, (long)(want), ok);                      \
  } while (0)
#define CALL(want, expr) CALL_WITH(equal, want, expr)
/* int results of calls made from domain b come back in a long */
#define CALL_INT(want, expr) CALL_WITH(equal, want, (int)(expr))

/* ---- the world the calls misuse ----------------------------------------- */

static dom_t def, b, b_read, b_nil, stale_dom;
static grant_t g, stale_grant;
static entry_t e, stale_entry;
static void *proxy;
static struct dipc_entry_desc good;
static char *b_page, *b_ro_page, *unmapped, *guard;
static void *state, *ro_table, *vector, *lib_code, *lib_data, *vdso;
static const long ro_data[PAGE / 8] __attribute__((aligned(4096))) = {1};
static void *slot_ok;
static long import_id;
static const int64_t junk[] = {-1, 0, 1, 42, INT64_MAX, INT64_MIN, 1LL << 52};
#define KERNEL ((void *)0xffff888000000000UL)
#define VSYSCALL ((void *)0xffffffffff600000UL)

static void *page_of(const void *p) {
  return (void *)((uintptr_t)p & ~(PAGE - 1));
}

/* The permission of the handle dom_default() gives the calling domain;
 * runs there (code is executable everywhere; libdipc as pointers). */
__attribute__((noinline)) static long default_perm(long get, long copy) {
  dom_t h = ((dom_t(*)(void))get)();
  int p = DIPC_PERM_OWNER;
  while (p > DIPC_PERM_NIL && ((dom_t(*)(dom_t, int))copy)(h, p) == -DIPC_EPERM)
    p--;
  return p;
}

static int perm_of(dom_t h) {
  int p = DIPC_PERM_OWNER;
  while (p > DIPC_PERM_NIL && dom_copy(h, p) == -DIPC_EPERM)
    p--;
  return p;
}

static void setup(void) {
  def = dom_default();
  b = dom_create();
  move_section_to(b, dom_b);
  b_read = dom_copy(b, DIPC_PERM_READ);
  b_nil = dom_copy(b, DIPC_PERM_NIL);
  stale_dom = dom_copy(b, DIPC_PERM_OWNER);
  EXPECT_EQ(dipc_handle_close(stale_dom), 0);
  stale_grant = grant_create(def, b_nil);
  EXPECT(stale_grant >= 0);
  EXPECT_EQ(grant_revoke(stale_grant), 0);
  b_page = dom_mmap(b, NULL, 2 * PAGE, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  b_ro_page =
      dom_mmap(b, NULL, PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  EXPECT(!dipc_ptr_err(b_page) && !dipc_ptr_err(b_ro_page));
  b_victim = (long *)(b_page + PAGE);
  grant_t w = grant_create(def, b); /* write, to set it up */
  *b_victim = 43;
  EXPECT_EQ(grant_revoke(w), 0);
  g = grant_create(def, b_read); /* default reads b's victim */
  EXPECT(g >= 0);
  good = (struct dipc_entry_desc){(void *)b_run, sig(6, 0, 1, 0, 0), 0};
  e = entry_register(b, 1, &good);
  stale_entry = entry_register(b, 1, &good);
  EXPECT(e >= 0 && stale_entry >= 0);
  EXPECT_EQ(dipc_handle_close(stale_entry), 0);
  struct dipc_entry_desc d = good;
  dom_t p = entry_request(e, 1, &d);
  EXPECT(p >= 0 && grant_create(def, p) >= 0);
  proxy = d.address;
  in_b = proxy;
  dom_t c = dom_create();
  move_section_to(c, dom_c);
  EXPECT(grant_create(c, dom_copy(def, DIPC_PERM_READ)) >= 0);
  in_c = proxy_to(c, c_run, sig(6, 0, 1, 0, 0), 0, 0);
  unmapped = mmap(NULL, PAGE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  munmap(unmapped, PAGE);
  state = dipc_thread_state();
  ro_table = (void *)0x7ff00000;
  vector = (void *)0x7ff01000;
  lib_code = page_of((void *)dom_create);
  lib_data = page_of(rt_symbol("apl"));
  apl = *(uint8_t **)rt_symbol("apl");
  vdso = (void *)getauxval(AT_SYSINFO_EHDR);
  static void *slot;
  slot_ok = &slot;
  struct dipc_signature s = sig(0, 0, 0, 0, 0);
  import_id = dipc_import_register(def, slot_ok, &s, 0, "a legit import");
  EXPECT(import_id >= 0);
  guard = page_of(slot); /* the runtime's guard address */
  /* b's first start ticket makes the start proxies' caller domain (the
   * default domain's call grant on it): before the APL snapshot. */
  EXPECT(adopt_b_ticket((gate_fn *)rt_symbol("dipc_gate")) == 1);
  if (!strcmp(dipc_backend(), "none")) {
    apl_copy = malloc(1024 * 1024);
    memcpy(apl_copy, apl, 1024 * 1024);
  }
}

/* ---- Table 2 ------------------------------------------------------------ */

static void table2(void) {
  char local[64];
  void *stack = page_of(local);
  for (unsigned i = 0; i < sizeof junk / sizeof junk[0]; i++) {
    CALL(-DIPC_EBADF, dom_copy(junk[i], DIPC_PERM_NIL));
    CALL(-DIPC_EBADF,
         dipc_ptr_err(dom_mmap(junk[i], NULL, PAGE, PROT_READ,
                               MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)));
    CALL(-DIPC_EBADF, dom_remap(junk[i], def, b_page, PAGE));
    CALL(-DIPC_EBADF, grant_create(junk[i], b));
    CALL(-DIPC_EBADF, grant_create(def, junk[i]));
    CALL(-DIPC_EBADF, grant_revoke(junk[i]));
    CALL(-DIPC_EBADF, entry_register(junk[i], 1, &good));
    CALL(-DIPC_EBADF, entry_request(junk[i], 1, &good));
    CALL(-DIPC_EBADF, dipc_handle_close(junk[i]));
  }
  for (int bit = 0; bit < 63; bit += 3)
    CALL_WITH(bad_handle, 0, dom_copy(b ^ (1LL << bit), DIPC_PERM_NIL));
  /* dom_default: owner for the default domain only */
  CALL(DIPC_PERM_OWNER, perm_of(dom_default()));
  CALL(DIPC_PERM_NIL,
       IN_B(default_perm, (long)dom_default, (long)dom_copy, 0, 0, 0));
  /* handles are the obtaining domain's: their values are no handles to
   * code of other domains */
  CALL(-DIPC_EBADF, IN_B(dom_copy, def, DIPC_PERM_NIL, 0, 0, 0));
  CALL(-DIPC_EBADF, IN_B(dom_copy, b, DIPC_PERM_NIL, 0, 0, 0));
  CALL_INT(-DIPC_EBADF, IN_B(dipc_handle_close, def, 0, 0, 0, 0));
  CALL_INT(-DIPC_EBADF, IN_B(grant_revoke, g, 0, 0, 0, 0));
  CALL(-DIPC_EBADF,
       IN_B(grant_create, IN_B(dom_create, 0, 0, 0, 0, 0), def, 0, 0, 0));
  CALL(-DIPC_EBADF, dom_copy(IN_B(dom_create, 0, 0, 0, 0, 0), DIPC_PERM_NIL));
  /* dom_copy */
  CALL(-DIPC_ESTALE, dom_copy(stale_dom, DIPC_PERM_NIL));
  CALL(-DIPC_EBADF, dom_copy(g, DIPC_PERM_NIL));
  CALL(-DIPC_EBADF, dom_copy(e, DIPC_PERM_NIL));
  CALL(-DIPC_EINVAL, dom_copy(b, -1));
  CALL(-DIPC_EINVAL, dom_copy(b, DIPC_PERM_OWNER + 1));
  CALL(-DIPC_EINVAL, dom_copy(b, INT_MIN));
  CALL(-DIPC_EPERM, dom_copy(b_read, DIPC_PERM_WRITE));
  /* dom_mmap */
  const int anon = MAP_PRIVATE | MAP_ANONYMOUS;
  CALL(-DIPC_ESTALE,
       dipc_ptr_err(dom_mmap(stale_dom, NULL, PAGE, PROT_READ, anon, -1, 0)));
  CALL(-DIPC_EPERM,
       dipc_ptr_err(dom_mmap(b_read, NULL, PAGE, PROT_READ, anon, -1, 0)));
  CALL(-DIPC_EINVAL, dipc_ptr_err(dom_mmap(b, NULL, PAGE, -1, anon, -1, 0)));
  CALL(-DIPC_EINVAL, dipc_ptr_err(dom_mmap(b, NULL, PAGE, 0x10, anon, -1, 0)));
  CALL(-DIPC_EINVAL, dipc_ptr_err(dom_mmap(def, NULL, PAGE, -1, anon, -1, 0)));
  CALL(-DIPC_EINVAL, dipc_ptr_err(dom_mmap(b, state, PAGE, PROT_READ,
                                           anon | MAP_FIXED, -1, 0)));
  CALL(-DIPC_EINVAL, dipc_ptr_err(dom_mmap(b, NULL, PAGE, PROT_READ,
                                           anon | MAP_GROWSDOWN, -1, 0)));
  CALL(-DIPC_EINVAL, dipc_ptr_err(dom_mmap(b, NULL, PAGE, PROT_READ,
                                           anon | MAP_HUGETLB, -1, 0)));
  CALL(-DIPC_EINVAL,
       dipc_ptr_err(dom_mmap(b, NULL, PAGE, PROT_READ, -1, -1, 0)));
  CALL(-DIPC_EINVAL,
       dipc_ptr_err(dom_mmap(b, NULL, 0, PROT_READ, anon, -1, 0)));
  CALL(-DIPC_ENOMEM,
       dipc_ptr_err(dom_mmap(b, NULL, 1UL << 62, PROT_READ, anon, -1, 0)));
  CALL(-DIPC_EBADF,
       dipc_ptr_err(dom_mmap(b, NULL, PAGE, PROT_READ, MAP_PRIVATE, 12345, 0)));
  /* a hint is only a hint: never over the runtime's pages */
  CALL_WITH(not_at, (long)state,
            dom_mmap(b, state, PAGE, PROT_READ, anon, -1, 0));
  CALL_WITH(not_at, (long)ro_table,
            dom_mmap(def, ro_table, PAGE, PROT_READ, anon, -1, 0));
  /* dom_remap */
  CALL(0, dom_remap(b, b, b_page, PAGE)); /* in place: returns at once */
  CALL(-DIPC_ENOENT, dom_remap(b, b, unmapped, PAGE));
  CALL(0, dom_remap(def, def, page_of(&victim), PAGE));
  void *runtime[] = {state,    ro_table, vector, lib_code, lib_data,
                     apl,      proxy,    guard,  stack,    vdso,
                     VSYSCALL, KERNEL,   NULL,   unmapped};
  for (unsigned i = 0; i < sizeof runtime / sizeof runtime[0]; i++) {
    CALL(-DIPC_ENOENT, dom_remap(b, def, page_of(runtime[i]), PAGE));
    CALL(-DIPC_ENOENT, dom_remap(def, def, page_of(runtime[i]), PAGE));
  }
  CALL(-DIPC_EINVAL, dom_remap(b, def, b_page + 8, PAGE));
  CALL(-DIPC_EINVAL, dom_remap(b, def, b_page, 0));
  CALL(-DIPC_EINVAL, dom_remap(b, def, (void *)-PAGE, 2 * PAGE));
  CALL(-DIPC_EPERM, dom_remap(b_read, def, page_of(&victim), PAGE));
  CALL(-DIPC_ESTALE, dom_remap(stale_dom, def, page_of(&victim), PAGE));
  CALL(-DIPC_EBADF, dom_remap(g, def, page_of(&victim), PAGE));
  CALL(-DIPC_ENOENT, (munmap(b_page, PAGE), dom_remap(def, b, b_page, PAGE)));
  /* from domain b: its dom_default() is no owner handle */
  CALL_INT(-DIPC_EPERM, IN_B(dom_remap, IN_B(dom_create, 0, 0, 0, 0, 0),
                             IN_B(dom_default, 0, 0, 0, 0, 0),
                             (long)page_of(&victim), PAGE, 0));
  /* grant_create, grant_revoke */
  CALL(-DIPC_EPERM, grant_create(b_read, def));
  CALL(-DIPC_ESTALE, grant_create(def, stale_dom));
  CALL(-DIPC_ESTALE, grant_create(stale_dom, b));
  CALL(-DIPC_EBADF, grant_create(g, b));
  CALL(-DIPC_EBADF, grant_create(def, e));
  CALL(-DIPC_ESTALE, grant_revoke(stale_grant));
  CALL(-DIPC_EBADF, grant_revoke(b));
  CALL(-DIPC_EBADF, grant_revoke(e));
  /* entry_register */
  struct dipc_entry_desc d = good;
  CALL(-DIPC_EINVAL, entry_register(b, 1, NULL));
  CALL(-DIPC_EINVAL, entry_register(b, 0, &good));
  CALL(-DIPC_EINVAL, entry_register(b, DIPC_MAX_ENTRIES + 1, &good));
  CALL(-DIPC_EINVAL, entry_register(b, UINT_MAX, &good));
  CALL(-DIPC_EPERM, entry_register(b_read, 1, &good));
  CALL(-DIPC_ESTALE, entry_register(stale_dom, 1, &good));
  CALL(-DIPC_EBADF, entry_register(e, 1, &good));
  void *not_entries[] = {NULL,   lib_code, lib_data, proxy,    ro_table,
                         vector, state,    stack,    unmapped, KERNEL};
  for (unsigned i = 0; i < sizeof not_entries / sizeof not_entries[0]; i++) {
    d.address = not_entries[i];
    CALL(-DIPC_EINVAL, entry_register(def, 1, &d));
    CALL(-DIPC_EINVAL, entry_register(b, 1, &d));
  }
  d.address = (void *)b_run; /* b's, not the default domain's */
  CALL(-DIPC_EINVAL, entry_register(def, 1, &d));
  d.signature = sig(7, 0, 1, 0, 0);
  CALL(-DIPC_EINVAL, entry_register(b, 1, &d));
  d = good;
  d.policy = 1u << 6;
  CALL(-DIPC_EINVAL, entry_register(b, 1, &d));
  /* entry_request */
  d = good;
  CALL(-DIPC_EINVAL, entry_request(e, 1, NULL));
  CALL(-DIPC_EINVAL, entry_request(e, 0, &d));
  CALL(-DIPC_EINVAL, entry_request(e, 2, (struct dipc_entry_desc[2]){good}));
  CALL(-DIPC_EINVAL, entry_request(e, UINT_MAX, &d));
  CALL(-DIPC_ESTALE, entry_request(stale_entry, 1, &d));
  CALL(-DIPC_EBADF, entry_request(b, 1, &d));
  CALL(-DIPC_EBADF, entry_request(g, 1, &d));
  d.signature = sig(5, 0, 1, 0, 0);
  CALL(-DIPC_EPROTO, entry_request(e, 1, &d));
  d = good;
  d.policy = ~0u;
  CALL(-DIPC_EINVAL, entry_request(e, 1, &d));
  /* dipc_handle_close */
  CALL(-DIPC_ESTALE, dipc_handle_close(stale_dom));
  CALL(-DIPC_ESTALE, dipc_handle_close(stale_entry));
}

/* ---- capabilities ------------------------------------------------------- */

static void capabilities(void) {
  char local[64];
  struct dipc_cap c;
  CALL(-DIPC_EINVAL, dipc_cap_create(DIPC_CAP_REGS, &victim, 8, 2));
  CALL(-DIPC_EINVAL, dipc_cap_create(UINT_MAX, &victim, 8, 2));
  CALL(-DIPC_EINVAL, dipc_cap_create(0, &victim, 8, DIPC_PERM_NIL));
  CALL(-DIPC_EINVAL, dipc_cap_create(0, &victim, 8, DIPC_PERM_OWNER));
  CALL(-DIPC_EINVAL, dipc_cap_create(0, &victim, 8, -1));
  CALL(-DIPC_EINVAL, dipc_cap_create(0, &victim, 0, DIPC_PERM_READ));
  CALL(-DIPC_EINVAL, dipc_cap_create(0, (void *)-8L, 16, DIPC_PERM_READ));
  void *nobodys[] = {NULL,  (void *)8, KERNEL,  VSYSCALL, state,
                     apl,   ro_table,  vector,  lib_code, lib_data,
                     proxy, guard,     unmapped};
  for (unsigned i = 0; i < sizeof nobodys / sizeof nobodys[0]; i++) {
    CALL(-DIPC_EPERM, dipc_cap_create(0, nobodys[i], 8, DIPC_PERM_CALL));
    CALL_INT(-DIPC_EPERM,
             IN_B(dipc_cap_create, 0, (long)nobodys[i], 8, DIPC_PERM_CALL, 0));
  }
  CALL(0, dipc_cap_create(0, local, sizeof local, DIPC_PERM_WRITE));
  CALL(-DIPC_EPERM, dipc_cap_create(0, b_victim, 8, DIPC_PERM_WRITE));
  CALL_INT(-DIPC_EPERM,
           IN_B(dipc_cap_create, 0, (long)&victim, 8, DIPC_PERM_CALL, 0));
  CALL(-DIPC_EINVAL, dipc_cap_derive(DIPC_CAP_REGS, 0, 0, 1, 2));
  CALL(-DIPC_EINVAL, dipc_cap_derive(0, DIPC_CAP_REGS, 0, 1, 2));
  CALL(-DIPC_EINVAL, dipc_cap_derive(0, 1, 0, 1, DIPC_PERM_OWNER));
  CALL(-DIPC_EINVAL, dipc_cap_derive(0, 1, 0, 0, DIPC_PERM_READ));
  CALL(-DIPC_EPERM, dipc_cap_derive(0, 1, 0, 1, DIPC_PERM_READ)); /* empty */
  CALL(-DIPC_EPERM, (dipc_cap_create(1, local, 8, DIPC_PERM_READ),
                     dipc_cap_derive(0, 1, 8, (size_t)-4, DIPC_PERM_READ)));
  CALL(-DIPC_EPERM, (dipc_cap_create(1, local, 8, DIPC_PERM_READ),
                     dipc_cap_derive(0, 1, 0, 8, DIPC_PERM_WRITE)));
  unsigned bad_regs[] = {DIPC_CAP_REGS, 1000, UINT_MAX};
  for (unsigned i = 0; i < 3; i++) {
    CALL(-DIPC_EINVAL, dipc_cap_push(bad_regs[i]));
    CALL(-DIPC_EINVAL, dipc_cap_pop(bad_regs[i]));
    CALL(-DIPC_EINVAL, dipc_cap_revoke(bad_regs[i]));
    CALL(-DIPC_EINVAL, dipc_cap_read(bad_regs[i], &c));
    CALL(-DIPC_EINVAL, dipc_cap_check(bad_regs[i], local, 1, 2));
  }
  CALL(-DIPC_EINVAL, dipc_cap_read(0, NULL));
  CALL(-DIPC_EINVAL, dipc_cap_check(0, local, 1, 9));
  CALL(-DIPC_EPERM, dipc_cap_pop(0)); /* the DCS is empty */
  CALL(0, dipc_dcs_depth());
}

/* ---- introspection and the loader's calls ------------------------------- */

static void loader_calls(void) {
  char local[64];
  struct dipc_signature s = sig(0, 0, 0, 0, 0), bad = sig(0, 0, 0, 0, 4);
  ucontext_t zero;
  memset(&zero, 0, sizeof zero);
  CALL(-DIPC_EINVAL, dipc_get_stats(NULL));
  CALL(-DIPC_EBADF, dipc_domain_pkey(junk[3]));
  CALL(-DIPC_ESTALE, dipc_domain_pkey(stale_dom));
  CALL(-DIPC_EBADF, dipc_domain_pkey(g));
  CALL(0, dipc_kcs_depth());
  CALL(0, dipc_current_domain());
  CALL_WITH(ptr_ok, 0, dipc_thread_state());
  CALL(0, dipc_thread_init());
  CALL(1, dipc_backend() != NULL);
  /* dipc_import_register */
  void *slot = slot_ok;
  CALL_WITH(nonneg, 0, dipc_import_register(def, slot, &s, 0, "again"));
  for (unsigned i = 0; i < sizeof junk / sizeof junk[0]; i++)
    CALL(-DIPC_EBADF, dipc_import_register(junk[i], slot, &s, 0, "x"));
  CALL(-DIPC_ESTALE, dipc_import_register(stale_dom, slot, &s, 0, "x"));
  CALL(-DIPC_EPERM, dipc_import_register(b_read, slot, &s, 0, "x"));
  CALL(-DIPC_EBADF, dipc_import_register(g, slot, &s, 0, "x"));
  CALL(-DIPC_EINVAL, dipc_import_register(def, NULL, &s, 0, "x"));
  /* dipc_lend_unsafe_stride: the lent strides above the threads' only
   * (8 MiB each, rt/layout.h), from the default domain only. */
  {
    const uintptr_t stride = 8u << 20;
    uintptr_t lo = *(const volatile uintptr_t *)DIPC_VECTOR_UNSAFE_LO,
              hi = *(const volatile uintptr_t *)DIPC_VECTOR_UNSAFE_HI;
    int fd = memfd_create("misuse", MFD_CLOEXEC);
    EXPECT(fd >= 0 && ftruncate(fd, (off_t)stride) == 0);
    void *lent = (void *)(hi - stride);
    CALL(-DIPC_EINVAL, dipc_lend_unsafe_stride((char *)lent + 4096, fd));
    CALL(-DIPC_EINVAL, dipc_lend_unsafe_stride((void *)lo, fd));
    CALL(-DIPC_EINVAL, dipc_lend_unsafe_stride((void *)hi, fd));
    CALL(-DIPC_EINVAL, dipc_lend_unsafe_stride(local, fd));
    CALL(-DIPC_EINVAL, dipc_lend_unsafe_stride(lent, -1));
    CALL(-DIPC_EPERM, IN_B(dipc_lend_unsafe_stride, (long)lent, fd, 0, 0, 0));
    CALL(0, dipc_lend_unsafe_stride(lent, fd));
    close(fd);
  }
  /* dipc_lent_fs: a TCB in the running domain's own pages, and only for a
   * domain standing for another process (none here): not the default
   * domain, nor b with a TCB of its making in its own page, which would
   * steer libc's thread state while the runtime runs for b. 0 (the
   * thread's own) is always accepted. */
  CALL_INT(-DIPC_EPERM, IN_B(dipc_lent_fs, (long)page_of(b_victim), 0, 0, 0,
                             0));
  CALL(-DIPC_EPERM, dipc_lent_fs((uintptr_t)local));
  CALL(-DIPC_EPERM, dipc_lent_fs((uintptr_t)page_of(&victim)));
  CALL(0, dipc_lent_fs(0));
  CALL_INT(-DIPC_EPERM, IN_B(dipc_lent_fs, (long)local, 0, 0, 0, 0));
  CALL_INT(-DIPC_EPERM, IN_B(dipc_lent_fs, (long)state, 0, 0, 0, 0));
  CALL_INT(0, IN_B(dipc_lent_fs, 0, 0, 0, 0, 0));
  /* dipc_share_map: default domain only, whole pages, no PROT_EXEC, and
   * only in a process run with --listen (copy) or --connect (no copy). */
  {
    void *page = page_of(local);
    int fd = memfd_create("misuse", MFD_CLOEXEC);
    EXPECT(fd >= 0 && ftruncate(fd, 4096) == 0);
    CALL(-DIPC_EINVAL, dipc_share_map((char *)page + 8, 4096, PROT_READ, fd,
                                      0, 1));
    CALL(-DIPC_EINVAL, dipc_share_map(page, 0, PROT_READ, fd, 0, 1));
    CALL(-DIPC_EINVAL, dipc_share_map(page, 4096, PROT_READ, fd, 8, 1));
    CALL(-DIPC_EINVAL,
         dipc_share_map(page, 4096, PROT_READ | PROT_EXEC, fd, 0, 1));
    CALL(-DIPC_EINVAL, dipc_share_map(page, 4096, PROT_READ, fd, 0, 3));
    CALL(-DIPC_EINVAL, dipc_share_map(page, 4096, PROT_READ, -1, 0, 1));
    for (int copy = 0; copy <= 2; copy++) /* neither --listen nor --connect */
      CALL(-DIPC_EPERM, dipc_share_map(page, 4096, PROT_READ, fd, 0, copy));
    CALL(-DIPC_EPERM, dipc_share_map(page_of(&victim), 4096, PROT_READ, fd, 0, 0));
    /* claiming the mapping right (fd -1) and sealing it (fd -2): --connect
     * only */
    CALL(-DIPC_EPERM, dipc_share_map(NULL, 0, 0, -1, 0, 0));
    CALL(-DIPC_EPERM, dipc_share_map(NULL, 0, 0, -2, 0, 0));
    CALL_INT(-DIPC_EPERM, IN_B(dipc_share_map, (long)page, 4096, PROT_READ,
                               fd, 0));
    close(fd);
  }
  CALL(-DIPC_EINVAL,
       dipc_import_register(def, (void **)((char *)slot + 4), &s, 0, "x"));
  CALL(-DIPC_EINVAL, dipc_import_register(def, slot, NULL, 0, "x"));
  CALL(-DIPC_EINVAL, dipc_import_register(def, slot, &s, 0, NULL));
  CALL(-DIPC_EINVAL, dipc_import_register(def, slot, &bad, 0, "x"));
  CALL(-DIPC_EINVAL, dipc_import_register(def, slot, &s, 1u << 6, "x"));
  void *nobodys[] = {state, apl,   ro_table, vector, lib_code,  lib_data,
                     guard, proxy, local,    KERNEL, (void *)8, unmapped};
  for (unsigned i = 0; i < sizeof nobodys / sizeof nobodys[0]; i++) {
    void *at = (void *)((uintptr_t)nobodys[i] & ~7UL);
    CALL(-DIPC_EPERM, dipc_import_register(def, at, &s, 0, "x"));
    CALL(-DIPC_EPERM, dipc_import_register(b, at, &s, 0, "x"));
  }
  CALL(-DIPC_EPERM, dipc_import_register(def, (void **)b_victim, &s, 0, "x"));
  CALL(-DIPC_EINVAL, dipc_import_register(def, (void *)ro_data, &s, 0, "x"));
  CALL(-DIPC_EINVAL, dipc_import_register(b, (void *)b_ro_page, &s, 0, "x"));
  CALL_WITH(nonneg, 0, dipc_import_register(b, (void *)b_page, &s, 0, "x"));
  /* from domain c (read on the default domain), for a domain it created:
   * only memory that domain may write, never the default domain's or the
   * permission table (c's entry in it included) */
  char what[] = "x";
  CALL(-DIPC_EPERM, IN_C(dipc_import_register, IN_C(dom_create, 0, 0, 0, 0, 0),
                         (long)&victim, (long)&s, 0, (long)what));
  CALL(-DIPC_EPERM,
       IN_C(dipc_import_register, IN_C(dom_create, 0, 0, 0, 0, 0),
            (long)(apl + 1024 * IN_C(dipc_current_domain, 0, 0, 0, 0, 0)),
            (long)&s, 0, (long)what));
  CALL(DIPC_PERM_READ,
       IN_C(default_perm, (long)dom_default, (long)dom_copy, 0, 0, 0));
  /* dipc_import_bind: the registering domain's, once */
  CALL(-DIPC_EINVAL, dipc_import_bind(-1, e));
  CALL(-DIPC_EINVAL, dipc_import_bind(LONG_MAX, e));
  CALL(-DIPC_EBADF, dipc_import_bind(import_id, junk[3]));
  CALL(-DIPC_EBADF, dipc_import_bind(import_id, b));
  CALL(-DIPC_ESTALE, dipc_import_bind(import_id, stale_entry));
  CALL(-DIPC_EINVAL,
       (dipc_import_bind(import_id, e), dipc_import_bind(import_id, e)));
  CALL_INT(-DIPC_EPERM, IN_B(dipc_import_bind, import_id, e, 0, 0, 0));
  /* dipc_domain_name: the default domain's, an owner handle, once */
  CALL(-DIPC_EINVAL, dipc_domain_name(b, NULL));
  for (unsigned i = 0; i < sizeof junk / sizeof junk[0]; i++)
    CALL(-DIPC_EBADF, dipc_domain_name(junk[i], "x"));
  CALL(-DIPC_ESTALE, dipc_domain_name(stale_dom, "x"));
  CALL(-DIPC_EPERM, dipc_domain_name(b_read, "x"));
  CALL(-DIPC_EBADF, dipc_domain_name(e, "x"));
  const char *bad_names[] = {"", "9lives", "has space", "a=b", "a,b",
                             /* 64 bytes: no room for the NUL */
                             "x123456789012345678901234567890123456789012345"
                             "678901234567890123"};
  for (unsigned i = 0; i < sizeof bad_names / sizeof bad_names[0]; i++)
    CALL(-DIPC_EINVAL, dipc_domain_name(b, bad_names[i]));
  CALL(-DIPC_EEXIST, dipc_domain_name(b, "default"));
  CALL(-DIPC_EEXIST, dipc_domain_name(def, "other"));
  CALL(0, dipc_domain_name(b, "b_named"));
  CALL(-DIPC_EEXIST,
       (dipc_domain_name(b, "b_named"), dipc_domain_name(b, "again")));
  CALL(-DIPC_EEXIST, (dipc_domain_name(b, "b_named"),
                      dipc_domain_name(dom_create(), "b_named")));
  CALL(-DIPC_EPERM, IN_C(dipc_domain_name, IN_C(dom_create, 0, 0, 0, 0, 0),
                         (long)what, 0, 0, 0));
  /* the crash handler's calls */
  CALL(0, dipc_import_fault(NULL));
  CALL(0, dipc_import_fault(&zero));
  CALL(0, __dipc_recover_from_fault(NULL));
  CALL(0, __dipc_recover_from_fault(&zero));
  void *contexts[] = {state, apl, ro_table, vector, lib_data, KERNEL, unmapped};
  for (unsigned i = 0; i < sizeof contexts / sizeof contexts[0]; i++)
    CALL(0, __dipc_recover_from_fault(contexts[i]));
  zero.uc_mcontext.fpregs = (void *)apl;
  CALL(0, __dipc_recover_from_fault(&zero));
  CALL(0, (__dipc_fault_landed(NULL), 0));
}

/* ---- the API gate's internal operations, reached directly --------------- */

/* A ticket b got is the default domain's to take once, with b's arg and a
 * proxy into b; a stranger's drop does not drop it. */
static long adopt_b_ticket(gate_fn *gate) {
  long t = IN_B(b_spawn, (long)gate, (long)b_run, 0, 0, 0);
  if (t <= 0)
    return 100 + t;
  dipc_thread_spawn_drop(t); /* the default domain's: not b's ticket */
  void *proxy = NULL, *arg = NULL;
  if (dipc_thread_adopt(t, &proxy, &arg) != 0 || arg != (void *)7 || !proxy)
    return 2;
  return dipc_thread_adopt(t, &proxy, &arg) == -DIPC_EINVAL;
}

static void gate_ops(void) {
  gate_fn *gate = (gate_fn *)rt_symbol("dipc_gate");
  struct gate_args a;
  memset(&a, 0, sizeof a);
  CALL(-DIPC_EINVAL, gate(OP_COUNT, &a));
  a.arg[0] = (uint64_t)-1; /* no entry handle */
  CALL(-DIPC_EBADF, gate(OP_ANYCALL_REGISTER, &a));
  a.arg[0] = 0;
  CALL(-DIPC_EINVAL, gate(UINT_MAX, &a));
  CALL(-DIPC_EINVAL, gate(OP_IMPORT_RESOLVE, &a));
  /* a name block with no NUL in it */
  struct {
    struct gate_args base;
    char rest[4096];
  } named;
  memset(&named, 'a', sizeof named);
  named.base.arg[0] = (uint64_t)dom_create();
  CALL(-DIPC_EINVAL, gate(OP_DOM_NAME, &named.base));
  CALL(-EPERM, gate(OP_MEMORY, &a)); /* asks for no PROT_EXEC */
  /* fork's lock release without the prepare step, a bad phase; giving
   * back a slot never set aside */
  a.arg[0] = 1;
  CALL(-DIPC_EPERM, gate(OP_FORK, &a));
  a.arg[0] = 2;
  CALL(-DIPC_EPERM, gate(OP_FORK, &a));
  a.arg[0] = 3;
  CALL(-DIPC_EINVAL, gate(OP_FORK, &a));
  a.arg[0] = 0;
  CALL(0, gate(OP_THREAD_RESERVE, &a));
  memset(&a, 0, sizeof a);
  CALL(-DIPC_EPERM, IN_B(b_gate, (long)gate, OP_THREAD_EXIT, 0, 0, 0));
  /* Start tickets: the default domain gets none (its threads start as
   * it); forged, dropped-by-a-stranger and twice-taken tickets fail; b
   * cannot take its own. */
  CALL(0, dipc_thread_spawn((void *(*)(void *))b_run, NULL));
  CALL(-DIPC_EINVAL, dipc_thread_adopt(0, &(void *){0}, &(void *){0}));
  CALL(-DIPC_EINVAL, dipc_thread_adopt(0x10001, &(void *){0}, &(void *){0}));
  CALL(-DIPC_EPERM, IN_B(b_spawn_adopt, (long)gate, (long)b_run, 0, 0, 0));
  CALL(1, adopt_b_ticket(gate));
  /* pthread_exit's value: the default domain's is glibc's; b, in a call
   * no start proxy made, neither sets one nor takes one. */
  CALL(-DIPC_EPERM, dipc_thread_exit_value((void *)5));
  CALL(0, dipc_thread_exit_value_take(&(void *){0}));
  CALL(-DIPC_EINVAL, IN_B(dipc_thread_exit_value, 5, 0, 0, 0, 0));
  CALL(-DIPC_EPERM, IN_B(b_gate, (long)gate, OP_THREAD_EXIT_VALUE, 0, 0, 0));
  /* Callback proxies: the default domain's functions stay as they are;
   * more than 4 arguments (nftw's function has 4) is refused. */
  CALL((long)b_run, (long)dipc_domain_callback((void *)b_run, 1));
  CALL(0, IN_B(dipc_domain_callback, (long)b_run, 5, 0, 0, 0));
  /* dipc_forget_object: the default domain's (the loader's), and only for
   * memory no longer mapped: b's pages stay b's. */
  CALL(-DIPC_EPERM, IN_B(dipc_forget_object, (long)unmapped, PAGE, 0, 0, 0));
  CALL(-DIPC_EPERM, IN_B(dipc_forget_object, (long)b_page, 2 * PAGE, 0, 0, 0));
  CALL(-DIPC_EBUSY, dipc_forget_object(b_page, 2 * PAGE));
  CALL(-DIPC_EBUSY, dipc_forget_object(b_ro_page, PAGE));
  CALL(-DIPC_EBUSY, dipc_forget_object(page_of(&victim), PAGE));
  CALL(-DIPC_EINVAL, dipc_forget_object(b_page + 8, PAGE));
  CALL(-DIPC_EINVAL, dipc_forget_object(b_page, 0));
  CALL(-DIPC_EINVAL, dipc_forget_object(b_page, (size_t)-PAGE));
}

/* A setjmp buffer armed outside the caller's stack is not honoured: the
 * fault is not recovered (as without dIPC) rather than resumed from
 * runtime data. The control: a buffer on the stack is. */
static void report_recovery(int sig, siginfo_t *si, void *uc) {
  (void)sig, (void)si;
  /* On the alternate stack: no API gate (P2), and the victims are enough */
  long r = __dipc_recover_from_fault(uc);
  send_result(r, victim != 42 || *b_victim != 43);
}

static long fault_with_buffer(void **buf) {
  on_sigsegv(report_recovery, 0);
  __dipc_setjmp_arm(buf);
  return in_b(NULL, 0, 0, 0, 0, 0); /* b jumps to NULL */
}

static void recovery_buffers(void) {
  void *on_stack[5];
  CALL(1, fault_with_buffer(on_stack));
  CALL(0, fault_with_buffer((void **)apl));
  CALL(0, fault_with_buffer((void **)state));
  CALL(0, fault_with_buffer((void **)&victim));
}

int main(void) {
  setup();
  table2();
  capabilities();
  loader_calls();
  gate_ops();
  recovery_buffers();
  EXPECT(!escalated());
  printf("calls: %d, crashes: %d, hangs: %d, wrong results: %d, "
         "escalations: %d\n",
         calls, crashes, hangs, wrong, escalations);
  return 0;
}
