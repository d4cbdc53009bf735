// An attack on the cookie that lets the runtime's system calls through the
// seccomp filter: domain `evil` installs a filter of its own with a
// listener for pkey_mprotect (a notification wins over the runtime's
// ALLOW) and starts a thread, whose set-up makes the runtime tag the
// thread's stack; the notification carries the arguments of that call,
// the cookie in args[5]. With it, evil would call the runtime's syscall
// instruction to re-tag the vault's page with key 0. Under mpk the filter
// refuses filters with a listener (EPERM); the read that follows faults
// and main gets DIPC_EFAULT. Control: `none`, where there is no cookie to
// steal and the secret leaks.
// REQUIRES: pku
// RUN: llvm-nm %dipc-lib-dir/libdipc.so | grep ' dipc_syscall_site$' > %t.site
// RUN: %dipc-clang -fdipc -O2 %s -o %t -lpthread
// RUN: %dipc-bin-dir/dipc-run %t %t.site 2>&1 | FileCheck %s --check-prefix=MPK
// RUN: %dipc-bin-dir/dipc-run --backend=none %t %t.site 2>&1 | FileCheck %s --check-prefix=STOLEN
// MPK: seccomp listener: Operation not permitted
// MPK-NOT: cookie
// MPK: attack returned 0, dipc_errno 14
// MPK-NEXT: nothing stolen
// STOLEN: stole 'vault-secret-42'
#define _GNU_SOURCE
#include "Inputs/vault.h"

#include <dipc/rt.h>
#include <dlfcn.h>
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <pthread.h>
#include <stddef.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

static void *idle(void *arg) { return arg; }

// Answers every notification until none comes for a while; the last
// cookie seen, or 0.
static uint64_t listen_for_cookie(int fd) {
  uint64_t cookie = 0;
  struct pollfd p = {fd, POLLIN, 0};
  while (poll(&p, 1, 2000) > 0) {
    struct seccomp_notif req;
    memset(&req, 0, sizeof req);
    if (ioctl(fd, SECCOMP_IOCTL_NOTIF_RECV, &req) != 0)
      break;
    cookie = req.data.args[5];
    struct seccomp_notif_resp resp = {
        .id = req.id, .flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE};
    ioctl(fd, SECCOMP_IOCTL_NOTIF_SEND, &resp);
  }
  return cookie;
}

long attack(const char *mode, void *aux, const volatile char *secret, int key,
            char *loot) {
  (void)mode, (void)key;
  // Notify pkey_mprotect with a key other than 0 (the runtime's tagging);
  // evil's own call below, with key 0, goes through.
  struct sock_filter f[] = {
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_pkey_mprotect, 0, 2),
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
               offsetof(struct seccomp_data, args[3])),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 1),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF),
  };
  struct sock_fprog prog = {sizeof f / sizeof f[0], f};
  int fd = (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
                        SECCOMP_FILTER_FLAG_NEW_LISTENER, &prog);
  printf("seccomp listener: %s\n", fd < 0 ? strerror(errno) : "ok");
  fflush(stdout);
  if (fd >= 0 && strcmp(dipc_backend(), "mpk") == 0) {
    pthread_t t;
    pthread_create(&t, NULL, idle, NULL);
    uint64_t cookie = listen_for_cookie(fd);
    pthread_join(t, NULL);
    printf("cookie %s\n", cookie ? "stolen" : "not seen");
    long r = runtime_pkey_mprotect(aux, secret, cookie);
    printf("the runtime's pkey_mprotect with it: %ld\n", r);
    fflush(stdout);
  }
  take(secret, loot);
  return 0;
}

int main(int argc, char **argv) {
  char *site = argc > 1 ? runtime_syscall_site(argv[1]) : NULL;
  if (!site)
    return 2;
  return run_attack("listener", site);
}
