// iconv_open loads converter modules with libc's own dlopen, which the
// loader's dlopen never sees: under `sfi` their code and data stayed
// mapped from their files, which a domain may write while they are
// loaded. Grantless `zeta` opens a conversion (a copy of Debian's UTF-16
// module, through GCONV_PATH), rewrites the module's gconv_init in its
// file with code that copies vault's secret to zeta and marks the default
// domain's memory, and opens a second conversion of the same module: libc
// runs gconv_init again, as libc (attack round 26, issue #15's session,
// 2026-11-27). Now the loader copies what iconv_open loaded in place
// (loader/sfi_unknown.c, scan.c): the file's new bytes never run.
// Control: under `none` the rewritten code runs.
// (gconv_init's address in the module is its file offset: Debian's
// modules map their code at the offset it has in the file.)
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: cp /usr/lib/x86_64-linux-gnu/gconv/UTF-16.so %t.dir/UTF-16.so
// RUN: printf 'module\tUTF-16//\t\tINTERNAL\t\tUTF-16\t\t1\nmodule\tINTERNAL\t\tUTF-16//\t\tUTF-16\t\t1\nmodule\tUTF-16LE//\t\tINTERNAL\t\tUTF-16\t\t1\nmodule\tINTERNAL\t\tUTF-16LE//\t\tUTF-16\t\t1\n' > %t.dir/gconv-modules
// RUN: llvm-nm -D --defined-only %t.dir/UTF-16.so | grep ' gconv_init$' | cut -d' ' -f1 > %t.off
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t
// RUN: env GCONV_PATH=%t.dir %dipc-bin-dir/dipc-run --backend=sfi %t %t.dir/UTF-16.so $(cat %t.off) 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: cp /usr/lib/x86_64-linux-gnu/gconv/UTF-16.so %t.dir/UTF-16.so
// RUN: env GCONV_PATH=%t.dir %dipc-bin-dir/dipc-run --backend=none %t %t.dir/UTF-16.so $(cat %t.off) 2>&1 | FileCheck %s --check-prefix=STOLEN
// SFI: zeta wrote 57 bytes of the module's file
// SFI-NEXT: main_flag 0, zeta's loot ''
// STOLEN: zeta wrote 57 bytes of the module's file
// STOLEN-NEXT: main_flag 0x1337, zeta's loot 'vault-secret-42'
#define _GNU_SOURCE
#include <dipc.h>
#include <fcntl.h>
#include <iconv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char vault_secret[16] __dom("vault") = "vault-secret-42";
long vault_touch(long i) __dom("vault") __entry { return vault_secret[i & 15]; }
long main_flag; // the default domain's memory

static char zloot[32] __dom("zeta");
static unsigned char zcode[64] __dom("zeta");
static char zbuf[4096] __dom("zeta");

static void put64(unsigned char *p, unsigned long v) __dom("zeta") {
  memcpy(p, &v, 8);
}

long zeta_open(void) __dom("zeta") __entry {
  return (long)iconv_open("UTF-16", "ISO-8859-1");
}

// Writes its code over gconv_init (at `off` in the module's file, the path
// argv[1] from /proc/self/cmdline), then opens a conversion of the same
// module again. The bytes written, or -1.
long zeta_attack(long off) __dom("zeta") __entry {
  int fd = open("/proc/self/cmdline", O_RDONLY);
  ssize_t got = fd < 0 ? -1 : read(fd, zbuf, sizeof zbuf - 1);
  close(fd);
  if (got <= 0)
    return -1;
  zbuf[got] = 0;
  const char *module = zbuf + strlen(zbuf) + 1;
  unsigned char *c = zcode;
  int k = 0;
  c[k++] = 0x48, c[k++] = 0xbe; // movabs rsi, vault_secret
  put64(c + k, (unsigned long)vault_secret), k += 8;
  c[k++] = 0x48, c[k++] = 0xbf; // movabs rdi, zloot
  put64(c + k, (unsigned long)zloot), k += 8;
  c[k++] = 0x48, c[k++] = 0x8b, c[k++] = 0x06;           // mov rax, [rsi]
  c[k++] = 0x48, c[k++] = 0x89, c[k++] = 0x07;           // mov [rdi], rax
  c[k++] = 0x48, c[k++] = 0x8b, c[k++] = 0x46, c[k++] = 8; // mov rax, [rsi+8]
  c[k++] = 0x48, c[k++] = 0x89, c[k++] = 0x47, c[k++] = 8; // mov [rdi+8], rax
  c[k++] = 0x48, c[k++] = 0xbf; // movabs rdi, &main_flag
  put64(c + k, (unsigned long)&main_flag), k += 8;
  c[k++] = 0x48, c[k++] = 0xc7, c[k++] = 0x07; // mov qword [rdi], 0x1337
  c[k++] = 0x37, c[k++] = 0x13, c[k++] = 0, c[k++] = 0;
  c[k++] = 0xb8, c[k++] = 1, c[k++] = 0, c[k++] = 0, c[k++] = 0; // mov eax, 1
  c[k++] = 0xc3;                                                 // ret
  fd = open(module, O_RDWR);
  if (fd < 0)
    return -1;
  long w = pwrite(fd, zcode, k, off);
  close(fd);
  iconv_open("UTF-16LE", "ISO-8859-1");
  return w;
}
long zeta_loot(long i) __dom("zeta") __entry { return zloot[i]; }

int main(int argc, char **argv) {
  if (argc < 3)
    return 2;
  vault_touch(0);
  if (zeta_open() == -1) {
    puts("iconv_open failed");
    return 1;
  }
  long w = zeta_attack((long)strtoul(argv[2], NULL, 16));
  printf("zeta wrote %ld bytes of the module's file\n", w);
  char loot[17] = {0};
  for (int i = 0; i < 16; i++)
    loot[i] = (char)zeta_loot(i);
  printf("main_flag %#lx, zeta's loot '%s'\n", main_flag, loot);
  return 0;
}
