/* sfi_files.c - interceptors of the file-system wrappers that take paths
 * and structures from their caller (sfi_intercept.h): each path is read
 * to its NUL, each structure read or written whole. */
#define _GNU_SOURCE
#include "sfi_intercept.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdarg.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#define PATH(p) sfi_read_string((p), SIZE_MAX)

/* open's mode argument is there with O_CREAT or O_TMPFILE; passing it on
 * either way is what glibc's own wrappers do. */
#define OPEN_MODE(flags)                                                      \
  ({                                                                           \
    va_list ap_;                                                               \
    va_start(ap_, flags);                                                      \
    mode_t mode_ = va_arg(ap_, mode_t);                                        \
    va_end(ap_);                                                               \
    mode_;                                                                     \
  })

SFI_EXPORT int open(const char *path, int flags, ...) {
  if (SFI_CHECKED())
    PATH(path);
  return NEXT(open)(path, flags, OPEN_MODE(flags));
}

SFI_EXPORT int open64(const char *path, int flags, ...) {
  if (SFI_CHECKED())
    PATH(path);
  return NEXT(open64)(path, flags, OPEN_MODE(flags));
}

SFI_EXPORT int openat(int dir, const char *path, int flags, ...) {
  if (SFI_CHECKED())
    PATH(path);
  return NEXT(openat)(dir, path, flags, OPEN_MODE(flags));
}

SFI_EXPORT int access(const char *path, int mode) {
  if (SFI_CHECKED())
    PATH(path);
  return NEXT(access)(path, mode);
}

SFI_EXPORT int unlink(const char *path) {
  if (SFI_CHECKED())
    PATH(path);
  return NEXT(unlink)(path);
}

SFI_EXPORT int mkdir(const char *path, mode_t mode) {
  if (SFI_CHECKED())
    PATH(path);
  return NEXT(mkdir)(path, mode);
}

SFI_EXPORT int remove(const char *path) {
  if (SFI_CHECKED())
    PATH(path);
  return NEXT(remove)(path);
}

SFI_EXPORT int rmdir(const char *path) {
  if (SFI_CHECKED())
    PATH(path);
  return NEXT(rmdir)(path);
}

SFI_EXPORT int rename(const char *from, const char *to) {
  if (SFI_CHECKED()) {
    PATH(from);
    PATH(to);
  }
  return NEXT(rename)(from, to);
}

SFI_EXPORT int stat(const char *path, struct stat *st) {
  if (SFI_CHECKED()) {
    PATH(path);
    SFI_WRITE(st, sizeof *st);
  }
  return NEXT(stat)(path, st);
}

SFI_EXPORT int stat64(const char *path, struct stat64 *st) {
  if (SFI_CHECKED()) {
    PATH(path);
    SFI_WRITE(st, sizeof *st);
  }
  return NEXT(stat64)(path, st);
}

SFI_EXPORT int lstat(const char *path, struct stat *st) {
  if (SFI_CHECKED()) {
    PATH(path);
    SFI_WRITE(st, sizeof *st);
  }
  return NEXT(lstat)(path, st);
}

SFI_EXPORT int lstat64(const char *path, struct stat64 *st) {
  if (SFI_CHECKED()) {
    PATH(path);
    SFI_WRITE(st, sizeof *st);
  }
  return NEXT(lstat64)(path, st);
}

SFI_EXPORT int fstat(int fd, struct stat *st) {
  if (SFI_CHECKED())
    SFI_WRITE(st, sizeof *st);
  return NEXT(fstat)(fd, st);
}

SFI_EXPORT int fstat64(int fd, struct stat64 *st) {
  if (SFI_CHECKED())
    SFI_WRITE(st, sizeof *st);
  return NEXT(fstat64)(fd, st);
}

SFI_EXPORT char *getcwd(char *buf, size_t n) {
  if (SFI_CHECKED() && buf)
    SFI_WRITE(buf, n);
  return NEXT(getcwd)(buf, n);
}

SFI_EXPORT ssize_t readlink(const char *path, char *buf, size_t n) {
  if (SFI_CHECKED()) {
    PATH(path);
    SFI_WRITE(buf, n);
  }
  return NEXT(readlink)(path, buf, n);
}

SFI_EXPORT int utimes(const char *path, const struct timeval times[2]) {
  if (SFI_CHECKED()) {
    PATH(path);
    if (times)
      SFI_READ(times, 2 * sizeof *times);
  }
  return NEXT(utimes)(path, times);
}

/* An anonymous file's name, read as a path (what it holds is the
 * caller's to map: mmap's interceptor keeps it from being code). */
SFI_EXPORT int memfd_create(const char *name, unsigned flags) {
  if (SFI_CHECKED())
    PATH(name);
  return NEXT(memfd_create)(name, flags);
}

/* The record-lock commands read and write a struct flock, the owner and
 * write-hint ones their structure or u64; the others listed take an
 * integer or nothing. A command the check does not know is refused: the
 * kernel would read or write through its argument unchecked
 * (F_GET_RW_HINT's u64 over the domain's rights row). */
static int check_fcntl_arg(int cmd, void *arg) {
  switch (cmd) {
  case F_DUPFD:
  case F_DUPFD_CLOEXEC:
  case F_GETFD:
  case F_SETFD:
  case F_GETFL:
  case F_SETFL:
  case F_GETOWN:
  case F_SETOWN:
  case F_GETSIG:
  case F_SETSIG:
  case F_GETLEASE:
  case F_SETLEASE:
  case F_NOTIFY:
  case F_GETPIPE_SZ:
  case F_SETPIPE_SZ:
  case F_ADD_SEALS:
  case F_GET_SEALS:
    return 0;
  case F_GET_RW_HINT:
  case F_GET_FILE_RW_HINT:
    SFI_WRITE(arg, sizeof(uint64_t));
    return 0;
  case F_SET_RW_HINT:
  case F_SET_FILE_RW_HINT:
    SFI_READ(arg, sizeof(uint64_t));
    return 0;
  case F_GETLK:
  case F_SETLK:
  case F_SETLKW:
  case F_OFD_GETLK:
  case F_OFD_SETLK:
  case F_OFD_SETLKW:
    SFI_WRITE(arg, sizeof(struct flock));
    return 0;
  case F_GETOWN_EX:
  case F_SETOWN_EX:
    SFI_WRITE(arg, sizeof(struct f_owner_ex));
    return 0;
  }
  char what[48];
  snprintf(what, sizeof what, "fcntl(command %d)", cmd);
  return (int)sfi_refuse(what);
}

#define FCNTL_ARG(cmd)                                                         \
  ({                                                                           \
    va_list ap_;                                                               \
    va_start(ap_, cmd);                                                        \
    void *arg_ = va_arg(ap_, void *);                                          \
    va_end(ap_);                                                               \
    arg_;                                                                      \
  })

SFI_EXPORT int fcntl(int fd, int cmd, ...) {
  void *arg = FCNTL_ARG(cmd);
  if (SFI_CHECKED() && check_fcntl_arg(cmd, arg) != 0)
    return -1;
  return NEXT(fcntl)(fd, cmd, arg);
}

SFI_EXPORT int fcntl64(int fd, int cmd, ...) {
  void *arg = FCNTL_ARG(cmd);
  if (SFI_CHECKED() && check_fcntl_arg(cmd, arg) != 0)
    return -1;
  return NEXT(fcntl64)(fd, cmd, arg);
}
