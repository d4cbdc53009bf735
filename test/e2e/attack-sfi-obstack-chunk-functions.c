// libc trusts every word of a struct obstack, which lies in the domain's
// memory. `evil` hands an obstack memset as its chunk function (`memset`:
// libc's memset(arg, size, ...) writes over the rights matrix, so evil's
// row allows reading the vault), or the loader's _setjmp (`setjmp`: the
// context saved inside libc's _obstack_begin_1 is resumed by a longjmp
// from evil's obstack_alloc_failed_handler with an address as the value,
// which libc then writes through), or begins one with functions of its
// own and then points its current object at the secret (`copy`:
// _obstack_newchunk copies it into evil's chunk). A check of the chunk
// functions when the obstack begins did not hold: the struct is rewritten
// later. Under `sfi` obstacks are refused to instrumented code
// (loader/sfi_callbacks.c): main gets DIPC_EFAULT, nothing stolen.
// Control: `none`, where the secret is stolen.
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t.sfi
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi memset 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi setjmp 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi copy 2>&1 | FileCheck %s --check-prefixes=SFI,SFI-COPY
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi memset 2>&1 | FileCheck %s --check-prefix=STOLEN
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi copy 2>&1 | FileCheck %s --check-prefix=STOLEN
// SFI-NOT: stole
// SFI-COPY: dipc: sfi: _obstack_begin refused to the running domain (it would undo the isolation)
// SFI: attack returned 0, dipc_errno 14
// SFI-NEXT: nothing stolen
// STOLEN: stole 'vault-secret-42'
#include "Inputs/vault.h"

#include <obstack.h>
#include <setjmp.h>

int _obstack_begin_1(struct obstack *h, int size, int alignment,
                     void *(*chunkfun)(void *, long),
                     void (*freefun)(void *, void *), void *arg);

static jmp_buf buf;
static uintptr_t target;

static void failed(void) { longjmp(buf, (int)target); }

static void noop_free(void *a, void *b) { (void)a, (void)b; }

static char arena[4][4096];
static int next;
static void *chunk(long n) { (void)n; return arena[next++ & 3]; }
static void release(void *p) { (void)p; }

long attack(const char *mode, void *aux, const volatile char *secret, int key,
            char *loot) {
  (void)aux, (void)key;
  if (strcmp(mode, "plain") == 0) { /* no write: the read is refused */
    take(secret, loot);
    return 0;
  }
  if (strcmp(mode, "copy") == 0) { /* the current object: the secret */
    static struct obstack ob;
    _obstack_begin(&ob, 4096, 16, chunk, release);
    ob.object_base = (char *)secret;
    ob.next_free = (char *)secret + 31;
    _obstack_newchunk(&ob, 4096);
    const char *copy = ob.object_base;
    for (int i = 0; i < 31 && copy[i]; ++i)
      loot[i] = copy[i];
    return 0;
  }
  if (strcmp(mode, "memset") == 0) { /* no setjmp: memset as chunkfun */
    struct obstack h;
    /* memset(arg, size, 0xfe0): rows 0..15, byte 3 */
    for (unsigned row = 0; row < 16; row += 1)
      _obstack_begin_1(&h, 3, 16, (void *(*)(void *, long))memset, noop_free,
                       (void *)(uintptr_t)(0x78000000u + row * 2048u + 64));
    take(secret, loot);
    return 0;
  }
  obstack_alloc_failed_handler = failed;
  for (unsigned row = 0; row < 16; ++row)
    for (unsigned tag = 0; tag < 32; tag += 4) {
      struct obstack h;
      target = 0x78000000u + row * 2048u + tag;
      int size = (int)(0x03030303u - (uint32_t)target);
      _obstack_begin_1(&h, size, 16, (void *(*)(void *, long))_setjmp,
                       noop_free, buf);
    }
  take(secret, loot);
  return 0;
}

int main(int argc, char **argv) {
  return run_attack(argc > 1 ? argv[1] : "setjmp", NULL);
}
