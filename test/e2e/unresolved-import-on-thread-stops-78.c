// A call through an import that no loaded object defines stops the program
// with status 78 and names the entry, from the main thread and from any
// other: the runtime reports it from the first call's resolution, which
// runs on the calling thread's own stack (not in the crash handler).
// The same under sfi (-fdipc-sfi) and under `none`, for both binaries.
// RUN: %dipc-clang -fdipc -O2 %s -o %t -lpthread
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t.sfi -lpthread
// RUN: %if pku %{ sh -c '"$@"; echo "status $?"' sh %dipc-bin-dir/dipc-run %t main 2>&1 | FileCheck %s %}
// RUN: %if pku %{ sh -c '"$@"; echo "status $?"' sh %dipc-bin-dir/dipc-run %t thread 2>&1 | FileCheck %s %}
// RUN: sh -c '"$@"; echo "status $?"' sh %dipc-bin-dir/dipc-run --backend=sfi %t.sfi main 2>&1 | FileCheck %s
// RUN: sh -c '"$@"; echo "status $?"' sh %dipc-bin-dir/dipc-run --backend=sfi %t.sfi thread 2>&1 | FileCheck %s
// RUN: sh -c '"$@"; echo "status $?"' sh %dipc-bin-dir/dipc-run --backend=none %t thread 2>&1 | FileCheck %s
// RUN: sh -c '"$@"; echo "status $?"' sh %dipc-bin-dir/dipc-run --backend=none %t.sfi thread 2>&1 | FileCheck %s
// CHECK: dipc: cannot resolve entry 'plugin_add' of domain 'plugin' called from domain 'default': no loaded object defines it
// CHECK-NEXT: status 78
#include <dipc.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

int plugin_add(int x) __dom("plugin") __entry;

static void *run(void *arg) {
  (void)arg;
  printf("plugin_add: %d\n", plugin_add(2));
  return NULL;
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "main") == 0)
    return run(NULL) != NULL;
  pthread_t t;
  pthread_create(&t, NULL, run, NULL);
  pthread_join(t, NULL);
  return 0;
}
