/* landlock.h - keeps /proc/PID/mem of the process closed (mpk backend). */
#ifndef DIPC_LOADER_LANDLOCK_H
#define DIPC_LOADER_LANDLOCK_H

/* Restricts the process (and its children) with a Landlock rule set that
 * denies opening its own /proc/PID/mem, task/TID/mem and map_files/.
 * Returns 0, or -1 if the kernel has no Landlock or refused. */
int landlock_hide_own_memory(void);

#endif
