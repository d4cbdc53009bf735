// A call of an ifunc goes where its resolver says, after the dynamic
// linker asked it, and no call check sees that target: a resolver that
// returned getloadavg (resolving on its argument, so the optimiser could
// not fold it into a direct call the calls note would name) let a domain
// write over another domain's memory. Under -fdipc-sfi an ifunc is a
// compile error; the same unit without it compiles.
// RUN: not %dipc-clang -fdipc -fdipc-sfi -O2 -DIFUNC -c -o /dev/null %s 2>&1 | FileCheck %s
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 -c -o /dev/null %s
// CHECK: error: dipc: -fdipc-sfi cannot check ifunc 'hidden' of module '{{.*}}sfi-ifunc-refused.c': its calls go wherever its resolver says, unchecked
#include <stdlib.h>

#ifdef IFUNC
static void *resolve(unsigned long hwcap) {
  return hwcap == 12345 ? (void *)0 : (void *)getloadavg;
}
int hidden(long, int) __attribute__((ifunc("resolve")));
#else
static int hidden(long where, int count) { return (int)where + count; }
#endif

int attack(long secret) { return hidden(secret, 3); }
