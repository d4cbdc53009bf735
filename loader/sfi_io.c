/* sfi_io.c - interceptors of the system-call wrappers that read or write
 * their caller's buffers (sfi_intercept.h): read/write and their socket,
 * positioned and vectored forms. The kernel writes into or reads from
 * those buffers on libc's behalf, unchecked: the interceptor checks first. */
#define _GNU_SOURCE
#include "sfi_intercept.h"

#include <errno.h>
#include <limits.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>


SFI_EXPORT ssize_t read(int fd, void *buf, size_t n) {
  if (SFI_CHECKED())
    SFI_WRITE(buf, n);
  return NEXT(read)(fd, buf, n);
}

SFI_EXPORT ssize_t write(int fd, const void *buf, size_t n) {
  if (SFI_CHECKED())
    SFI_READ(buf, n);
  return NEXT(write)(fd, buf, n);
}

SFI_EXPORT ssize_t pread(int fd, void *buf, size_t n, off_t at) {
  if (SFI_CHECKED())
    SFI_WRITE(buf, n);
  return NEXT(pread)(fd, buf, n, at);
}

SFI_EXPORT ssize_t pread64(int fd, void *buf, size_t n, off64_t at) {
  if (SFI_CHECKED())
    SFI_WRITE(buf, n);
  return NEXT(pread64)(fd, buf, n, at);
}

SFI_EXPORT ssize_t pwrite(int fd, const void *buf, size_t n, off_t at) {
  if (SFI_CHECKED())
    SFI_READ(buf, n);
  return NEXT(pwrite)(fd, buf, n, at);
}

SFI_EXPORT ssize_t pwrite64(int fd, const void *buf, size_t n, off64_t at) {
  if (SFI_CHECKED())
    SFI_READ(buf, n);
  return NEXT(pwrite64)(fd, buf, n, at);
}

SFI_EXPORT ssize_t recv(int fd, void *buf, size_t n, int flags) {
  if (SFI_CHECKED())
    SFI_WRITE(buf, n);
  return NEXT(recv)(fd, buf, n, flags);
}

SFI_EXPORT ssize_t send(int fd, const void *buf, size_t n, int flags) {
  if (SFI_CHECKED())
    SFI_READ(buf, n);
  return NEXT(send)(fd, buf, n, flags);
}

/* The peer's address goes to addr, as much as *len says, and its length
 * to *len (a copy the kernel reads: sfi_length_in). */
SFI_EXPORT ssize_t recvfrom(int fd, void *buf, size_t n, int flags,
                            struct sockaddr *addr, socklen_t *len) {
  if (!SFI_CHECKED())
    return NEXT(recvfrom)(fd, buf, n, flags, addr, len);
  SFI_WRITE(buf, n);
  if (!len)
    return NEXT(recvfrom)(fd, buf, n, flags, addr, len);
  socklen_t *copy = sfi_length_in("recvfrom", len, addr);
  if (!copy)
    return -1;
  ssize_t r = NEXT(recvfrom)(fd, buf, n, flags, addr, copy);
  sfi_length_out(len, copy);
  return r;
}

SFI_EXPORT ssize_t sendto(int fd, const void *buf, size_t n, int flags,
                          const struct sockaddr *addr, socklen_t len) {
  if (SFI_CHECKED()) {
    SFI_READ(buf, n);
    if (addr)
      SFI_READ(addr, len);
  }
  return NEXT(sendto)(fd, buf, n, flags, addr, len);
}

/* The iovec array, copied once into the thread's scratch area
 * (sfi_copy_in), each of its buffers read or written as the copy says:
 * libc and the kernel then read the copy, which no thread of the domain
 * can change after the check (an attack round's second thread swapped a
 * checked iov_base for the secret's address while sendmsg ran). NULL with
 * errno set when refused (a count the kernel refuses too: its error). */
static struct iovec *checked_iov(const char *call, const struct iovec *iov,
                                 size_t count, int write, int too_many) {
  if (count > IOV_MAX) {
    errno = too_many;
    return NULL;
  }
  struct iovec *copy = sfi_copy_in(call, iov, count * sizeof *iov);
  for (size_t i = 0; copy && i < count; ++i)
    sfi_check((uintptr_t)copy[i].iov_base, copy[i].iov_len, (uint32_t)write);
  return copy;
}

typedef ssize_t (*vector_io_fn)(int, const struct iovec *, int, off_t);

/* readv and the others through their checked copy (at: the offset of
 * preadv/pwritev, ignored by readv/writev's adapter). */
static ssize_t vector_io(const char *call, vector_io_fn real, int fd,
                         const struct iovec *iov, int count, off_t at,
                         int write) {
  if (count < 0) {
    errno = EINVAL;
    return -1;
  }
  struct iovec *copy = checked_iov(call, iov, (size_t)count, write, EINVAL);
  if (!copy)
    return -1;
  ssize_t n = real(fd, copy, count, at);
  sfi_copy_done(copy);
  return n;
}

static ssize_t readv_at(int fd, const struct iovec *iov, int n, off_t at) {
  (void)at;
  return NEXT(readv)(fd, iov, n);
}

static ssize_t writev_at(int fd, const struct iovec *iov, int n, off_t at) {
  (void)at;
  return NEXT(writev)(fd, iov, n);
}

static ssize_t preadv_at(int fd, const struct iovec *iov, int n, off_t at) {
  return NEXT(preadv)(fd, iov, n, at);
}

static ssize_t pwritev_at(int fd, const struct iovec *iov, int n, off_t at) {
  return NEXT(pwritev)(fd, iov, n, at);
}

SFI_EXPORT ssize_t readv(int fd, const struct iovec *iov, int count) {
  if (SFI_CHECKED())
    return vector_io("readv", readv_at, fd, iov, count, 0, 1);
  return NEXT(readv)(fd, iov, count);
}

SFI_EXPORT ssize_t writev(int fd, const struct iovec *iov, int count) {
  if (SFI_CHECKED())
    return vector_io("writev", writev_at, fd, iov, count, 0, 0);
  return NEXT(writev)(fd, iov, count);
}

SFI_EXPORT ssize_t preadv(int fd, const struct iovec *iov, int count,
                          off_t at) {
  if (SFI_CHECKED())
    return vector_io("preadv", preadv_at, fd, iov, count, at, 1);
  return NEXT(preadv)(fd, iov, count, at);
}

SFI_EXPORT ssize_t pwritev(int fd, const struct iovec *iov, int count,
                           off_t at) {
  if (SFI_CHECKED())
    return vector_io("pwritev", pwritev_at, fd, iov, count, at, 0);
  return NEXT(pwritev)(fd, iov, count, at);
}

/* The header, copied once (recvmsg: the caller's must be writable, its
 * lengths and flags are copied back), its iovecs as for readv/writev, its
 * name and control buffers as the copy sizes them; NULL with errno set
 * when refused. Given back with sfi_copy_done (its iovecs with it). */
static struct msghdr *checked_msg(const char *call, const struct msghdr *m,
                                  int receive) {
  if (receive)
    SFI_WRITE(m, sizeof *m);
  struct msghdr *copy = sfi_copy_in(call, m, sizeof *m);
  if (!copy)
    return NULL;
  if (copy->msg_iovlen) {
    copy->msg_iov = checked_iov(call, copy->msg_iov, copy->msg_iovlen,
                                receive, EMSGSIZE);
    if (!copy->msg_iov) {
      sfi_copy_done(copy);
      return NULL;
    }
  }
  if (copy->msg_name)
    sfi_check((uintptr_t)copy->msg_name, copy->msg_namelen,
              (uint32_t)receive);
  if (copy->msg_control)
    sfi_check((uintptr_t)copy->msg_control, copy->msg_controllen,
              (uint32_t)receive);
  return copy;
}

SFI_EXPORT ssize_t recvmsg(int fd, struct msghdr *msg, int flags) {
  if (!SFI_CHECKED())
    return NEXT(recvmsg)(fd, msg, flags);
  struct msghdr *copy = checked_msg("recvmsg", msg, 1);
  if (!copy)
    return -1;
  ssize_t n = NEXT(recvmsg)(fd, copy, flags);
  msg->msg_namelen = copy->msg_namelen;
  msg->msg_controllen = copy->msg_controllen;
  msg->msg_flags = copy->msg_flags;
  sfi_copy_done(copy);
  return n;
}

SFI_EXPORT ssize_t sendmsg(int fd, const struct msghdr *msg, int flags) {
  if (!SFI_CHECKED())
    return NEXT(sendmsg)(fd, msg, flags);
  struct msghdr *copy = checked_msg("sendmsg", msg, 0);
  if (!copy)
    return -1;
  ssize_t n = NEXT(sendmsg)(fd, copy, flags);
  sfi_copy_done(copy);
  return n;
}
