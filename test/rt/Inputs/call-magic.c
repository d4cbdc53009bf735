/* call-magic-sites.test: functions called directly and through a
 * pointer; with -DSTRAY, a comparison with DIPC_SFI_CALL_MAGIC, whose
 * immediate is a stray site. */
#include <stdio.h>
#include <stdlib.h>

static int twice(int x) { return 2 * x; }
static int thrice(int x) { return 3 * x; }

#ifdef STRAY
__attribute__((noinline)) int is_magic(const unsigned *p) {
  return *p == 0xcc1d5fc0u;
}
#endif

int main(int argc, char **argv) {
  (void)argv;
  int (*volatile f)(int) = argc > 1 ? thrice : twice;
  int r = f(argc);
#ifdef STRAY
  r += is_magic((const unsigned *)&r);
#endif
  printf("%d\n", r);
  return 0;
}
