// Under `sfi` the loader maps only objects whose units carry the checks;
// their code was then a private mapping of the file, whose pages the
// process has not written show the file's current bytes. Domain `evil`
// opens the validated plugin's file for writing and writes its own code
// (a plain copy of 16 bytes) over lib_fn, then calls lib_fn (its call
// magic still in front). Now the loader puts a private copy of every
// executable mapping of a file in its place, at start and after each
// dlopen (loader/scan.c), as under mpk: lib_fn stays the validated code
// and returns 0x1234 (4660), nothing is copied. Control: under `none` the
// rewritten function copies the secret.
// (Found by the attack round of issue #15's session, 2026-11-26.)
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 -shared -fPIC %S/Inputs/sfi-plugin-lib.c -o %t.dir/libplugin.so
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t.sfi -ldl
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi %t.dir/libplugin.so 2>&1 | FileCheck %s --check-prefix=SFI
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 -shared -fPIC %S/Inputs/sfi-plugin-lib.c -o %t.dir/libplugin.so
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi %t.dir/libplugin.so 2>&1 | FileCheck %s --check-prefix=STOLEN
// SFI: lib_fn as validated: 0x1234
// SFI: write over lib_fn: 20
// SFI: attack returned 4660, dipc_errno 0
// SFI-NEXT: nothing stolen
// STOLEN: stole 'vault-secret-42'
#include "Inputs/vault.h"

#include <fcntl.h>
#include <link.h>
#include <unistd.h>

static const char *lib_path;
static long lib_off; // lib_fn's offset in its file

long attack(const char *mode, void *aux, const volatile char *secret, int key,
            char *loot) {
  (void)key, (void)mode;
  long (*fn)(const volatile char *, char *) =
      (long (*)(const volatile char *, char *))aux;
  printf("lib_fn as validated: %#lx\n", fn(loot, loot));
  static const unsigned char code[] = {
      0x48, 0x8b, 0x07,       /* mov rax, [rdi]     */
      0x48, 0x89, 0x06,       /* mov [rsi], rax     */
      0x48, 0x8b, 0x47, 0x08, /* mov rax, [rdi+8]   */
      0x48, 0x89, 0x46, 0x08, /* mov [rsi+8], rax   */
      0xb8, 0x01, 0, 0, 0,    /* mov eax, 1         */
      0xc3};                  /* ret                */
  int fd = open(lib_path, O_RDWR);
  long w = pwrite(fd, code, sizeof code, lib_off);
  close(fd);
  printf("write over lib_fn: %ld\n", w);
  fflush(stdout);
  return fn(secret, loot);
}

// lib_fn's file offset: through the segment holding it.
static int find_offset(struct dl_phdr_info *info, size_t size, void *fn) {
  (void)size;
  uintptr_t at = (uintptr_t)fn - info->dlpi_addr;
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type == PT_LOAD && at >= ph->p_vaddr &&
        at < ph->p_vaddr + ph->p_filesz && strstr(info->dlpi_name, "libplugin")) {
      lib_off = (long)(at - ph->p_vaddr + ph->p_offset);
      return 1;
    }
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 2)
    return 2;
  lib_path = argv[1];
  void *lib = dlopen(lib_path, RTLD_NOW); /* main's plugin, validated */
  void *fn = lib ? dlsym(lib, "lib_fn") : NULL;
  if (!fn || !dl_iterate_phdr(find_offset, fn)) {
    printf("main: cannot load the plugin\n");
    return 1;
  }
  return run_attack("rewrite", fn);
}
