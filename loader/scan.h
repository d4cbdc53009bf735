/* scan.h - checks the code in the process at start (mpk backend), and
 * pins it (sfi). */
#ifndef DIPC_LOADER_SCAN_H
#define DIPC_LOADER_SCAN_H

#include <stdint.h>

/* Checks every executable mapping (libdipc's is the one holding
 * `runtime`, an address of its code) and replaces each by a private copy
 * of its checked bytes; with `data`, first every other mapping of the
 * loaded objects' files too (as scan_pin_code). Returns 0, or -1 after
 * printing what is refused. */
int scan_start(uintptr_t runtime, int data);

/* Replaces every executable mapping of a file, and every other mapping of
 * those objects' files, by a private copy of its bytes (no scan), so that
 * no write to the file changes code that runs or data that was loaded.
 * Under mpk before the objects' pages get their domains' keys (a copy
 * takes its place with key 0). Returns 0, or -1 after printing what is
 * refused. */
int scan_pin_code(void);

#endif
