// free/realloc of a block the running domain's heap does not hold is caught
// by the loader's allocator, whatever the backend: inside a cross-domain
// call the call fails with DIPC_EFAULT after a message naming the block and
// both domains; the block and its heap are untouched. A domain freeing the
// default domain's block, another domain's block, an interior pointer or a
// block twice; and (last, it ends the process) the default domain freeing a
// domain's block.
// RUN: %dipc-clang -fdipc -fdipc-recovery=setjmp -O0 %s -o %t.sj
// RUN: not --crash %dipc-bin-dir/dipc-run %t.sj 2>&1 | FileCheck %s
// RUN: not --crash %dipc-bin-dir/dipc-run --backend=none %t.sj 2>&1 | FileCheck %s
// RUN: %dipc-clang -fdipc -fdipc-recovery=try -O2 %s -o %t.try
// RUN: not --crash %dipc-bin-dir/dipc-run %t.try 2>&1 | FileCheck %s
// CHECK: dipc: free(0x{{[0-9a-f]+}}) in domain 'lib': not a block of its heap
// CHECK: lib frees main's block: errno 14, main's block intact: yes
// CHECK: dipc: free(0x{{[0-9a-f]+}}) in domain 'other': the block belongs to domain 'lib''s heap
// CHECK: other frees lib's block: errno 14, lib's block intact: yes
// CHECK: dipc: realloc(0x{{[0-9a-f]+}}) in domain 'lib': not the start of a block of the domain's heap
// CHECK: lib reallocs inside its block: errno 14
// CHECK: dipc: free(0x{{[0-9a-f]+}}) in domain 'lib': freed twice
// CHECK: lib frees twice: errno 14
// CHECK: lib allocates after all that: ok, errno 0
// CHECK: dipc: free(0x{{[0-9a-f]+}}) in domain 'default': the block belongs to domain 'lib''s heap
// CHECK-NOT: main went on
#include <dipc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *kept __dom("lib");

long lib_free(char *p) __dom("lib") __entry __perm("default", read);
long lib_free(char *p) {
  free(p);
  return 0;
}

long lib_keep(void) __dom("lib") __entry __perm("default", read);
long lib_keep(void) {
  kept = malloc(32);
  memcpy(kept, "lib's block", 12);
  return (long)kept;
}

long lib_kept_intact(void) __dom("lib") __entry __perm("default", read);
long lib_kept_intact(void) { return memcmp(kept, "lib's block", 12) == 0; }

long lib_realloc_inside(void) __dom("lib") __entry __perm("default", read);
long lib_realloc_inside(void) { return (long)realloc(kept + 8, 64); }

long lib_double_free(void) __dom("lib") __entry __perm("default", read);
static char *volatile victim __dom("lib"); // the optimiser drops malloc+free
long lib_double_free(void) {
  victim = malloc(40);
  free(victim);
  free(victim);
  return 0;
}

long lib_alloc_more(void) __dom("lib") __entry __perm("default", read);
long lib_alloc_more(void) {
  long ok = 1;
  for (int i = 0; i < 100; i++) {
    char *p = malloc(40 + i);
    ok &= p != NULL;
    free(p);
  }
  return ok;
}

long other_free(char *p) __dom("other") __entry __perm("default", read);
long other_free(char *p) {
  free(p);
  return 0;
}

int main(void) {
  char *mine = malloc(32);
  strcpy(mine, "main's block");
  lib_free(mine);
  int err = dipc_errno;
  printf("lib frees main's block: errno %d, main's block intact: %s\n", err,
         strcmp(mine, "main's block") == 0 ? "yes" : "no");
  fflush(stdout);
  free(mine);

  char *libs = (char *)lib_keep();
  other_free(libs);
  err = dipc_errno;
  printf("other frees lib's block: errno %d, lib's block intact: %s\n", err,
         lib_kept_intact() ? "yes" : "no");
  fflush(stdout);

  lib_realloc_inside();
  printf("lib reallocs inside its block: errno %d\n", dipc_errno);
  fflush(stdout);
  lib_double_free();
  printf("lib frees twice: errno %d\n", dipc_errno);
  long ok = lib_alloc_more();
  err = dipc_errno;
  printf("lib allocates after all that: %s, errno %d\n", ok ? "ok" : "FAILED",
         err);
  fflush(stdout);
  free(libs);
  printf("main went on\n");
  return 0;
}
