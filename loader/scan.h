/* scan.h - ERIM-style check that no executable memory outside the trusted
 * gates can write PKRU (WRPKRU, or XRSTOR restoring the PKRU component). */
#ifndef DIPC_LOADER_SCAN_H
#define DIPC_LOADER_SCAN_H

#include <stddef.h>
#include <stdint.h>

struct pkru_write {
  const char *insn; /* "wrpkru", "xrstor", "wrfsbase", "wrgsbase" */
  size_t offset;    /* from the start of the scanned range */
};

/* Finds the first PKRU-writing byte sequence at any byte offset of
 * [code, code+size): x86 may jump into the middle of an instruction, so
 * alignment is irrelevant. Returns 1 and fills *hit if found, else 0. */
int scan_pkru_writes(const uint8_t *code, size_t size, struct pkru_write *hit);

/* True for the objects whose gadgets are part of the trusted base: the
 * dynamic linker (XRSTOR in lazy-binding trampolines, never run because
 * dipc-run binds now) and libc (WRPKRU in pkey_set). See docs/loader.md. */
int scan_is_trusted_object(const char *path);

/* Checks every executable mapping of this process that is in the default
 * protection key (memory of other keys is already the runtime's or a
 * domain's, checked before it was tagged) and does not belong to a trusted
 * object or to `runtime_path` (libdipc, whose gates write PKRU). Returns 0,
 * or -1 after printing which object holds which instruction. */
int scan_executable_mappings(const char *runtime_path);

#endif
