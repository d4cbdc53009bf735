// fflush(NULL) and exit flush every open stream, the domain's own too,
// whose fields it may rewrite after any check (an attack round's): `evil`
// points a pipe stream's write area at vault's secret and calls
// fflush(NULL), then reads the secret from the pipe (`steal`); points its
// fmemopen stream's buffer (the cookie) at the secret (`write`); or
// points a stream of stdout at the secret and calls exit, which writes it
// out (`exit`). Under `sfi` the FILE a domain gets from fopen and the
// like is a decoy (loader/sfi_streams.c): libc's stream lives in runtime
// memory, so these rewrite nothing libc reads, and nothing leaves. The
// `-real` modes go on as an attacker would: they find libc's stream for
// their descriptor in libc's list of open streams (`_IO_list_all`; evil
// may read the default domain's memory) and rewrite that: the access
// faults (DIPC_EFAULT). A stream the loader could not record would not
// be libc's in runtime memory: past 1024 open ones, opening another fails
// with EMFILE (`many`). Control: under `none` (no decoys: the list's
// stream is the one evil holds) each steals, writes or prints the secret.
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t -lpthread
// RUN: for m in steal steal-real write-real exit-real; do %dipc-bin-dir/dipc-run --backend=sfi %t $m 1 2>&1; done | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t exit 1 > %t.exit 2>&1
// RUN: not grep -a vault-secret %t.exit
// RUN: for m in steal steal-real write-real; do %dipc-bin-dir/dipc-run --backend=none %t $m 1 2>&1; done | FileCheck %s --check-prefix=STOLEN
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t many 1 2>&1 | FileCheck %s --check-prefix=MANY-SFI
// RUN: %dipc-bin-dir/dipc-run --backend=none %t many 1 2>&1 | FileCheck %s --check-prefix=MANY-NONE
// RUN: %dipc-bin-dir/dipc-run --backend=none %t exit 1 2>&1 | FileCheck %s --check-prefix=LEAKED
// RUN: %dipc-bin-dir/dipc-run --backend=none %t exit-real 1 2>&1 | FileCheck %s --check-prefix=LEAKED
// SFI: steal: 1 tries, 0 stolen, 0 refused
// SFI: steal-real: 1 tries, 0 stolen, 1 refused
// SFI: write-real: 1 tries, 0 stolen, 1 refused
// SFI: exit-real: 1 tries, 0 stolen, 1 refused
// STOLEN: steal: 1 tries, 1 stolen
// STOLEN: steal-real: 1 tries, 1 stolen
// STOLEN: write-real: 1 tries, 1 stolen
// LEAKED: vault-secret-42
// MANY-SFI: opened 1024 streams, then EMFILE
// MANY-NONE: opened 1100 streams

#include "Inputs/vault.h"

#include "Inputs/flipper.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

/* libc's list of open streams. */
extern FILE *_IO_list_all;

/* The stream of libc's list for what evil holds: another FILE of the same
 * descriptor (under sfi), else the one held. */
static FILE *libc_stream(FILE *held, int real) {
  if (real)
    for (FILE *f = _IO_list_all; f; f = f->_chain)
      if (f != held && f->_fileno == held->_fileno)
        return f;
  return held;
}

/* steal: evil's stream (a pipe), write area pointed at the secret. */
static long flush_steal(const volatile char *secret, char *loot, int real) {
  int p[2];
  if (pipe2(p, O_NONBLOCK))
    return -1;
  FILE *held = fdopen(p[1], "w");
  if (!held)
    return -1;
  FILE *f = libc_stream(held, real);
  __asm__ volatile("" : "+r"(f) : : "memory"); /* clang: fdopen's result is noalias */
  f->_flags |= 0x800 | 0x1000; /* _IO_CURRENTLY_PUTTING | _IO_IS_APPENDING */
  f->_IO_write_base = (char *)secret;
  f->_IO_write_ptr = (char *)secret + 16;
  f->_IO_write_end = (char *)secret + 16;
  fflush(NULL);
  f->_IO_write_base = f->_IO_write_ptr = f->_IO_write_end = NULL;
  char buf[32] = "";
  ssize_t n = read(p[0], buf, 16);
  fclose(held);
  close(p[0]);
  if (n != 16 || memcmp(buf, intact, 15))
    return 0;
  memcpy(loot, buf, 16);
  return 1;
}

/* write-real: the fmemopen stream's cookie, its buffer pointed at the
 * secret after the last check. */
struct fmem_cookie {
  char *buffer;
  _Bool mybuffer, append;
  size_t size;
  int64_t pos;
  size_t maxpos;
};
static char mbuf[64];
static long flush_write(const volatile char *secret) {
  FILE *held = fmemopen(mbuf, sizeof mbuf, "w");
  if (!held)
    return -1;
  fputs("PWNED-BY-EVIL", held); /* in the stream's buffer, not yet in mbuf */
  FILE *m = libc_stream(held, 1);
  __asm__ volatile("" : "+r"(m) : : "memory");
  struct fmem_cookie *c =
      *(struct fmem_cookie **)((char *)m + sizeof(FILE) + sizeof(void *));
  c->buffer = (char *)secret;
  fflush(NULL);
  c->buffer = mbuf;
  fclose(held);
  return 0;
}

/* exit: a stream of stdout's descriptor, its pending output the secret;
 * exit flushes it (and never returns when allowed). */
static long exit_leak(const volatile char *secret, int real) {
  FILE *held = fdopen(dup(STDOUT_FILENO), "w");
  if (!held)
    return -1;
  FILE *f = libc_stream(held, real);
  __asm__ volatile("" : "+r"(f) : : "memory");
  f->_flags |= 0x800 | 0x1000;
  f->_IO_write_base = (char *)secret;
  f->_IO_write_ptr = f->_IO_write_end = (char *)secret + 16;
  exit(0);
}

/* many: streams opened until one fails (1100 at most), then closed. */
static long many_streams(void) {
  static FILE *open_ones[1100];
  static char buf[16];
  int n = 0;
  while (n < 1100 && (open_ones[n] = fmemopen(buf, sizeof buf, "r")))
    ++n;
  int err = errno;
  printf("opened %d streams%s\n", n, n < 1100 && err == EMFILE ? ", then EMFILE" : "");
  while (n > 0)
    fclose(open_ones[--n]);
  return 0;
}

long attack(const char *mode, void *aux, const volatile char *secret, int key,
            char *loot) {
  (void)aux, (void)key;
  if (!strcmp(mode, "many"))
    return many_streams();
  if (!strncmp(mode, "steal", 5))
    return flush_steal(secret, loot, !strcmp(mode, "steal-real"));
  if (!strcmp(mode, "write-real"))
    return flush_write(secret);
  if (!strncmp(mode, "exit", 4))
    return exit_leak(secret, !strcmp(mode, "exit-real"));
  return -1;
}

int main(int argc, char **argv) { return race_main(argc, argv); }
