/* sfi_kernel.c - interceptors (sfi_intercept.h) of system-call wrappers
 * through which the kernel writes (or reads) a structure the caller names:
 * an exit status, a pipe's descriptors, a struct rusage. Written over the
 * domain's own row of the rights matrix, any of them would be rights
 * (waitpid's status is a child's exit code, which the domain chooses). */
#define _GNU_SOURCE
#include "heap.h"
#include "sfi_intercept.h"

#include <limits.h>
#include <locale.h>
#include <poll.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/msg.h>
#include <sys/resource.h>
#include <sys/select.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/sysinfo.h>
#include <sys/time.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define OUT(p) ((p) ? SFI_WRITE((p), sizeof *(p)) : (void)0)
#define IN(p) ((p) ? SFI_READ((p), sizeof *(p)) : (void)0)
/* A parameter glibc declares nonnull (the compiler would drop the test). */
#define OUT_NONNULL(p) SFI_WRITE((p), sizeof *(p))

SFI_EXPORT pid_t waitpid(pid_t pid, int *status, int options) {
  if (SFI_CHECKED())
    OUT(status);
  return NEXT(waitpid)(pid, status, options);
}

SFI_EXPORT pid_t wait(int *status) {
  if (SFI_CHECKED())
    OUT(status);
  return NEXT(wait)(status);
}

SFI_EXPORT pid_t wait4(pid_t pid, int *status, int options,
                       struct rusage *usage) {
  if (SFI_CHECKED()) {
    OUT(status);
    OUT(usage);
  }
  return NEXT(wait4)(pid, status, options, usage);
}

SFI_EXPORT int pipe(int fds[2]) {
  if (SFI_CHECKED())
    SFI_WRITE(fds, 2 * sizeof(int));
  return NEXT(pipe)(fds);
}

SFI_EXPORT int pipe2(int fds[2], int flags) {
  if (SFI_CHECKED())
    SFI_WRITE(fds, 2 * sizeof(int));
  return NEXT(pipe2)(fds, flags);
}

SFI_EXPORT int socketpair(int domain, int type, int protocol, int fds[2]) {
  if (SFI_CHECKED())
    SFI_WRITE(fds, 2 * sizeof(int));
  return NEXT(socketpair)(domain, type, protocol, fds);
}

SFI_EXPORT int uname(struct utsname *buf) {
  if (SFI_CHECKED())
    OUT(buf);
  return NEXT(uname)(buf);
}

SFI_EXPORT int getrusage(int who, struct rusage *usage) {
  if (SFI_CHECKED())
    OUT(usage);
  return NEXT(getrusage)(who, usage);
}

SFI_EXPORT int getrlimit(__rlimit_resource_t resource, struct rlimit *limit) {
  if (SFI_CHECKED())
    OUT_NONNULL(limit);
  return NEXT(getrlimit)(resource, limit);
}

SFI_EXPORT int prlimit(pid_t pid, enum __rlimit_resource resource,
                       const struct rlimit *limit, struct rlimit *old) {
  if (SFI_CHECKED()) {
    IN(limit);
    OUT(old);
  }
  return NEXT(prlimit)(pid, resource, limit, old);
}

SFI_EXPORT int sysinfo(struct sysinfo *info) {
  if (SFI_CHECKED())
    OUT(info);
  return NEXT(sysinfo)(info);
}

SFI_EXPORT int poll(struct pollfd *fds, nfds_t n, int timeout) {
  if (SFI_CHECKED())
    SFI_WRITE(fds, sfi_array_size(n, sizeof *fds));
  return NEXT(poll)(fds, n, timeout);
}

/* The kernel reads and writes each set for n bits in longs, whatever
 * FD_SETSIZE says (n above 1024, with a raised descriptor limit). */
static void check_fd_sets(int n, fd_set *r, fd_set *w, fd_set *e) {
  size_t bits = n > 0 ? (size_t)n : 0;
  size_t bytes = (bits + 63) / 64 * 8;
  if (bytes < sizeof(fd_set))
    bytes = sizeof(fd_set);
  if (r)
    SFI_WRITE(r, bytes);
  if (w)
    SFI_WRITE(w, bytes);
  if (e)
    SFI_WRITE(e, bytes);
}

SFI_EXPORT int select(int n, fd_set *r, fd_set *w, fd_set *e,
                      struct timeval *timeout) {
  if (SFI_CHECKED()) {
    check_fd_sets(n, r, w, e);
    OUT(timeout);
  }
  return NEXT(select)(n, r, w, e, timeout);
}

SFI_EXPORT int pselect(int n, fd_set *r, fd_set *w, fd_set *e,
                       const struct timespec *timeout, const sigset_t *mask) {
  if (SFI_CHECKED()) {
    check_fd_sets(n, r, w, e);
    IN(timeout);
    IN(mask);
  }
  return NEXT(pselect)(n, r, w, e, timeout, mask);
}

SFI_EXPORT int epoll_wait(int epfd, struct epoll_event *events, int max,
                          int timeout) {
  if (SFI_CHECKED() && max > 0)
    SFI_WRITE(events, sfi_array_size((size_t)max, sizeof *events));
  return NEXT(epoll_wait)(epfd, events, max, timeout);
}

SFI_EXPORT int shmctl(int id, int cmd, struct shmid_ds *buf) {
  if (SFI_CHECKED())
    OUT(buf);
  return NEXT(shmctl)(id, cmd, buf);
}

SFI_EXPORT int msgctl(int id, int cmd, struct msqid_ds *buf) {
  if (SFI_CHECKED())
    OUT(buf);
  return NEXT(msgctl)(id, cmd, buf);
}

/* The kernel reads a copy of *len (sfi_length_in: a raised *len had it
 * write the rights matrix). */
SFI_EXPORT int getsockopt(int fd, int level, int name, void *value,
                          socklen_t *len) {
  if (!SFI_CHECKED() || !len)
    return NEXT(getsockopt)(fd, level, name, value, len);
  socklen_t *copy = sfi_length_in("getsockopt", len, value);
  if (!copy)
    return -1;
  int r = NEXT(getsockopt)(fd, level, name, value, copy);
  sfi_length_out(len, copy);
  return r;
}

SFI_EXPORT int sched_getaffinity(pid_t pid, size_t size, cpu_set_t *set) {
  if (SFI_CHECKED())
    SFI_WRITE(set, size);
  return NEXT(sched_getaffinity)(pid, size, set);
}

SFI_EXPORT int clock_getres(clockid_t clock, struct timespec *res) {
  if (SFI_CHECKED())
    OUT(res);
  return NEXT(clock_getres)(clock, res);
}

SFI_EXPORT int getitimer(__itimer_which_t which, struct itimerval *value) {
  if (SFI_CHECKED())
    OUT(value);
  return NEXT(getitimer)(which, value);
}

SFI_EXPORT int setitimer(__itimer_which_t which,
                         const struct itimerval *restrict value,
                         struct itimerval *restrict old) {
  if (SFI_CHECKED()) {
    IN(value);
    OUT(old);
  }
  return NEXT(setitimer)(which, value, old);
}

SFI_EXPORT int fstatfs(int fd, struct statfs *buf) {
  if (SFI_CHECKED())
    OUT_NONNULL(buf);
  return NEXT(fstatfs)(fd, buf);
}

SFI_EXPORT int statfs(const char *path, struct statfs *buf) {
  if (SFI_CHECKED()) {
    sfi_read_string(path, SIZE_MAX);
    OUT_NONNULL(buf);
  }
  return NEXT(statfs)(path, buf);
}

SFI_EXPORT int fstatvfs(int fd, struct statvfs *buf) {
  if (SFI_CHECKED())
    OUT_NONNULL(buf);
  return NEXT(fstatvfs)(fd, buf);
}

SFI_EXPORT int statvfs(const char *path, struct statvfs *buf) {
  if (SFI_CHECKED()) {
    sfi_read_string(path, SIZE_MAX);
    OUT_NONNULL(buf);
  }
  return NEXT(statvfs)(path, buf);
}

SFI_EXPORT char *realpath(const char *path, char *resolved) {
  if (SFI_CHECKED()) {
    sfi_read_string(path, SIZE_MAX);
    if (resolved)
      SFI_WRITE(resolved, PATH_MAX);
  }
  return NEXT(realpath)(path, resolved);
}

/* strerror translates its message (gettext): the catalog libc loads for
 * it, and the converter to the locale's characters, are process-wide
 * state libc follows on every domain's behalf, made in the running
 * domain's heap: an attack round's domain with no grant rewrote a loaded
 * catalog's record, and strerror copied vault's secret out, or converted
 * into it (e2e/attack-sfi-message-catalog.c). A domain with a heap of its
 * own gets the C locale's message: nothing is loaded for it. */
static locale_t c_locale(void) {
  static locale_t c; /* newlocale's static C locale: no allocation */
  if (!c)
    c = newlocale(LC_ALL_MASK, "C", (locale_t)0);
  return c;
}

static int untranslated(void) { return heap_serves_domain(); }

SFI_EXPORT char *strerror(int err) {
  if (SFI_CHECKED() && untranslated())
    return strerror_l(err, c_locale());
  return NEXT(strerror)(err);
}

SFI_EXPORT char *strerror_r(int err, char *buf, size_t n) {
  if (!SFI_CHECKED())
    return NEXT(strerror_r)(err, buf, n);
  SFI_WRITE(buf, n);
  if (!untranslated())
    return NEXT(strerror_r)(err, buf, n);
  /* GNU strerror_r may return its own string rather than fill buf */
  return strerror_l(err, c_locale());
}
