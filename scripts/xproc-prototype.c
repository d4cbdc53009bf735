/* xproc-prototype.c - the feasibility prototype of cross-process dIPC
 * (docs/cross-process.md; issue #16). Not the toolchain: one program that
 * checks, on this kernel, the facts the design rests on, and measures them.
 *
 * It runs itself twice. The *callee* process converts its memory to memfd
 * mappings at the same addresses, parks a shadow thread and serves its
 * mappings over a UNIX socket (SCM_RIGHTS). The *caller* process maps them
 * at the same addresses, traps the system calls made from the callee's code
 * (seccomp on the instruction pointer), delegates them to the shadow thread,
 * and calls the callee's functions itself with the shadow thread's TCB
 * (wrfsbase) on a stack of the callee's. What it prints about the outcome is
 * computed from it; it exits 1 when a check fails.
 *
 *   clang -O2 -fno-stack-protector -pthread xproc-prototype.c -o xp && ./xp
 *   ./xp --no-delegation    # the negative control: its checks fail
 *
 * Built without the stack protector: the caller's SIGSYS handler runs with
 * the callee's TCB in fs, whose canary is not the caller's. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/futex.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#define MAX_MAPS 256
#define STACK_BYTES (1 << 20)
#define CALLEE_FD 200 /* a descriptor only the callee's table has */
#define CALLER_FD 201 /* one only the caller's table has */
#define EXIT_COLLISION 3

struct mapping {
  uintptr_t lo, hi;
  int prot;
  int has_fd; /* a memfd follows on the socket */
  unsigned long offset;
  char path[200];
};

/* A delegated system call: the caller's thread posts it, the callee's
 * shadow thread runs it. state: 0 idle, 1 request, 2 reply. */
struct mailbox {
  _Atomic uint32_t state;
  long nr, args[6], ret;
};

struct hello {
  int nmaps;
  struct mapping maps[MAX_MAPS];
  uintptr_t open_file, read_file, add, pid, tcb, stack_top, mailbox;
  pid_t callee_pid;
};

static long raw(long nr, long a, long b, long c, long d, long e, long f) {
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

static int send_fd(int sock, int fd) {
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
  return raw(SYS_sendmsg, sock, (long)&mh, 0, 0, 0, 0) == 1 ? 0 : -1;
}

static int recv_fd(int sock) {
  char control[CMSG_SPACE(sizeof(int))] = {0}, byte;
  struct iovec io = {&byte, 1};
  struct msghdr mh = {.msg_iov = &io,
                      .msg_iovlen = 1,
                      .msg_control = control,
                      .msg_controllen = sizeof control};
  if (raw(SYS_recvmsg, sock, (long)&mh, 0, 0, 0, 0) != 1)
    return -1;
  struct cmsghdr *cm = CMSG_FIRSTHDR(&mh);
  if (!cm || cm->cmsg_type != SCM_RIGHTS)
    return -1;
  int fd;
  memcpy(&fd, CMSG_DATA(cm), sizeof fd);
  return fd;
}

/* ---- the callee process ------------------------------------------------ */

static struct hello hello;
static int map_fds[MAX_MAPS];
static struct mailbox *box;
static int connection = -1;

/* The callee's code the caller runs. */
long callee_open_file(long unused) {
  (void)unused;
  int fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC);
  if (fd < 0 || dup2(fd, CALLEE_FD) != CALLEE_FD)
    return -errno;
  close(fd);
  /* the caller's descriptor must not be here: -EBADF */
  return fcntl(CALLER_FD, F_GETFD) < 0 ? -errno : 0;
}

/* The pid in the status file read through the callee's descriptor, and
 * getpid(), both as seen by the callee's code; malloc'd on the way. */
long callee_read_file(long unused) {
  (void)unused;
  char *buf = malloc(4096);
  if (!buf)
    return -ENOMEM;
  ssize_t n = pread(CALLEE_FD, buf, 4095, 0);
  long pid = -1;
  if (n > 0) {
    buf[n] = 0;
    char *line = strstr(buf, "\nPid:");
    if (line)
      pid = strtol(line + 5, 0, 10);
  }
  free(buf);
  return pid == getpid() ? pid : -1;
}

long callee_add(long x) { return x + 1; }
long callee_pid(long x) { return getpid() + x; }

static void read_maps(void) {
  FILE *f = fopen("/proc/self/maps", "r");
  char line[512];
  hello.nmaps = 0;
  while (f && fgets(line, sizeof line, f) && hello.nmaps < MAX_MAPS) {
    unsigned long lo, hi, offset;
    char perm[5], path[200] = "";
    if (sscanf(line, "%lx-%lx %4s %lx %*s %*s %199s", &lo, &hi, perm,
               &offset, path) < 4)
      continue;
    /* the kernel's own ([vvar], [vdso], [vvar_vclock] on 6.18) and the
     * main stack stay private */
    if (!strncmp(path, "[v", 2) || !strcmp(path, "[stack]"))
      continue;
    struct mapping *m = &hello.maps[hello.nmaps++];
    m->lo = lo;
    m->hi = hi;
    m->prot = (perm[0] == 'r' ? PROT_READ : 0) |
              (perm[1] == 'w' ? PROT_WRITE : 0) |
              (perm[2] == 'x' ? PROT_EXEC : 0);
    m->offset = offset;
    snprintf(m->path, sizeof m->path, "%s", path);
  }
  if (f)
    fclose(f);
}

/* Everything but code becomes a memfd mapping at its address (read-only
 * file mappings too: RELRO pages hold relocated contents the file lacks).
 * Before any thread exists: a futex waiter keeps the key of the page it
 * waited on. */
static int convert_memory(void) {
  read_maps();
  for (int i = 0; i < hello.nmaps; i++) {
    struct mapping *m = &hello.maps[i];
    size_t len = m->hi - m->lo;
    map_fds[i] = -1;
    if (m->prot & PROT_EXEC)
      continue;
    int fd = (int)raw(SYS_memfd_create, (long)"dipc-xproc", MFD_CLOEXEC, 0, 0,
                      0, 0);
    if (fd < 0 || raw(SYS_ftruncate, fd, (long)len, 0, 0, 0, 0) != 0)
      return -1;
    if (m->prot && raw(SYS_pwrite64, fd, (long)m->lo, (long)len, 0, 0, 0) !=
                       (long)len)
      return -1;
    if (raw(SYS_mmap, (long)m->lo, (long)len, m->prot, MAP_SHARED | MAP_FIXED,
            fd, 0) != (long)m->lo)
      return -1;
    map_fds[i] = fd;
    m->has_fd = 1;
  }
  return 0;
}

/* A delegated call, run by the shadow thread: an anonymous private mapping
 * becomes a memfd mapping whose descriptor goes to the caller at once. */
static long run_delegated(long nr, const long *a) {
  if (nr == SYS_mmap && (a[3] & MAP_ANONYMOUS) && (a[3] & MAP_PRIVATE)) {
    int fd = (int)raw(SYS_memfd_create, (long)"dipc-xproc-anon", MFD_CLOEXEC,
                      0, 0, 0, 0);
    if (fd < 0)
      return fd;
    long ret = raw(SYS_ftruncate, fd, a[1], 0, 0, 0, 0);
    if (ret == 0) {
      long flags = (a[3] & ~(MAP_ANONYMOUS | MAP_PRIVATE)) | MAP_SHARED;
      ret = raw(SYS_mmap, a[0], a[1], a[2], flags, fd, 0);
      if ((unsigned long)ret < -4095UL && send_fd(connection, fd) != 0) {
        raw(SYS_munmap, ret, a[1], 0, 0, 0, 0);
        ret = -EIO;
      }
    }
    raw(SYS_close, fd, 0, 0, 0, 0, 0);
    return ret;
  }
  return raw(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
}

static void *shadow_thread(void *unused) {
  (void)unused;
  for (;;) {
    while (atomic_load(&box->state) != 1)
      raw(SYS_futex, (long)&box->state, FUTEX_WAIT, 0, 0, 0, 0);
    box->ret = run_delegated(box->nr, box->args);
    atomic_store(&box->state, 2);
    raw(SYS_futex, (long)&box->state, FUTEX_WAKE, 1, 0, 0, 0);
  }
  return 0;
}

static int serve(const char *path) {
  /* the mailbox and the shadow thread's stack, converted with the rest */
  box = mmap(0, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
             0);
  char *stack = mmap(0, 2 * STACK_BYTES, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (box == MAP_FAILED || stack == MAP_FAILED || convert_memory() != 0) {
    perror("callee: converting memory");
    return 1;
  }
  pthread_attr_t attr;
  pthread_t shadow;
  pthread_attr_init(&attr);
  pthread_attr_setstack(&attr, stack, STACK_BYTES);
  if (pthread_create(&shadow, &attr, shadow_thread, 0) != 0)
    return 1;
  hello.open_file = (uintptr_t)callee_open_file;
  hello.read_file = (uintptr_t)callee_read_file;
  hello.add = (uintptr_t)callee_add;
  hello.pid = (uintptr_t)callee_pid;
  hello.tcb = (uintptr_t)shadow;
  hello.stack_top = (uintptr_t)stack + 2 * STACK_BYTES;
  hello.mailbox = (uintptr_t)box;
  hello.callee_pid = getpid();

  int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  struct sockaddr_un sa = {.sun_family = AF_UNIX};
  snprintf(sa.sun_path, sizeof sa.sun_path, "%s", path);
  if (s < 0 || bind(s, (void *)&sa, sizeof sa) || listen(s, 1)) {
    perror("callee: socket");
    return 1;
  }
  connection = accept4(s, 0, 0, SOCK_CLOEXEC);
  if (connection < 0 || write(connection, &hello, sizeof hello) != sizeof hello)
    return 1;
  for (int i = 0; i < hello.nmaps; i++)
    if (hello.maps[i].has_fd && send_fd(connection, map_fds[i]) != 0)
      return 1;
  /* the caller's closing the connection ends the callee */
  char byte;
  while (read(connection, &byte, 1) > 0)
    ;
  return 0;
}

/* ---- the caller process ------------------------------------------------ */

static struct hello callee;
static struct mailbox *callee_box;
static int callee_socket;

static void apply_locally(long nr, const long *a, long ret) {
  if ((nr == SYS_mprotect || nr == SYS_munmap) && ret == 0)
    raw(nr, a[0], a[1], a[2], 0, 0, 0);
  if (nr == SYS_mmap && (a[3] & MAP_ANONYMOUS) && (a[3] & MAP_PRIVATE) &&
      (unsigned long)ret < -4095UL) {
    int fd = recv_fd(callee_socket);
    raw(SYS_mmap, ret, a[1], a[2], MAP_SHARED | MAP_FIXED, fd, 0);
    raw(SYS_close, fd, 0, 0, 0, 0, 0);
  }
}

/* SIGSYS: a system call of the callee's code. Raw system calls only: fs
 * holds the callee's TCB here. */
static void on_sigsys(int sig, siginfo_t *si, void *context) {
  (void)sig;
  greg_t *g = ((ucontext_t *)context)->uc_mcontext.gregs;
  long nr = si->si_syscall;
  long a[6] = {g[REG_RDI], g[REG_RSI], g[REG_RDX],
               g[REG_R10], g[REG_R8],  g[REG_R9]};
  if (nr == SYS_exit || nr == SYS_exit_group || nr == SYS_clone ||
      nr == SYS_clone3 || nr == SYS_fork || nr == SYS_vfork ||
      nr == SYS_execve || nr == SYS_arch_prctl) {
    g[REG_RAX] = -ENOSYS;
    return;
  }
  callee_box->nr = nr;
  memcpy(callee_box->args, a, sizeof a);
  atomic_store(&callee_box->state, 1);
  raw(SYS_futex, (long)&callee_box->state, FUTEX_WAKE, 1, 0, 0, 0);
  while (atomic_load(&callee_box->state) != 2)
    raw(SYS_futex, (long)&callee_box->state, FUTEX_WAIT, 1, 0, 0, 0);
  long ret = callee_box->ret;
  atomic_store(&callee_box->state, 0);
  apply_locally(nr, a, ret);
  g[REG_RAX] = ret;
}

static int map_callee(void) {
  for (int i = 0; i < callee.nmaps; i++) {
    struct mapping *m = &callee.maps[i];
    int fd = -1, flags = MAP_SHARED | MAP_FIXED_NOREPLACE;
    unsigned long offset = 0;
    if (m->has_fd) {
      fd = recv_fd(callee_socket);
      if (fd < 0)
        return -1;
    } else if (m->path[0] == '/') { /* code: the same file */
      fd = open(m->path, O_RDONLY | O_CLOEXEC);
      flags = MAP_PRIVATE | MAP_FIXED_NOREPLACE;
      offset = m->offset;
    } else {
      flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE;
    }
    void *p = mmap((void *)m->lo, m->hi - m->lo, m->prot, flags, fd, offset);
    if (fd >= 0)
      close(fd);
    if (p != (void *)m->lo) {
      fprintf(stderr, "caller: the callee's %#lx-%#lx (%s) collides here: %s\n",
              (unsigned long)m->lo, (unsigned long)m->hi, m->path,
              strerror(errno));
      return EXIT_COLLISION;
    }
  }
  return 0;
}

/* Every executable mapping of the callee: a system call made there traps. */
static int trap_callee_syscalls(void) {
  struct sock_filter f[6 * MAX_MAPS + 1];
  unsigned n = 0;
  const unsigned ip = offsetof(struct seccomp_data, instruction_pointer);
  for (int i = 0; i < callee.nmaps; i++) {
    struct mapping *m = &callee.maps[i];
    if (!(m->prot & PROT_EXEC))
      continue;
    if (m->lo >> 32 != (m->hi - 1) >> 32)
      return -1; /* a range across 4 GiB: not in this prototype */
    f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ip + 4);
    f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
                                          (uint32_t)(m->lo >> 32), 0, 4);
    f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ip);
    f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K,
                                          (uint32_t)m->lo, 0, 2);
    f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K,
                                          (uint32_t)m->hi, 1, 0);
    f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP);
  }
  f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
  struct sock_fprog prog = {(unsigned short)n, f};
  struct sigaction act = {.sa_sigaction = on_sigsys, .sa_flags = SA_SIGINFO};
  if (sigaction(SIGSYS, &act, 0) || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
    return -1;
  return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog);
}

/* The migrating call: the callee's TCB and stack around a call of fn. */
static long migrate(uintptr_t fn, long x) {
  uintptr_t own_fs;
  long ret;
  __asm__ volatile("rdfsbase %0" : "=r"(own_fs));
  __asm__ volatile("mov %%rsp, %%rbx\n\t"
                   "mov %[stack], %%rsp\n\t"
                   "wrfsbase %[tcb]\n\t"
                   "call *%[fn]\n\t"
                   "wrfsbase %[own_fs]\n\t"
                   "mov %%rbx, %%rsp"
                   : "=&a"(ret), "+D"(x)
                   : [stack] "r"(callee.stack_top), [tcb] "r"(callee.tcb),
                     [fn] "r"(fn), [own_fs] "r"(own_fs)
                   : "rbx", "rcx", "rdx", "rsi", "r8", "r9", "r10", "r11",
                     "memory", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5",
                     "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11",
                     "xmm12", "xmm13", "xmm14", "xmm15");
  return ret;
}

static double now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e9 + t.tv_nsec;
}

static int failures;

static void check(int ok, const char *what) {
  printf("%s: %s\n", ok ? "ok" : "FAILED", what);
  failures += !ok;
}

static int call_callee(const char *path, int delegate) {
  callee_socket = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  struct sockaddr_un sa = {.sun_family = AF_UNIX};
  snprintf(sa.sun_path, sizeof sa.sun_path, "%s", path);
  int connected = -1;
  for (int i = 0; i < 500 && connected != 0; i++) { /* up to 5 s */
    connected = connect(callee_socket, (void *)&sa, sizeof sa);
    if (connected != 0)
      usleep(10000);
  }
  if (connected != 0 || recv(callee_socket, &callee, sizeof callee,
                             MSG_WAITALL) != sizeof callee) {
    perror("caller: connecting to the callee");
    return 1;
  }
  int mapped = map_callee();
  if (mapped != 0)
    return mapped;
  callee_box = (struct mailbox *)callee.mailbox;
  int own = open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (own < 0 || dup2(own, CALLER_FD) != CALLER_FD ||
      (delegate && trap_callee_syscalls())) {
    perror("caller: setting up");
    return 1;
  }

  long opened = migrate(callee.open_file, 0);
  check(opened == -EBADF, "the callee's code does not see the caller's "
                          "descriptors");
  long pid = migrate(callee.read_file, 0);
  printf("caller pid %d, callee pid %d, getpid() in the callee's code %ld\n",
         getpid(), callee.callee_pid, pid);
  check(pid == callee.callee_pid && pid != getpid(),
        "the callee's code runs as the callee process (getpid, and its "
        "descriptor's file)");
  check(fcntl(CALLEE_FD, F_GETFD) < 0 && errno == EBADF,
        "the callee's descriptor is not in the caller's table");

  enum { CALLS = 1000000, SYSCALLS = 20000 };
  long sum = 0;
  long (*add)(long) = (long (*)(long))callee.add;
  double t0 = now_ns();
  for (int i = 0; i < CALLS; i++)
    sum += add(i);
  double t1 = now_ns();
  for (int i = 0; i < CALLS; i++)
    sum -= migrate(callee.add, i);
  double t2 = now_ns();
  for (int i = 0; i < SYSCALLS; i++)
    sum += getpid();
  double t3 = now_ns();
  for (int i = 0; i < SYSCALLS; i++)
    sum -= migrate(callee.pid, i) - callee.callee_pid - i + getpid();
  double t4 = now_ns();
  check(sum == 0, "every call returned the callee's result");
  printf("plain call of the callee's function: %.2f ns\n", (t1 - t0) / CALLS);
  printf("migrating call (TLS and stack switch): %.2f ns\n",
         (t2 - t1) / CALLS);
  printf("getpid() of the caller, under the filter: %.0f ns\n",
         (t3 - t2) / SYSCALLS);
  printf("getpid() of the callee's code, delegated: %.0f ns (less the "
         "caller's getpid)\n",
         (t4 - t3) / SYSCALLS - (t3 - t2) / SYSCALLS);
  return failures ? 1 : 0;
}

int main(int argc, char **argv) {
  if (argc == 3 && !strcmp(argv[1], "--callee"))
    return serve(argv[2]);
  /* --no-delegation: the negative control, the callee's code makes its
   * system calls in the caller's process */
  int delegate = argc == 1;
  if (argc > 2 || (argc == 2 && strcmp(argv[1], "--no-delegation"))) {
    fprintf(stderr, "usage: %s [--no-delegation]\n", argv[0]);
    return 2;
  }
  /* a collision of the two layouts (ASLR) is retried with a new callee */
  for (int attempt = 0; attempt < 3; attempt++) {
    char dir[] = "/tmp/dipc-xproc-XXXXXX", path[64];
    if (!mkdtemp(dir))
      return 1;
    snprintf(path, sizeof path, "%s/socket", dir);
    pid_t child = fork();
    if (child == 0) {
      execl("/proc/self/exe", argv[0], "--callee", path, (char *)0);
      _exit(127);
    }
    pid_t caller = fork(); /* a fresh caller per attempt: nothing mapped */
    if (caller == 0) {
      int rc = call_callee(path, delegate);
      fflush(stdout);
      _exit(rc);
    }
    int status;
    waitpid(caller, &status, 0);
    kill(child, SIGKILL);
    waitpid(child, 0, 0);
    unlink(path);
    rmdir(dir);
    int rc = WIFEXITED(status) ? WEXITSTATUS(status) : 1;
    if (rc != EXIT_COLLISION)
      return rc;
  }
  return 1;
}
