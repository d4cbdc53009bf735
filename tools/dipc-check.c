/* dipc-check - runs the loader's validator (validate/validate.h) on files
 * before they run: dipc-run checks its program with it, so that a program
 * whose file is damaged (a record the loader would refuse, a segment past
 * the end of a truncated file) is refused with the reason rather than
 * crashing before the loader gets to it.
 *
 *   dipc-check FILE...
 *
 * Prints nothing for files that pass (dIPC objects with valid records, and
 * files with no dIPC records); for one that does not, prints
 * "dipc-check: refusing FILE: <rule>" and exits 78 (EX_CONFIG, as the
 * loader does). */
#include "validate.h"

#include <dipc/limits.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
  if (argc < 2 || strcmp(argv[1], "--help") == 0) {
    fputs("usage: dipc-check FILE...\n"
          "Refuses (exit 78) a file whose dIPC metadata the loader would "
          "refuse.\n",
          stderr);
    return argc < 2 ? 2 : 0;
  }
  int status = 0;
  for (int i = 1; i < argc; ++i) {
    char why[512];
    if (dipc_validate_path(argv[i], why, sizeof why) < 0) {
      fprintf(stderr, "dipc-check: refusing %s: %s\n", argv[i], why);
      status = DIPC_EXIT_REFUSED;
    }
  }
  return status;
}
