// Under `sfi` the functions a domain hands libc to call back run through
// callback proxies into that domain (loader/sfi_callbacks.c), so that
// their frames start below libc's (attack-sfi-callback-frames.c). Each
// such libc function still gives glibc's results, with callbacks of 0 to
// 4 arguments reading the caller's data: qsort, qsort_r, bsearch, lfind,
// lsearch, tsearch/tfind/tdelete, twalk, twalk_r, tdestroy (with free),
// scandir, ftw, nftw, glob's error function, a fopencookie stream (its
// seek function writes the position libc passes it: a copy, sfi_cookie.c),
// dl_iterate_phdr and pthread_once; a comparator may longjmp back out of
// qsort (the runtime lets a domain leave the calls it made into itself,
// rt/timeout.c). The same lines under `none`.
// RUN: rm -rf %t.dir && mkdir -p %t.dir/sub && touch %t.dir/a %t.dir/sub/b
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t -lpthread
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t %t.dir 2>&1 | FileCheck %s
// RUN: %dipc-bin-dir/dipc-run --backend=none %t %t.dir 2>&1 | FileCheck %s
// CHECK: qsort 1 3 4 7 8 9, qsort_r 1 3 4 7 8 9 (comparisons counted: yes)
// CHECK-NEXT: bsearch 7, lfind 3, lsearch appended 5 (n 7)
// CHECK-NEXT: tree: find 8, delete 4, walk 1 3 7 8 9, walk_r 1 3 7 8 9, destroyed
// CHECK-NEXT: scandir: 4 entries, first '.'
// CHECK-NEXT: ftw: 4 entries, nftw: 4 entries, 1 at depth 2
// CHECK-NEXT: glob: no match, the error function not called
// CHECK-NEXT: cookie: wrote 'through a cookie', read 'cookie data', fseek 0, ftell 7, then 'data', closed
// CHECK-NEXT: dl_iterate_phdr: found the program, pthread_once ran 1 time(s)
// CHECK-NEXT: longjmp out of a comparator: jumped after 3 comparisons, then wrote 7
// CHECK-NEXT: run returned 0, dipc_errno 0
#define _GNU_SOURCE
#include <dirent.h>
#include <ftw.h>
#include <glob.h>
#include <link.h>
#include <pthread.h>
#include <search.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dipc.h> // last: its __entry is a parameter's name in dirent.h

long run(const char *dir) __dom("work") __entry __perm("default", write);

static int by_int(const void *a, const void *b) {
  return *(const int *)a - *(const int *)b;
}

static int by_int_counted(const void *a, const void *b, void *count) {
  ++*(int *)count;
  return by_int(a, b);
}

static char walked[64];
static void walk_action(const void *node, VISIT v, int depth) {
  (void)depth;
  if (v == leaf || v == postorder)
    snprintf(walked + strlen(walked), sizeof walked - strlen(walked), " %d",
             **(int *const *)node);
}

static void walk_action_r(const void *node, VISIT v, void *out) {
  if (v == leaf || v == postorder)
    snprintf((char *)out + strlen(out), 64 - strlen(out), " %d",
             **(int *const *)node);
}

static int dot_first(const struct dirent **a, const struct dirent **b) {
  return strcmp((*a)->d_name, (*b)->d_name);
}

static int ftw_count, nftw_count, nftw_deep;
static int on_ftw(const char *path, const struct stat *st, int flag) {
  (void)path, (void)st, (void)flag;
  ftw_count++;
  return 0;
}
static int on_nftw(const char *path, const struct stat *st, int flag,
                   struct FTW *ftw) {
  (void)path, (void)st, (void)flag;
  nftw_count++;
  nftw_deep += ftw->level == 2;
  return 0;
}

static int glob_errors;
static int on_glob_error(const char *path, int err) {
  (void)path, (void)err;
  glob_errors++;
  return 0;
}

struct cookie {
  char written[32];
  const char *data;
  size_t at;
  int closed;
};
static ssize_t cookie_write(void *c, const char *buf, size_t n) {
  struct cookie *k = c;
  size_t len = strlen(k->written);
  if (n > sizeof k->written - 1 - len)
    n = sizeof k->written - 1 - len;
  memcpy(k->written + len, buf, n);
  return (ssize_t)n;
}
static ssize_t cookie_read(void *c, char *buf, size_t n) {
  struct cookie *k = c;
  size_t left = strlen(k->data) - k->at;
  n = n < left ? n : left;
  memcpy(buf, k->data + k->at, n);
  k->at += n;
  return (ssize_t)n;
}
static int cookie_seek(void *c, off64_t *pos, int whence) {
  struct cookie *k = c;
  off64_t len = (off64_t)strlen(k->data);
  off64_t to = *pos + (whence == SEEK_SET   ? 0
                       : whence == SEEK_CUR ? (off64_t)k->at
                                            : len);
  if (to < 0 || to > len)
    return -1;
  k->at = (size_t)to;
  *pos = to;
  return 0;
}
static int cookie_close(void *c) {
  ((struct cookie *)c)->closed = 1;
  return 0;
}

static int found_program;
static int on_object(struct dl_phdr_info *info, size_t size, void *arg) {
  (void)size;
  if (info->dlpi_name && info->dlpi_name[0] == '\0' && arg == &found_program)
    found_program = 1;
  return 0;
}

static jmp_buf out_of_qsort;
static int jumping_calls;
static int by_int_jumping(const void *a, const void *b) {
  if (++jumping_calls == 3)
    longjmp(out_of_qsort, 7);
  return by_int(a, b);
}

static int once_runs;
static void once_init(void) { once_runs++; }

long run(const char *dir) {
  int a[6] = {9, 4, 7, 1, 3, 8}, b[6], count = 0;
  memcpy(b, a, sizeof a);
  qsort(a, 6, sizeof a[0], by_int);
  qsort_r(b, 6, sizeof b[0], by_int_counted, &count);
  printf("qsort %d %d %d %d %d %d, qsort_r %d %d %d %d %d %d (comparisons "
         "counted: %s)\n",
         a[0], a[1], a[2], a[3], a[4], a[5], b[0], b[1], b[2], b[3], b[4],
         b[5], count > 0 ? "yes" : "no");

  int key = 7, key2 = 3, key3 = 5, c[8] = {1, 3, 4, 7, 8, 9};
  size_t n = 6;
  int *hit = bsearch(&key, a, 6, sizeof a[0], by_int);
  int *lf = lfind(&key2, c, &n, sizeof c[0], by_int);
  int *ls = lsearch(&key3, c, &n, sizeof c[0], by_int);
  printf("bsearch %d, lfind %d, lsearch appended %d (n %zu)\n",
         hit ? *hit : -1, lf ? *lf : -1, ls ? *ls : -1, n);

  void *root = NULL;
  for (int i = 0; i < 6; i++)
    tsearch(&a[i], &root, by_int);
  int k8 = 8, k4 = 4;
  void *found = tfind(&k8, &root, by_int);
  void *parent = tdelete(&k4, &root, by_int);
  twalk(root, walk_action);
  char walked_r[64] = "";
  twalk_r(root, walk_action_r, walked_r);
  int **copies[6];
  void *heap_root = NULL;
  for (int i = 0; i < 6; i++) {
    copies[i] = malloc(sizeof *copies[i]);
    tsearch(copies[i], &heap_root, by_int);
  }
  tdestroy(heap_root, free);
  printf("tree: find %d, delete %d, walk%s, walk_r%s, destroyed\n",
         found ? **(int **)found : -1, parent ? k4 : -1, walked, walked_r);

  struct dirent **list;
  int entries = scandir(dir, &list, NULL, dot_first);
  printf("scandir: %d entries, first '%s'\n", entries,
         entries > 0 ? list[0]->d_name : "");
  for (int i = 0; i < entries; i++)
    free(list[i]);
  if (entries >= 0)
    free(list);
  ftw(dir, on_ftw, 4);
  nftw(dir, on_nftw, 4, FTW_PHYS);
  printf("ftw: %d entries, nftw: %d entries, %d at depth 2\n", ftw_count,
         nftw_count, nftw_deep);

  glob_t g;
  char pattern[256];
  snprintf(pattern, sizeof pattern, "%s/no-such-*", dir);
  int gr = glob(pattern, 0, on_glob_error, &g);
  printf("glob: %s, the error function %s\n",
         gr == GLOB_NOMATCH ? "no match" : "matched",
         glob_errors ? "called" : "not called");
  if (gr == 0)
    globfree(&g);

  struct cookie k = {.data = "cookie data"};
  cookie_io_functions_t io = {.read = cookie_read, .write = cookie_write,
                              .seek = cookie_seek, .close = cookie_close};
  FILE *w = fopencookie(&k, "w", io);
  fputs("through a cookie", w);
  fflush(w);
  FILE *r = fopencookie(&k, "r", io);
  char line[32] = "";
  fgets(line, sizeof line, r);
  int sought = fseek(r, 7, SEEK_SET);
  long told = ftell(r);
  char rest[32] = "";
  fgets(rest, sizeof rest, r);
  fclose(r);
  k.closed = 0;
  fclose(w);
  printf("cookie: wrote '%s', read '%s', fseek %d, ftell %ld, then '%s', "
         "%s\n",
         k.written, line, sought, told, rest,
         k.closed ? "closed" : "not closed");

  dl_iterate_phdr(on_object, &found_program);
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, once_init);
  pthread_once(&once, once_init);
  printf("dl_iterate_phdr: %s, pthread_once ran %d time(s)\n",
         found_program ? "found the program" : "no program", once_runs);

  int d[4] = {4, 3, 2, 1};
  int jumped = setjmp(out_of_qsort);
  if (!jumped)
    qsort(d, 4, sizeof d[0], by_int_jumping);
  char after[32]; // this call's own stack, written after the jump
  snprintf(after, sizeof after, "then wrote %d", jumped);
  printf("longjmp out of a comparator: %s after %d comparisons, %s\n",
         jumped ? "jumped" : "no jump", jumping_calls, after);
  return 0;
}

int main(int argc, char **argv) {
  long r = run(argc > 1 ? argv[1] : ".");
  printf("run returned %ld, dipc_errno %d\n", r, dipc_errno);
  return r != 0;
}
