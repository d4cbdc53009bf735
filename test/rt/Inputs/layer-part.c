/* A part that uses the bottom file (test/rt/import-graph.test). */
void lock(void);
void part_init(void) { lock(); }
