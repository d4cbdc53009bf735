// Record locks under `sfi`: fcntl's lock commands (F_GETLK, F_SETLK,
// F_SETLKW and their F_OFD_ forms) are checked for the struct flock the
// kernel reads and writes, and made (loader/sfi_files.c); they were
// refused, every one, by a fall-through to the refusal of unknown
// commands. Each result is printed as the call gave it.
// RUN: %dipc-clang -fdipc -fdipc-sfi -O1 %s -o %t.sfi
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi %t.lock 2>&1 | FileCheck %s
// CHECK-NOT: refused
// CHECK: F_SETLK: 0, F_GETLK: 0 (unlocked), F_OFD_SETLK: -1 (Resource temporarily unavailable), F_SETLKW unlock: 0
#define _GNU_SOURCE
#include <dipc.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

long add(long a, long b) __dom("calc") __entry { return a + b; }

int main(int argc, char **argv) {
  add(1, 2);
  int fd = open(argc > 1 ? argv[1] : "lockfile", O_RDWR | O_CREAT, 0600);
  struct flock lock = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
  int set = fcntl(fd, F_SETLK, &lock);
  struct flock probe = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
  int get = fcntl(fd, F_GETLK, &probe); /* our own lock: no conflict */
  /* An open-file-description lock conflicts with the process's own. */
  int fd2 = open(argc > 1 ? argv[1] : "lockfile", O_RDWR);
  struct flock ofd = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
  int oset = fcntl(fd2, F_OFD_SETLK, &ofd);
  int oerr = errno;
  lock.l_type = F_UNLCK;
  int unlock = fcntl(fd, F_SETLKW, &lock);
  printf("F_SETLK: %d, F_GETLK: %d (%s), F_OFD_SETLK: %d (%s), F_SETLKW "
         "unlock: %d\n",
         set, get, probe.l_type == F_UNLCK ? "unlocked" : "locked", oset,
         oset ? strerror(oerr) : "ok", unlock);
  return 0;
}
