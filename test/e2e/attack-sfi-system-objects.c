// libc is not the only uninstrumented object every program has: the
// dynamic linker and libgcc_s export functions that read and write
// through their arguments too (an attack round's): ld.so's
// _dl_exception_create copies a string into a buffer the caller reads
// (`dl-read` steals vault's secret), its _dl_get_tls_static_info writes
// two words (`dl-write`), and libgcc_s's __register_frame_info writes its
// bookkeeping over the object it is given (`gcc-write`). Called by name,
// the calls note names them and under `sfi` the loader refuses the
// program before it runs; called through pointers from dlsym
// (-DBY_POINTER), the runtime's call check refuses each as a target: the
// call faults, DIPC_EFAULT (14). Controls: under `none` each succeeds.
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t.direct
// RUN: not %dipc-bin-dir/dipc-run --backend=sfi %t.direct dl-read 2>&1 | FileCheck %s --check-prefix=REFUSED
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.direct dl-read 2>&1 | FileCheck %s --check-prefix=STOLEN
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.direct dl-write 2>&1 | FileCheck %s --check-prefix=CHANGED
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.direct gcc-write 2>&1 | FileCheck %s --check-prefix=CHANGED
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 -DBY_POINTER %s -o %t.pointer
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.pointer dl-read 2>&1 | FileCheck %s --check-prefix=STOPPED
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.pointer dl-write 2>&1 | FileCheck %s --check-prefix=STOPPED
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.pointer gcc-write 2>&1 | FileCheck %s --check-prefix=STOPPED
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.pointer dl-read 2>&1 | FileCheck %s --check-prefix=STOLEN
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.pointer gcc-write 2>&1 | FileCheck %s --check-prefix=CHANGED
// REFUSED: dipc-loader: sfi: the program calls functions of the C library, the dynamic linker or libgcc_s that neither its checks nor the loader's check: __deregister_frame_info, __register_frame_info, _dl_exception_create, _dl_get_tls_static_info; refused
// REFUSED-NOT: attacking
// STOLEN: stole 'vault-secret-42'
// CHANGED: vault's secret changed
// STOPPED: attack returned {{-?[0-9]+}}, dipc_errno 14
// STOPPED-NEXT: nothing stolen
// STOPPED-NEXT: vault's secret unchanged
#include "Inputs/vault-sum.h"

struct dl_exception {
  const char *objname;
  const char *errstring;
  char *message_buffer;
};
void _dl_exception_create(struct dl_exception *, const char *, const char *);
void _dl_get_tls_static_info(size_t *size, size_t *align);
void __register_frame_info(const void *begin, void *object);
void *__deregister_frame_info(const void *begin);

#ifdef BY_POINTER
#define CALL(type, name) ((type)dlsym(RTLD_DEFAULT, #name))
#else
#define CALL(type, name) name
#endif

// Not empty (a zero first word registers nothing), never searched.
static const long eh_frame[4] = {1};

long attack(const char *mode, void *aux, const volatile char *secret, int key,
            char *loot) {
  (void)aux, (void)key;
  if (!strcmp(mode, "dl-read")) {
    struct dl_exception e = {0};
    CALL(void (*)(struct dl_exception *, const char *, const char *),
         _dl_exception_create)(&e, "", (const char *)secret);
    for (int i = 0; i < 31 && e.errstring && e.errstring[i]; ++i)
      loot[i] = e.errstring[i];
    return 1;
  }
  if (!strcmp(mode, "dl-write")) {
    CALL(void (*)(size_t *, size_t *), _dl_get_tls_static_info)(
        (size_t *)secret, (size_t *)secret + 1);
    return 2;
  }
  CALL(void (*)(const void *, void *), __register_frame_info)(
      eh_frame, (void *)secret);
  CALL(void *(*)(const void *), __deregister_frame_info)(eh_frame);
  return 3;
}

int main(int argc, char **argv) {
  return run_write_attack(argc > 1 ? argv[1] : "dl-read", NULL);
}
