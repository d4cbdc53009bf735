// Under `sfi` the loader does the str* functions' work itself within the
// lengths it checked (memcpy, strncmp, memmem, its own strtok_r and span
// loops) instead of handing libc strings another thread could change.
// Here a domain's calls at their edges (empty strings and sets, no match,
// leading and trailing delimiters, padding, case, a NULL continuation)
// must give what glibc's own functions give: the same lines under `none`,
// where every call goes to glibc, as under `sfi`.
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 -fno-builtin %s -o %t
// RUN: %dipc-bin-dir/dipc-run --backend=none %t 2>&1 | FileCheck %s
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t 2>&1 | FileCheck %s
// CHECK: tok: [a] [bb] [c] end
// CHECK-NEXT: tok empty: end
// CHECK-NEXT: tok only delims: end
// CHECK-NEXT: strtok: [x] [y] end
// CHECK-NEXT: spn: 4 0 5 0 | cspn: 2 5 0 | pbrk: 'llo' none none
// CHECK-NEXT: rchr: 'o' 'z' end:0 none
// CHECK-NEXT: str: 'needle!' '' none | case: 'NeEdle!' none 'hay'
// CHECK-NEXT: ncpy: 'ab' 0 0 0 | stpncpy at 2 | ncpy full: 'abcd'
// CHECK-NEXT: cat: 'one-two' ncat: 'one-tw' stpcpy at 3
// CHECK-NEXT: cmp: 0 neg pos 0 | ncmp: 0 neg | casecmp: 0 pos
// CHECK-NEXT: dup: 'dup me' ndup: 'du'
// CHECK-NEXT: worker returned 1, dipc_errno 0
#define _GNU_SOURCE /* strcasestr */
#include <dipc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *sign(int v) { return v < 0 ? "neg" : v > 0 ? "pos" : "0"; }

static void tokens(const char *label, const char *text, const char *delim) {
  char buf[64], *save = NULL;
  strcpy(buf, text);
  printf("%s:", label);
  for (char *t = strtok_r(buf, delim, &save); t;
       t = strtok_r(NULL, delim, &save))
    printf(" [%s]", t);
  printf(" end\n");
}

long worker(void) __dom("strings") __entry __perm("default", write);
long worker(void) {
  tokens("tok", ",,a,bb;;c;", ",;");
  tokens("tok empty", "", ",");
  tokens("tok only delims", ",,,", ",");
  char words[] = " x  y ";
  printf("strtok:");
  for (char *t = strtok(words, " "); t; t = strtok(NULL, " "))
    printf(" [%s]", t);
  printf(" end\n");

  const char *hello = "hello";
  char *p1 = strpbrk(hello, "lo"), *p2 = strpbrk(hello, "xyz"),
       *p3 = strpbrk(hello, "");
  printf("spn: %zu %zu %zu %zu | cspn: %zu %zu %zu | pbrk: '%s' %s %s\n",
         strspn(hello, "hel"), strspn(hello, ""), strspn(hello, "olleh"),
         strspn("", "abc"), strcspn(hello, "lo"), strcspn(hello, "xyz"),
         strcspn("", "a"), p1 ? p1 : "none", p2 ? p2 : "none",
         p3 ? p3 : "none");

  const char *r1 = strrchr("foo", 'o'), *r2 = strrchr("zz", 'z'),
             *r3 = strrchr("abc", '\0'), *r4 = strrchr("abc", 'x');
  printf("rchr: '%s' '%s' end:%d %s\n", r1, r2, r3 ? *r3 : -1,
         r4 ? r4 : "none");

  const char *hay = "haystack needle!";
  char *s1 = strstr(hay, "needle"), *s2 = strstr(hay, ""),
       *s3 = strstr(hay, "pin");
  char *c1 = strcasestr("HaY NeEdle!", "needle"),
       *c2 = strcasestr("hay", "hays"), *c3 = strcasestr("hay", "");
  printf("str: '%s' '%s' %s | case: '%s' %s '%s'\n", s1,
         s2 == hay ? "" : "?", s3 ? s3 : "none", c1 ? c1 : "none",
         c2 ? c2 : "none", c3 ? c3 : "none");

  char pad[6] = "xxxxx";
  strncpy(pad, "ab", 5);
  char pad2[6] = "xxxxx";
  char *end = stpncpy(pad2, "ab", 5);
  char full[5];
  strncpy(full, "abcdef", 4);
  full[4] = '\0';
  printf("ncpy: '%s' %d %d %d | stpncpy at %td | ncpy full: '%s'\n", pad,
         pad[2], pad[3], pad[4], end - pad2, full);

  char cat[16] = "one";
  char ncat[16] = "one";
  char dst[8];
  strcat(cat, "-two");
  strncat(ncat, "-two", 3);
  char *e = stpcpy(dst, "abc");
  printf("cat: '%s' ncat: '%s' stpcpy at %td\n", cat, ncat, e - dst);

  printf("cmp: %s %s %s %s | ncmp: %s %s | casecmp: %s %s\n",
         sign(strcmp("abc", "abc")), sign(strcmp("ab", "abc")),
         sign(strcmp("b", "abc")), sign(strcmp("", "")),
         sign(strncmp("abcx", "abcy", 3)), sign(strncmp("a", "b", 5)),
         sign(strcasecmp("HeLLo", "hello")), sign(strncasecmp("b", "A", 1)));

  char *d = strdup("dup me"), *nd = strndup("dup me", 2);
  printf("dup: '%s' ndup: '%s'\n", d, nd);
  free(d);
  free(nd);
  return 1;
}

int main(void) {
  long r = worker();
  printf("worker returned %ld, dipc_errno %d\n", r, dipc_errno);
  return 0;
}
