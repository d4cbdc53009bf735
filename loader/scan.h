/* scan.h - ERIM-style check that no executable memory outside the trusted
 * gates can write PKRU (WRPKRU, or XRSTOR restoring the PKRU component). */
#ifndef DIPC_LOADER_SCAN_H
#define DIPC_LOADER_SCAN_H

#include <stddef.h>
#include <stdint.h>

struct pkru_write {
  const char *insn; /* "wrpkru" or "xrstor" */
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

/* Checks every readable executable mapping of this process that is not
 * trusted and not inside [skip_start, skip_end) pairs. Returns 0, or -1
 * after printing which object holds which instruction. */
struct code_range {
  uintptr_t start, end;
};
int scan_executable_mappings(const struct code_range *skip, size_t nskip);

#endif
