// The <search.h> trees: libc's tfind, tsearch and tdelete follow the
// nodes' child pointers (which the domain can write: the nodes are in its
// heap) and hand each node's key to the comparator; tsearch writes the new
// node's address into its parent. Domain `sneak`, with no grant at all,
// makes a node of its own whose left child points into vault's secret:
// mode `read` has tfind take 8 bytes of the secret as the next node's key
// (the comparator gets them as its second argument), mode `write` has
// tsearch link its new node into vault's memory (zero bytes after the
// secret, a NULL child). Under `sfi` the loader walks the tree itself,
// checking each node as the running domain's (loader/sfi_search.c): the
// walk into vault faults and sneak's call returns DIPC_EFAULT. Control:
// under `none` libc's walk steals and writes. Mode `cycle`: a node that
// is its own child faults under `sfi` (libc's tfind would loop forever). Mode `tree` runs the
// functions as a program uses them (checked against a sorted array).
// RUN: %dipc-clang -fdipc -fdipc-sfi -O2 %s -o %t
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t read 2>&1 | FileCheck %s --check-prefix=STOPPED
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t write 2>&1 | FileCheck %s --check-prefix=STOPPED
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t tree 2>&1 | FileCheck %s --check-prefix=TREE
// RUN: %dipc-bin-dir/dipc-run --backend=sfi %t cycle 2>&1 | FileCheck %s --check-prefix=CYCLE
// RUN: %dipc-bin-dir/dipc-run --backend=none %t read 2>&1 | FileCheck %s --check-prefix=NONE-READ
// RUN: %dipc-bin-dir/dipc-run --backend=none %t write 2>&1 | FileCheck %s --check-prefix=NONE-WRITE
// RUN: %dipc-bin-dir/dipc-run --backend=none %t tree 2>&1 | FileCheck %s --check-prefix=TREE
// STOPPED: sneak returned 0, dipc_errno 14
// STOPPED: vault's word after the secret: 0
// STOPPED: nothing stolen
// CYCLE: dipc: sfi: a <search.h> tree deeper than any it builds refused
// CYCLE: sneak returned 0, dipc_errno 14
// NONE-READ: stole 'vault-se'
// NONE-WRITE: vault's word after the secret: {{[1-9a-f]}}
// TREE-NOT: libstdc++
// TREE: tree: 3000 inserted, 1500 deleted, 1500 found, 0 wrong, walk in order 1500, balanced
// TREE: tree returned 0, dipc_errno 0
#include "Inputs/vault.h"
#include <search.h>

/* glibc's node (misc/tsearch.c): the key, then the children, the left
 * one's low bit the node's colour. */
struct node { const void *key; uintptr_t left, right; };

static uintptr_t seen; /* a key the comparator got, not its own */
static int descend;    /* always left: to the end of the path */
static int go_left(const void *a, const void *b) __dom("sneak");
static int go_left(const void *a, const void *b) {
  if (a == b || descend)
    return -1; /* on to the left child */
  seen = (uintptr_t)b;
  return 0;
}

long sneak(const char *secret, int write) __dom("sneak") __entry;
long sneak(const char *secret, int write) {
  static struct node fake;
  static int key;
  void *root = &fake;
  fake.key = &key;
  fake.right = 0;
  if (write == 2) { /* a node that is its own left child */
    fake.left = (uintptr_t)&fake;
    descend = 1;
    return tfind(&key, &root, go_left) ? 1 : 0;
  }
  if (write) {
    /* the node at secret + 8: its left child is the zero word at
     * secret + 16, where tsearch links the new node */
    fake.left = (uintptr_t)(secret + 8);
    descend = 1;
    return tsearch(&key, &root, go_left) ? 1 : 0;
  }
  fake.left = (uintptr_t)secret - offsetof(struct node, key);
  seen = 0;
  tfind(&key, &root, go_left);
  return (long)seen;
}

long vault_word(int at) __dom("vault") __entry;
long vault_word(int at) {
  long w;
  memcpy(&w, vault_secret + at, sizeof w);
  return w;
}

static int by_value(const void *a, const void *b) __dom("sneak");
static int by_value(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

static int walked, last, in_order = 1, deepest;
static void visit(const void *node, VISIT which, int depth) __dom("sneak");
static void visit(const void *node, VISIT which, int depth) {
  if (depth > deepest)
    deepest = depth;
  if (which != postorder && which != leaf)
    return;
  int v = **(const int *const *)node;
  if (walked && v <= last)
    in_order = 0;
  last = v;
  walked++;
}

/* A program's use: 3000 keys in a scrambled order, every other deleted,
 * each looked up, the tree walked in order; the wrong answers counted. */
long tree(int *keys, int *out) __dom("sneak") __entry;
long tree(int *keys, int *out) {
  enum { N = 3000 };
  void *root = NULL;
  int wrong = 0, inserted = 0, deleted = 0, found = 0;
  for (int i = 0; i < N; i++) {
    keys[i] = (int)((i * 7919L) % N);
    void *n = tsearch(&keys[i], &root, by_value);
    inserted += n && *(int **)n == &keys[i];
  }
  for (int i = 0; i < N; i += 2)
    deleted += tdelete(&keys[i], &root, by_value) != NULL;
  for (int i = 0; i < N; i++) {
    void *n = tfind(&keys[i], &root, by_value);
    if ((n != NULL) != (i % 2 == 1) || (n && **(int **)n != keys[i]))
      wrong++;
    found += n != NULL;
  }
  twalk(root, visit);
  out[0] = inserted, out[1] = deleted, out[2] = found, out[3] = wrong;
  out[4] = in_order ? walked : -1;
  out[5] = deepest <= 21; /* a red-black tree of 1500: 2 log2(1501) */
  for (int i = 1; i < N; i += 2)
    tdelete(&keys[i], &root, by_value);
  return root == NULL ? 0 : -1;
}

static int tree_keys[3000] __dom("sneak");

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "read";
  const char *secret = vault_address();
  if (strcmp(mode, "tree") == 0) {
    int out[6] = {0};
    long r = tree(tree_keys, out);
    printf("tree: %d inserted, %d deleted, %d found, %d wrong, walk in order "
           "%d, %s\n", out[0], out[1], out[2], out[3], out[4],
           out[5] ? "balanced" : "too deep");
    printf("tree returned %ld, dipc_errno %d\n", r, dipc_errno);
    return 0;
  }
  int write = strcmp(mode, "write") == 0 ? 1 : strcmp(mode, "cycle") == 0 ? 2 : 0;
  long r = sneak(secret, write);
  int err = dipc_errno;
  printf("sneak returned %s, dipc_errno %d\n", r ? "a value" : "0", err);
  printf("vault's word after the secret: %lx\n", vault_word(16));
  char loot[9] = "";
  if (!write && r)
    memcpy(loot, &r, 8);
  printf(strstr(loot, "vault") ? "stole '%s'\n" : "nothing stolen%.0s\n",
         loot);
  return 0;
}
