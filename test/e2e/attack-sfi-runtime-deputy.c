// Under `sfi` libdipc itself is not instrumented: domain `evil` tries to
// have its exported functions read or write for it where it may not.
// `stats`: dipc_get_stats with its output over the vault's secret;
// `fault-info`: __dipc_sfi_fault_info, the loader's report of the last
// refused access (a 1-byte read: its size, 1, is the read right), its size
// output on the vault's tag of evil's row of the rights matrix (it checked
// its outputs; now it answers the loader only, attack round 29);
// `code-scan`: dipc_code_scan of a buffer holding WRPKRU, its hit over
// the vault's secret;
// `cap`: a capability over the loader's writable data (the runtime's
// under `sfi`, though its range tables call it the default domain's),
// with which evil clears the loader's `sfi_code_on` so that no libc
// interceptor checks anything, then has snprintf copy the secret. Each is
// refused: the exported functions check the memory they are given for a
// caller that is not libdipc or the loader, and fault as that caller's
// call (DIPC_EFAULT to main); the capability is refused (EPERM) and the
// write faults. `landed`: __dipc_fault_landed with a forged exception
// object whose cleanup function is evil's: libdipc would call it (under
// `sfi`, anywhere, unchecked); it now touches no exception object (only
// the runtime's, which have no cleanup, reach a caller stub).
// `recover-gate`: the vault calls a plugin, domain `plug` (no grant at
// all), which hands the loader's recovery gate (__dipc_recover_from_fault)
// a zeroed context in the default domain's memory: the gate popped the
// vault's KCS entry and the plugin ran on as the vault; now it serves only
// the loader's code. `callback-proxy`: dipc_domain_callback for libc's own
// strcpy (the indirect-call check refuses it called directly): the proxy,
// which carries the call magic, would jump to it unchecked; now a callback
// must be an instrumented function (-EPERM). `dom-mmap-exec`: a domain
// of evil's making given a file's page (the call magic, then a loop that
// copies 31 bytes, then ret) as code with dom_mmap, which evil then
// calls: it ran unchecked; only the loader may map code under `sfi` now.
// `fault-hook`: a fault hook one byte into a function of evil's (the
// runtime's proxy would jump there: bytes hidden in an immediate), now
// refused (-EPERM; accepted under `none`). Control:
// the same source without the checks under `none` steals the secret or
// overwrites it.
// RUN: llvm-nm %dipc-lib-dir/libdipc-loader.so | grep ' sfi_code_on$' > %t.off
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t.sfi
// RUN: %dipc-clang -fdipc -O2 %s -o %t
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi stats 2>&1 | FileCheck %s --check-prefixes=SFI,SFI-FAULT
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi fault-info 2>&1 | FileCheck %s --check-prefixes=SFI,SFI-FAULT
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi code-scan 2>&1 | FileCheck %s --check-prefixes=SFI,SFI-FAULT
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi cap %t.off 2>&1 | FileCheck %s --check-prefixes=SFI,SFI-CAP
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi landed 2>&1 | FileCheck %s --check-prefix=LANDED
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi recover-gate 2>&1 | FileCheck %s --check-prefix=GATE
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi callback-proxy 2>&1 | FileCheck %s --check-prefix=PROXY
// RUN: %dipc-bin-dir/dipc-run --backend=none %t callback-proxy 2>&1 | FileCheck %s --check-prefix=STOLEN
// RUN: %dipc-bin-dir/dipc-run --backend=none %t recover-gate 2>&1 | FileCheck %s --check-prefix=STOLEN
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi dom-mmap-exec 2>&1 | FileCheck %s --check-prefix=MMAP
// RUN: %dipc-bin-dir/dipc-run --backend=none %t dom-mmap-exec 2>&1 | FileCheck %s --check-prefix=STOLEN
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi fault-hook 2>&1 | FileCheck %s --check-prefix=HOOK-SFI
// RUN: %dipc-bin-dir/dipc-run --backend=none %t fault-hook 2>&1 | FileCheck %s --check-prefix=HOOK-NONE
// RUN: %dipc-bin-dir/dipc-run --backend=none %t stats 2>&1 | FileCheck %s --check-prefix=OVERWRITTEN
// RUN: %dipc-bin-dir/dipc-run --backend=none %t fault-info 2>&1 | FileCheck %s --check-prefix=STOLEN
// RUN: %dipc-bin-dir/dipc-run --backend=none %t code-scan 2>&1 | FileCheck %s --check-prefix=OVERWRITTEN
// RUN: %dipc-bin-dir/dipc-run --backend=none %t cap %t.off 2>&1 | FileCheck %s --check-prefix=STOLEN
// RUN: %dipc-bin-dir/dipc-run --backend=none %t landed 2>&1 | FileCheck %s --check-prefix=LANDED
// SFI: attacking ({{stats|fault-info|code-scan|cap}})
// SFI-NOT: stole
// SFI-FAULT-NOT: written
// SFI-CAP: capability over the loader's data: -1
// SFI-CAP-NOT: written
// SFI: attack returned 0, dipc_errno 14
// SFI-NEXT: nothing stolen
// SFI-NEXT: vault's data: intact
// STOLEN: stole 'vault-secret-42'
// OVERWRITTEN: vault's data: overwritten
// LANDED: cleanup ran: no
// GATE: attack returned 0, dipc_errno 0
// GATE-NEXT: nothing stolen
// MMAP: dom_mmap of code: refused
// MMAP-NEXT: attack returned -1, dipc_errno 0
// MMAP-NEXT: nothing stolen
// HOOK-SFI: fault hook inside a function: refused
// HOOK-NONE: fault hook inside a function: accepted
// PROXY: callback proxy for libc's strcpy: refused
// PROXY-NEXT: attack returned -1, dipc_errno 0
// PROXY-NEXT: nothing stolen
#include "Inputs/vault.h"

#include <unistd.h>
#include <unwind.h>

#define MATRIX 0x78000000UL /* DIPC_SFI_RIGHTS_ADDR */
#define ROW 2048            /* DIPC_SFI_TAGS */

long vault_id(void) __dom("vault") __entry;
long vault_id(void) { return dipc_current_domain(); }

/* The vault's data as the vault itself sees it. */
void vault_peek(char *out) __dom("vault") __entry;
void vault_peek(char *out) {
  for (int i = 0; i < 31; ++i)
    out[i] = vault_secret[i];
  out[31] = 0;
}

/* The caller stubs' landing pads call it (not in a header). */
void __dipc_fault_landed(void *exception);

/* The plugin the vault calls: no grant at all. */
char default_zeros[4096]; /* the program's: the default domain's */
long plug_plugin(const volatile char *secret, char *loot) __dom("plug") __entry;
long plug_plugin(const volatile char *secret, char *loot) {
  __dipc_recover_from_fault(default_zeros);
  take(secret, loot); /* refused: the plugin's call fails, the vault's not */
  return 0;
}

long vault_use_plugin(char *loot) __dom("vault") __entry;
long vault_use_plugin(char *loot) { return plug_plugin(vault_secret, loot); }

static long the_vault;
static unsigned long loader_flag_offset;
static volatile int cleanup_ran;

/* A function of evil's own, whose second byte evil asks to be its hook. */
__attribute__((noinline)) void evil_spare(void) __dom("evil");
void evil_spare(void) { cleanup_ran = 2; }

static void evil_cleanup(_Unwind_Reason_Code r, struct _Unwind_Exception *x) {
  (void)r, (void)x;
  cleanup_ran = 1;
}

long attack(const char *mode, void *aux, const volatile char *secret, int key,
            char *loot) {
  (void)aux, (void)key;
  char *row = (char *)(MATRIX + (uintptr_t)dipc_current_domain() * ROW);
  char *on_vault = row + the_vault;
  if (strcmp(mode, "prime") == 0) {
    take(secret, loot); /* a refused 1-byte read: the fault to report */
  } else if (strcmp(mode, "stats") == 0) {
    dipc_get_stats((struct dipc_stats *)secret);
    printf("stats: written\n");
    return 1;
  } else if (strcmp(mode, "fault-info") == 0) {
    uintptr_t addr, expected;
    int write;
    uint32_t running, tag, kind;
    int got = __dipc_sfi_fault_info(&addr, (uint64_t *)on_vault, &write,
                                    &running, &tag, &kind, &expected);
    printf("fault info: %s\n", got ? "written" : "not given");
  } else if (strcmp(mode, "code-scan") == 0) {
    static const unsigned char code[] = {0x90, 0x0f, 0x01, 0xef};
    dipc_code_scan(code, sizeof code, (struct dipc_code_hit *)secret);
    printf("code scan: written\n");
    return 1;
  } else if (strcmp(mode, "cap") == 0) {
    Dl_info loader;
    void *seal = dlsym(RTLD_DEFAULT, "__dipc_loader_seal");
    if (!seal || !dladdr(seal, &loader) || !loader_flag_offset)
      return -100;
    volatile int *on = (volatile int *)((char *)loader.dli_fbase +
                                        loader_flag_offset);
    int r = dipc_cap_create(0, (const void *)((uintptr_t)on & -4096ul), 4096,
                            DIPC_PERM_WRITE);
    printf("capability over the loader's data: %d\n", r < 0 ? -1 : r);
    fflush(stdout);
    *on = 0; /* the interceptors would check nothing from now on */
    printf("loader flag: written\n");
    snprintf(loot, 32, "%s", (const char *)secret);
    return 1;
  } else if (strcmp(mode, "recover-gate") == 0) {
    return vault_use_plugin(loot);
  } else if (strcmp(mode, "callback-proxy") == 0) {
    typedef char *(*copy_fn)(char *, const char *);
    copy_fn real = (copy_fn)dlvsym(RTLD_DEFAULT, "strcpy", "GLIBC_2.2.5");
    copy_fn f = (copy_fn)dipc_domain_callback((void *)real, 2);
    printf("callback proxy for libc's strcpy: %s\n", f ? "made" : "refused");
    fflush(stdout);
    if (!f)
      return -1;
    f(loot, (const char *)secret);
    return 1;
  } else if (strcmp(mode, "dom-mmap-exec") == 0) {
    /* the call magic (0xcc1d5fc0), then: xor ecx,ecx; 1: mov al,[rsi+rcx];
     * mov [rdi+rcx],al; inc ecx; cmp ecx,31; jne 1b; ret */
    static const unsigned char code[] = {
        0xc0, 0x5f, 0x1d, 0xcc, 0x31, 0xc9, 0x8a, 0x04, 0x0e, 0x88,
        0x04, 0x0f, 0xff, 0xc1, 0x83, 0xf9, 0x1f, 0x75, 0xf3, 0xc3};
    char path[] = "/tmp/dipc-code-XXXXXX";
    int fd = mkstemp(path);
    unlink(path);
    if (fd < 0 || write(fd, code, sizeof code) != sizeof code ||
        ftruncate(fd, 4096) != 0)
      return -2;
    void *p = dom_mmap(dom_create(), NULL, 4096, PROT_READ | PROT_EXEC,
                       MAP_PRIVATE, fd, 0);
    printf("dom_mmap of code: %s\n",
           (uintptr_t)p > (uintptr_t)-4096 ? "refused" : "mapped");
    fflush(stdout);
    if ((uintptr_t)p > (uintptr_t)-4096)
      return -1;
    ((void (*)(char *, const volatile char *))((char *)p + 4))(loot, secret);
    return 1;
  } else if (strcmp(mode, "fault-hook") == 0) {
    int r = dipc_set_fault_hook((void (*)(void))((char *)evil_spare + 1));
    printf("fault hook inside a function: %s\n", r ? "refused" : "accepted");
    return 1;
  } else if (strcmp(mode, "landed") == 0) {
    static struct _Unwind_Exception forged;
    forged.exception_cleanup = evil_cleanup;
    __dipc_fault_landed(&forged);
    printf("cleanup ran: %s\n", cleanup_ran ? "yes" : "no");
    return 1;
  }
  fflush(stdout);
  take(secret, loot);
  return 1;
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "stats";
  the_vault = vault_id();
  if (argc > 2) {
    FILE *f = fopen(argv[2], "r");
    if (!f || fscanf(f, "%lx", &loader_flag_offset) != 1)
      return 2;
    fclose(f);
  }
  if (strcmp(mode, "fault-info") == 0)
    run_attack("prime", NULL);
  char before[32], after[32];
  vault_peek(before);
  run_attack(mode, NULL);
  vault_peek(after);
  printf("vault's data: %s\n",
         memcmp(before, after, sizeof after) ? "overwritten" : "intact");
  return 0;
}
