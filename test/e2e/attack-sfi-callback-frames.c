// A function a domain hands libc (qsort's comparator, a fopencookie
// stream's write function) runs while libc's frames lie on the same stack
// just above it, and libc returns with no check. Called directly, the
// comparator of `evil` found the return address libc's qsort saved there
// and rewrote it: libc's `ret` went where evil chose (an attack round
// chained libc's own code that way into printing vault's secret). Under
// `sfi` such functions run through a callback proxy into the calling
// domain (loader/sfi_callbacks.c), whose frames start below libc's, and a
// call's checks let it write no frame above its start (dipc/sfi.h,
// DIPC_SFI_TAG_STACK; reading them stays allowed: libc hands callbacks
// pointers into its frames): the rewrite faults, and the fault returns 0
// to libc.
// `memcpy` copies the word above the comparator's frame onto itself (harmless
// where allowed): the loader's check refuses that write under `sfi`.
// Control: under `none` the same binary's callbacks run directly.
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t.sfi
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi qsort 2>&1 | FileCheck %s --check-prefix=HIJACKED
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi qsort 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi cookie 2>&1 | FileCheck %s --check-prefix=HIJACKED
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi cookie 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi memcpy 2>&1 | FileCheck %s --check-prefix=COPIED
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi memcpy 2>&1 | FileCheck %s --check-prefix=SFI
// HIJACKED: libc's return went to evil's chosen address
// COPIED: callback: ran to its end, the word above its frame copied onto itself
// SFI-NOT: evil's chosen address
// SFI: callback: stopped writing the frames above it
// SFI: attack returned 0, dipc_errno 0
// SFI-NEXT: nothing stolen
#include "Inputs/object-range.h"
#include "Inputs/vault.h"

#include <unistd.h>

static uintptr_t libc_lo, libc_hi;
static int mode_memcpy;
// How far the callback got: 1 reading above its frame, 2 writing there,
// 3 done.
static volatile int stage;

static void hijacked(void) {
  static const char msg[] = "libc's return went to evil's chosen address\n";
  (void)!write(STDOUT_FILENO, msg, sizeof msg - 1);
  _exit(0);
}

// libc's code: its executable segments.
static void find_libc(void) {
  uintptr_t lo, hi;
  if (object_range("libc.so", 1, &lo, &hi))
    libc_lo = lo, libc_hi = hi;
}

// Whether p, in libc's code, follows a call instruction (e8 rel32, or ff /2
// through a register or memory operand): a return address.
static int returns_into_libc(uintptr_t p) {
  if (p < libc_lo + 8 || p >= libc_hi)
    return 0;
  const unsigned char *b = (const unsigned char *)p;
  for (int len = 2; len <= 7; len++)
    if (b[-len] == 0xff && (b[1 - len] & 0x38) == 0x10)
      return 1;
  return b[-5] == 0xe8;
}

// Once, in the callback's frame: past its frame pointer and return
// address, the first word that returns into libc becomes `hijacked`; or
// (memcpy) the word right above is copied onto itself by libc's memcpy.
static inline __attribute__((always_inline)) void tamper(void) {
  if (stage)
    return;
  volatile uintptr_t *w = (volatile uintptr_t *)__builtin_frame_address(0);
  if (mode_memcpy) {
    void *(*volatile copy)(void *, const void *, size_t) = memcpy;
    stage = 2;
    copy((void *)&w[2], (const void *)&w[2], sizeof w[2]);
    stage = 3;
    return;
  }
  stage = 1;
  for (int i = 2; i < 512; i++)
    if (returns_into_libc(w[i])) {
      stage = 2;
      w[i] = (uintptr_t)hijacked;
      break;
    }
  stage = 3;
}

static int compare(const void *a, const void *b) {
  tamper();
  return *(const int *)a - *(const int *)b;
}

static ssize_t cookie_write(void *cookie, const char *buf, size_t size) {
  (void)cookie, (void)buf;
  tamper();
  return (ssize_t)size;
}

long attack(const char *mode, void *aux, const volatile char *secret, int key,
            char *loot) {
  (void)aux, (void)secret, (void)key, (void)loot;
  find_libc();
  if (!libc_lo)
    return -1;
  mode_memcpy = strcmp(mode, "memcpy") == 0;
  if (strcmp(mode, "cookie") == 0) {
    cookie_io_functions_t io = {0};
    io.write = cookie_write;
    FILE *f = fopencookie(NULL, "w", io);
    if (!f)
      return -1;
    fputs("x", f);
    fflush(f);
    fclose(f);
  } else {
    int a[8] = {5, 3, 1, 4, 2, 8, 7, 6};
    qsort(a, 8, sizeof a[0], compare);
  }
  static const char *const where[] = {
      "before reaching the frames above it", "reading the frames above it",
      "writing the frames above it", "after its write"};
  if (stage == 3)
    printf("callback: ran to its end, %s\n",
           mode_memcpy ? "the word above its frame copied onto itself"
                       : "no return into libc found");
  else
    printf("callback: stopped %s\n", where[stage]);
  return 0;
}

int main(int argc, char **argv) {
  return run_attack(argc > 1 ? argv[1] : "qsort", NULL);
}
