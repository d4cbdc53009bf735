/* loader.c - libdipc-loader.so, preloaded by dipc-run: at start, before any
 * program code runs, it checks the code in the process (mpk backend; later
 * code is the runtime's to check, rt/exec.c); at start and on every dlopen
 * it verifies the records of each new object and sets up domains, entries,
 * grants and lazy imports; it installs the crash handler that turns callee
 * faults into errors for the caller, and sets up every thread. */
#define _GNU_SOURCE
#include "../rt/say.h"
#include "domains.h"
#include "gate_call.h"
#include "heap.h"
#include "interpose.h"
#include "landlock.h"
#include "metadata.h"
#include "scan.h"
#include "sfi_alias.h"
#include "sfi_calls.h"
#include "sfi_code.h"
#include "sfi_dl.h"
#include "sfi_intercept.h"
#include "sfi_real.h"
#include "sfi_streams.h"
#include "signals.h"
#include "threads.h"
#include "xproc.h"

#include <dipc/abi.h>
#include <dipc/sfi.h>
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
  uintptr_t lo, hi; /* pages its segments span */
  int records;      /* it had dIPC records */
  int present;      /* scratch for forget_unloaded */
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
  if (already_seen(info))
    return 0;
  if (num_seen == MAX_OBJECTS) { /* its records would go unread */
    fprintf(stderr,
            "dipc-loader: refusing %s: more than %d loaded objects "
            "(MAX_OBJECTS)\n",
            *info->dlpi_name ? info->dlpi_name : "the program", MAX_OBJECTS);
    p->failed = 1;
    return 1;
  }
  unsigned me = num_seen++;
  seen[me].base = info->dlpi_addr;
  seen[me].records = 0;
  snprintf(seen[me].name, sizeof seen[0].name, "%s", info->dlpi_name);
  uintptr_t lo = UINTPTR_MAX, hi = 0;
  for (unsigned i = 0; i < info->dlpi_phnum; ++i)
    if (info->dlpi_phdr[i].p_type == PT_LOAD) {
      uintptr_t b = info->dlpi_addr + info->dlpi_phdr[i].p_vaddr;
      uintptr_t e = b + info->dlpi_phdr[i].p_memsz;
      lo = b < lo ? b : lo;
      hi = e > hi ? e : hi;
    }
  seen[me].lo = lo & -(uintptr_t)DIPC_PAGE_SIZE;
  seen[me].hi = (hi + DIPC_PAGE_SIZE - 1) & -(uintptr_t)DIPC_PAGE_SIZE;
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
  if (found) {
    ++p->count;
    seen[me].records = 1;
    sfi_code_add(info); /* under sfi, its units are all instrumented */
    sfi_alias_bind(info);
    sfi_calls_check(info);
  }
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

static int mark_present(struct dl_phdr_info *info, size_t size, void *data) {
  (void)size;
  (void)data;
  for (unsigned i = 0; i < num_seen; ++i)
    if (seen[i].base == info->dlpi_addr &&
        strncmp(seen[i].name, info->dlpi_name, sizeof seen[i].name) == 0)
      seen[i].present = 1;
  return 0;
}

/* After a dlclose: objects no longer loaded are forgotten, so that one
 * opened again (often at the same address) is set up as the first time.
 * For one with dIPC records the runtime drops its pages, entries, imports
 * and anycall stubs (dipc_forget_object) and the loader its tables. */
static void forget_unloaded(void) {
  pthread_mutex_lock(&load_lock);
  for (unsigned i = 0; i < num_seen; ++i)
    seen[i].present = 0;
  dl_iterate_phdr(mark_present, NULL);
  unsigned n = 0;
  for (unsigned i = 0; i < num_seen; ++i) {
    if (seen[i].present) {
      seen[n++] = seen[i];
      continue;
    }
    if (!seen[i].records || seen[i].hi <= seen[i].lo)
      continue;
    long err = dipc_forget_object((void *)seen[i].lo, seen[i].hi - seen[i].lo);
    if (err < 0)
      fprintf(stderr,
              "dipc-loader: warning: %s was unloaded but the runtime keeps "
              "its state (error %ld: pages %#lx-%#lx are mapped again)\n",
              seen[i].name, -err, (unsigned long)seen[i].lo,
              (unsigned long)seen[i].hi);
    domains_forget(seen[i].lo, seen[i].hi);
    sfi_code_forget(seen[i].lo, seen[i].hi);
  }
  int forgot = n != num_seen;
  num_seen = n;
  pthread_mutex_unlock(&load_lock);
  if (forgot && getenv("DIPC_INFO")) {
    fputs("dipc: after dlclose:\n", stderr);
    domains_print(stderr);
  }
}

/* A first call through an import's slot faults on the slot's guard and
 * resumes in the runtime's resolver; any other fault may be a callee's. */
static int recover(void *ucontext) {
  return dipc_import_fault(ucontext) ||
         GATE_CALL(__dipc_recover_from_fault(ucontext));
}

static const char *domain_name(uint32_t dom) {
  const char *name = dom ? domains_name_of_heap(DIPC_HEAP_REGION(dom)) : NULL;
  return name ? name : dom ? "?" : "default";
}

/* An access or a control transfer the sfi checks refused (rt/sfi.c,
 * rt/sfi_cfi.c): the same facts as a protection-key fault's report, from
 * what the slow path kept. */
static void report_sfi(void) {
  uintptr_t addr, expected;
  uint64_t size;
  int is_write;
  uint32_t running, tag, kind;
  if (!__dipc_sfi_fault_info(&addr, &size, &is_write, &running, &tag, &kind,
                             &expected))
    return;
  const char *name = domains_owner_of(addr) ? domains_owner_of(addr)
                                            : domain_name(tag);
  const char *what = tag == DIPC_SFI_TAG_RUNTIME  ? "the runtime"
                     : tag == DIPC_SFI_TAG_SHARED ? "shared memory"
                     : tag == DIPC_SFI_TAG_STACK
                         ? "a callee stack (another thread's or domain's)"
                         : "domain ";
  char owner[96];
  snprintf(owner, sizeof owner, "%s%s", what,
           tag < DIPC_MAX_DOMAINS ? name : "");
  char line[256];
  int n;
  switch (kind) {
  case DIPC_SFI_CFI_RETURN:
    n = snprintf(line, sizeof line,
                 "dipc: sfi fault: return to %p refused in the running "
                 "domain (%s): the shadow stack holds %p for this frame\n",
                 (void *)addr, domain_name(running), (void *)expected);
    break;
  case DIPC_SFI_CFI_CALL:
    n = snprintf(line, sizeof line,
                 "dipc: sfi fault: indirect call to %p (%s) refused "
                 "in the running domain (%s): not a function start it may "
                 "call\n",
                 (void *)addr, owner, domain_name(running));
    break;
  case DIPC_SFI_CFI_PROXY:
    n = snprintf(line, sizeof line,
                 "dipc: sfi fault: call to %p (%s) refused in the running "
                 "domain (%s): a wrapper's import slot must lead to a "
                 "proxy, which keeps its return address\n",
                 (void *)addr, owner, domain_name(running));
    break;
  case DIPC_SFI_CFI_BRANCH:
    n = snprintf(line, sizeof line,
                 "dipc: sfi fault: indirect branch to %p refused in the "
                 "running domain (%s): not one of the function's labels\n",
                 (void *)addr, domain_name(running));
    break;
  case DIPC_SFI_CFI_JUMP:
    n = snprintf(line, sizeof line,
                 expected ? "dipc: sfi fault: longjmp through the buffer at "
                            "%p refused in the running domain (%s): it holds "
                            "no context this thread saved there (the last "
                            "one saved there returns to %p)\n"
                          : "dipc: sfi fault: longjmp through the buffer at "
                            "%p refused in the running domain (%s): no "
                            "setjmp of this thread saved a context there\n",
                 (void *)addr, domain_name(running), (void *)expected);
    break;
  default:
    n = snprintf(line, sizeof line,
                 "dipc: sfi fault: %s of %llu bytes at %p (%s) "
                 "denied to the running domain (%s)\n",
                 is_write ? "write" : "read", (unsigned long long)size,
                 (void *)addr, owner, domain_name(running));
  }
  if (n > 0)
    (void)!write(STDERR_FILENO, line,
                 (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
}

/* A protection-key fault that ends the program: say who touched what. */
static void report(int sig, const siginfo_t *info) {
  if (sig == SIGSEGV && (uintptr_t)info->si_addr == DIPC_SFI_TRAP_ADDR)
    report_sfi();
  if (sig != SIGSEGV || info->si_code != SEGV_PKUERR)
    return;
  const char *owner = domains_owner_of((uintptr_t)info->si_addr);
  if (!owner) /* another process's memory, its standing-in domain's */
    owner = xproc_owner_of((uintptr_t)info->si_addr);
  dipc_say("dipc: protection-key fault: access to %p (key %u, domain %s) "
           "denied to the running domain\n",
           info->si_addr, info->si_pkey, owner ? owner : "default");
}

/* A thread started by the pthread_create wrapper: its alternate signal
 * stack first, since making its state runs gates (signals.c), then its
 * state in the slot set aside for it (whether or not the stack could be
 * had, so the reservation is used either way). */
static int setup_thread(void) {
  int failed = signals_setup_thread() != 0;
  dipc_thread_init_reserved();
  return failed ? -1 : 0;
}

/* /proc/PID/mem writes any page whatever its key or tag: closed to the
 * process under every enforcing backend. */
static void hide_own_memory(void) {
  if (landlock_hide_own_memory() != 0) {
    /* Not dumpable: /proc/PID/mem belongs to root, so at least a process
     * that does not run as root cannot open its own. */
    fputs("dipc: warning: no Landlock in this kernel: /proc/self/mem "
          "stays open to a process running as root\n",
          stderr);
    prctl(PR_SET_DUMPABLE, 0);
  }
}

/* Whether the loaded objects' file mappings are replaced by copies
 * (scan.c): under an enforcing backend, but in a process of a
 * cross-process pair, whose code the other process maps from the files
 * (docs/cross-process.md). */
static int pins_files(void) {
  return !xproc_listening() && !getenv("DIPC_CONNECT");
}

/* Called by libdipc while it initialises, under mpk, before any program
 * code runs (and before this object's constructors): the code loaded so
 * far is checked (scan.c), SIGSYS goes to the runtime, /proc/PID/mem is
 * closed; then libdipc installs its seccomp filter. Returns 0, or -1 after
 * printing why the program is refused. */
__attribute__((visibility("default"))) int __dipc_loader_seal(void) {
  if (scan_start((uintptr_t)dom_create, pins_files()) != 0 ||
      signals_install(recover, report) != 0)
    return -1;
  hide_own_memory();
  return 0;
}

int loader_pin_code(void) { return pins_files() ? scan_pin_code() : 0; }

__attribute__((constructor)) static void loader_init(void) {
  sfi_code_start();
  sfi_next_resolve_all(); /* no interceptor writes loader data later */
  sfi_alias_init();
  sfi_calls_init();
  if (load_new_objects() != 0 || domains_check_settings() != 0)
    _exit(DIPC_EXIT_REFUSED);
  threads_set_setup(setup_thread);
  if (signals_install(recover, report) != 0 || xproc_connect_setup() != 0)
    _exit(DIPC_EXIT_REFUSED);
  if (!strcmp(dipc_backend(), "sfi")) {
    hide_own_memory();
    if (loader_pin_code() != 0)
      _exit(DIPC_EXIT_REFUSED);
  }
  heap_start();
  sfi_streams_init(); /* opens streams: after the heap is set up */
  if (getenv("DIPC_INFO"))
    domains_print(stderr);
}

typedef void *(*dlopen_fn)(const char *, int);

/* The file dlopen would open for `file`, as far as the loader can tell: a
 * name with a slash is the file; a bare name is looked up in
 * LD_LIBRARY_PATH and the system directories (not in DT_RUNPATH or the
 * ld.so cache). 0 with the path in `path`, -1 if not found. */
static int library_path(const char *file, char *path, size_t size) {
  if (strchr(file, '/')) {
    snprintf(path, size, "%s", file);
    return 0;
  }
  static const char *const system_dirs[] = {
      "/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib64",
      "/usr/lib64", "/lib", "/usr/lib"};
  const char *env = getenv("LD_LIBRARY_PATH");
  for (const char *p = env; p && *p;) {
    size_t len = strcspn(p, ":");
    snprintf(path, size, "%.*s/%s", (int)len, len ? p : ".", file);
    if (access(path, R_OK) == 0)
      return 0;
    p += len + (p[len] == ':');
  }
  for (size_t i = 0; i < sizeof system_dirs / sizeof system_dirs[0]; ++i) {
    snprintf(path, size, "%s/%s", system_dirs[i], file);
    if (access(path, R_OK) == 0)
      return 0;
  }
  return -1;
}

/* Whether file, as dlopen would find it, is a dIPC object, or one the
 * validator refuses (either way it must not load unisolated). */
static int file_has_records(const char *file) {
  char path[4096], err[256];
  return library_path(file, path, sizeof path) == 0 &&
         dipc_validate_path(path, err, sizeof err) != 0;
}

/* Objects opened later get the same treatment. One that is refused may
 * already have changed the program's domains, so the process stops. */
/* Whether a library a domain dlopens under sfi carries the checks: its
 * file found, with dIPC records whose every unit was compiled with
 * -fdipc-sfi. Says why not on stderr. */
static int sfi_library_ok(const char *file, char *path, size_t size) {
  char err[512] = "";
  struct dipc_elf_image img;
  struct dipc_validated v;
  int status = -1;
  if (library_path(file, path, size) == 0) {
    status = dipc_validate_file(path, &img, &v, err, sizeof err);
    if (status >= 0)
      dipc_validate_close(&img);
  } else {
    snprintf(err, sizeof err, "its file cannot be found to check it");
  }
  if (status > 0 && v.sfi_units == v.units && !v.sfi_magic_stray &&
      !v.sfi_runtime_name)
    return 1;
  if (status == 0)
    snprintf(err, sizeof err, "it has no dIPC records, so no checks");
  else if (status > 0 && v.sfi_units < v.units)
    snprintf(err, sizeof err, "%u of its %u units were compiled without "
             "-fdipc-sfi", v.units - v.sfi_units, v.units);
  else if (status > 0 && v.sfi_runtime_name)
    snprintf(err, sizeof err, "it defines '%s', a name of the runtime's",
             v.sfi_runtime_name_at);
  else if (status > 0)
    snprintf(err, sizeof err, DIPC_SFI_MAGIC_STRAY_FMT,
             (unsigned long long)v.sfi_magic_at);
  fprintf(stderr, "dipc-loader: sfi: dlopen(\"%s\") from a domain refused: "
          "%s; its code would run unchecked\n", file, err);
  return 0;
}

__attribute__((visibility("default"))) void *dlopen(const char *file,
                                                    int mode) {
  dlopen_fn real = INTERPOSE_NEXT(dlopen_fn, "dlopen");
  /* Records the validator refuses stop the program before the object is
   * mapped and its constructors run (where the file can be found here;
   * otherwise once it is loaded, below). */
  char path[4096], err[512];
  /* Under sfi a domain loads only code that carries the checks: anything
   * else would run unchecked (trusted) on its behalf. */
  if (sfi_code_checks(__builtin_return_address(0)) && file &&
      !sfi_library_ok(file, path, sizeof path))
    return NULL;
  if (file && library_path(file, path, sizeof path) == 0 &&
      dipc_validate_path(path, err, sizeof err) < 0) {
    fprintf(stderr, "dipc-loader: refusing %s: malformed dIPC metadata: %s\n",
            path, err);
    fprintf(stderr, "dipc-loader: dlopen(\"%s\") refused\n", file);
    _exit(DIPC_EXIT_REFUSED);
  }
  unsigned long refusals = dipc_exec_refusals();
  void *handle = real(file, mode);
  /* Its code was refused when it was mapped, before any of it ran. */
  if (!handle && dipc_exec_refusals() != refusals) {
    fprintf(stderr, "dipc-loader: dlopen(\"%s\") refused\n", file);
    _exit(DIPC_EXIT_REFUSED);
  }
  /* Under mpk its files are copied before its domains' keys are set,
   * under sfi after its domains are loaded (tags go by address). */
  int mpk = !strcmp(dipc_backend(), "mpk");
  if (handle && ((mpk && loader_pin_code() != 0) || load_new_objects() != 0 ||
                 (sfi_code_on && loader_pin_code() != 0))) {
    fprintf(stderr, "dipc-loader: dlopen(\"%s\") refused\n", file);
    _exit(DIPC_EXIT_REFUSED);
  }
  return handle;
}

typedef int (*dlclose_fn)(void *);

/* The object may be unloaded: what the loader and the runtime know of it
 * goes with it (forget_unloaded). Instrumented code may close only a
 * handle dlopen made (sfi_dl.c). */
__attribute__((visibility("default"))) int dlclose(void *handle) {
  if (sfi_code_checks(__builtin_return_address(0)) &&
      !sfi_dl_loaded_object(handle))
    return (int)sfi_refuse("dlclose of a handle the dynamic linker did not "
                           "make");
  dlclose_fn real = INTERPOSE_NEXT(dlclose_fn, "dlclose");
  int status = real(handle);
  if (status == 0)
    forget_unloaded();
  return status;
}

typedef void *(*dlmopen_fn)(Lmid_t, const char *, int);

/* The base namespace is dlopen's. Another namespace would get its own copy
 * of libc and libdipc, outside the loader and the runtime: an object with
 * dIPC records is refused there (NULL, with the reason on stderr and from
 * dlerror's point of view no error); one without is loaded, and under mpk
 * the runtime still checks its executable mappings (rt/exec.c). Under sfi
 * every other namespace is refused. */
__attribute__((visibility("default"))) void *dlmopen(Lmid_t lmid,
                                                     const char *file,
                                                     int mode) {
  if (lmid == LM_ID_BASE)
    return dlopen(file, mode);
  dlmopen_fn real = INTERPOSE_NEXT(dlmopen_fn, "dlmopen");
  /* Under sfi no code runs unchecked but libc's and the trusted
   * libraries': a plain object's constructors would. */
  if (sfi_code_on) {
    fprintf(stderr,
            "dipc-loader: dlmopen(\"%s\") refused: under the sfi backend "
            "objects load in the base namespace only (dlopen)\n",
            file ? file : "(null)");
    return NULL;
  }
  if (file && file_has_records(file)) {
    fprintf(stderr,
            "dipc-loader: dlmopen(\"%s\") refused: an object with dIPC "
            "records can only be loaded in the base namespace (LM_ID_BASE)\n",
            file);
    return NULL;
  }
  return real(lmid, file, mode);
}
