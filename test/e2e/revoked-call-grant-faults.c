// A call through a revoked grant: the default domain requests a proxy to
// an entry of domain B (entry_register/entry_request, as the loader does
// for every import), keeps its address in a "slot" variable and gets the
// call grant to the proxy domain (grant_create, the loader's step A). The
// call works; after grant_revoke (which succeeds, and the grant handle goes
// stale) the next call through the slot must fault under mpk and sfi: the caller's
// APL no longer allows calling the proxy (paper §4, §6.2.1). Each call runs
// in a child process, which reports the result or the signal that killed
// it. Negative control: `--backend=none`, where the call still returns.
// Written against the rt API: a -fdipc program never sees the loader's
// grant handles.
// Under mpk the proxy finds no call permission in the caller's APL and
// stops the process as a security violation (SIGABRT).
// RUN: %rt-cc %s -o %t
// RUN: env DIPC_BACKEND=none %t | FileCheck %s --check-prefixes=CHECK,NONE
// RUN: %if pku %{ env DIPC_BACKEND=mpk %t 2>&1 | FileCheck %s --check-prefixes=CHECK,STOPPED %}
// The same under sfi: the program compiled with -fdipc -fdipc-sfi (with a
// record, so that it counts as instrumented), run by the loader.
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 -DSFI_UNITS -I%S/../rt/Inputs %s -o %t.sfi
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.sfi 2>&1 | FileCheck %s --check-prefixes=CHECK,STOPPED
// RUN: %dipc-bin-dir/dipc-run --backend=none %t.sfi 2>/dev/null | FileCheck %s --check-prefixes=CHECK,NONE
// CHECK: granted: call returned 42
// CHECK-NEXT: granted: caller exited with status 0
// CHECK-NEXT: grant_revoke 0, again -116
// STOPPED-NOT: revoked: call returned
// STOPPED: dipc: security violation: a domain called a proxy without a call grant to it
// STOPPED: revoked: caller killed by signal 6
// NONE-NEXT: revoked: call returned 42
// NONE-NEXT: revoked: caller exited with status 0
#include "rt-test.h"

#ifdef SFI_UNITS
#include <dipc.h>
int sfi_marker __dom("marker") = 1;
#endif

DOMAIN_CODE("dom_b") long answer(long x) { return x + 1; }

/* The caller's import slot: the proxy address entry_request gave. */
static long (*volatile slot)(long);

/* Calls through the slot in a child; reports what the call returned, then
 * how the child ended. */
static void call_in_child(const char *label) {
  fflush(stdout);
  pid_t pid = fork();
  EXPECT(pid >= 0);
  if (pid == 0) {
    long r = slot(41);
    printf("%s: call returned %ld\n", label, r);
    fflush(stdout);
    _exit(0);
  }
  int status;
  EXPECT(waitpid(pid, &status, 0) == pid);
  if (WIFSIGNALED(status))
    printf("%s: caller killed by signal %d\n", label, WTERMSIG(status));
  else
    printf("%s: caller exited with status %d\n", label, WEXITSTATUS(status));
}

int main(void) {
  dom_t b = dom_create();
  EXPECT(b >= 0);
  move_section_to(b, dom_b);
  struct dipc_entry_desc d = {(void *)answer, sig(1, 0, 1, 0, 0), 0};
  entry_t e = entry_register(b, 1, &d);
  EXPECT(e >= 0);
  dom_t proxies = entry_request(e, 1, &d);
  EXPECT(proxies >= 0);
  slot = (long (*)(long))d.address;

  grant_t g = grant_create(dom_default(), proxies);
  EXPECT(g >= 0);
  call_in_child("granted");
  int revoked = grant_revoke(g);
  printf("grant_revoke %d, again %d\n", revoked, grant_revoke(g));
  call_in_child("revoked");
  return 0;
}
