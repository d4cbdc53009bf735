// A library that could switch protection keys: never called, bytes only.
__attribute__((used, naked)) static void gadget(void) {
  __asm__(".byte 0x0f, 0x01, 0xef");
}
int library_value(void) { return 7; }
