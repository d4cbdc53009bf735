/* landlock.c - the kernel reads and writes any memory of the process
 * through /proc/PID/mem (and /proc/PID/task/TID/mem), whatever its
 * protection keys: a domain could open it and read another's secrets, and
 * neither seccomp (paths are pointers) nor PR_SET_DUMPABLE (the process
 * itself always passes the check) stops it. Landlock does: the process may
 * open files for reading or writing beneath every directory it could at
 * start except its own entry of /proc, where each file but mem,
 * map_files/ (whose files can be mapped again without their keys) and task/
 * (each thread's mem) is allowed one by one, and the current threads'
 * task/TID/ files likewise. Also left out: /proc/kcore. Costs: entries
 * created later at the top of / and in /proc (new processes, new threads'
 * task/TID/) cannot be opened. The O_PATH descriptors of the allowed /proc
 * files stay open, so that the kernel keeps their inodes, which the rules
 * name. */
#define _GNU_SOURCE
#include "landlock.h"

#include <dirent.h>
#include <fcntl.h>
#include <linux/landlock.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define ACCESS (LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_WRITE_FILE)

static int allow(int ruleset, int dir, const char *name, int keep) {
  int fd = openat(dir, name, O_PATH | O_CLOEXEC);
  if (fd < 0)
    return 0; /* gone meanwhile */
  struct stat st;
  struct landlock_path_beneath_attr rule = {.allowed_access = ACCESS,
                                            .parent_fd = fd};
  if (fstat(fd, &st) == 0 && !S_ISDIR(st.st_mode) && !S_ISREG(st.st_mode))
    rule.allowed_access = 0; /* sockets and the like: not opened anyway */
  long r = rule.allowed_access ? syscall(SYS_landlock_add_rule, ruleset,
                                         LANDLOCK_RULE_PATH_BENEATH, &rule, 0)
                               : 0;
  if (keep && r == 0)
    (void)fcntl(fd, F_DUPFD_CLOEXEC, 512); /* the duplicate stays open */
  close(fd);
  return r == 0 ? 0 : -1;
}

/* Allows every entry of dir but those in `except` (NULL-terminated) and
 * symbolic links (their targets are what counts). */
static int allow_entries(int ruleset, const char *dir,
                         const char *const *except, int keep) {
  DIR *d = opendir(dir);
  if (!d)
    return -1;
  int err = 0;
  struct dirent *e;
  while (!err && (e = readdir(d))) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") ||
        e->d_type == DT_LNK)
      continue;
    int skip = 0;
    for (const char *const *x = except; *x && !skip; ++x)
      skip = strcmp(e->d_name, *x) == 0;
    if (!skip)
      err = allow(ruleset, dirfd(d), e->d_name, keep);
  }
  closedir(d);
  return err;
}

int landlock_hide_own_memory(void) {
  struct landlock_ruleset_attr attr = {.handled_access_fs = ACCESS};
  int ruleset =
      (int)syscall(SYS_landlock_create_ruleset, &attr, sizeof attr, 0);
  if (ruleset < 0)
    return -1;
  char self[64], task[96];
  snprintf(self, sizeof self, "/proc/%d", getpid());
  snprintf(task, sizeof task, "%s/task", self);
  const char *const root_except[] = {"proc", NULL};
  const char *const proc_except[] = {self + 6, "kcore", NULL};
  const char *const pid_except[] = {"mem", "map_files", "task", NULL};
  int err = allow_entries(ruleset, "/", root_except, 0) ||
            allow_entries(ruleset, "/proc", proc_except, 0) ||
            allow_entries(ruleset, self, pid_except, 1);
  DIR *threads = err ? NULL : opendir(task);
  struct dirent *e;
  while (threads && !err && (e = readdir(threads))) {
    if (e->d_name[0] == '.')
      continue;
    char dir[384];
    snprintf(dir, sizeof dir, "%s/%s", task, e->d_name);
    const char *const thread_except[] = {"mem", NULL};
    err = allow_entries(ruleset, dir, thread_except, 1);
  }
  if (threads)
    closedir(threads);
  if (!err)
    err = prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
          syscall(SYS_landlock_restrict_self, ruleset, 0) != 0;
  close(ruleset);
  return err ? -1 : 0;
}
