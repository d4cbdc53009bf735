/* pkey-of.h - the protection key of the mapping holding an address, as
 * the kernel reports it (/proc/self/smaps), or -1. */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>

static int pkey_of(const void *addr) {
  FILE *f = fopen("/proc/self/smaps", "r");
  char line[512];
  int in = 0, key = -1;
  while (f && key < 0 && fgets(line, sizeof line, f)) {
    unsigned long lo, hi;
    if (isxdigit((unsigned char)line[0]) && !isupper((unsigned char)line[0]) &&
        sscanf(line, "%lx-%lx", &lo, &hi) == 2)
      in = (uintptr_t)addr >= lo && (uintptr_t)addr < hi;
    else if (in)
      sscanf(line, "ProtectionKey: %d", &key);
  }
  if (f)
    fclose(f);
  return key;
}
