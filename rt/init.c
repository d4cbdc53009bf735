/* init.c - the top of the runtime: brings up every part, in order, before
 * main (and before any other constructor that uses dIPC). Nothing calls
 * into this file; it calls the parts, which never call back up (the
 * layers: docs/runtime.md, checked by scripts/rt-import-graph.py). */
#define _GNU_SOURCE
#include <link.h>
#include <unistd.h>

#include "internal.h"

/* What gs points to on a thread without state: a self pointer of 0 fails
 * the thread-range check in every gate. */
static const uint64_t no_thread[8]; /* cur_dom (sfi.h) reads 0 */

/* libdipc's code (exec.c). */
static int find_text(struct dl_phdr_info *info, size_t size, void *p) {
  (void)size;
  uintptr_t self = (uintptr_t)dipc_runtime_init, *range = p;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
    if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X) && self >= lo &&
        self < lo + ph->p_memsz) {
      range[0] = lo;
      range[1] = lo + ph->p_memsz;
      return 1;
    }
  }
  return 0;
}

static void exec_init(void) {
  uintptr_t text[2] = {0, 0};
  dl_iterate_phdr(find_text, text);
  dipc_exec_init(text[0], text[1]);
}

/* The loader (libdipc-loader.so, preloaded by dipc-run) checks the code
 * loaded so far; the filter then keeps the kernel calls that undo the
 * isolation for the runtime (seccomp.c). Before the main thread enters the
 * default domain: its PKRU still reaches the cookie's key. A program
 * without the loader is a runtime test, or stops at start
 * (__dipc_loader_seal: internal.h). */
static void seal(void) {
  if (!__dipc_loader_seal)
    return;
  if (__dipc_loader_seal() != 0)
    _exit(DIPC_EXIT_REFUSED);
  dipc_sys_make_cookie();
  dipc_seccomp_install();
}

void dipc_runtime_init(void) {
  static int done;
  if (done)
    return;
  done = 1;
  dipc_dstack_config_init(); /* a bad setting stops the process first */
  dipc_machine_init();
  /* All of the window is runtime state (owned.c): arena, threads, tables. */
  dipc_runtime_region((void *)RT_WINDOW_LO, RT_WINDOW_HI - RT_WINDOW_LO);
  dipc_runtime_region((void *)dipc_shadow_lo, RT_SHADOW_REGION_SIZE);
  DIPC_CHECK(dipc_sys_set_gs(no_thread) == 0, "cannot set the gs base");
  dipc_rights_init();
  dipc_machine_map_tables();
  dipc_sfi_init(); /* before any domain or thread gets rights or tags */
  dipc_sfi_cfi_init();
  dipc_thread_limits_init();
  dipc_domains_init();
  dipc_share_map_init();
  dipc_proxy_init();
  dipc_recovery_init();
  exec_init();
  if (dipc_machine.backend == DIPC_BACKEND_MPK)
    seal();
  /* The main thread gets its state (and the default domain's PKRU) now. */
  dipc_thread_init();
  dipc_fork_handlers_install();
}

__attribute__((constructor(101))) static void dipc_constructor(void) {
  dipc_runtime_init();
}
