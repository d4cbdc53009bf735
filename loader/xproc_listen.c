/* xproc_listen.c - the listening side of cross-process dIPC (dipc-run
 * --listen=PATH, docs/cross-process.md §§2, 4, 5). dipc_serve() makes the
 * process's memory shareable (memfd mappings at the same addresses), parks
 * the shadow threads importers borrow, and serves its mappings and entries
 * on the UNIX socket PATH, whose file permissions decide who may connect.
 * The shadow threads run the system calls the callee's code makes on a
 * borrowed thread, so they are the process's own. */
#define _GNU_SOURCE
#include "xproc.h"
#include "domains.h"

#include <dipc.h>
#include <dipc/abi.h>
#include <dipc/rt.h>
#include <dipc/sfi.h>

#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/auxv.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <ucontext.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <unistd.h>

#include "../rt/layout.h"

#define EXPORT __attribute__((visibility("default")))
#define MAX_CONNS 64
#define UNSAFE_BYTES (RT_UNSAFE_STRIDE / XPROC_MAX_LENDS)

static struct xproc_hello *hello;
static int map_fds[XPROC_MAX_MAPS];
static struct xproc_shared *shared;
static int conns[MAX_CONNS];
static pthread_mutex_t conns_lock = PTHREAD_MUTEX_INITIALIZER;

int xproc_listening(void) { return getenv("DIPC_LISTEN") != NULL; }

long xproc_raw(long nr, long a, long b, long c, long d, long e, long f) {
  long ret;
  register long r10 __asm__("r10") = d, r8 __asm__("r8") = e,
                r9 __asm__("r9") = f;
  __asm__ volatile("syscall"
                   : "=a"(ret)
                   : "a"(nr), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8),
                     "r"(r9)
                   : "rcx", "r11", "memory");
  return ret;
}

int xproc_send_fd(int sock, int fd) {
  char control[CMSG_SPACE(sizeof(int))] = {0}, byte = 0;
  struct iovec io = {&byte, 1};
  struct msghdr mh = {.msg_iov = &io,
                      .msg_iovlen = 1,
                      .msg_control = control,
                      .msg_controllen = sizeof control};
  struct cmsghdr *cm = CMSG_FIRSTHDR(&mh);
  cm->cmsg_level = SOL_SOCKET;
  cm->cmsg_type = SCM_RIGHTS;
  cm->cmsg_len = CMSG_LEN(sizeof(int));
  memcpy(CMSG_DATA(cm), &fd, sizeof fd);
  return xproc_raw(SYS_sendmsg, sock, (long)&mh, MSG_NOSIGNAL, 0, 0, 0) == 1
             ? 0
             : -1;
}

int xproc_recv_fd(int sock) {
  char control[CMSG_SPACE(sizeof(int))] = {0}, byte;
  struct iovec io = {&byte, 1};
  struct msghdr mh = {.msg_iov = &io,
                      .msg_iovlen = 1,
                      .msg_control = control,
                      .msg_controllen = sizeof control};
  if (xproc_raw(SYS_recvmsg, sock, (long)&mh, MSG_CMSG_CLOEXEC, 0, 0, 0) != 1)
    return -1;
  struct cmsghdr *cm = CMSG_FIRSTHDR(&mh);
  if (!cm || cm->cmsg_level != SOL_SOCKET || cm->cmsg_type != SCM_RIGHTS)
    return -1;
  int fd;
  memcpy(&fd, CMSG_DATA(cm), sizeof fd);
  return fd;
}

/* ---- one shared address space ------------------------------------------ */

/* The runtime's fixed-address regions are every process's own (the
 * importer has its runtime there): never shared. */
static int runtime_private(uintptr_t lo, uintptr_t hi) {
  uintptr_t ulo = *(const volatile uintptr_t *)DIPC_VECTOR_UNSAFE_LO,
            uhi = *(const volatile uintptr_t *)DIPC_VECTOR_UNSAFE_HI;
  return (lo < RT_WINDOW_HI && RT_WINDOW_LO < hi) ||
         (lo < DIPC_HEAP_END && DIPC_HEAP_ADDR < hi) ||
         (lo < DIPC_SFI_SHADOW_ADDR + DIPC_SFI_SHADOW_SIZE &&
          DIPC_SFI_SHADOW_ADDR < hi) ||
         (lo < RT_STACKS_AREA_HI && RT_STACKS_AREA_LO < hi) ||
         (lo < uhi && ulo < hi);
}

static int add_map(uintptr_t lo, uintptr_t hi, unsigned prot, unsigned kind,
                   uint64_t offset, const char *path, int fd) {
  if (hello->nmaps == XPROC_MAX_MAPS) {
    fprintf(stderr, "dipc: --listen: more than %d mappings to share\n",
            XPROC_MAX_MAPS);
    return -1;
  }
  struct xproc_map *m = &hello->maps[hello->nmaps];
  *m = (struct xproc_map){lo, hi, offset, prot, kind, ""};
  snprintf(m->path, sizeof m->path, "%s", path);
  map_fds[hello->nmaps++] = fd;
  return 0;
}

static int mpk(void) { return !strcmp(dipc_backend(), "mpk"); }

/* [lo, hi) with its contents becomes a memfd mapping at the same address.
 * Under mpk the runtime makes it (dipc_share_map): it reads pages of every
 * key and gives the new ones the keys of the domains owning them; it
 * refuses its own memory, which stays private here. */
static int make_shared(uintptr_t lo, uintptr_t hi, unsigned prot) {
  size_t len = hi - lo;
  int fd = memfd_create("dipc-shared", MFD_CLOEXEC);
  if (fd < 0 || ftruncate(fd, (off_t)len) != 0)
    return -1;
  if (mpk()) {
    int err = dipc_share_map((void *)lo, len, (int)prot, fd, 0, 1);
    if (err == -DIPC_EPERM) {
      close(fd);
      return 0;
    }
    if (err) {
      errno = -err;
      return -1;
    }
    return add_map(lo, hi, prot, XPROC_MAP_MEMFD, 0, "", fd);
  }
  if ((prot & PROT_READ) &&
      xproc_raw(SYS_pwrite64, fd, (long)lo, (long)len, 0, 0, 0) != (long)len)
    return -1;
  if (xproc_raw(SYS_mmap, (long)lo, (long)len, prot, MAP_SHARED | MAP_FIXED,
                fd, 0) != (long)lo)
    return -1;
  return add_map(lo, hi, prot, XPROC_MAP_MEMFD, 0, "", fd);
}

/* Where the memory this process shares later goes (shadow threads, new
 * mappings): its slot of the late window (xproc.h), filled upwards. */
static uintptr_t late_lo, late_cursor;

static void late_area_init(void) {
  uint32_t r = 0;
  if (getrandom(&r, sizeof r, 0) != sizeof r)
    r = (uint32_t)getpid();
  late_lo = XPROC_LATE_WINDOW + (r % XPROC_LATE_SLOTS) * XPROC_LATE_SLOT;
  late_cursor = late_lo;
}

/* An address for len bytes in the slot (never given twice), or 0 once
 * the slot is full. */
static uintptr_t late_place(size_t len) {
  size_t step = (len + (2ul << 20) - 1) & -(2ul << 20);
  uintptr_t at = __atomic_fetch_add(&late_cursor, step, __ATOMIC_RELAXED);
  return step <= XPROC_LATE_SLOT && at - late_lo <= XPROC_LATE_SLOT - step
             ? at
             : 0;
}

/* mmap of fd at a fresh place of the slot. */
static long map_in_area(long len, long prot, long flags, int fd) {
  long ret = -EEXIST;
  for (int tries = 0; ret == -EEXIST && tries < 8; tries++) {
    uintptr_t at = late_place((size_t)len);
    ret = at ? xproc_site_syscall(SYS_mmap, (long)at, len, prot,
                                  flags | MAP_FIXED_NOREPLACE, fd, 0)
             : -ENOMEM;
  }
  return ret;
}

/* Fresh shared memory, for the shadow threads. */
static void *shared_alloc(size_t len) {
  int fd = memfd_create("dipc-shared", MFD_CLOEXEC);
  if (fd < 0 || ftruncate(fd, (off_t)len) != 0)
    return NULL;
  long got = map_in_area((long)len, PROT_READ | PROT_WRITE, MAP_SHARED, fd);
  void *p = (unsigned long)got < -4095UL ? (void *)got : MAP_FAILED;
  if (p == MAP_FAILED ||
      add_map((uintptr_t)p, (uintptr_t)p + len, PROT_READ | PROT_WRITE,
              XPROC_MAP_MEMFD, 0, "", fd) != 0)
    return NULL;
  return p;
}

/* Code under mpk: the loader replaced every mapping by a checked copy at
 * start (scan.c), with the system libc's PKRU writes turned into traps;
 * importers get these bytes (XPROC_MAP_CODE), and their runtime checks
 * them again as it makes them executable. Not the runtime's own code,
 * whose gates write PKRU: its code runs in no other process (inaccessible
 * there), nor does the other's code need it on a borrowed thread. */
static int share_code(uintptr_t lo, uintptr_t hi, unsigned prot) {
  if ((uintptr_t)dom_create >= lo && (uintptr_t)dom_create < hi)
    return add_map(lo, hi, prot, XPROC_MAP_NONE, 0, "", -1);
  size_t len = hi - lo;
  int fd = memfd_create("dipc-code", MFD_CLOEXEC);
  if (fd < 0 || ftruncate(fd, (off_t)len) != 0)
    return -1;
  /* by the runtime: a domain's code is under its key */
  int err = dipc_share_map((void *)lo, len, 0, fd, 0, 2);
  if (err) {
    errno = -err;
    return -1;
  }
  return add_map(lo, hi, prot, XPROC_MAP_CODE, 0, "", fd);
}

/* Every mapping but code, the kernel's, the main stack and the runtime's
 * own becomes shared; code is mapped from its file by importers. Read-only
 * file mappings are copied too: RELRO pages hold relocated contents. */
static int share_memory(void) {
  static char maps[1 << 18];
  int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
  size_t n = 0;
  ssize_t r;
  while (fd >= 0 && n < sizeof maps - 1 &&
         (r = read(fd, maps + n, sizeof maps - 1 - n)) > 0)
    n += (size_t)r;
  if (fd >= 0)
    close(fd);
  if (n == 0 || n == sizeof maps - 1)
    return -1;
  maps[n] = 0;
  for (char *line = maps, *next; *line; line = next) {
    next = strchr(line, '\n');
    if (next)
      *next++ = 0;
    else
      next = line + strlen(line);
    unsigned long lo, hi, offset;
    char perm[5], path[256] = "";
    if (sscanf(line, "%lx-%lx %4s %lx %*s %*s %255s", &lo, &hi, perm, &offset,
               path) < 4)
      continue;
    unsigned prot = (perm[0] == 'r' ? PROT_READ : 0) |
                    (perm[1] == 'w' ? PROT_WRITE : 0) |
                    (perm[2] == 'x' ? PROT_EXEC : 0);
    if (!strncmp(path, "[v", 2) || !strcmp(path, "[stack]") ||
        runtime_private(lo, hi))
      continue;
    int err = !(prot & PROT_EXEC) ? make_shared(lo, hi, prot)
              : mpk()                ? share_code(lo, hi, prot)
                                     : add_map(lo, hi, prot,
                                               path[0] == '/' ? XPROC_MAP_FILE
                                                              : XPROC_MAP_NONE,
                                               offset, path, -1);
    if (err) {
      fprintf(stderr, "dipc: --listen: cannot share %#lx-%#lx %s: %s\n", lo,
              hi, path, strerror(errno));
      return -1;
    }
  }
  return 0;
}

/* ---- shadow threads ------------------------------------------------------ */

/* ---- mappings made later -------------------------------------------------- */

long xproc_late_map(long addr, long len, long prot, long flags, long *out) {
  if (flags & MAP_HUGETLB) /* no memfd behind it: this process's own */
    return *out = xproc_site_syscall(SYS_mmap, addr, len, prot, flags, -1, 0),
           -1;
  uint32_t i = __atomic_fetch_add(&shared->nlate, 1, __ATOMIC_ACQ_REL);
  if (i >= XPROC_MAX_LATE) {
    __atomic_store_n(&shared->nlate, XPROC_MAX_LATE, __ATOMIC_RELEASE);
    return *out = -ENOMEM, -1;
  }
  int fd = memfd_create("dipc-shared", MFD_CLOEXEC);
  long ret = fd < 0 ? -errno : ftruncate(fd, len) ? -errno : 0;
  long shared_flags = (flags & ~(MAP_ANONYMOUS | MAP_PRIVATE)) | MAP_SHARED;
  if (ret == 0 && !addr && !(flags & (MAP_FIXED | MAP_FIXED_NOREPLACE)))
    ret = map_in_area(len, prot, shared_flags, fd);
  else if (ret == 0)
    ret = xproc_site_syscall(SYS_mmap, addr, len, prot, shared_flags, fd, 0);
  *out = ret;
  if ((unsigned long)ret >= -4095UL) {
    if (fd >= 0)
      close(fd);
    shared->late[i] = (struct xproc_late){0, 0, 0, -1};
    return -1;
  }
  shared->late[i].fd = fd;
  shared->late[i].offset = 0;
  shared->late[i].lo = (uintptr_t)ret;
  __atomic_store_n(&shared->late[i].hi, (uintptr_t)ret + (uintptr_t)len,
                   __ATOMIC_RELEASE);
  return i;
}

/* [lo, hi) was unmapped: the late mappings it overlapped shrink (glibc
 * trims an arena's reservation at both ends), or lose their middle (the
 * part above becomes an entry of its own). */
static void late_unmapped(uintptr_t lo, uintptr_t hi) {
  lo &= -(uintptr_t)DIPC_PAGE_SIZE;
  hi = (hi + DIPC_PAGE_SIZE - 1) & -(uintptr_t)DIPC_PAGE_SIZE;
  uint32_t n = __atomic_load_n(&shared->nlate, __ATOMIC_ACQUIRE);
  for (uint32_t i = 0; i < n && i < XPROC_MAX_LATE; i++) {
    struct xproc_late *m = &shared->late[i];
    if (hi <= m->lo || lo >= m->hi)
      continue;
    if (lo > m->lo && hi < m->hi) { /* a hole */
      uint32_t j = __atomic_fetch_add(&shared->nlate, 1, __ATOMIC_ACQ_REL);
      if (j < XPROC_MAX_LATE) {
        shared->late[j] = (struct xproc_late){
            hi, 0, m->offset + (hi - m->lo), dup(m->fd)};
        __atomic_store_n(&shared->late[j].hi, m->hi, __ATOMIC_RELEASE);
      }
      __atomic_store_n(&m->hi, lo, __ATOMIC_RELEASE);
    } else if (lo <= m->lo && hi >= m->hi) {
      __atomic_store_n(&m->hi, 0, __ATOMIC_RELEASE); /* gone */
    } else if (lo <= m->lo) {
      m->offset += hi - m->lo;
      m->lo = hi;
    } else {
      __atomic_store_n(&m->hi, lo, __ATOMIC_RELEASE);
    }
  }
}

/* The break when sharing began (it never moves after). */
static long first_break;

int xproc_listen_sigsys(siginfo_t *info, void *uc) {
  /* Not a trap of this filter (its data is 0): the runtime's (mpk). */
  if (!shared || info->si_code != 1 /* SYS_SECCOMP */ || info->si_errno)
    return 0;
  greg_t *g = ((ucontext_t *)uc)->uc_mcontext.gregs;
  if (info->si_syscall == SYS_brk) {
    /* the heap cannot grow shared: the old break, which glibc's malloc
     * takes for a failure, and then maps instead */
    g[REG_RAX] = first_break;
    return 1;
  }
  if (info->si_syscall == SYS_munmap && mpk()) {
    /* Recorded, then made as the runtime's filter would have had it made:
     * by the runtime, for the thread's domain (rt/mmcall.c). */
    late_unmapped((uintptr_t)g[REG_RDI],
                  (uintptr_t)g[REG_RDI] + (uintptr_t)g[REG_RSI]);
    siginfo_t as_runtime = *info;
    as_runtime.si_errno = XPROC_RUNTIME_TRAP_DATA;
    if (!dipc_syscall_trap(&as_runtime, uc))
      g[REG_RAX] = -EPERM;
    return 1;
  }
  if (info->si_syscall == SYS_mremap) {
    g[REG_RAX] = -ENOMEM; /* a memfd mapping does not grow: callers copy */
    return 1;
  }
  if (info->si_syscall == SYS_munmap) {
    long ret = xproc_site_syscall(SYS_munmap, g[REG_RDI], g[REG_RSI], 0, 0, 0,
                                  0);
    if (ret == 0)
      late_unmapped((uintptr_t)g[REG_RDI],
                    (uintptr_t)g[REG_RDI] + (uintptr_t)g[REG_RSI]);
    g[REG_RAX] = ret;
    return 1;
  }
  if (info->si_syscall != SYS_mmap)
    return 0;
  long ret;
  xproc_late_map(g[REG_RDI], g[REG_RSI], g[REG_RDX], g[REG_R10], &ret);
  g[REG_RAX] = ret;
  return 1;
}

/* From now on, an anonymous mapping, an unmapping, a remapping or a heap
 * growth of any thread traps (SIGSYS) unless made at xproc_site: made
 * shareable, or recorded, instead. */
static int trap_late_mappings(void) {
  const unsigned ip = offsetof(struct seccomp_data, instruction_pointer),
                 nr = offsetof(struct seccomp_data, nr),
                 flags = offsetof(struct seccomp_data, args[3]);
  uintptr_t site = (uintptr_t)xproc_site,
            runtime = (uintptr_t)dipc_runtime_syscall_site();
  struct sock_filter f[] = {
      /* the runtime's own calls (made with every signal blocked) */
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ip + 4),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)(runtime >> 32), 0, 2),
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ip),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)runtime, 12, 0),
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, nr),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_brk, 5, 0),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_munmap, 4, 0),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_mremap, 3, 0),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_mmap, 0, 7),
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, flags),
      BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, MAP_ANONYMOUS, 0, 5),
      /* from xproc_site (the pointer is past the 2-byte syscall) */
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ip + 4),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)(site >> 32), 0, 2),
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ip),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)(site + 2), 1, 0),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
  };
  struct sock_fprog prog = {sizeof f / sizeof f[0], f};
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
    return -1;
  return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
                      SECCOMP_FILTER_FLAG_TSYNC, &prog);
}

static void *shadow_thread(void *arg) {
  struct xproc_lend *l = arg;
  for (;;) {
    while (__atomic_load_n(&l->state, __ATOMIC_ACQUIRE) != XPROC_REQUEST)
      xproc_raw(SYS_futex, (long)&l->state, FUTEX_WAIT, XPROC_IDLE, 0, 0, 0);
    l->new_map = -1;
    const long *a = l->args;
    if (l->nr == SYS_mmap && (a[3] & MAP_ANONYMOUS))
      l->new_map = (int32_t)xproc_late_map(a[0], a[1], a[2], a[3], &l->ret);
    else
      l->ret = xproc_raw(l->nr, a[0], a[1], a[2], a[3], a[4], a[5]);
    __atomic_store_n(&l->state, XPROC_REPLY, __ATOMIC_RELEASE);
    xproc_raw(SYS_futex, (long)&l->state, FUTEX_WAKE, 1, 0, 0, 0);
  }
  return NULL;
}

/* The shadow threads' unsafe stacks: a lent stride of the unsafe-stack
 * region, over this process's own reservation there. Compiled code checks
 * every unsafe stack pointer against the region's bounds: the callers'
 * are at the same address (rt/layout.h), so their checks accept these. */
static char *lent_unsafe_stride(void) {
  uint32_t r = 0;
  if (getrandom(&r, sizeof r, 0) != sizeof r)
    r = (uint32_t)getpid();
  uintptr_t at = *(const volatile uintptr_t *)DIPC_VECTOR_UNSAFE_HI -
                 (uintptr_t)(1 + r % RT_UNSAFE_LENT_STRIDES) * RT_UNSAFE_STRIDE;
  int fd = memfd_create("dipc-shared", MFD_CLOEXEC);
  if (fd < 0 || ftruncate(fd, RT_UNSAFE_STRIDE) != 0 ||
      dipc_lend_unsafe_stride((void *)at, fd) != 0 ||
      add_map(at, at + RT_UNSAFE_STRIDE, PROT_READ | PROT_WRITE,
              XPROC_MAP_LENT, 0, "", fd) != 0)
    return NULL;
  return (char *)at;
}

static int start_shadow_threads(void) {
  shared = shared_alloc(sizeof *shared);
  char *unsafe = lent_unsafe_stride();
  if (!shared || !unsafe)
    return -1;
  shared->magic = XPROC_MAGIC;
  for (unsigned i = 0; i < XPROC_MAX_LENDS; i++) {
    /* its own stack (TCB at the top) and the call stack */
    char *mem = shared_alloc(2 * XPROC_STACK_BYTES);
    if (!mem)
      return -1;
    struct xproc_lend *l = &shared->lends[i];
    pthread_attr_t attr;
    pthread_t t;
    pthread_attr_init(&attr);
    pthread_attr_setstack(&attr, mem, XPROC_STACK_BYTES);
    if (pthread_create(&t, &attr, shadow_thread, l) != 0)
      return -1;
    pthread_attr_destroy(&attr);
    l->tcb = (uintptr_t)t;
    l->stack_top = (uintptr_t)mem + 2 * XPROC_STACK_BYTES;
    l->unsafe_top = (uintptr_t)unsafe + (i + 1) * UNSAFE_BYTES;
    l->conn = -1;
  }
  shared->nlends = XPROC_MAX_LENDS;
  hello->shared = (uintptr_t)shared;
  return 0;
}

/* ---- the socket ---------------------------------------------------------- */

static void add_export(const char *name, const char *domain, void *stub,
                       const struct dipc_signature *signature,
                       dipc_policy_t policy, void *unused) {
  (void)unused;
  if (hello->nexports == XPROC_MAX_EXPORTS)
    return;
  struct xproc_export *e = &hello->exports[hello->nexports++];
  snprintf(e->name, sizeof e->name, "%s", name);
  snprintf(e->domain, sizeof e->domain, "%s", domain);
  e->stub = (uintptr_t)stub;
  e->signature = *signature;
  e->policy = policy;
}

/* A connection: the greeting, then the descriptors; its end (the importer
 * exited) returns the shadow threads it had borrowed. */
static void *serve_connection(void *arg) {
  int id = (int)(intptr_t)arg, c = conns[id];
  struct xproc_hello *mine = malloc(sizeof *mine);
  int ok = mine != NULL;
  if (ok) {
    *mine = *hello;
    ok = write(c, mine, sizeof *mine) == (ssize_t)sizeof *mine &&
         write(c, &id, sizeof id) == (ssize_t)sizeof id;
  }
  for (uint32_t i = 0; ok && i < mine->nmaps; i++)
    if (mine->maps[i].kind == XPROC_MAP_MEMFD ||
        mine->maps[i].kind == XPROC_MAP_LENT ||
        mine->maps[i].kind == XPROC_MAP_CODE)
      ok = xproc_send_fd(c, map_fds[i]) == 0;
  free(mine);
  /* Requests: the late mapping an importer faulted in. */
  uint32_t want;
  while (ok && read(c, &want, sizeof want) == (ssize_t)sizeof want) {
    uint32_t n = __atomic_load_n(&shared->nlate, __ATOMIC_ACQUIRE);
    int fd = want < n && want < XPROC_MAX_LATE ? shared->late[want].fd : -1;
    if (fd >= 0)
      ok = xproc_send_fd(c, fd) == 0;
    else
      ok = write(c, &want, 1) == 1; /* no descriptor: refused */
  }
  for (unsigned i = 0; i < shared->nlends; i++) {
    struct xproc_lend *l = &shared->lends[i];
    /* Not one whose thread still runs a call it posted: it finishes it
     * and stays lent (a leak, not a mix-up). */
    if (__atomic_load_n(&l->conn, __ATOMIC_ACQUIRE) == id &&
        __atomic_load_n(&l->state, __ATOMIC_ACQUIRE) != XPROC_REQUEST) {
      l->conn = -1;
      l->state = XPROC_IDLE;
      __atomic_store_n(&l->busy, 0, __ATOMIC_RELEASE);
    }
  }
  pthread_mutex_lock(&conns_lock);
  close(c);
  conns[id] = -1;
  pthread_mutex_unlock(&conns_lock);
  return NULL;
}

static void *listener(void *arg) {
  int s = (int)(intptr_t)arg;
  for (;;) {
    int c = accept4(s, NULL, NULL, SOCK_CLOEXEC);
    if (c < 0)
      continue;
    pthread_mutex_lock(&conns_lock);
    int id = 0;
    while (id < MAX_CONNS && conns[id] >= 0)
      id++;
    if (id < MAX_CONNS)
      conns[id] = c;
    pthread_mutex_unlock(&conns_lock);
    pthread_t t;
    if (id == MAX_CONNS ||
        pthread_create(&t, NULL, serve_connection, (void *)(intptr_t)id)) {
      close(c);
      continue;
    }
    pthread_detach(t);
  }
  return NULL;
}

static int open_socket(const char *path) {
  struct sockaddr_un sa = {.sun_family = AF_UNIX};
  if (strlen(path) >= sizeof sa.sun_path) {
    fprintf(stderr, "dipc: --listen=%s: the path is longer than %zu bytes\n",
            path, sizeof sa.sun_path - 1);
    return -1;
  }
  strcpy(sa.sun_path, path);
  int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (s < 0)
    return -1;
  /* A socket file nobody listens on is a dead server's: replaced. */
  struct stat st;
  if (lstat(path, &st) == 0 && S_ISSOCK(st.st_mode) &&
      connect(s, (void *)&sa, sizeof sa) != 0 && errno == ECONNREFUSED) {
    unlink(path);
  }
  close(s);
  s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (s < 0 || bind(s, (void *)&sa, sizeof sa) != 0 || listen(s, 16) != 0) {
    fprintf(stderr, "dipc: --listen=%s: %s\n", path, strerror(errno));
    if (s >= 0)
      close(s);
    return -1;
  }
  return s;
}

static int start_listening(const char *path) {
  hello = calloc(1, sizeof *hello);
  if (!hello)
    return -1;
  for (int i = 0; i < MAX_CONNS; i++)
    conns[i] = -1;
  *hello = (struct xproc_hello){.magic = XPROC_MAGIC,
                                .version = XPROC_VERSION,
                                .pid = getpid(),
                                .vdso = getauxval(AT_SYSINFO_EHDR)};
  snprintf(hello->backend, sizeof hello->backend, "%s", dipc_backend());
  domains_each_entry(add_export, NULL);
  int s = open_socket(path);
  if (s < 0)
    return -1;
  late_area_init();
  hello->late_lo = late_lo;
  /* Not dumpable: processes of the same user cannot read this one's memory
   * through /proc/PID/mem or ptrace, around the importers' isolation. */
  prctl(PR_SET_DUMPABLE, 0);
  first_break = (long)sbrk(0);
  /* The shadow threads (the default domain's) run the system calls of
   * this process's code on importers' threads, whose buffers may be in
   * any domain's pages (docs/cross-process.md §8). */
  if (mpk() && domains_open_to_default() != 0) {
    close(s);
    unlink(path);
    return -1;
  }
  /* Before any thread of ours: a futex waiter keeps its page's old key. */
  if (share_memory() != 0 || trap_late_mappings() != 0 ||
      start_shadow_threads() != 0) {
    fprintf(stderr, "dipc: --listen=%s: cannot share this process: %s\n",
            path, strerror(errno));
    close(s);
    unlink(path);
    return -1;
  }
  pthread_t t;
  if (pthread_create(&t, NULL, listener, (void *)(intptr_t)s) != 0)
    return -1;
  pthread_detach(t);
  return 0;
}

/* Serves until SIGINT, SIGTERM or SIGHUP; the threads it starts inherit
 * their blocking, so the signal comes here. */
EXPORT int dipc_serve(void) {
  const char *path = getenv("DIPC_LISTEN");
  if (!path) {
    fputs("dipc: dipc_serve() needs the program run with dipc-run "
          "--listen=PATH\n",
          stderr);
    return -DIPC_EINVAL;
  }
  static int started;
  sigset_t stop, old;
  sigemptyset(&stop);
  sigaddset(&stop, SIGINT);
  sigaddset(&stop, SIGTERM);
  sigaddset(&stop, SIGHUP);
  pthread_sigmask(SIG_BLOCK, &stop, &old);
  if (!started && start_listening(path) != 0) {
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return -DIPC_EINVAL;
  }
  started = 1;
  if (getenv("DIPC_INFO"))
    fprintf(stderr, "dipc: serving %u entries on %s (pid %d)\n",
            hello->nexports, path, (int)getpid());
  int sig;
  sigwait(&stop, &sig);
  unlink(path);
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  return 0;
}
