/* sfi_search.c - the <search.h> trees for instrumented code under `sfi`.
 * libc's tsearch, tfind, tdelete and twalk follow the nodes' child
 * pointers and hand each node's key to the comparator, and tsearch and
 * tdelete write into the nodes they pass: the nodes lie in the domain's
 * heap, so a domain that rewrote a child pointer had libc read another
 * domain's memory as a node (its first word came to the comparator as a
 * key) and link a new node into it (e2e/attack-sfi-tree-nodes.c). For
 * instrumented callers the loader keeps the tree itself, every node it
 * reads or writes checked as the running domain's first (tdestroy's
 * too, which passed libc's walk each key to the free function). The tree is a
 * left-leaning red-black tree (Sedgewick) in glibc's node layout (the key,
 * then the children, the left one's low bit the node's colour): a program
 * reads a node's key as its first word, as with libc's. A damaged tree
 * costs its domain its own nodes at most; one deeper than any tree these
 * functions build (a cycle) faults. */
#define _GNU_SOURCE
#include "sfi_intercept.h"

#include <search.h>
#include <stdlib.h>

struct node {
  const void *key;
  uintptr_t left; /* bit 0: this node is red */
  uintptr_t right;
};

typedef int (*compare_fn)(const void *, const void *);

/* Deeper than a red-black tree of 2^48 nodes: only a damaged tree is. */
#define MAX_DEPTH 128

static struct node *readable(const struct node *n) {
  SFI_READ(n, sizeof *n);
  return (struct node *)n;
}

static struct node *writable(struct node *n) {
  SFI_WRITE(n, sizeof *n);
  return n;
}

static void too_deep(unsigned depth) {
  if (depth > MAX_DEPTH)
    sfi_refuse_fault("a <search.h> tree deeper than any it builds");
}

static struct node *left_of(const struct node *n) {
  return (struct node *)(readable(n)->left & ~(uintptr_t)1);
}

static struct node *right_of(const struct node *n) {
  return (struct node *)readable(n)->right;
}

static int is_red(const struct node *n) {
  return n && (readable(n)->left & 1);
}

static void set_left(struct node *n, struct node *child) {
  writable(n)->left = (uintptr_t)child | (n->left & 1);
}

static void set_right(struct node *n, struct node *child) {
  writable(n)->right = (uintptr_t)child;
}

static void set_red(struct node *n, int red) {
  writable(n)->left = (n->left & ~(uintptr_t)1) | (red != 0);
}

static struct node *rotate_left(struct node *h) {
  struct node *x = right_of(h);
  set_right(h, left_of(x));
  set_left(x, h);
  set_red(x, is_red(h));
  set_red(h, 1);
  return x;
}

static struct node *rotate_right(struct node *h) {
  struct node *x = left_of(h);
  set_left(h, right_of(x));
  set_right(x, h);
  set_red(x, is_red(h));
  set_red(h, 1);
  return x;
}

static void flip_colours(struct node *h) {
  set_red(h, !is_red(h));
  set_red(left_of(h), !is_red(left_of(h)));
  set_red(right_of(h), !is_red(right_of(h)));
}

/* The left-leaning invariants again, on the way up. */
static struct node *fix_up(struct node *h) {
  if (is_red(right_of(h)) && !is_red(left_of(h)))
    h = rotate_left(h);
  if (is_red(left_of(h)) && is_red(left_of(left_of(h))))
    h = rotate_right(h);
  if (is_red(left_of(h)) && is_red(right_of(h)))
    flip_colours(h);
  return h;
}

struct insert {
  const void *key;
  compare_fn cmp;
  struct node *found; /* the key's node, new or old; NULL: no memory */
};

static struct node *insert(struct node *h, struct insert *in,
                           unsigned depth) {
  too_deep(depth);
  if (!h) {
    struct node *n = malloc(sizeof *n);
    if (n)
      *writable(n) = (struct node){in->key, 1, 0};
    in->found = n;
    return n;
  }
  int c = in->cmp(in->key, readable(h)->key);
  if (c == 0) {
    in->found = h;
    return h;
  }
  if (c < 0)
    set_left(h, insert(left_of(h), in, depth + 1));
  else
    set_right(h, insert(right_of(h), in, depth + 1));
  return fix_up(h);
}

/* Make h or its left child red before descending left. */
static struct node *move_red_left(struct node *h) {
  flip_colours(h);
  if (is_red(left_of(right_of(h)))) {
    set_right(h, rotate_right(right_of(h)));
    h = rotate_left(h);
    flip_colours(h);
  }
  return h;
}

static struct node *move_red_right(struct node *h) {
  flip_colours(h);
  if (is_red(left_of(left_of(h)))) {
    h = rotate_right(h);
    flip_colours(h);
  }
  return h;
}

static struct node *delete_min(struct node *h, struct node **min,
                               unsigned depth) {
  too_deep(depth);
  if (!left_of(h)) {
    *min = h;
    return NULL;
  }
  if (!is_red(left_of(h)) && !is_red(left_of(left_of(h))))
    h = move_red_left(h);
  set_left(h, delete_min(left_of(h), min, depth + 1));
  return fix_up(h);
}

/* Removes key's node (which the caller found): as libc's does, a node
 * with two children takes its successor's key and the successor's node
 * goes. */
static struct node *delete(struct node *h, const void *key, compare_fn cmp,
                           unsigned depth) {
  too_deep(depth);
  if (!h)
    return NULL; /* the comparator changed its mind: nothing removed */
  if (cmp(key, readable(h)->key) < 0) {
    if (left_of(h) && !is_red(left_of(h)) && !is_red(left_of(left_of(h))))
      h = move_red_left(h);
    set_left(h, delete(left_of(h), key, cmp, depth + 1));
    return fix_up(h);
  }
  if (is_red(left_of(h)))
    h = rotate_right(h);
  if (cmp(key, readable(h)->key) == 0 && !right_of(h)) {
    free(h);
    return NULL;
  }
  if (right_of(h) && !is_red(right_of(h)) && !is_red(left_of(right_of(h))))
    h = move_red_right(h);
  if (cmp(key, readable(h)->key) == 0) {
    struct node *min = NULL;
    set_right(h, delete_min(right_of(h), &min, depth + 1));
    writable(h)->key = readable(min)->key;
    free(min);
  } else {
    set_right(h, delete(right_of(h), key, cmp, depth + 1));
  }
  return fix_up(h);
}

/* The node holding key and its parent (NULL for the root). */
static struct node *find(struct node *n, const void *key, compare_fn cmp,
                         struct node **parent) {
  *parent = NULL;
  for (unsigned depth = 0; n; depth++) {
    too_deep(depth);
    int c = cmp(key, readable(n)->key);
    if (c == 0)
      return n;
    *parent = n;
    n = c < 0 ? left_of(n) : right_of(n);
  }
  return NULL;
}

static void walk(const struct node *n, void (*action)(const void *, VISIT,
                                                      void *),
                 void (*plain)(const void *, VISIT, int), void *closure,
                 unsigned depth) {
  too_deep(depth);
  const struct node *l = left_of(n), *r = right_of(n);
#define VISIT_AS(which)                                                        \
  (plain ? plain(n, which, (int)depth) : action(n, which, closure))
  if (!l && !r) {
    VISIT_AS(leaf);
    return;
  }
  VISIT_AS(preorder);
  if (l)
    walk(l, action, plain, closure, depth + 1);
  VISIT_AS(postorder);
  if (r)
    walk(r, action, plain, closure, depth + 1);
  VISIT_AS(endorder);
#undef VISIT_AS
}

SFI_EXPORT void *tsearch(const void *key, void **root, compare_fn cmp) {
  if (!SFI_CHECKED())
    return NEXT(tsearch)(key, root, cmp);
  if (!root)
    return NULL;
  SFI_WRITE(root, sizeof *root);
  struct insert in = {key, SFI_CALLBACK(cmp, 2), NULL};
  struct node *top = insert(*root, &in, 0);
  if (top) {
    set_red(top, 0);
    *root = top;
  }
  return in.found;
}

SFI_EXPORT void *tfind(const void *key, void *const *root, compare_fn cmp) {
  if (!SFI_CHECKED())
    return NEXT(tfind)(key, root, cmp);
  if (!root)
    return NULL;
  SFI_READ(root, sizeof *root);
  struct node *parent;
  return find(*root, key, SFI_CALLBACK(cmp, 2), &parent);
}

/* The deleted node's parent, or root itself (not NULL) when the deleted
 * node was the root (POSIX: unspecified, non-NULL); NULL if not found. */
SFI_EXPORT void *tdelete(const void *restrict key, void **restrict root,
                         compare_fn cmp) {
  if (!SFI_CHECKED())
    return NEXT(tdelete)(key, root, cmp);
  if (!root)
    return NULL;
  SFI_WRITE(root, sizeof *root);
  cmp = SFI_CALLBACK(cmp, 2);
  struct node *parent;
  if (!find(*root, key, cmp, &parent))
    return NULL;
  struct node *top = delete(*root, key, cmp, 0);
  if (top)
    set_red(top, 0);
  *root = top;
  return parent ? (void *)parent : (void *)root;
}

SFI_EXPORT void twalk(const void *root, void (*action)(const void *, VISIT,
                                                       int)) {
  if (!SFI_CHECKED()) {
    NEXT(twalk)(root, action);
    return;
  }
  action = SFI_CALLBACK(action, 3);
  if (root)
    walk(root, NULL, action, NULL, 0);
}

SFI_EXPORT void twalk_r(const void *root,
                        void (*action)(const void *, VISIT, void *),
                        void *closure) {
  if (!SFI_CHECKED()) {
    NEXT(twalk_r)(root, action, closure);
    return;
  }
  action = SFI_CALLBACK(action, 3);
  if (root)
    walk(root, action, NULL, closure, 0);
}

static void destroy(struct node *n, void (*free_node)(void *),
                    unsigned depth) {
  too_deep(depth);
  struct node *l = left_of(n), *r = right_of(n);
  if (l)
    destroy(l, free_node, depth + 1);
  if (r)
    destroy(r, free_node, depth + 1);
  free_node((void *)readable(n)->key);
  free(n);
}

SFI_EXPORT void tdestroy(void *root, void (*free_node)(void *)) {
  if (!SFI_CHECKED()) {
    NEXT(tdestroy)(root, free_node);
    return;
  }
  /* free is the loader's: it frees only the running domain's blocks */
  if (free_node != free)
    free_node = SFI_CALLBACK(free_node, 1);
  if (root)
    destroy(root, free_node, 0);
}
