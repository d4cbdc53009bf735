/* A plain gconv module (no -fdipc): its constructor copies the bytes at
 * $PEEK_FROM to $PEEK_TO, uninstrumented, for whoever makes libc load it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
__attribute__((constructor)) static void steal(void) {
  const char *from = getenv("PEEK_FROM"), *to = getenv("PEEK_TO");
  void *f, *t;
  if (from && to && sscanf(from, "%p", &f) == 1 && sscanf(to, "%p", &t) == 1)
    strcpy(t, f);
}
int gconv_init(void *step) { (void)step; return 1; /* __GCONV_NOCONV */ }
int gconv(void) { return 1; }
