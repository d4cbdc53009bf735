/* loader.c - libdipc-loader.so, preloaded by dipc-run: at start and on every
 * dlopen it verifies the records of each new object, refuses code that could
 * write PKRU (mpk backend), and sets up domains, entries, grants and lazy
 * imports; it installs the crash handler that turns callee faults into
 * errors for the caller, and sets up every thread. */
#define _GNU_SOURCE
#include "domains.h"
#include "mappings.h"
#include "metadata.h"
#include "scan.h"
#include "signals.h"
#include "threads.h"

#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
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
static char runtime_path[4096];
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
  /* Checked before any page is tagged: afterwards the loader itself may no
   * longer read a domain's code. */
  if (status == 0 && strcmp(dipc_backend(), "mpk") == 0)
    status = scan_executable_mappings(runtime_path);
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

static int setup_thread(void) {
  if (signals_setup_thread() != 0)
    return -1;
  dipc_thread_init();
  return 0;
}

__attribute__((constructor)) static void loader_init(void) {
  Dl_info self;
  if (dladdr((void *)dom_create, &self) && self.dli_fname)
    snprintf(runtime_path, sizeof runtime_path, "%s", self.dli_fname);
  char *resolved = realpath(runtime_path, NULL);
  if (resolved) {
    snprintf(runtime_path, sizeof runtime_path, "%s", resolved);
    free(resolved);
  }
  if (load_new_objects() != 0)
    _exit(DIPC_EXIT_REFUSED);
  if (strcmp(dipc_backend(), "mpk") == 0)
    mappings_enforce();
  threads_set_setup(setup_thread);
  if (signals_install(recover, report) != 0)
    _exit(DIPC_EXIT_REFUSED);
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
  void *handle = real(file, mode);
  if (handle && load_new_objects() != 0) {
    fprintf(stderr, "dipc-loader: dlopen(\"%s\") refused\n", file);
    _exit(DIPC_EXIT_REFUSED);
  }
  return handle;
}
