/* scan.c - refuses executable memory that could write PKRU. */
#define _GNU_SOURCE
#include "scan.h"

#include <stdio.h>
#include <string.h>

int scan_pkru_writes(const uint8_t *code, size_t size,
                     struct pkru_write *hit) {
  for (size_t i = 0; i + 2 < size; ++i) {
    if (code[i] != 0x0f)
      continue;
    /* WRPKRU: 0f 01 ef. */
    if (code[i + 1] == 0x01 && code[i + 2] == 0xef) {
      *hit = (struct pkru_write){"wrpkru", i};
      return 1;
    }
    /* XRSTOR/XRSTOR64: 0f ae /5 with a memory operand (mod != 3; with
     * mod == 3 the same opcode is LFENCE). */
    uint8_t modrm = code[i + 2];
    if (code[i + 1] == 0xae && (modrm & 0x38) == 0x28 &&
        (modrm & 0xc0) != 0xc0) {
      *hit = (struct pkru_write){"xrstor", i};
      return 1;
    }
  }
  return 0;
}

int scan_is_trusted_object(const char *path) {
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  return strncmp(base, "ld-linux-x86-64.so.", 19) == 0 ||
         strcmp(base, "libc.so.6") == 0;
}

static int skipped(uintptr_t start, uintptr_t end,
                   const struct code_range *skip, size_t nskip) {
  for (size_t i = 0; i < nskip; ++i)
    if (start >= skip[i].start && end <= skip[i].end)
      return 1;
  return 0;
}

int scan_executable_mappings(const struct code_range *skip, size_t nskip) {
  FILE *maps = fopen("/proc/self/maps", "re");
  if (!maps) {
    perror("dipc-loader: /proc/self/maps");
    return -1;
  }
  char line[4096];
  int status = 0;
  while (status == 0 && fgets(line, sizeof line, maps)) {
    uintptr_t start, end;
    char perms[5];
    int path_at = 0;
    if (sscanf(line, "%lx-%lx %4s %*s %*s %*s %n", &start, &end, perms,
               &path_at) < 3)
      continue;
    if (perms[2] != 'x')
      continue;
    char *path = line + path_at;
    path[strcspn(path, "\n")] = '\0';
    /* The kernel's vsyscall page is execute-only and holds no WRPKRU. */
    if (strcmp(path, "[vsyscall]") == 0 || scan_is_trusted_object(path) ||
        skipped(start, end, skip, nskip))
      continue;
    if (perms[0] != 'r') {
      fprintf(stderr,
              "dipc-loader: refusing execute-only mapping %lx-%lx %s: it "
              "cannot be checked for PKRU writes\n",
              start, end, path);
      status = -1;
      break;
    }
    struct pkru_write hit;
    if (scan_pkru_writes((const uint8_t *)start, end - start, &hit)) {
      fprintf(stderr,
              "dipc-loader: refusing %s: it contains a %s instruction at "
              "%#lx, which could switch protection keys outside dIPC's "
              "gates\n",
              path[0] ? path : "[anonymous code]", hit.insn,
              (unsigned long)(start + hit.offset));
      status = -1;
    }
  }
  fclose(maps);
  return status;
}
