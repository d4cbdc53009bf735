/* codescan.c - ERIM-style check of code bytes: finds every byte sequence
 * that could write PKRU (WRPKRU, XRSTOR) or the fs/gs base (WRFSBASE,
 * WRGSBASE: the runtime keeps per-thread state behind them) at any byte
 * offset, since x86 code can be entered in the middle of an instruction.
 * Used on executable memory by the runtime (exec.c, backend.c) and by the
 * loader at start. XRSTORS writes PKRU too but faults outside ring 0. */
#include "internal.h"

int dipc_code_find(const void *code, size_t size, struct dipc_code_hit *hit) {
  const uint8_t *c = code;
  for (size_t i = 0; i + 2 < size; ++i) {
    if (c[i] != 0x0f)
      continue;
    /* WRPKRU: 0f 01 ef. */
    if (c[i + 1] == 0x01 && c[i + 2] == 0xef) {
      *hit = (struct dipc_code_hit){"wrpkru", i};
      return 1;
    }
    uint8_t modrm = c[i + 2];
    if (c[i + 1] != 0xae)
      continue;
    /* WRFSBASE/WRGSBASE: f3 [rex] 0f ae /2 or /3 with mod == 3. */
    if ((modrm & 0xc0) == 0xc0 &&
        ((modrm & 0x38) == 0x10 || (modrm & 0x38) == 0x18) &&
        ((i >= 1 && c[i - 1] == 0xf3) ||
         (i >= 2 && (c[i - 1] & 0xf0) == 0x40 && c[i - 2] == 0xf3))) {
      *hit = (struct dipc_code_hit){
          (modrm & 0x38) == 0x10 ? "wrfsbase" : "wrgsbase", i};
      return 1;
    }
    /* XRSTOR/XRSTOR64: 0f ae /5 with a memory operand (mod == 3 is
     * LFENCE). */
    if ((modrm & 0x38) == 0x28 && (modrm & 0xc0) != 0xc0) {
      *hit = (struct dipc_code_hit){"xrstor", i};
      return 1;
    }
  }
  return 0;
}
