/* ctor-copy-env.c - a library built without -fdipc (attack-sfi-dlmopen-
 * plain.c): its constructor, run by ld.so during a domain's dlmopen, copies
 * n bytes from src to dst as the environment names them (POC_COPY=src:dst:n,
 * hex). Unchecked code under sfi. */
#include <stdlib.h>
#include <string.h>
__attribute__((constructor)) static void grab(int argc, char **argv,
                                              char **envp) {
  (void)argc, (void)argv;
  for (char **e = envp; e && *e; e++)
    if (strncmp(*e, "POC_COPY=", 9) == 0) {
      char *p = *e + 9;
      const volatile char *src = (const char *)strtoul(p, &p, 16);
      char *dst = (char *)strtoul(p + 1, &p, 16);
      unsigned long n = strtoul(p + 1, &p, 16);
      for (unsigned long i = 0; i < n; i++) dst[i] = src[i];
    }
}
