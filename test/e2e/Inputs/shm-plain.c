// The plain (uninstrumented, trusted) unit of e2e/attack-sfi-shmat-heap-
// region.c: it makes a System V segment, as a program sharing memory with
// a peer process would (instrumented code may not call shmget), and
// removes it at exit.
#include <stdlib.h>
#include <sys/ipc.h>
#include <sys/shm.h>

static int segment = -1;

static void remove_segment(void) { shmctl(segment, IPC_RMID, NULL); }

int shm_plain_make(long size) {
  segment = shmget(IPC_PRIVATE, (size_t)size, IPC_CREAT | 0600);
  if (segment >= 0)
    atexit(remove_segment);
  return segment;
}
