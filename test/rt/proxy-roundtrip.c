// Proxies for every signature class under every isolation policy: results,
// argument registers, stack arguments (copied to the callee's stack),
// result register pairs, the stack the callee runs on (always a stack of
// its domain, never the caller's), nested calls back and forth, and the KCS
// depth before, during and after.
// RUN: %rt-cc %s -o %t && %t | FileCheck %s
// RUN: env DIPC_BACKEND=none %t 2>&1 | FileCheck %s --check-prefixes=CHECK,NONE
// NONE: dipc: warning: backend `none`: domain isolation is NOT enforced
// CHECK: policies 9 signatures 7 ok
// CHECK: nested ok
#include "rt-test.h"

struct pair { long a, b; };
struct vpair { double a, b; };

DOMAIN_CODE("dom_b") long f0(void) { return 42; }
DOMAIN_CODE("dom_b") long f_int6(long a, long b, long c, long d, long e,
                                 long f) {
  return a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f;
}
DOMAIN_CODE("dom_b") double f_vec8(double a, double b, double c, double d,
                                   double e, double f, double g, double h) {
  return a - b + c * d - e + f * g - h; /* no constants: they live in key 0 */
}
DOMAIN_CODE("dom_b") long f_stack(long a, long b, long c, long d, long e,
                                  long f, double x0, double x1, double x2,
                                  double x3, double x4, double x5, double x6,
                                  double x7, long s0, long s1, long s2) {
  return a + b + c + d + e + f + (long)(x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7) +
         100 * s0 + 1000 * s1 + 10000 * s2;
}
DOMAIN_CODE("dom_b") struct pair f_pair(long x, long y) {
  return (struct pair){x + y, x * y};
}
DOMAIN_CODE("dom_b") struct vpair f_vpair(double x) {
  return (struct vpair){x + x, x + x + x};
}
DOMAIN_CODE("dom_b") long f_where(void) {
  return (long)__builtin_frame_address(0);
}

/* b_rec and a_rec call each other through proxies; B finds the proxy back
 * into the default domain (and dipc_kcs_depth) in its own data page. */
static long (*b_rec_proxy)(long *, long);
DOMAIN_CODE("dom_b") long b_rec(long *bdata, long n) {
  long (*a)(long *, long) = (long (*)(long *, long))bdata[0];
  long (*depth)(void) = (long (*)(void))bdata[1];
  if (depth() > bdata[2])
    bdata[2] = depth();
  return n == 0 ? 0 : a(bdata, n - 1) + 10;
}
static long a_rec(long *bdata, long n) {
  return n == 0 ? 0 : b_rec_proxy(bdata, n - 1) + 1;
}

static int on_own_stack(long frame) {
  long here = (long)__builtin_frame_address(0);
  return labs(frame - here) < 65536;
}

int main(void) {
  dom_t b = dom_create();
  EXPECT(b >= 0);
  move_section_to(b, dom_b);

  const dipc_policy_t policies[] = {
      0, reg_integrity, reg_confidentiality, stack_integrity,
      stack_confidentiality, dcs_integrity, dcs_confidentiality, 0x3f,
      -1 /* registered with stack_confidentiality, requested with none */};
  int npol = sizeof policies / sizeof policies[0], nsig = 0;
  for (int p = 0; p < npol; p++) {
    dipc_policy_t reg = policies[p] == (dipc_policy_t)-1
                            ? stack_confidentiality : 0;
    dipc_policy_t req = policies[p] == (dipc_policy_t)-1 ? 0 : policies[p];
    nsig = 0;

    long (*p0)(void) = proxy_to(b, f0, sig(0, 0, 1, 0, 0), reg, req);
    EXPECT_EQ(p0(), 42);
    nsig++;
    long (*p6)(long, long, long, long, long, long) =
        proxy_to(b, f_int6, sig(6, 0, 1, 0, 0), reg, req);
    EXPECT_EQ(p6(1, 2, 3, 4, 5, 6), 91);
    nsig++;
    double (*pv)(double, double, double, double, double, double, double,
                 double) = proxy_to(b, f_vec8, sig(0, 8, 0, 1, 0), reg, req);
    EXPECT(pv(1, 2, 3, 4, 5, 6, 7, 8) == 40.0);
    nsig++;
    long (*ps)(long, long, long, long, long, long, double, double, double,
               double, double, double, double, double, long, long, long) =
        proxy_to(b, f_stack, sig(6, 8, 1, 0, 24), reg, req);
    EXPECT_EQ(ps(1, 2, 3, 4, 5, 6, .5, .5, .5, .5, .5, .5, .5, .5, 7, 8, 9),
              21 + 4 + 700 + 8000 + 90000);
    nsig++;
    struct pair (*pp)(long, long) =
        proxy_to(b, f_pair, sig(2, 0, 2, 0, 0), reg, req);
    struct pair r = pp(6, 7);
    EXPECT(r.a == 13 && r.b == 42);
    nsig++;
    struct vpair (*pvp)(double) =
        proxy_to(b, f_vpair, sig(0, 1, 0, 2, 0), reg, req);
    struct vpair v = pvp(1.5);
    EXPECT(v.a == 3.0 && v.b == 4.5);
    nsig++;
    long (*pw)(void) = proxy_to(b, f_where, sig(0, 0, 1, 0, 0), reg, req);
    EXPECT(!on_own_stack(pw()));
    nsig++;
    EXPECT_EQ(dipc_kcs_depth(), 0);
    EXPECT_EQ(dipc_current_domain(), 0);
  }
  printf("policies %d signatures %d ok\n", npol, nsig);

  EXPECT(grant_create(dom_default(), b) >= 0); /* to fill B's data page */
  for (int p = 0; p < npol - 1; p++) {
    long *bdata = dom_mmap(b, NULL, 4096, PROT_READ | PROT_WRITE,
                           MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    EXPECT(!dipc_ptr_err(bdata));
    b_rec_proxy = proxy_to(b, b_rec, sig(2, 0, 1, 0, 0), 0, policies[p]);
    bdata[0] = (long)proxy_for(b, dom_default(), a_rec, sig(2, 0, 1, 0, 0), 0,
                               policies[p]);
    bdata[1] = (long)dipc_kcs_depth;
    bdata[2] = 0;
    EXPECT_EQ(a_rec(bdata, 7), 1 + 10 + 1 + 10 + 1 + 10 + 1);
    EXPECT_EQ(bdata[2], 7); /* b_rec entered at depths 1, 3, 5, 7 */
    EXPECT_EQ(dipc_kcs_depth(), 0);
  }
  printf("nested ok\n");
  return 0;
}
