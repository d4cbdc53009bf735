/* sfi_io.c - interceptors of the system-call wrappers that read or write
 * their caller's buffers (sfi_intercept.h): read/write and their socket,
 * positioned and vectored forms. The kernel writes into or reads from
 * those buffers on libc's behalf, unchecked: the interceptor checks first. */
#define _GNU_SOURCE
#include "sfi_intercept.h"

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
 * to *len. */
SFI_EXPORT ssize_t recvfrom(int fd, void *buf, size_t n, int flags,
                            struct sockaddr *addr, socklen_t *len) {
  if (SFI_CHECKED()) {
    SFI_WRITE(buf, n);
    if (len) {
      SFI_WRITE(len, sizeof *len);
      if (addr)
        SFI_WRITE(addr, *len);
    }
  }
  return NEXT(recvfrom)(fd, buf, n, flags, addr, len);
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

/* The iovec array is read, each of its buffers read or written. */
static void check_iov(const struct iovec *iov, size_t count, int write) {
  if (count == 0)
    return;
  SFI_READ(iov, sfi_array_size(count, sizeof *iov));
  for (size_t i = 0; i < count; ++i)
    sfi_check((uintptr_t)iov[i].iov_base, iov[i].iov_len,
                     (uint32_t)write);
}

SFI_EXPORT ssize_t readv(int fd, const struct iovec *iov, int count) {
  if (SFI_CHECKED())
    check_iov(iov, count > 0 ? (size_t)count : 0, 1);
  return NEXT(readv)(fd, iov, count);
}

SFI_EXPORT ssize_t writev(int fd, const struct iovec *iov, int count) {
  if (SFI_CHECKED())
    check_iov(iov, count > 0 ? (size_t)count : 0, 0);
  return NEXT(writev)(fd, iov, count);
}

SFI_EXPORT ssize_t preadv(int fd, const struct iovec *iov, int count,
                          off_t at) {
  if (SFI_CHECKED())
    check_iov(iov, count > 0 ? (size_t)count : 0, 1);
  return NEXT(preadv)(fd, iov, count, at);
}

SFI_EXPORT ssize_t pwritev(int fd, const struct iovec *iov, int count,
                           off_t at) {
  if (SFI_CHECKED())
    check_iov(iov, count > 0 ? (size_t)count : 0, 0);
  return NEXT(pwritev)(fd, iov, count, at);
}

/* The header is read (recvmsg: its flags and lengths written back), its
 * iovecs as for readv/writev, its name and control buffers as sized. */
static void check_msg(const struct msghdr *m, int receive) {
  sfi_check((uintptr_t)m, sizeof *m, (uint32_t)receive);
  check_iov(m->msg_iov, m->msg_iovlen, receive);
  if (m->msg_name)
    sfi_check((uintptr_t)m->msg_name, m->msg_namelen,
                     (uint32_t)receive);
  if (m->msg_control)
    sfi_check((uintptr_t)m->msg_control, m->msg_controllen,
                     (uint32_t)receive);
}

SFI_EXPORT ssize_t recvmsg(int fd, struct msghdr *msg, int flags) {
  if (SFI_CHECKED())
    check_msg(msg, 1);
  return NEXT(recvmsg)(fd, msg, flags);
}

SFI_EXPORT ssize_t sendmsg(int fd, const struct msghdr *msg, int flags) {
  if (SFI_CHECKED())
    check_msg(msg, 0);
  return NEXT(sendmsg)(fd, msg, flags);
}
