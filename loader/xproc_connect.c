/* xproc_connect.c - the importing side of cross-process dIPC (dipc-run
 * --connect=DOMAIN=PATH, docs/cross-process.md). At start, every entry of
 * DOMAIN that the program imports and no loaded object defines gets a
 * thunk in a page given to DOMAIN (a domain of this process standing for
 * the other), and its imports are bound to it as to any entry: calls go
 * through ordinary proxies. The first call connects to PATH, maps the
 * listening process's memory at its addresses, checks each entry's
 * signature against the other's export (P4), and traps the system calls of
 * the other's code (seccomp on the instruction pointer) to run them there. */
#define _GNU_SOURCE
#include "xproc.h"
#include "gate_call.h"
#include "domains.h"

#include <dipc.h>
#include <dipc/abi.h>
#include <dipc/rt.h>

#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/futex.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <elf.h>
#include <sys/auxv.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include "../rt/layout.h"

#define MAX_REMOTES 8
#define MAX_THUNKS 256
#define THUNK_BYTES 16
#define MAX_EXEC 64
#define SYS_SECCOMP_CODE 1 /* si_code of a seccomp SIGSYS */

void xproc_enter(void);
void xproc_dead(void);
void xproc_resume(void);
extern void *xproc_set_fs; /* xproc_enter.S */
extern uint8_t xproc_mpk;

/* A listening process this one imports from. */
struct remote {
  char domain[DIPC_DOMAIN_NAME_MAX];
  char path[108];
  pthread_mutex_t lock;
  pthread_cond_t connected_cond;
  const struct thunk *asking; /* the first call, which the watcher serves */
  dom_t owner;                /* of the domain standing for the other */
  int efd;                    /* requests to the watcher (late mappings) */
  uint32_t req_index, req_state; /* one request: 1 asked, 2 answered */
  uintptr_t req_lo, req_hi;      /* the mapping asked for, as the asker */
  uint64_t req_offset;           /* read it (mpk: the other's memory) */
  int req_result;
  int connected;
  int claimed; /* the watcher may map over the reservation (1) or not (-1) */
  int gone; /* its end of the connection closed (set by the watcher) */
  int sock, conn_id;
  pid_t pid;
  uintptr_t late_lo; /* its slot of the late window, reserved here */
  struct xproc_shared *shared;
  struct xproc_hello *hello;
  unsigned nexec;
  uintptr_t exec_lo[MAX_EXEC], exec_hi[MAX_EXEC];
};

/* An imported entry: its thunk index. */
struct thunk {
  struct remote *remote;
  const char *name;
  struct dipc_signature signature;
  uintptr_t target; /* the callee's stub, once connected */
};

static struct remote remotes[MAX_REMOTES];
static struct xproc_hello hellos[MAX_REMOTES]; /* each remote's greeting */
static unsigned num_remotes;
static struct thunk thunks[MAX_THUNKS];
static unsigned num_thunks;
/* A borrowing thread's call, by thread slot (no TLS: fs is the callee's). */
static struct xproc_call calls[RT_MAX_THREADS];
/* Serialises the delegated mmaps of this process: their descriptors
 * arrive on one socket per remote. */
static uint32_t mmap_lock;

/* ---- at start ------------------------------------------------------------ */

static int parse_connect(const char *setting) {
  for (const char *p = setting; *p;) {
    size_t len = strcspn(p, ",");
    const char *eq = memchr(p, '=', len);
    if (!eq || eq == p || eq + 1 == p + len ||
        (size_t)(eq - p) >= DIPC_DOMAIN_NAME_MAX ||
        (size_t)(p + len - eq - 1) >= sizeof remotes[0].path ||
        num_remotes == MAX_REMOTES) {
      fprintf(stderr,
              "dipc-loader: --connect expects DOMAIN=PATH (a domain name of "
              "at most %d characters, a socket path of at most %zu), at most "
              "%d of them: '%.*s'\n",
              DIPC_DOMAIN_NAME_MAX - 1, sizeof remotes[0].path - 1,
              MAX_REMOTES, (int)len, p);
      return -1;
    }
    struct remote *r = &remotes[num_remotes++];
    snprintf(r->domain, sizeof r->domain, "%.*s", (int)(eq - p), p);
    snprintf(r->path, sizeof r->path, "%.*s", (int)(p + len - eq - 1), eq + 1);
    pthread_mutex_init(&r->lock, NULL);
    pthread_cond_init(&r->connected_cond, NULL);
    r->sock = -1;
    p += len + (p[len] == ',');
  }
  return 0;
}

struct missing {
  struct remote *remote;
  unsigned first;
  int refused;
};

static void add_thunk(const char *name, const struct dipc_signature *signature,
                      void *arg) {
  struct missing *m = arg;
  if (num_thunks == MAX_THUNKS) {
    fprintf(stderr,
            "dipc-loader: --connect: cannot import entry '%s' of domain "
            "'%s' from another process: too many imported entries\n",
            name, m->remote->domain);
    m->refused = 1;
    return;
  }
  thunks[num_thunks++] =
      (struct thunk){m->remote, name, *signature, 0};
}

/* `mov r11d, index; jmp [rip + to the page's last qword]`, one per entry. */
static void *make_thunks(unsigned first, unsigned count, size_t *len) {
  *len = DIPC_PAGE_SIZE;
  uint8_t *page = mmap(NULL, *len, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (page == MAP_FAILED)
    return NULL;
  uintptr_t *enter = (uintptr_t *)(page + *len - 8);
  *enter = (uintptr_t)xproc_enter;
  /* `wrfsbase rax; ret` (xproc_set_fs), after int3 padding: made here so
   * that the loader's own code has no WRFSBASE (rt/codescan.c). */
  /* Under mpk the runtime switches fs (dipc_lent_fs), and would refuse
   * the page. */
  static const uint8_t set_fs[] = {0xf3, 0x48, 0x0f, 0xae, 0xd0, 0xc3};
  uint8_t *routine = page + *len - 32;
  memset(routine - 8, 0xcc, 8);
  if (!xproc_mpk)
    memcpy(routine, set_fs, sizeof set_fs);
  if (!xproc_set_fs && !xproc_mpk)
    xproc_set_fs = routine;
  for (unsigned k = 0; k < count; k++) {
    uint8_t *t = page + k * THUNK_BYTES;
    uint32_t index = first + k;
    t[0] = 0x41, t[1] = 0xbb; /* mov r11d, imm32 */
    memcpy(t + 2, &index, 4);
    t[6] = 0xff, t[7] = 0x25; /* jmp [rip + disp32] */
    int32_t disp = (int32_t)((uint8_t *)enter - (t + 12));
    memcpy(t + 8, &disp, 4);
    memset(t + 12, 0xcc, THUNK_BYTES - 12);
  }
  if (mprotect(page, *len, PROT_READ | PROT_EXEC) != 0)
    return NULL;
  return page;
}

static void *watch(void *arg);

/* Only the watchers, which claimed it, may map the other's late mappings
 * over their reservation (dipc_share_map): sealed before the program's
 * code runs. */
static int seal_claims(void) {
  for (unsigned i = 0; i < num_remotes; i++) {
    struct remote *r = &remotes[i];
    if (!r->efd)
      continue; /* no watcher */
    pthread_mutex_lock(&r->lock);
    while (!r->claimed)
      pthread_cond_wait(&r->connected_cond, &r->lock);
    pthread_mutex_unlock(&r->lock);
  }
  if (dipc_share_map(NULL, 0, 0, -2, 0, 0) != 0) {
    fputs("dipc-loader: --connect: cannot seal the mapping claims\n", stderr);
    return -1;
  }
  return 0;
}

int xproc_connect_setup(void) {
  const char *setting = getenv("DIPC_CONNECT");
  if (!setting)
    return 0;
  if (!*setting)
    return seal_claims();
  if (parse_connect(setting) != 0)
    return -1;
  xproc_mpk = !strcmp(dipc_backend(), "mpk");
  for (unsigned i = 0; i < num_remotes; i++) {
    struct missing m = {&remotes[i], num_thunks, 0};
    domains_each_missing_entry(remotes[i].domain, add_thunk, &m);
    unsigned count = num_thunks - m.first;
    if (m.refused)
      return -1;
    if (count == 0)
      continue; /* nothing imported from it: never connected */
    if (count > (DIPC_PAGE_SIZE - 48) / THUNK_BYTES) {
      fprintf(stderr, "dipc-loader: --connect: too many entries of '%s'\n",
              remotes[i].domain);
      return -1;
    }
    size_t len;
    uint8_t *page = make_thunks(m.first, count, &len);
    const char *names[MAX_THUNKS];
    void *stubs[MAX_THUNKS];
    struct dipc_signature signatures[MAX_THUNKS];
    for (unsigned k = 0; k < count; k++) {
      names[k] = thunks[m.first + k].name;
      stubs[k] = page + k * THUNK_BYTES;
      signatures[k] = thunks[m.first + k].signature;
    }
    if (!page || domains_define_remote(remotes[i].domain, page, len, names,
                                       stubs, signatures, count) != 0)
      return -1;
    remotes[i].owner = domains_handle_named(remotes[i].domain);
    remotes[i].efd = eventfd(0, EFD_CLOEXEC);
    pthread_t watcher;
    if (remotes[i].owner < 0 || remotes[i].efd < 0 ||
        pthread_create(&watcher, NULL, watch, &remotes[i]) != 0) {
      fputs("dipc-loader: --connect: cannot start a thread\n", stderr);
      return -1;
    }
    pthread_detach(watcher);
  }
  return seal_claims();
}

/* ---- the first call: connecting ------------------------------------------ */

static _Noreturn void refuse(const struct thunk *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Like an import no object defines: the process stops at the first call
 * (docs/abi.md §6), saying why. */
static _Noreturn void refuse(const struct thunk *t, const char *fmt, ...) {
  fflush(NULL);
  char why[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(why, sizeof why, fmt, ap);
  va_end(ap);
  fprintf(stderr,
          "dipc: cannot resolve entry '%s' of domain '%s' through %s: %s\n",
          t->name, t->remote->domain, t->remote->path, why);
  _exit(DIPC_EXIT_REFUSED);
}

static void add_exec(const struct thunk *t, const struct xproc_map *m) {
  struct remote *r = t->remote;
  if (r->nexec == MAX_EXEC)
    refuse(t, "more than %d code mappings", MAX_EXEC);
  r->exec_lo[r->nexec] = m->lo;
  r->exec_hi[r->nexec++] = m->hi;
}

/* Code of the other's made here (its copy, the vDSO stubs) is given to
 * the domain standing for it (mpk): under key 0 the default domain could
 * make it writable, change it, and have it run as that domain. */
static void give_code(const struct thunk *t, void *p, size_t len) {
  int err = dom_remap(t->remote->owner, dom_default(), p, len);
  if (err)
    refuse(t, "cannot give its code %p (%zu bytes) to its domain (error %d)",
           p, len, -err);
}

/* The other's code under mpk (XPROC_MAP_CODE): its bytes copied into
 * this process's memory at its address, which this runtime makes
 * executable after checking them (no PKRU or fs/gs-base write at any
 * offset: rt/exec.c), as for any code this process maps, then given to
 * the domain standing for it. */
static void map_code(const struct thunk *t, const struct xproc_map *m,
                     int fd) {
  size_t len = m->hi - m->lo;
  void *p = mmap((void *)m->lo, len, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
  if (p != (void *)m->lo) {
    if (p != MAP_FAILED)
      munmap(p, len);
    refuse(t,
           "its code %#lx-%#lx cannot be mapped at the same address here: "
           "%s (the two layouts collide; run either again)",
           (unsigned long)m->lo, (unsigned long)m->hi, strerror(errno));
  }
  if (pread(fd, p, len, 0) != (ssize_t)len)
    refuse(t, "cannot read its code %#lx-%#lx", (unsigned long)m->lo,
           (unsigned long)m->hi);
  if (mprotect(p, len, (int)m->prot & (PROT_READ | PROT_EXEC)) != 0)
    refuse(t, "its code %#lx-%#lx is refused here: %s", (unsigned long)m->lo,
           (unsigned long)m->hi, strerror(errno));
  give_code(t, p, len);
  add_exec(t, m);
}

static int map_one(const struct thunk *t, const struct xproc_map *m) {
  struct remote *r = t->remote;
  int fd = -1, flags = MAP_FIXED_NOREPLACE;
  uint64_t offset = 0;
  if (m->kind == XPROC_MAP_LENT) {
    /* over this process's reservation of the same lent stride */
    uintptr_t hi = *(const volatile uintptr_t *)DIPC_VECTOR_UNSAFE_HI;
    if (m->hi > hi || m->lo < hi - RT_UNSAFE_LENT_STRIDES * RT_UNSAFE_STRIDE ||
        m->hi - m->lo != RT_UNSAFE_STRIDE || m->lo % RT_UNSAFE_STRIDE)
      refuse(t, "its lent unsafe stacks are not in a lent stride");
    fd = xproc_recv_fd(r->sock);
    if (fd < 0)
      refuse(t, "the connection ended while receiving its memory");
    flags = MAP_SHARED | MAP_FIXED;
  } else if (m->kind == XPROC_MAP_MEMFD) {
    fd = xproc_recv_fd(r->sock);
    if (fd < 0)
      refuse(t, "the connection ended while receiving its memory");
    flags |= MAP_SHARED;
  } else if (m->kind == XPROC_MAP_CODE) {
    fd = xproc_recv_fd(r->sock);
    if (fd < 0)
      refuse(t, "the connection ended while receiving its memory");
    map_code(t, m, fd);
    close(fd);
    return 0;
  } else if (m->kind == XPROC_MAP_FILE) {
    fd = open(m->path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
      refuse(t, "cannot open its code %s: %s", m->path, strerror(errno));
    flags |= MAP_PRIVATE;
    offset = m->offset;
  } else {
    flags |= MAP_PRIVATE | MAP_ANONYMOUS;
  }
  /* Shared memory is read-write here whatever the other's protection:
   * that process changes it (glibc grows its arenas so) without telling. */
  int prot = m->kind == XPROC_MAP_MEMFD || m->kind == XPROC_MAP_LENT
                 ? PROT_READ | PROT_WRITE
             : m->kind == XPROC_MAP_NONE ? PROT_NONE
                                         : (int)m->prot;
  void *p;
  int err = 0;
  if (m->kind == XPROC_MAP_LENT) {
    err = -dipc_lend_unsafe_stride((void *)m->lo, fd);
    p = err ? MAP_FAILED : (void *)m->lo;
  } else {
    /* As the domain's pages: its key (mpk), its tag (sfi). A hint only
     * (dom_mmap never replaces memory): elsewhere is a collision. */
    p = dom_mmap(r->owner, (void *)m->lo, m->hi - m->lo, prot,
                 flags & ~MAP_FIXED_NOREPLACE, fd, (off_t)offset);
    if (dipc_ptr_err(p)) {
      err = -(int)(intptr_t)p;
      p = MAP_FAILED;
    } else if (p != (void *)m->lo) {
      munmap(p, m->hi - m->lo);
      err = EEXIST;
      p = MAP_FAILED;
    }
  }
  if (fd >= 0)
    close(fd);
  if (p != (void *)m->lo)
    refuse(t,
           "its memory %#lx-%#lx (%s) cannot be mapped at the same address "
           "here: %s (the two layouts collide; run either again)",
           (unsigned long)m->lo, (unsigned long)m->hi,
           m->path[0] ? m->path : "anonymous", strerror(err));
  if (m->prot & PROT_EXEC)
    add_exec(t, m);
  return 0;
}

/* The part [lo, hi) of the other's late slot that no mapping of its
 * greeting covers, from lo up: reserved (inaccessible) as the pages of the
 * domain standing for it. */
static void reserve_gap(const struct thunk *t, uintptr_t lo, uintptr_t hi) {
  if (lo >= hi)
    return;
  void *p = dom_mmap(t->remote->owner, (void *)lo, hi - lo, PROT_NONE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == (void *)lo) {
    /* The runtime learns that the owner stands for the other process (it
     * may then run with the other's TCBs: dipc_lent_fs). */
    int err = dipc_share_map(p, hi - lo, 0, -3, 0, 0);
    if (err != 0)
      refuse(t, "the runtime refused its standing-in domain (dIPC error %d)",
             -err);
    return;
  }
  if (!dipc_ptr_err(p))
    munmap(p, hi - lo);
  refuse(t,
         "its late-mapping slot %#lx-%#lx cannot be reserved here (the two "
         "layouts collide; run either again)",
         (unsigned long)lo, (unsigned long)hi);
}

/* The other's later mappings all fall in its slot (xproc.h): reserved
 * here around what its greeting mapped, so that under sfi every page of
 * it is the other's before it is mapped here (a check of an access to a
 * page not mapped yet must not find it this process's own), and so that
 * nothing of this process lands there. Each later mapping is mapped over
 * the reservation when first touched (map_late). */
static void reserve_late_slot(const struct thunk *t) {
  struct remote *r = t->remote;
  const struct xproc_hello *h = r->hello;
  uintptr_t lo = h->late_lo, hi = lo + XPROC_LATE_SLOT;
  if (lo < XPROC_LATE_WINDOW || (lo - XPROC_LATE_WINDOW) % XPROC_LATE_SLOT ||
      lo >= XPROC_LATE_WINDOW + XPROC_LATE_SLOTS * XPROC_LATE_SLOT)
    refuse(t, "a malformed greeting (late slot %#lx)", (unsigned long)lo);
  /* The greeting's mappings in the slot, in address order. */
  for (uintptr_t at = lo; at < hi;) {
    const struct xproc_map *next = NULL;
    for (uint32_t i = 0; i < h->nmaps; i++) {
      const struct xproc_map *m = &h->maps[i];
      if (m->hi > at && m->lo < hi && (!next || m->lo < next->lo))
        next = m;
    }
    if (!next) {
      reserve_gap(t, at, hi);
      break;
    }
    reserve_gap(t, at, next->lo > at ? next->lo : at);
    at = (next->hi + DIPC_PAGE_SIZE - 1) & -(uintptr_t)DIPC_PAGE_SIZE;
  }
  r->late_lo = lo;
}

/* Whether [lo, hi) lies in the other's late slot (reserved here). */
static int in_late_slot(const struct remote *r, uintptr_t lo, uintptr_t hi) {
  return r->late_lo && lo >= r->late_lo && hi > lo &&
         hi <= r->late_lo + XPROC_LATE_SLOT;
}

/* The other's libc calls its vDSO by address (clock_gettime, time, ...),
 * which is not mapped here (a vDSO cannot be): at that address, stubs make
 * the same calls as system calls, here (time is the same in both). One
 * kernel, one vDSO image: the symbol offsets are this process's. */
static void map_vdso_stubs(const struct thunk *t, uintptr_t theirs) {
  static const struct {
    const char *name;
    int nr;
  } calls[] = {{"clock_gettime", SYS_clock_gettime},
               {"gettimeofday", SYS_gettimeofday},
               {"time", SYS_time},
               {"getcpu", SYS_getcpu},
               {"clock_getres", SYS_clock_getres}};
  const uint8_t *ours = (const uint8_t *)getauxval(AT_SYSINFO_EHDR);
  if (!theirs || !ours)
    return;
  const Elf64_Ehdr *eh = (const Elf64_Ehdr *)ours;
  const Elf64_Phdr *ph = (const Elf64_Phdr *)(ours + eh->e_phoff);
  const Elf64_Shdr *sh = (const Elf64_Shdr *)(ours + eh->e_shoff);
  intptr_t bias = 0;
  size_t len = 0;
  for (int i = 0; i < eh->e_phnum; i++)
    if (ph[i].p_type == PT_LOAD) {
      bias = (intptr_t)(ph[i].p_offset - ph[i].p_vaddr);
      len = ph[i].p_offset + ph[i].p_memsz;
    }
  len = (len + DIPC_PAGE_SIZE - 1) & -(size_t)DIPC_PAGE_SIZE;
  uint8_t *stubs = mmap((void *)theirs, len, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1,
                        0);
  if (stubs != (uint8_t *)theirs)
    refuse(t,
           "its vDSO's address %#lx is taken here: %s (the two layouts "
           "collide; run either again)",
           (unsigned long)theirs, strerror(errno));
  memset(stubs, 0xcc, len); /* int3 anywhere else */
  for (int i = 0; i < eh->e_shnum; i++) {
    if (sh[i].sh_type != SHT_DYNSYM)
      continue;
    const Elf64_Sym *sym = (const Elf64_Sym *)(ours + sh[i].sh_offset);
    const char *names = (const char *)(ours + sh[sh[i].sh_link].sh_offset);
    for (size_t k = 0; k < sh[i].sh_size / sizeof *sym; k++) {
      const char *name = names + sym[k].st_name;
      if (!strncmp(name, "__vdso_", 7))
        name += 7;
      for (size_t c = 0; c < sizeof calls / sizeof calls[0]; c++) {
        size_t at = (size_t)((intptr_t)sym[k].st_value + bias);
        if (strcmp(name, calls[c].name) || at + 8 > len)
          continue;
        uint8_t stub[8] = {0xb8, 0, 0, 0, 0, 0x0f, 0x05, 0xc3};
        memcpy(stub + 1, &calls[c].nr, 4); /* mov eax, nr; syscall; ret */
        memcpy(stubs + at, stub, sizeof stub);
      }
    }
  }
  if (mprotect(stubs, len, PROT_READ | PROT_EXEC) != 0)
    refuse(t, "cannot make its vDSO stubs executable: %s", strerror(errno));
  if (xproc_mpk)
    give_code(t, stubs, len);
}

/* A system call made from the other's code traps (SIGSYS): one test per
 * code mapping on the instruction pointer, in pieces that do not cross a
 * 4 GiB boundary (the filter compares 32-bit halves; a library's code
 * lies across one now and then, as address randomisation puts it). TSYNC:
 * every thread. */
static void trap_syscalls(const struct thunk *t) {
  struct remote *r = t->remote;
  struct sock_filter f[2 * 6 * MAX_EXEC + 1];
  unsigned n = 0;
  const unsigned ip = offsetof(struct seccomp_data, instruction_pointer);
  for (unsigned i = 0; i < r->nexec; i++) {
    uintptr_t lo = r->exec_lo[i], hi = r->exec_hi[i];
    if (hi - lo > (1ull << 32))
      refuse(t, "its code mapping %#lx-%#lx is larger than 4 GiB",
             (unsigned long)lo, (unsigned long)hi);
    while (lo < hi) {
      /* [lo, end): one 4 GiB window; end's low half 0 is the window's top,
       * where no upper test is needed (nor could one be made). */
      uintptr_t top = ((lo >> 32) + 1) << 32, end = top < hi ? top : hi;
      int open_top = (uint32_t)end == 0;
      f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ip + 4);
      f[n++] = (struct sock_filter)BPF_JUMP(
          BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)(lo >> 32), 0, open_top ? 3 : 4);
      f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ip);
      f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K,
                                            (uint32_t)lo, 0, open_top ? 1 : 2);
      if (!open_top)
        f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K,
                                              (uint32_t)end, 1, 0);
      f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP);
      lo = end;
    }
  }
  f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
  struct sock_fprog prog = {(unsigned short)n, f};
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
      syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC,
              &prog) != 0)
    refuse(t, "cannot install the system-call filter: %s", strerror(errno));
}

static void connect_remote(const struct thunk *t) {
  struct remote *r = t->remote;
  struct sockaddr_un sa = {.sun_family = AF_UNIX};
  snprintf(sa.sun_path, sizeof sa.sun_path, "%s", r->path);
  r->sock = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (r->sock < 0 || connect(r->sock, (void *)&sa, sizeof sa) != 0)
    refuse(t, "no process serves it there (%s)", strerror(errno));
  /* In the loader's own data (runtime memory under sfi), not the heap: the
   * program's code must not rewrite the entries' addresses before the
   * first call of each reads them. */
  r->hello = &hellos[r - remotes];
  if (recv(r->sock, r->hello, sizeof *r->hello, MSG_WAITALL) !=
          (ssize_t)sizeof *r->hello ||
      recv(r->sock, &r->conn_id, sizeof r->conn_id, MSG_WAITALL) !=
          (ssize_t)sizeof r->conn_id)
    refuse(t, "the other process closed the connection");
  struct xproc_hello *h = r->hello;
  if (h->magic != XPROC_MAGIC || h->version != XPROC_VERSION)
    refuse(t, "the other end does not speak this version of dIPC");
  h->backend[sizeof h->backend - 1] = 0;
  if (strcmp(h->backend, dipc_backend()))
    refuse(t, "it runs under --backend=%s, this process under %s: both "
              "must use the same",
           h->backend, dipc_backend());
  if (h->nmaps > XPROC_MAX_MAPS || h->nexports > XPROC_MAX_EXPORTS)
    refuse(t, "a malformed greeting (%u mappings, %u entries)", h->nmaps,
           h->nexports);
  for (uint32_t i = 0; i < h->nmaps; i++) {
    h->maps[i].path[sizeof h->maps[i].path - 1] = 0;
    map_one(t, &h->maps[i]);
  }
  r->shared = (struct xproc_shared *)h->shared;
  r->pid = h->pid;
  if ((uintptr_t)r->shared == 0)
    refuse(t, "it sent no shared state");
  /* (Under mpk this thread, the default domain's, cannot read it.) */
  if (!xproc_mpk && (r->shared->magic != XPROC_MAGIC ||
                     r->shared->nlends > XPROC_MAX_LENDS))
    refuse(t, "its shared state is not where it said");
  reserve_late_slot(t);
  map_vdso_stubs(t, h->vdso);
  trap_syscalls(t);
}

/* The callee's stub of t's entry, with the same signature (P4). */
static uintptr_t resolve(const struct thunk *t) {
  const struct xproc_hello *h = t->remote->hello;
  for (uint32_t i = 0; i < h->nexports; i++) {
    const struct xproc_export *e = &h->exports[i];
    if (strncmp(e->name, t->name, sizeof e->name) ||
        strncmp(e->domain, t->remote->domain, sizeof e->domain))
      continue;
    if (memcmp(&e->signature, &t->signature, sizeof t->signature))
      refuse(t, "the caller's prototype does not match the entry's "
                "signature (P4)");
    return e->stub;
  }
  refuse(t, "the process there does not export it");
}

/* The other process is gone (or no longer serves): its end of the
 * connection closed, which the kernel does as it exits, zombie or not; the
 * watcher, which alone holds the connection, says so. */
/* The other's count, which it may change: bounded by the table's size. */
static unsigned lends_of(const struct remote *r) {
  unsigned n = __atomic_load_n(&r->shared->nlends, __ATOMIC_RELAXED);
  return n < XPROC_MAX_LENDS ? n : XPROC_MAX_LENDS;
}

static int dead(struct remote *r) {
  return __atomic_load_n(&r->gone, __ATOMIC_ACQUIRE);
}

/* A late mapping the other made, asked for by map_late: its descriptor
 * from the other, mapped as the domain's pages. */
static void serve_late_request(struct remote *r) {
  uint32_t i = r->req_index;
  uintptr_t lo = r->req_lo, hi = r->req_hi;
  int ok = 0;
  if (hi > lo && write(r->sock, &i, sizeof i) == (ssize_t)sizeof i) {
    int fd = xproc_recv_fd(r->sock);
    void *p = MAP_FAILED;
    if (fd >= 0 && in_late_slot(r, lo, hi) && xproc_mpk) {
      /* over the reservation, with the domain's key from the start */
      p = dipc_share_map((void *)lo, hi - lo, PROT_READ | PROT_WRITE, fd,
                         (off_t)r->req_offset, 0) == 0
              ? (void *)lo
              : MAP_FAILED;
    } else if (fd >= 0 && in_late_slot(r, lo, hi)) /* over the reservation */
      p = (void *)xproc_raw(SYS_mmap, (long)lo, (long)(hi - lo),
                            PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED,
                            fd, (long)r->req_offset);
    else if (fd >= 0) /* a MAP_FIXED mapping of the other's, elsewhere */
      p = dom_mmap(r->owner, (void *)lo, hi - lo, PROT_READ | PROT_WRITE,
                   MAP_SHARED, fd, (off_t)r->req_offset);
    if (fd >= 0)
      close(fd);
    ok = p == (void *)lo;
    if (!ok && p != MAP_FAILED && !dipc_ptr_err(p))
      munmap(p, hi - lo);
  }
  r->req_result = ok ? 0 : -1;
  __atomic_store_n(&r->req_state, 2, __ATOMIC_RELEASE);
  xproc_raw(SYS_futex, (long)&r->req_state, FUTEX_WAKE, 1, 0, 0, 0);
}

/* Started at start, as the default domain, whose handles map the other's
 * memory as the standing-in domain's (a call runs as that domain). It
 * connects when the first call asks, then serves the requests for late
 * mappings (signal handlers post them) and marks the other gone when the
 * connection closes. */
static void *watch(void *arg) {
  struct remote *r = arg;
  /* The connection and the descriptors that come on it live in this
   * thread's own descriptor table: the program's code, which may be the
   * attacker, can neither ask the other process for its memory on it nor
   * map what it sent. */
  if (unshare(CLONE_FILES) != 0) {
    fprintf(stderr, "dipc-loader: --connect: unshare(CLONE_FILES): %s\n",
            strerror(errno));
    _exit(DIPC_EXIT_REFUSED);
  }
  int claim = dipc_share_map(NULL, 0, 0, -1, 0, 0);
  pthread_mutex_lock(&r->lock);
  r->claimed = claim == 0 ? 1 : -1;
  pthread_cond_broadcast(&r->connected_cond);
  while (!r->asking)
    pthread_cond_wait(&r->connected_cond, &r->lock);
  pthread_mutex_unlock(&r->lock);
  connect_remote(r->asking); /* stops the process if it cannot */
  pthread_mutex_lock(&r->lock);
  __atomic_store_n(&r->connected, 1, __ATOMIC_RELEASE);
  pthread_cond_broadcast(&r->connected_cond);
  pthread_mutex_unlock(&r->lock);
  struct pollfd p[2] = {{r->sock, POLLRDHUP, 0}, {r->efd, POLLIN, 0}};
  for (;;) {
    if (poll(p, 2, -1) < 1)
      continue;
    if (p[1].revents & POLLIN) {
      uint64_t n;
      if (read(r->efd, &n, sizeof n) == (ssize_t)sizeof n &&
          __atomic_load_n(&r->req_state, __ATOMIC_ACQUIRE) == 1)
        serve_late_request(r);
    }
    if (p[0].fd >= 0 && (p[0].revents & (POLLRDHUP | POLLHUP | POLLERR))) {
      __atomic_store_n(&r->gone, 1, __ATOMIC_RELEASE);
      p[0].fd = -1; /* requests still get their answer: none */
    }
  }
  return NULL;
}

static unsigned thread_slot(void) {
  uintptr_t gs;
  __asm__ volatile("rdgsbase %0" : "=r"(gs));
  uintptr_t lo = *(const volatile uintptr_t *)DIPC_VECTOR_THREADS_LO;
  return (unsigned)((gs - lo) / RT_THREAD_STRIDE);
}

struct xproc_call *xproc_borrow(uint32_t index) {
  struct thunk *t = &thunks[index];
  struct remote *r = t->remote;
  /* A call of this thread that crashed under mpk, whose shadow thread the
   * signal handler could not return (the other's memory) */
  xproc_return(&calls[thread_slot()]);
  if (!__atomic_load_n(&t->target, __ATOMIC_ACQUIRE)) {
    pthread_mutex_lock(&r->lock);
    if (!r->asking) {
      r->asking = t;
      pthread_cond_broadcast(&r->connected_cond);
    }
    while (!r->connected)
      pthread_cond_wait(&r->connected_cond, &r->lock);
    if (!t->target)
      __atomic_store_n(&t->target, resolve(t), __ATOMIC_RELEASE);
    pthread_mutex_unlock(&r->lock);
  }
  struct xproc_lend *l = NULL;
  if (dead(r)) {
    /* Its memory is still mapped here: xproc_dead faults on its stack at
     * once, and the call returns DIPC_EFAULT like any crashed call. */
    l = &r->shared->lends[0];
    struct xproc_call *c = &calls[thread_slot()];
    *c = (struct xproc_call){(uintptr_t)xproc_dead, l->tcb, l->stack_top,
                             l->unsafe_top, NULL, 0, 0, 0, 0, 0};
    return c;
  }
  for (unsigned spin = 0; !l; spin++) {
    for (unsigned i = 0; i < lends_of(r) && !l; i++) {
      struct xproc_lend *m = &r->shared->lends[i];
      uint32_t free_ = 0, yes = 1;
      if (__atomic_compare_exchange_n(&m->busy, &free_, 1, 0,
                                      __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
        l = m;
      else if (__atomic_load_n(&m->state, __ATOMIC_ACQUIRE) == XPROC_REPLY &&
               __atomic_compare_exchange_n(&m->abandoned, &yes, 0, 0,
                                           __ATOMIC_ACQ_REL,
                                           __ATOMIC_RELAXED)) {
        __atomic_store_n(&m->state, XPROC_IDLE, __ATOMIC_RELEASE);
        l = m; /* its timed-out borrower's reply came: ours now */
      }
    }
    if (!l && dead(r))
      return xproc_borrow(index);
    if (!l)
      sched_yield(); /* every shadow thread is lent: wait for one */
  }
  l->conn = r->conn_id;
  struct xproc_call *c = &calls[thread_slot()];
  *c = (struct xproc_call){t->target,
                           l->tcb,
                           l->stack_top,
                           l->unsafe_top,
                           l,
                           t->signature.stack_bytes,
                           0,
                           0,
                           0,
                           0};
  return c;
}

void xproc_return(struct xproc_call *call) {
  struct xproc_lend *l = call->lend;
  call->lend = NULL;
  if (l)
    __atomic_store_n(&l->busy, 0, __ATOMIC_RELEASE);
}

const char *xproc_owner_of(uintptr_t addr) {
  for (unsigned i = 0; i < num_remotes; i++) {
    const struct remote *r = &remotes[i];
    if (!__atomic_load_n(&r->connected, __ATOMIC_ACQUIRE))
      continue;
    if (in_late_slot(r, addr, addr + 1))
      return r->domain;
    for (uint32_t j = 0; j < r->hello->nmaps; j++)
      if (addr >= r->hello->maps[j].lo && addr < r->hello->maps[j].hi)
        return r->domain;
  }
  return NULL;
}

/* ---- on a borrowed thread: no TLS ---------------------------------------- */

static struct remote *remote_of_code(uintptr_t pc) {
  for (unsigned i = 0; i < num_remotes; i++)
    for (unsigned j = 0; j < remotes[i].nexec; j++)
      if (pc >= remotes[i].exec_lo[j] && pc < remotes[i].exec_hi[j])
        return &remotes[i];
  return NULL;
}

static void lock_mmaps(void) {
  uint32_t unlocked = 0;
  while (!__atomic_compare_exchange_n(&mmap_lock, &unlocked, 1, 0,
                                      __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
    unlocked = 0;
    xproc_raw(SYS_sched_yield, 0, 0, 0, 0, 0, 0);
  }
}

/* Waits for the shadow thread's reply; XPROC_DEAD once its process is
 * gone, XPROC_TIMEDOUT once the thread's call ran past its time-out
 * (checked every 50 ms). */
#define XPROC_DEAD (-4096L)
#define XPROC_TIMEDOUT (-4097L)
static long wait_reply(struct remote *r, struct xproc_lend *l) {
  struct timespec tick = {0, 50000000};
  while (__atomic_load_n(&l->state, __ATOMIC_ACQUIRE) != XPROC_REPLY) {
    xproc_raw(SYS_futex, (long)&l->state, FUTEX_WAIT, XPROC_REQUEST,
              (long)&tick, 0, 0);
    if (__atomic_load_n(&l->state, __ATOMIC_ACQUIRE) == XPROC_REPLY)
      break;
    if (dead(r))
      return XPROC_DEAD;
    /* (Not under mpk: the thread's state is the runtime key's.) */
    if (!xproc_mpk && __dipc_timeout_due())
      return XPROC_TIMEDOUT;
  }
  long ret = l->ret;
  __atomic_store_n(&l->state, XPROC_IDLE, __ATOMIC_RELEASE);
  return ret;
}

/* Maps the other's late mapping i here: the watcher asks for its
 * descriptor and maps it (one request at a time; signal handlers ask, so
 * only raw system calls here). 0, or -1. */
static int map_late(struct remote *r, uint32_t i) {
  if (i >= XPROC_MAX_LATE ||
      !__atomic_load_n(&r->shared->late[i].hi, __ATOMIC_ACQUIRE))
    return -1;
  lock_mmaps();
  const struct xproc_late *m = &r->shared->late[i];
  r->req_lo = m->lo;
  r->req_offset = m->offset;
  r->req_hi = __atomic_load_n(&m->hi, __ATOMIC_ACQUIRE);
  r->req_index = i;
  __atomic_store_n(&r->req_state, 1, __ATOMIC_RELEASE);
  uint64_t one = 1;
  xproc_raw(SYS_write, r->efd, (long)&one, sizeof one, 0, 0, 0);
  struct timespec quarter = {0, 250000000};
  while (__atomic_load_n(&r->req_state, __ATOMIC_ACQUIRE) != 2 &&
         !dead(r))
    xproc_raw(SYS_futex, (long)&r->req_state, FUTEX_WAIT, 1, (long)&quarter,
              0, 0);
  int ok = __atomic_load_n(&r->req_state, __ATOMIC_ACQUIRE) == 2 &&
           r->req_result == 0;
  __atomic_store_n(&r->req_state, 0, __ATOMIC_RELEASE);
  __atomic_store_n(&mmap_lock, 0, __ATOMIC_RELEASE);
  return ok ? 0 : -1;
}

/* The late mapping of some remote holding addr, mapped here now: 1, or 0
 * if there is none. Reads the other's shared state. */
static int late_fault(uintptr_t addr) {
  for (unsigned i = 0; i < num_remotes; i++) {
    struct remote *r = &remotes[i];
    if (!__atomic_load_n(&r->connected, __ATOMIC_ACQUIRE))
      continue;
    uint32_t n = __atomic_load_n(&r->shared->nlate, __ATOMIC_ACQUIRE);
    for (uint32_t j = 0; j < n && j < XPROC_MAX_LATE; j++) {
      const struct xproc_late *m = &r->shared->late[j];
      if (addr >= m->lo && addr < __atomic_load_n(&m->hi, __ATOMIC_ACQUIRE))
        return map_late(r, j) == 0;
    }
  }
  return 0;
}

/* The slot of this thread (gs), without the runtime's vector, which a
 * signal handler under mpk cannot read. */
static struct xproc_call *handler_call(void) {
  uintptr_t gs;
  __asm__ volatile("rdgsbase %0" : "=r"(gs));
  uintptr_t i = (gs - RT_THREADS_ADDR) / RT_THREAD_STRIDE;
  return gs >= RT_THREADS_ADDR && i < RT_MAX_THREADS ? &calls[i] : NULL;
}

/* Under mpk a handler runs with key 0 only: the thread goes on in
 * xproc_resume, in the interrupted context, which reads the other's
 * shared state as the domain standing for it. */
static int resume_later(void *uc, uint32_t kind, long nr, uintptr_t addr) {
  struct xproc_call *c = handler_call();
  if (!c)
    return 0;
  greg_t *g = ((ucontext_t *)uc)->uc_mcontext.gregs;
  c->nr = nr;
  c->addr = addr;
  c->resume_ip = (uintptr_t)g[REG_RIP];
  c->resume_kind = kind;
  g[REG_RIP] = (greg_t)xproc_resume;
  return 1;
}

int xproc_segv(siginfo_t *info, void *uc) {
  uintptr_t addr = (uintptr_t)info->si_addr;
  if (!xproc_mpk)
    return late_fault(addr);
  /* Under mpk: a page of the other's slot not mapped yet is inaccessible
   * to the domain standing for it (SEGV_ACCERR); a protection-key fault
   * is someone else's touching the other's memory, never this. */
  if (info->si_code == SEGV_PKUERR)
    return 0;
  for (unsigned i = 0; i < num_remotes; i++)
    if (__atomic_load_n(&remotes[i].connected, __ATOMIC_ACQUIRE) &&
        in_late_slot(&remotes[i], addr, addr + 1))
      return resume_later(uc, XPROC_RESUME_FAULT, 0, addr);
  return 0;
}

/* System call nr(a) of the other's code on a borrowed thread (fs: the
 * borrowed TCB), run by its shadow thread: its result, or XPROC_DEAD. */
static long delegate(struct remote *r, long nr, const long a[6]) {
  uintptr_t fs;
  __asm__ volatile("rdfsbase %0" : "=r"(fs));
  struct xproc_lend *l = NULL;
  for (unsigned i = 0; i < lends_of(r) && !l; i++)
    if (r->shared->lends[i].tcb == fs)
      l = &r->shared->lends[i];
  /* Not the callee's to do in this thread: end it, fork it, or move its
   * TCB (docs/cross-process.md §5). */
  if (!l || nr == SYS_exit || nr == SYS_exit_group || nr == SYS_clone ||
      nr == SYS_clone3 || nr == SYS_fork || nr == SYS_vfork ||
      nr == SYS_execve || nr == SYS_execveat || nr == SYS_arch_prctl)
    return -ENOSYS;
  int is_mmap = nr == SYS_mmap && (a[3] & MAP_ANONYMOUS);
  l->nr = nr;
  for (int i = 0; i < 6; i++)
    l->args[i] = a[i];
  __atomic_store_n(&l->state, XPROC_REQUEST, __ATOMIC_RELEASE);
  xproc_raw(SYS_futex, (long)&l->state, FUTEX_WAKE, 1, 0, 0, 0);
  long ret = wait_reply(r, l);
  if (ret == XPROC_DEAD)
    return ret;
  if (ret == XPROC_TIMEDOUT) {
    /* The shadow thread still runs the system call: it stays lent until
     * its reply comes (xproc_borrow takes it back then). */
    __atomic_store_n(&l->abandoned, 1, __ATOMIC_RELEASE);
    calls[thread_slot()].lend = NULL;
    return ret;
  }
  /* What changed the other's memory map changes this one's; its slot
   * stays reserved. (Not under mpk yet: the runtime makes these calls
   * only for a domain on its own stack; the pages stay mapped here.) */
  if (!xproc_mpk && nr == SYS_munmap && ret == 0 &&
      in_late_slot(r, a[0], a[0] + a[1]))
    xproc_raw(SYS_mmap, a[0], a[1], PROT_NONE,
              MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
  else if (!xproc_mpk && nr == SYS_munmap && ret == 0)
    xproc_raw(nr, a[0], a[1], 0, 0, 0, 0);
  if (is_mmap && (unsigned long)ret < -4095UL && l->new_map >= 0 &&
      map_late(r, (uint32_t)l->new_map) != 0) {
    l->nr = SYS_munmap; /* cannot be shared here: undone there */
    l->args[0] = ret, l->args[1] = a[1];
    __atomic_store_n(&l->state, XPROC_REQUEST, __ATOMIC_RELEASE);
    xproc_raw(SYS_futex, (long)&l->state, FUTEX_WAKE, 1, 0, 0, 0);
    wait_reply(r, l);
    ret = -ENOMEM;
  }
  return ret;
}

int xproc_sigsys(siginfo_t *info, void *uc) {
  if (info->si_code != SYS_SECCOMP_CODE)
    return 0;
  struct remote *r = remote_of_code((uintptr_t)info->si_call_addr);
  if (!r)
    return 0;
  if (xproc_mpk)
    return resume_later(uc, XPROC_RESUME_SYSCALL, info->si_syscall, 0);
  greg_t *g = ((ucontext_t *)uc)->uc_mcontext.gregs;
  long a[6] = {g[REG_RDI], g[REG_RSI], g[REG_RDX],
               g[REG_R10], g[REG_R8],  g[REG_R9]};
  long ret = delegate(r, info->si_syscall, a);
  if (ret == XPROC_DEAD)
    return 2; /* the call is unwound like a crash of the callee */
  if (ret == XPROC_TIMEDOUT)
    return 3;
  g[REG_RAX] = ret;
  return 1;
}

/* The registers xproc_resume keeps (xproc_enter.S). */
struct xproc_regs {
  long rax, rcx, rdx, rsi, rdi, r8, r9, r10, r11;
};

/* In xproc_resume: what a handler left to do, done; where the thread goes
 * on, or 0 to crash (the runtime then unwinds the call: a call whose
 * time-out passed during a delegated system call returns DIPC_EFAULT under
 * mpk, not DIPC_ETIMEDOUT). */
uintptr_t xproc_resume_work(struct xproc_regs *x);
uintptr_t xproc_resume_work(struct xproc_regs *x) {
  struct xproc_call *c = &calls[thread_slot()];
  uint32_t kind = c->resume_kind;
  uintptr_t ip = c->resume_ip;
  c->resume_kind = XPROC_RESUME_NONE;
  if (kind == XPROC_RESUME_FAULT)
    return late_fault(c->addr) ? ip : 0;
  if (kind != XPROC_RESUME_SYSCALL)
    return 0;
  struct remote *r = remote_of_code(ip);
  if (!r)
    return 0;
  long a[6] = {x->rdi, x->rsi, x->rdx, x->r10, x->r8, x->r9};
  long ret = delegate(r, c->nr, a);
  if (ret == XPROC_DEAD || ret == XPROC_TIMEDOUT)
    return 0;
  x->rax = ret;
  return ip;
}

/* The cross-process call of a thread that runs the other's code now (its
 * fs base is the borrowed TCB), with the thread's state (its gs base) and
 * own TCB; NULL otherwise. */
static struct xproc_call *migrant(uintptr_t *gs, uintptr_t *own) {
  if (!num_remotes)
    return NULL;
  uintptr_t fs;
  __asm__ volatile("rdfsbase %0" : "=r"(fs));
  __asm__ volatile("rdgsbase %0" : "=r"(*gs));
  uintptr_t lo = *(const volatile uintptr_t *)DIPC_VECTOR_THREADS_LO,
            hi = *(const volatile uintptr_t *)DIPC_VECTOR_THREADS_HI;
  if (*gs < lo || *gs >= hi)
    return NULL;
  /* The runtime's own record of the thread's TCB, not the public copy. */
  *own = *(const volatile uintptr_t *)(*gs + ST_FSBASE);
  struct xproc_call *c = &calls[(*gs - lo) / RT_THREAD_STRIDE];
  return fs != *own && c->tcb == fs ? c : NULL;
}

static void set_fs(uintptr_t fs) {
  __asm__ volatile("call *%1" ::"a"(fs), "r"(xproc_set_fs) : "memory");
}

/* The thread is back on its own TCB, out of its call. */
static void leave_call(struct xproc_call *c, uintptr_t gs, uintptr_t own) {
  set_fs(own);
  *(volatile uintptr_t *)(gs + ST_LENT_FS) = 0;
  xproc_return(c);
}

void xproc_crash_fixup(void) {
  /* Under mpk the runtime gives the thread its TCB back as it unwinds the
   * call (dipc_lent_fs), and the next call returns the shadow thread
   * (xproc_borrow): a handler reaches neither. */
  if (xproc_mpk)
    return;
  uintptr_t gs, own;
  struct xproc_call *c = migrant(&gs, &own);
  if (c)
    leave_call(c, gs, own);
}

void xproc_timeout_tick(void *uc) {
  if (xproc_mpk) {
    /* A handler cannot read the thread's state here: a thread that runs
     * the other's code (calls[], the loader's) is not cut (time-outs
     * across processes are not enforced under mpk yet). */
    struct xproc_call *c = handler_call();
    uintptr_t fs;
    __asm__ volatile("rdfsbase %0" : "=r"(fs));
    uintptr_t pc = (uintptr_t)((ucontext_t *)uc)->uc_mcontext.gregs[REG_RIP];
    if ((!c || !c->lend || c->tcb != fs) &&
        (pc < (uintptr_t)xproc_enter || pc >= (uintptr_t)xproc_enter_end))
      GATE_CALL(__dipc_timeout_tick(uc));
    return;
  }
  uintptr_t gs, own;
  struct xproc_call *c = migrant(&gs, &own);
  if (!c) {
    /* Between borrowing and the switch, or back but not yet given back:
     * the next tick unwinds the call, with nothing borrowed. */
    uintptr_t pc = (uintptr_t)((ucontext_t *)uc)->uc_mcontext.gregs[REG_RIP];
    if (pc < (uintptr_t)xproc_enter || pc >= (uintptr_t)xproc_enter_end)
      GATE_CALL(__dipc_timeout_tick(uc));
    return;
  }
  set_fs(own); /* the runtime's gates know the thread by its own TCB */
  if (GATE_CALL(__dipc_timeout_tick(uc)))
    leave_call(c, gs, own); /* unwound: the caller resumes */
  else
    set_fs(c->tcb);
}
