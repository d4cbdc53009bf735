/* client.c - the importing program of the cross-process tests: calls domain
 * db's entries (db.h), which another process defines. argv[1]: that
 * process's pid; argv[2]: what to try (calls, crash, threads, kill,
 * timeouts, steal, steal-descriptors, claim-mapping). What
 * it prints is computed from what the calls return. */
#include "db.h"

#include <dipc/rt.h>

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static long server;

static int calls(void) {
  printf("db_add(2, 3) = %ld\n", db_add(2, 3));
  long w = db_weigh10(1, 2, 3, 4, 5, 6, 7, 8, 9, 10);
  printf("db_weigh10(1, ..., 10) = %ld, %s\n", w,
         w == 1 * 1 + 2 * 2 + 3 * 3 + 4 * 4 + 5 * 5 + 6 * 6 + 7 * 7 + 8 * 8 +
                      9 * 9 + 10 * 10
             ? "right"
             : "wrong");
  long pid = db_pid();
  printf("getpid() in db: %s\n", pid == server    ? "the server's"
                                 : pid == getpid() ? "the client's"
                                                   : "another");
  long fd = db_open();
  printf("db_open: %s\n", fd >= 0 ? "opened" : "failed");
  long same = 0;
  for (int i = 0; i < 3; i++)
    same += db_status_pid(fd) == server;
  printf("the file read through db's descriptor: %s\n",
         same == 3 ? "the server's status" : "not the server's");
  printf("db's descriptor in the client's table: %s\n",
         fcntl((int)fd, F_GETFD) >= 0 ? "open" : "not open");
  int own = open("/dev/null", O_RDONLY);
  int high = dup2(own, 1000);
  printf("the client's descriptor in db's table: %s\n",
         high == 1000 && db_fd_open(1000) ? "open" : "not open");
  long then = db_time(), now = time(NULL);
  printf("db's clock: %s\n", then > 0 && labs(then - now) <= 5 ? "agrees"
                                                               : "disagrees");
  long wrong = 0;
  for (long i = 0; i < 100000; i++)
    wrong += db_lookup(i % 1000) != (i % 1000) * (i % 1000) + 7;
  printf("100000 lookups, %ld wrong\n", wrong);
  return 0;
}

static int crash(void) {
  long r = db_crash();
  printf("db_crash returned %ld, dipc_errno %s\n", r,
         dipc_errno == DIPC_EFAULT ? "DIPC_EFAULT" : "not DIPC_EFAULT");
  long sum = db_add(2, 3);
  printf("then db_add(2, 3) = %ld, dipc_errno %d\n", sum, dipc_errno);
  printf("and db_pid(): %s\n", db_pid() == server ? "the server's" : "not");
  return 0;
}

enum { THREADS = 8, CALLS = 100000 };

static void *worker(void *arg) {
  long t = (long)arg, wrong = 0;
  for (long i = 0; i < CALLS; i++)
    wrong += db_add(i, t) != i + t;
  return (void *)wrong;
}

static int threads(void) {
  pthread_t tid[THREADS];
  for (long t = 0; t < THREADS; t++)
    if (pthread_create(&tid[t], NULL, worker, (void *)t))
      return 1;
  long wrong = 0;
  for (int t = 0; t < THREADS; t++) {
    void *w;
    pthread_join(tid[t], &w);
    wrong += (long)w;
  }
  printf("%d threads x %d calls, %ld wrong\n", THREADS, CALLS, wrong);
  return 0;
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec / 1e9;
}

static double killed_at;

static void *killer(void *unused) {
  (void)unused;
  usleep(300000); /* the main thread is inside db_sleep by then */
  killed_at = now();
  kill((pid_t)server, SIGKILL);
  return NULL;
}

static int kill_during_call(void) {
  pthread_t t;
  if (pthread_create(&t, NULL, killer, NULL))
    return 1;
  long r = db_sleep(20000);
  double returned = now();
  pthread_join(t, NULL);
  printf("db_sleep(20 s) returned %ld with dipc_errno %s, %s a second after "
         "the kill\n",
         r, dipc_errno == DIPC_EFAULT ? "DIPC_EFAULT" : "not DIPC_EFAULT",
         returned - killed_at < 1.0 ? "within" : "more than");
  long sum = db_add(2, 3);
  printf("a later call returned %ld with dipc_errno %s\n", sum,
         dipc_errno == DIPC_EFAULT ? "DIPC_EFAULT" : "not DIPC_EFAULT");
  return 0;
}

/* A call running past the thread's time-out returns DIPC_ETIMEDOUT,
 * whether it spins in the other's code or waits in a system call the
 * other's process makes for it; later calls work. */
static int timeouts(void) {
  if (dipc_set_call_timeout(200 * 1000 * 1000) != 0)
    return 1;
  const char *what[] = {"db_spin(10 s)", "db_sleep(10 s)"};
  for (int i = 0; i < 2; i++) {
    double then = now();
    long r = i == 0 ? db_spin(10000) : db_sleep(10000);
    double took = now() - then;
    printf("%s returned %ld with dipc_errno %s, %s a second\n", what[i], r,
           dipc_errno == DIPC_ETIMEDOUT ? "DIPC_ETIMEDOUT"
                                        : "not DIPC_ETIMEDOUT",
           took < 1.0 ? "within" : "after more than");
    long sum = db_add(2, 3);
    printf("then db_add(2, 3) = %ld, dipc_errno %d\n", sum, dipc_errno);
  }
  printf("and db_pid(): %s\n", db_pid() == server ? "the server's" : "not");
  return 0;
}

/* The attacker: the client reads the server's secret itself. */
static int steal(void) {
  const char *secret = db_secret_address();
  printf("client: reading the server's secret directly...\n");
  fflush(stdout);
  printf("client: stole \"%s\"\n", secret);
  return 0;
}

/* The attacker again: the connection to the server sends the descriptors
 * of its memory; the client's own code looks for it among its descriptors,
 * asks for the first late mapping, and maps what comes. */
static int steal_descriptors(void) {
  for (int fd = 0; fd < 1024; fd++) {
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISSOCK(st.st_mode))
      continue;
    unsigned want = 0;
    if (write(fd, &want, sizeof want) != sizeof want)
      continue;
    usleep(100000);
    char control[CMSG_SPACE(sizeof(int))], byte;
    struct iovec io = {&byte, 1};
    struct msghdr mh = {.msg_iov = &io, .msg_iovlen = 1,
                        .msg_control = control,
                        .msg_controllen = sizeof control};
    if (recvmsg(fd, &mh, MSG_DONTWAIT) != 1 || !CMSG_FIRSTHDR(&mh))
      continue;
    int memfd;
    memcpy(&memfd, CMSG_DATA(CMSG_FIRSTHDR(&mh)), sizeof memfd);
    const char *p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, memfd, 0);
    printf("client: got a descriptor of the server's memory on %d: %s\n", fd,
           p == MAP_FAILED ? "not mappable" : "mapped");
    return 0;
  }
  printf("client: no descriptor of the server's memory among its own\n");
  return 0;
}

/* The attacker once more: the runtime maps the server's later mappings
 * over their reservation under the key (tag) of the domain standing for
 * it, for the loader's watcher; the client's code asks for that right, to
 * map memory of its own there as the server's. */
static int claim_mapping(void) {
  db_add(1, 2); /* connected */
  int claim = dipc_share_map(NULL, 0, 0, -1, 0, 0);
  printf("client: claiming the right to map over the server's "
         "reservation: %s\n",
         claim == -DIPC_EPERM ? "refused" : claim == 0 ? "granted" : "error");
  /* And a domain of its own declared the server's stand-in, which could
   * then run with a TCB of its making while the runtime runs for it
   * (dipc_lent_fs). */
  dom_t mine = dom_create();
  void *res = dom_mmap(mine, NULL, 4096, PROT_NONE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  int mark = dipc_ptr_err(res) ? 1 : dipc_share_map(res, 4096, 0, -3, 0, 0);
  printf("client: declaring a domain of its own the server's stand-in: %s\n",
         mark == -DIPC_EPERM ? "refused" : mark == 0 ? "accepted" : "error");
  return 0;
}

int main(int argc, char **argv) {
  if (argc != 3)
    return 2;
  server = strtol(argv[1], NULL, 10);
  if (!strcmp(argv[2], "calls"))
    return calls();
  if (!strcmp(argv[2], "crash"))
    return crash();
  if (!strcmp(argv[2], "threads"))
    return threads();
  if (!strcmp(argv[2], "steal"))
    return steal();
  if (!strcmp(argv[2], "steal-descriptors")) {
    db_add(1, 2); /* connected */
    return steal_descriptors();
  }
  if (!strcmp(argv[2], "kill"))
    return kill_during_call();
  if (!strcmp(argv[2], "claim-mapping"))
    return claim_mapping();
  if (!strcmp(argv[2], "timeouts"))
    return timeouts();
  return 2;
}
