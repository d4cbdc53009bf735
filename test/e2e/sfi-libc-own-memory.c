// Under backend `sfi`, the libc interceptors let a domain use libc on its
// own memory: memcpy/memmove/memset/memcmp/memchr, the str* functions,
// snprintf with %s, %.*s and %n, sprintf, printf and puts of its own
// strings (stdout: it has write access to the default domain), qsort and
// bsearch of its own array, read and write through a pipe, strtol, sscanf
// into its own variables, and stdio on a stream it opened (fmemopen).
// The same output under `none`, where nothing is checked, and with
// _FORTIFY_SOURCE (the __*_chk variants).
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 -fno-builtin %s -o %t
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t 2>&1 | FileCheck %s
// RUN: %dipc-bin-dir/dipc-run --backend=none %t 2>&1 | FileCheck %s
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 -fno-builtin -D_FORTIFY_SOURCE=2 %s -o %t.fortify
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t.fortify 2>&1 | FileCheck %s
// CHECK: copied 'domain-owned text', moved 'owned text', cmp 0, chr 'text'
// CHECK-NEXT: str: len 17, cpy+cat 'domain-owned text!', dup 'domain', tok 'domain'
// CHECK-NEXT: snprintf: 'domain-owned text|dom|17' (17 chars before %n)
// CHECK-NEXT: sprintf: '42-domain'
// CHECK-NEXT: puts: domain-owned text
// CHECK-NEXT: sorted: 1 2 3 5 8, found 5
// CHECK-NEXT: pipe: 'through a pipe', strtol 1234 end 'x'
// CHECK-NEXT: sscanf: 7 'seven' 'ab' 2.50
// CHECK-NEXT: stream: 'first line' then 'second'
// CHECK-NEXT: decoys: 'decoy|42!' (end 1), tmpfile 'text' (end 1), freopen 1
// CHECK-NEXT: many: 1 2 3 4 5 6 7 8 9 10 ab ab ab ab ab ab ab ab ab ab 11
// CHECK-NEXT: worker returned 1, dipc_errno 0
#define _GNU_SOURCE
#include <dipc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char text[32] __dom("worker") = "domain-owned text";

static int by_value(const void *a, const void *b) __dom("worker") {
  return *(const int *)a - *(const int *)b;
}

int worker(void) __dom("worker") __entry __perm("default", write) {
  char copy[32], moved[32];
  memset(copy, 0, sizeof copy);
  memcpy(copy, text, strlen(text) + 1);
  memmove(moved, copy + 7, 11);
  printf("copied '%s', moved '%s', cmp %d, chr '%s'\n", copy, moved,
         memcmp(copy, text, sizeof copy), (char *)memchr(copy, 't', 32));

  char cat[32], tokens[32], *save;
  strcpy(cat, text);
  strcat(cat, "!");
  char *dup = strndup(text, 6);
  strncpy(tokens, text, sizeof tokens);
  printf("str: len %zu, cpy+cat '%s', dup '%s', tok '%s'\n", strlen(text), cat,
         dup, strtok_r(tokens, "-", &save));
  free(dup);

  char out[64];
  int count = 0;
  snprintf(out, sizeof out, "%s%n|%.*s|%d", text, &count, 3, text,
           (int)strlen(text));
  printf("snprintf: '%s' (%d chars before %%n)\n", out, count);
  sprintf(out, "%d-%.6s", 42, text);
  printf("sprintf: '%s'\n", out);
  fputs("puts: ", stdout);
  puts(text);

  int values[5] = {5, 3, 8, 1, 2}, key = 5;
  qsort(values, 5, sizeof values[0], by_value);
  int *hit = bsearch(&key, values, 5, sizeof values[0], by_value);
  printf("sorted: %d %d %d %d %d, found %d\n", values[0], values[1], values[2],
         values[3], values[4], hit ? *hit : -1);

  int fds[2];
  char got[32] = "";
  if (pipe(fds) != 0 || write(fds[1], "through a pipe", 15) != 15 ||
      read(fds[0], got, sizeof got) != 15)
    return 0;
  char *end;
  long n = strtol("1234x", &end, 10);
  printf("pipe: '%s', strtol %ld end '%s'\n", got, n, end);

  int seven = 0;
  char word[8], two[3] = "";
  double d = 0;
  if (sscanf("7 seven abc 2.5", "%d %7s %2c%*c %lf", &seven, word, two, &d) != 4)
    return 0;
  printf("sscanf: %d '%s' '%s' %.2f\n", seven, word, two, d);

  char lines[] = "first line\nsecond\n", line[32], second[32];
  FILE *f = fmemopen(lines, sizeof lines - 1, "r");
  if (!f || !fgets(line, sizeof line, f) || fscanf(f, "%31s", second) != 1)
    return 0;
  fclose(f);
  line[strcspn(line, "\n")] = 0;
  printf("stream: '%s' then '%s'\n", line, second);

  /* What a domain holds for its streams under sfi is a decoy
   * (loader/sfi_streams.c): the inline unlocked macros, libc's buffer for
   * fmemopen(NULL), fprintf, seeking, a temporary file, reopening. */
  FILE *m = fmemopen(NULL, 64, "w+");
  if (!m)
    return 0;
  fprintf(m, "%s|%d", "decoy", 42);
  putc_unlocked('!', m);
  rewind(m);
  char held[16] = "";
  int k = 0, c;
  while ((c = getc_unlocked(m)) != EOF && c != '\0' && k < 15)
    held[k++] = (char)c;
  int eof = feof_unlocked(m) != 0 || c == '\0';
  fclose(m);
  FILE *t = tmpfile();
  if (!t || fputs("tmp text", t) < 0 || fseek(t, 4, SEEK_SET) ||
      !fgets(line, sizeof line, t) || fileno(t) < 0)
    return 0;
  int at_end = getc_unlocked(t) == EOF && feof_unlocked(t); /* flags kept */
  t = freopen64("/dev/null", "r", t);
  int null_eof = t && getc(t) == EOF && feof(t) && !ferror(t);
  if (t)
    fclose(t);
  printf("decoys: '%s' (end %d), tmpfile '%s' (end %d), freopen %d\n", held,
         eof, line, at_end, null_eof);

  /* More arguments and strings than the check's small state holds. */
  char wide[128];
  const char *ab = "ab";
  snprintf(wide, sizeof wide,
           "%d %d %d %d %d %d %d %d %d %d %s %s %s %s %s %s %s %s %s %s %d", 1,
           2, 3, 4, 5, 6, 7, 8, 9, 10, ab, ab, ab, ab, ab, ab, ab, ab, ab, ab,
           11);
  printf("many: %s\n", wide);
  return 1;
}

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0);
  int r = worker();
  printf("worker returned %d, dipc_errno %d\n", r, (int)dipc_errno);
  return 0;
}
