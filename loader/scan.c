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
    /* WRFSBASE/WRGSBASE: f3 [rex] 0f ae /2 or /3 with mod == 3. The
     * runtime keeps per-thread state behind fs. */
    if (code[i + 1] == 0xae && (code[i + 2] & 0xc0) == 0xc0 &&
        ((code[i + 2] & 0x38) == 0x10 || (code[i + 2] & 0x38) == 0x18) &&
        ((i >= 1 && code[i - 1] == 0xf3) ||
         (i >= 2 && (code[i - 1] & 0xf0) == 0x40 && code[i - 2] == 0xf3))) {
      size_t start = code[i - 1] == 0xf3 ? i - 1 : i - 2;
      *hit = (struct pkru_write){(code[i + 2] & 0x38) == 0x10 ? "wrfsbase"
                                                              : "wrgsbase",
                                 start};
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

/* Checks one mapping; `path` may be empty for anonymous code. */
static int scan_mapping(uintptr_t start, uintptr_t end, const char *perms,
                        const char *path) {
  if (perms[0] != 'r') {
    fprintf(stderr,
            "dipc-loader: refusing execute-only mapping %lx-%lx %s: it "
            "cannot be checked for PKRU writes\n",
            (unsigned long)start, (unsigned long)end, path);
    return -1;
  }
  struct pkru_write hit;
  if (!scan_pkru_writes((const uint8_t *)start, end - start, &hit))
    return 0;
  fprintf(stderr,
          "dipc-loader: refusing %s: it contains a %s instruction at %#lx, "
          "which could switch protection keys outside dIPC's gates\n",
          path[0] ? path : "[anonymous code]", hit.insn,
          (unsigned long)(start + hit.offset));
  return -1;
}

int scan_executable_mappings(const char *runtime_path) {
  FILE *smaps = fopen("/proc/self/smaps", "re");
  if (!smaps) {
    perror("dipc-loader: /proc/self/smaps");
    return -1;
  }
  /* smaps: a maps-style header line per mapping, then "Key: value" lines;
   * the mapping is judged once its ProtectionKey line is read. */
  char line[4096], path[4096] = "", perms[5] = "";
  uintptr_t start = 0, end = 0;
  int status = 0, pending = 0;
  while (status == 0 && fgets(line, sizeof line, smaps)) {
    unsigned long lo, hi;
    int path_at = 0;
    char p[5];
    if (sscanf(line, "%lx-%lx %4s %*s %*s %*s %n", &lo, &hi, p, &path_at) >=
            3 &&
        path_at > 0) {
      start = lo;
      end = hi;
      memcpy(perms, p, sizeof perms);
      snprintf(path, sizeof path, "%s", line + path_at);
      path[strcspn(path, "\n")] = '\0';
      pending = perms[2] == 'x' && strcmp(path, "[vsyscall]") != 0 &&
                !scan_is_trusted_object(path) &&
                !(runtime_path && strcmp(path, runtime_path) == 0);
      continue;
    }
    int key;
    if (pending && sscanf(line, "ProtectionKey: %d", &key) == 1) {
      pending = 0;
      if (key == 0)
        status = scan_mapping(start, end, perms, path);
    }
  }
  fclose(smaps);
  return status;
}
