/* A plain library (no dIPC records) whose code holds the sfi call magic:
 * the immediate of its one instruction. */
unsigned plain_magic(void) { return 0xcc1d5fc0u; }
