/* attack-anycall-register-refused.c: a dlopen'd library (default domain)
 * tries to rebind the program's anycall stub to an entry of its own, and
 * to register addresses that are no stubs. Returns its entry handle. */
#include <dipc/rt.h>
#include <stdio.h>

static long mine(long x) { return x * 1000; }

long attack(void *stub, void *plain) {
  struct dipc_signature sig = {1, 0, 1, 0, 0}, other = {2, 0, 1, 0, 0};
  struct dipc_entry_desc desc = {(void *)mine, sig, 0};
  entry_t own = entry_register(dom_default(), 1, &desc);
  printf("overwrite victim's stub: %ld\n",
         dipc_anycall_register(own, stub, &sig));
  printf("register a plain function: %ld\n",
         dipc_anycall_register(own, plain, &sig));
  printf("wrong signature: %ld\n", dipc_anycall_register(own, stub, &other));
  fflush(stdout);
  return own;
}
