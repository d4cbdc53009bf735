/* A bottom file that calls back up into its user: a cycle
 * (test/rt/import-graph.test), as backend.c once called every part's init. */
void part_init(void);
void lock(void) {}
void runtime_init(void) { part_init(); }
