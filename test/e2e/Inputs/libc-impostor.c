/* A library that calls itself libc.so.6: a function that gives its caller
 * every protection key. */
void open_all_keys(void) {
  __asm__ volatile(
      "xor %%ecx, %%ecx\n\txor %%edx, %%edx\n\txor %%eax, %%eax\n\t"
      "wrpkru" ::
          : "rax", "rcx", "rdx", "memory");
}
