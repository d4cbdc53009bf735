/* xproc.h - cross-process dIPC (docs/cross-process.md): what a listening
 * process (dipc-run --listen) and an importing one (--connect) share: the
 * shadow threads a caller's thread borrows, and the greeting sent on
 * connection. */
#ifndef DIPC_LOADER_XPROC_H
#define DIPC_LOADER_XPROC_H

#include <dipc/limits.h>
#include <dipc/signature.h>

#include <signal.h>
#include <stdint.h>
#include <sys/types.h>

#define XPROC_MAGIC 0x64697078u /* "dipx" */
#define XPROC_VERSION 3

/* Where a listening process's later mappings go (its shadow threads, the
 * anonymous mappings it makes after dipc_serve): one slot of this window,
 * chosen at random, at 96 TiB up, below where Linux puts any process's
 * mmap area (within 1 TiB under the top of the address space), so that an
 * importer's own mappings are not in the way. An importer reserves the
 * whole slot as the pages of the domain standing for that process, so
 * its checks know them for the other's before they are mapped here. */
#define XPROC_LATE_WINDOW 0x600000000000ul
#define XPROC_LATE_SLOT (16ul << 30)
#define XPROC_LATE_SLOTS 512
#define XPROC_MAX_LENDS 32
/* The data of the mpk runtime's seccomp traps (rt/internal.h
 * DIPC_SECCOMP_TRAP_DATA): a trap of the listening process's own filter
 * handed on to the runtime carries it. */
#define XPROC_RUNTIME_TRAP_DATA 0xd1c
#define XPROC_MAX_MAPS 1024
#define XPROC_MAX_EXPORTS 128
#define XPROC_NAME_MAX 128
#define XPROC_STACK_BYTES (1u << 20) /* a shadow thread's call stack */

/* One shadow thread of the listening process: a caller's thread borrows it
 * for one call (its TCB and stacks), and posts through it the system calls
 * the callee's code makes (state: XPROC_IDLE, _REQUEST, _REPLY). In the
 * listening process's shared memory. */
enum { XPROC_IDLE, XPROC_REQUEST, XPROC_REPLY };
struct xproc_lend {
  uint32_t busy;      /* borrowed */
  uint32_t state;     /* the mailbox, a shared futex */
  uint32_t abandoned; /* its borrower timed out in a system call it runs:
                         free again once the reply came */
  long nr, args[6], ret;
  int32_t new_map; /* late index of a mapping the call made, or -1 */
  int32_t conn;    /* the borrower's connection (its descriptors go there) */
  uintptr_t tcb, stack_top, unsafe_top;
};

/* A mapping the listening process made after dipc_serve() shared it (its
 * threads' and the delegated mmaps): an importer that faults in it asks
 * for its memfd (XPROC_REQUEST_MAP on the connection) and maps it. */
#define XPROC_MAX_LATE 4096
struct xproc_late {
  uintptr_t lo, hi; /* what is still mapped: munmap trims it */
  uint64_t offset;  /* of lo in the memfd */
  int32_t fd;       /* the listening process's */
};

struct xproc_shared {
  uint32_t magic;
  uint32_t nlends;
  struct xproc_lend lends[XPROC_MAX_LENDS];
  uint32_t nlate;
  struct xproc_late late[XPROC_MAX_LATE];
};

/* A mapping of the listening process. kind: XPROC_MAP_MEMFD (its memfd
 * follows on the socket, in order), _FILE (code: the importer maps path at
 * offset), _NONE (inaccessible: reserved). */
enum {
  XPROC_MAP_MEMFD,
  XPROC_MAP_FILE,
  XPROC_MAP_NONE,
  XPROC_MAP_LENT,
  XPROC_MAP_CODE
};
/* XPROC_MAP_CODE (mpk): code, its bytes in a memfd that follows (the
 * listening process's checked copy); the importer copies them into its
 * own memory, which its runtime checks as it makes it executable. */
/* XPROC_MAP_LENT: a memfd too, the unsafe stacks of the shadow threads, in
 * a lent stride of the unsafe-stack region (rt/layout.h), which the
 * importer has reserved at the same place: mapped over it. */
struct xproc_map {
  uintptr_t lo, hi;
  uint64_t offset;
  uint32_t prot, kind;
  char path[256];
};

struct xproc_export {
  char name[XPROC_NAME_MAX];
  char domain[DIPC_DOMAIN_NAME_MAX];
  uintptr_t stub; /* the entry's callee stub, in the callee's code */
  struct dipc_signature signature;
  uint32_t policy;
};

struct xproc_hello {
  uint32_t magic, version;
  pid_t pid;
  char backend[8]; /* its dipc_backend(): the importer's must match */
  uint32_t nmaps, nexports;
  uintptr_t shared; /* struct xproc_shared, in a MEMFD mapping */
  uintptr_t vdso;   /* its vDSO (AT_SYSINFO_EHDR) */
  uintptr_t late_lo; /* its slot of XPROC_LATE_WINDOW */
  struct xproc_map maps[XPROC_MAX_MAPS];
  struct xproc_export exports[XPROC_MAX_EXPORTS];
};

/* The loader's listening side (xproc_listen.c). */
int xproc_listening(void);
/* The loader's importing side (xproc_connect.c): at start, the imports of
 * DIPC_CONNECT's domains are bound to thunks that connect on first call.
 * -1 after printing why the program is refused. */
int xproc_connect_setup(void);
/* SIGSYS from a callee's code on a borrowed thread: delegated; 1 if it was
 * one, 2 if the callee's process is gone (the call is to be unwound as a
 * crash). Runs with the callee's TCB in fs: no TLS. */
int xproc_sigsys(siginfo_t *info, void *uc);
/* A crash on a borrowed thread: the caller's TCB back, the shadow thread
 * returned, before the runtime unwinds the call. No TLS. */
void xproc_crash_fixup(void);
/* The time-out timer's signal (rt/timeout.c), on any thread: on one that
 * runs another process's code, the runtime judges it with the thread's
 * own TCB, and the borrowed thread is given back if the call is unwound.
 * No TLS. */
void xproc_timeout_tick(void *uc);

/* Called by xproc_enter (xproc_enter.S). */
struct xproc_call {
  uintptr_t target, tcb, stack_top, unsafe_top;
  struct xproc_lend *lend;
  uint64_t stack_bytes; /* the entry's stack arguments, copied over */
  /* mpk: what a signal handler sent the thread to xproc_resume for:
   * XPROC_RESUME_SYSCALL (number nr) or _FAULT (at addr), and where the
   * thread goes on (the instruction after the system call, or the one
   * that faulted). */
  uint32_t resume_kind;
  long nr;
  uintptr_t addr, resume_ip;
};
enum { XPROC_RESUME_NONE, XPROC_RESUME_SYSCALL, XPROC_RESUME_FAULT };
struct xproc_call *xproc_borrow(uint32_t index);
extern const char xproc_enter_end[]; /* xproc_enter.S: xproc_enter ends */
void xproc_return(struct xproc_call *call);

/* A SIGSEGV at an address of a listening process's late mapping: mapped
 * here too; 1 if it was one. No TLS. */
int xproc_segv(siginfo_t *info, void *uc);
/* The domain standing for the process whose memory (as its greeting or
 * late slot said) holds addr, or NULL. For reports; no TLS. */
const char *xproc_owner_of(uintptr_t addr);
/* SIGSYS of the listening process's own filter (an anonymous mapping made
 * shareable); 1 if it was one. */
int xproc_listen_sigsys(siginfo_t *info, void *uc);
/* A mapping shareable with importers, made at their request or by the
 * filter: the late index, or -errno. */
long xproc_late_map(long addr, long len, long prot, long flags, long *out);
/* The one system-call instruction the listening process's filter lets make
 * anonymous mappings (xproc_enter.S). */
long xproc_site_syscall(long nr, long a, long b, long c, long d, long e,
                        long f);
extern const char xproc_site[];

int xproc_send_fd(int sock, int fd);
int xproc_recv_fd(int sock);
long xproc_raw(long nr, long a, long b, long c, long d, long e, long f);

#endif
