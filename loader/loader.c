/* loader.c - libdipc-loader.so, preloaded by dipc-run: at start, before any
 * program code runs, it checks the code in the process (mpk backend; later
 * code is the runtime's to check, rt/exec.c); at start and on every dlopen
 * it verifies the records of each new object and sets up domains, entries,
 * grants and lazy imports; it installs the crash handler that turns callee
 * faults into errors for the caller, and sets up every thread. */
#define _GNU_SOURCE
#include "domains.h"
#include "heap.h"
#include "landlock.h"
#include "metadata.h"
#include "scan.h"
#include "signals.h"
#include "threads.h"

#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ucontext.h>
#include <unistd.h>

/* Tells libdipc that -fdipc code runs under the loader. */
__attribute__((visibility("default"))) const int __dipc_loader_version = 1;

enum { MAX_OBJECTS = 512 };

static struct {
  uintptr_t base;
  char name[256];
} seen[MAX_OBJECTS];
static unsigned num_seen;
static pthread_mutex_t load_lock = PTHREAD_MUTEX_INITIALIZER;

static int already_seen(const struct dl_phdr_info *info) {
  for (unsigned i = 0; i < num_seen; ++i)
    if (seen[i].base == info->dlpi_addr &&
        strncmp(seen[i].name, info->dlpi_name, sizeof seen[i].name) == 0)
      return 1;
  return 0;
}

struct pending {
  struct object_metadata objects[MAX_OBJECTS];
  unsigned count;
  int failed;
};

static int collect(struct dl_phdr_info *info, size_t size, void *data) {
  (void)size;
  struct pending *p = data;
  if (already_seen(info) || num_seen == MAX_OBJECTS)
    return 0;
  seen[num_seen].base = info->dlpi_addr;
  snprintf(seen[num_seen].name, sizeof seen[0].name, "%s", info->dlpi_name);
  ++num_seen;
  /* The vDSO has no file to read section headers from. */
  if (strncmp(info->dlpi_name, "linux-vdso", 10) == 0)
    return 0;
  char err[256];
  int found = metadata_read(info, &p->objects[p->count], err, sizeof err);
  if (found < 0) {
    fprintf(stderr, "dipc-loader: refusing %s: malformed dIPC metadata: %s\n",
            p->objects[p->count].path, err);
    p->failed = 1;
    return 1;
  }
  if (found)
    ++p->count;
  return 0;
}

/* Sets up every object loaded since the last call. */
static int load_new_objects(void) {
  static struct pending p; /* large: keep it off the stack */
  pthread_mutex_lock(&load_lock);
  p.count = 0;
  p.failed = 0;
  dl_iterate_phdr(collect, &p);
  int status = p.failed ? -1 : 0;
  for (unsigned i = 0; status == 0 && i < p.count; ++i)
    status = domains_apply(&p.objects[i]);
  pthread_mutex_unlock(&load_lock);
  return status;
}

/* A first call through an import's slot faults on the slot's guard and
 * resumes in the runtime's resolver; any other fault may be a callee's. */
static int recover(void *ucontext) {
  return dipc_import_fault(ucontext) || __dipc_recover_from_fault(ucontext);
}

/* A protection-key fault that ends the program: say who touched what. */
static void report(int sig, const siginfo_t *info) {
  if (sig != SIGSEGV || info->si_code != SEGV_PKUERR)
    return;
  const char *owner = domains_owner_of((uintptr_t)info->si_addr);
  char line[256];
  int n = snprintf(line, sizeof line,
                   "dipc: protection-key fault: access to %p (key %u, "
                   "domain %s) denied to the running domain\n",
                   info->si_addr, info->si_pkey, owner ? owner : "default");
  if (n > 0)
    (void)!write(STDERR_FILENO, line,
                 (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
}

/* A thread started by the pthread_create wrapper: its state goes in the
 * slot set aside for it (first, so the reservation is used either way). */
static int setup_thread(void) {
  dipc_thread_init_reserved();
  return signals_setup_thread() != 0 ? -1 : 0;
}

/* Called by libdipc while it initialises, under mpk, before any program
 * code runs (and before this object's constructors): the code loaded so
 * far is checked (scan.c), SIGSYS goes to the runtime, /proc/PID/mem is
 * closed; then libdipc installs its seccomp filter. Returns 0, or -1 after
 * printing why the program is refused. */
__attribute__((visibility("default"))) int __dipc_loader_seal(void) {
  if (scan_start((uintptr_t)dom_create) != 0 ||
      signals_install(recover, report) != 0)
    return -1;
  if (landlock_hide_own_memory() != 0) {
    /* Not dumpable: /proc/PID/mem belongs to root, so at least a process
     * that does not run as root cannot open its own. */
    fputs("dipc: warning: no Landlock in this kernel: /proc/self/mem "
          "stays open to a process running as root\n",
          stderr);
    prctl(PR_SET_DUMPABLE, 0);
  }
  return 0;
}

__attribute__((constructor)) static void loader_init(void) {
  if (load_new_objects() != 0 || domains_check_settings() != 0)
    _exit(DIPC_EXIT_REFUSED);
  threads_set_setup(setup_thread);
  if (signals_install(recover, report) != 0)
    _exit(DIPC_EXIT_REFUSED);
  heap_start();
  if (getenv("DIPC_INFO"))
    domains_print(stderr);
}

typedef void *(*dlopen_fn)(const char *, int);

/* Objects opened later get the same treatment. One that is refused may
 * already have changed the program's domains, so the process stops. */
__attribute__((visibility("default"))) void *dlopen(const char *file,
                                                    int mode) {
  static dlopen_fn real;
  if (!real)
    real = (dlopen_fn)dlsym(RTLD_NEXT, "dlopen");
  unsigned long refusals = dipc_exec_refusals();
  void *handle = real(file, mode);
  /* Its code was refused when it was mapped, before any of it ran. */
  if (!handle && dipc_exec_refusals() != refusals) {
    fprintf(stderr, "dipc-loader: dlopen(\"%s\") refused\n", file);
    _exit(DIPC_EXIT_REFUSED);
  }
  if (handle && load_new_objects() != 0) {
    fprintf(stderr, "dipc-loader: dlopen(\"%s\") refused\n", file);
    _exit(DIPC_EXIT_REFUSED);
  }
  return handle;
}
