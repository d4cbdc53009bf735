/* peek-process.c - a plain program (not instrumented, not under the
 * loader) that reads 16 bytes of another process's memory, or writes a
 * string there: attack-sfi-run-program.c's child.
 *   peek-process PID ADDR [STRING] */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
int main(int argc, char **argv) {
  if (argc < 3)
    return 2;
  pid_t pid = atoi(argv[1]);
  unsigned long addr = strtoul(argv[2], 0, 16);
  char buf[32] = {0};
  struct iovec l = {buf, 16}, r = {(void *)addr, 16};
  if (argc > 3) { /* write */
    strncpy(buf, argv[3], 16);
    l.iov_len = r.iov_len = strlen(argv[3]) + 1;
    ssize_t n = process_vm_writev(pid, &l, 1, &r, 1, 0);
    printf("%zd\n", n);
    return 0;
  }
  ssize_t n = process_vm_readv(pid, &l, 1, &r, 1, 0);
  if (n < 0) { perror("process_vm_readv"); return 1; }
  printf("%s", buf);
  return 0;
}
