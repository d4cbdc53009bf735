// A stream another domain opened: `keeper` opens a file of its own and
// keeps the stream in its own memory, which `evil` may not read. Under
// `sfi` keeper holds a decoy (loader/sfi_streams.c); keeper may write the
// default domain's memory, so the loader's allocator put the decoy in the
// C library's heap, which evil may write too: evil found it there by its
// mark and read keeper's file through it (an attack round's, `scan`). A
// decoy now serves only the domain that opened its stream, or one whose
// APL lets it write that domain's memory: the read faults. `direct`, evil
// reading keeper's stream pointer, faults as well. Control: under `none`
// evil reads keeper's stream pointer and the file.
// RUN: echo keeper-file-secret-77 > %t.secret
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t scan %t.secret 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t direct %t.secret 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=none %t direct %t.secret 2>&1 | FileCheck %s --check-prefix=STOLEN
// SFI: keeper opened its file: 1
// SFI-NOT: stole
// SFI: attack returned 0, dipc_errno 14
// SFI-NEXT: nothing stolen
// STOLEN: stole 'keeper-file-secret-77'
#include "Inputs/vault.h"

#include <fcntl.h>
#include <stddef.h>
#include <unistd.h>

static FILE *keeper_stream __dom("keeper");

long keeper_open(const char *path) __dom("keeper") __entry
    __perm("default", write) {
  keeper_stream = fopen(path, "r");
  return keeper_stream != NULL;
}

/* A decoy's mark in the C library's heap (the [heap] mapping). */
static FILE *find_decoy(void) {
  static char maps[1 << 16];
  int fd = open("/proc/self/maps", O_RDONLY);
  if (fd < 0)
    return NULL;
  ssize_t got = 0, r;
  while ((r = read(fd, maps + got, sizeof maps - 1 - got)) > 0)
    got += r;
  close(fd);
  maps[got] = '\0';
  char *h = strstr(maps, "[heap]");
  if (!h)
    return NULL;
  while (h > maps && h[-1] != '\n')
    h--;
  unsigned long lo = strtoul(h, &h, 16), hi = strtoul(h + 1, NULL, 16);
  for (char *p = (char *)lo; p + 8 <= (char *)hi; p += 4)
    if (((const uint32_t *)p)[1] == 0xdec0f11eu)
      return (FILE *)(p - offsetof(FILE, _unused2));
  return NULL;
}

long attack(const char *mode, void *aux, const volatile char *secret, int key,
            char *loot) {
  (void)aux, (void)key, (void)secret;
  FILE *f = NULL;
  if (!strcmp(mode, "direct"))
    f = *(FILE *const volatile *)&keeper_stream;
  else if (!strcmp(mode, "scan"))
    f = find_decoy();
  char line[64] = "";
  if (!f || !fgets(line, sizeof line, f))
    return 0;
  line[strcspn(line, "\n")] = '\0';
  strncpy(loot, line, 31);
  return 1;
}

int main(int argc, char **argv) {
  if (argc < 3)
    return 2;
  printf("keeper opened its file: %ld\n", keeper_open(argv[2]));
  return run_attack(argv[1], NULL);
}
