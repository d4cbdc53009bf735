/* trusted.c - the system's C library and dynamic linker hold the only
 * PKRU-writing instructions allowed in the process at start: WRPKRU in
 * pkey_set, XRSTOR in the lazy-binding trampolines (_dl_runtime_resolve_
 * xsave*, never run: dipc-run sets LD_BIND_NOW). They are recognised by
 * the file behind the mapping - the device and inode of the canonical
 * system path, a root-owned file no one else may write - never by name;
 * and since keys do not restrict instruction fetch, each such instruction
 * is rewritten to a trap (ud2, int3 padding) before any program code runs.
 * A site must be an instruction: found by decoding from the start of its
 * function (the .eh_frame_hdr table); bytes inside another instruction
 * cannot be rewritten, and the object is refused. */
#define _GNU_SOURCE
#include "trusted.h"
#include "x86len.h"

#include <dipc/rt.h>
#include <link.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#ifndef DIPC_SYSTEM_LIBC
#define DIPC_SYSTEM_LIBC "/lib/x86_64-linux-gnu/libc.so.6"
#endif
#ifndef DIPC_SYSTEM_LDSO
#define DIPC_SYSTEM_LDSO "/lib64/ld-linux-x86-64.so.2" /* the ABI's */
#endif

int trusted_file(unsigned dev_major, unsigned dev_minor, unsigned long ino) {
  static const char *const files[] = {DIPC_SYSTEM_LIBC, DIPC_SYSTEM_LDSO};
  for (size_t i = 0; i < sizeof files / sizeof files[0]; ++i) {
    struct stat st;
    if (stat(files[i], &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == 0 &&
        !(st.st_mode & (S_IWGRP | S_IWOTH)) && major(st.st_dev) == dev_major &&
        minor(st.st_dev) == dev_minor && st.st_ino == ino)
      return 1;
  }
  return 0;
}

/* The object's .eh_frame_hdr search table (function starts, sorted). */
struct fn_table {
  const unsigned char *hdr;
  const int32_t *entries; /* pairs: start, FDE; relative to hdr */
  uint32_t count;
};

struct lookup {
  uintptr_t addr;
  struct fn_table table;
};

static int find_table(struct dl_phdr_info *info, size_t size, void *p) {
  (void)size;
  struct lookup *l = p;
  const ElfW(Phdr) *eh = NULL;
  int inside = 0;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
    if (ph->p_type == PT_LOAD && l->addr >= lo && l->addr < lo + ph->p_memsz)
      inside = 1;
    if (ph->p_type == PT_GNU_EH_FRAME)
      eh = ph;
  }
  if (!inside)
    return 0;
  const unsigned char *hdr =
      eh ? (const unsigned char *)(info->dlpi_addr + eh->p_vaddr) : NULL;
  /* version 1; eh_frame_ptr pcrel|sdata4; count udata4; table datarel|
   * sdata4: what binutils and lld write. */
  if (hdr && hdr[0] == 1 && hdr[1] == 0x1b && hdr[2] == 0x03 &&
      hdr[3] == 0x3b) {
    l->table.hdr = hdr;
    memcpy(&l->table.count, hdr + 8, 4);
    l->table.entries = (const int32_t *)(hdr + 12);
  }
  return 1;
}

/* Start of the function holding addr, or 0. */
static uintptr_t function_start(const struct fn_table *t, uintptr_t addr) {
  uintptr_t best = 0;
  uint32_t lo = 0, hi = t->count;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    uintptr_t start = (uintptr_t)t->hdr + t->entries[2 * mid];
    if (start <= addr) {
      best = start;
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return best;
}

/* Rewrites the instruction whose opcode is at `at` (mapped at [lo, hi),
 * its copy at `copy`): 0 if it is one, -1 if `at` lies inside another
 * instruction or the walk from the function's start fails. */
static int rewrite_site(const struct fn_table *t, uintptr_t lo, uintptr_t hi,
                        unsigned char *copy, uintptr_t at) {
  uintptr_t pc = function_start(t, at);
  if (pc < lo)
    return -1;
  while (pc <= at) {
    size_t opcode;
    int n = x86_insn_length((const unsigned char *)pc, hi - pc, &opcode);
    if (n < 0)
      return -1;
    if (pc + (uintptr_t)n > at) {
      if (pc + opcode != at)
        return -1;
      unsigned char *site = copy + (pc - lo);
      site[0] = 0x0f; /* ud2 */
      site[1] = 0x0b;
      memset(site + 2, 0xcc, (size_t)n - 2);
      return 0;
    }
    pc += (uintptr_t)n;
  }
  return -1;
}

int trusted_rewrite(uintptr_t lo, uintptr_t hi, unsigned char *copy,
                    const char *path) {
  struct lookup l = {.addr = lo};
  dl_iterate_phdr(find_table, &l);
  size_t size = hi - lo, at = 0;
  struct dipc_code_hit hit;
  while (at < size && dipc_code_scan(copy + at, size - at, &hit)) {
    uintptr_t site = lo + at + hit.offset;
    if (!l.table.hdr || rewrite_site(&l.table, lo, hi, copy, site) != 0) {
      fprintf(stderr,
              "dipc-loader: refusing %s: the %s byte sequence at %#lx is not "
              "an instruction that can be rewritten, and could switch "
              "protection keys outside dIPC's gates\n",
              path, hit.insn, (unsigned long)site);
      return -1;
    }
    at += hit.offset + 1;
  }
  return 0;
}
