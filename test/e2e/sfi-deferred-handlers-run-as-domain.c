// What a domain registers with libc to run later keeps working under `sfi`,
// and runs as that domain (loader/sfi_callbacks.c): fork handlers
// (pthread_atfork) when the default domain forks, a thread_local
// destructor (__cxa_thread_atexit_impl) when the thread that registered it
// ends; and accepted: a key whose destructor is free, and an exit handler
// that is a library function given memory of the domain's own
// (__cxa_atexit with globfree, as a static object's destructor in a
// library is). Each handler records the domain it ran as; the report
// is computed from what they recorded.
// RUN: %dipc-clang -fdipc -fdipc-sfi -O1 %s -o %t.sfi -lpthread
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi 2>&1 | FileCheck %s
// CHECK: registered: 0 0 0 0
// CHECK-NEXT: fork: prepare as d, parent as d, child as d
// CHECK-NEXT: thread_local destructor ran as d
#include <dipc.h>
#include <dipc/rt.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <glob.h>
#include <sys/wait.h>
#include <unistd.h>

int __cxa_thread_atexit_impl(void (*fn)(void *), void *obj, void *dso);
int __cxa_atexit(void (*fn)(void *), void *arg, void *dso);
extern void *__dso_handle;

static long d_id __dom("d"), prepared __dom("d"), parented __dom("d"),
    tls_ran __dom("d");
static glob_t globbuf __dom("d");
static pthread_key_t key __dom("d");
// Written by the child's handler, read by the parent: shared memory.
static long *child_ran;

static void on_prepare(void) __dom("d") { prepared = dipc_current_domain(); }
static void on_parent(void) __dom("d") { parented = dipc_current_domain(); }
static void on_child(void) __dom("d") { *child_ran = dipc_current_domain(); }
static void tls_dtor(void *p) __dom("d") {
  (void)p;
  tls_ran = dipc_current_domain();
}

static void *thread_body(void *unused) __dom("d") {
  (void)unused;
  __cxa_thread_atexit_impl(tls_dtor, &tls_ran, __dso_handle);
  pthread_setspecific(key, malloc(32));
  return NULL;
}

long d_register(long *shared) __dom("d") __entry __perm("default", write) {
  d_id = dipc_current_domain();
  child_ran = shared;
  int a = pthread_atfork(on_prepare, on_parent, on_child);
  int b = pthread_key_create(&key, free);
  int c = __cxa_atexit((void (*)(void *))globfree, &globbuf, __dso_handle);
  pthread_t t;
  int e = pthread_create(&t, NULL, thread_body, NULL);
  if (e == 0)
    e = pthread_join(t, NULL);
  printf("registered: %d %d %d %d\n", a, b, c, e);
  return 0;
}

long d_report(long child) __dom("d") __entry __perm("default", write) {
  const char *as[2] = {"another domain", "d"};
  printf("fork: prepare as %s, parent as %s, child as %s\n",
         as[prepared == d_id], as[parented == d_id], as[child == d_id]);
  printf("thread_local destructor ran as %s\n", as[tls_ran == d_id]);
  return 0;
}

int main(void) {
  static long shared_word;
  d_register(&shared_word);
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    // The child's handler wrote its own copy: hand it to the parent.
    _exit((int)shared_word & 0x7f);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  d_report(WIFEXITED(status) ? WEXITSTATUS(status) : -1);
  return 0;
}
