// object_range(name, exec_only, &lo, &hi): the address range of a loaded
// object's segments (its executable ones only, with exec_only), found by
// dl_iterate_phdr: the object whose name contains `name`, or the program
// itself for "". Not by /proc/self/maps, which names none of an object's
// mappings under `sfi` (the loader replaces them by private copies).
#ifndef OBJECT_RANGE_H
#define OBJECT_RANGE_H
#define _GNU_SOURCE
#include <link.h>
#include <stdint.h>
#include <string.h>

struct object_range_query {
  const char *name;
  int exec_only, first;
  uintptr_t lo, hi;
};

static int object_range_visit(struct dl_phdr_info *info, size_t size,
                              void *p) {
  (void)size;
  struct object_range_query *q = p;
  int program = q->first++ == 0;
  if (q->name[0] ? !strstr(info->dlpi_name, q->name) : !program)
    return 0;
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type != PT_LOAD || (q->exec_only && !(ph->p_flags & PF_X)))
      continue;
    uintptr_t lo = info->dlpi_addr + ph->p_vaddr, hi = lo + ph->p_memsz;
    q->lo = q->lo && q->lo < lo ? q->lo : lo;
    q->hi = q->hi > hi ? q->hi : hi;
  }
  return 1;
}

static inline int object_range(const char *name, int exec_only, uintptr_t *lo,
                               uintptr_t *hi) {
  struct object_range_query q = {name, exec_only, 0, 0, 0};
  dl_iterate_phdr(object_range_visit, &q);
  *lo = q.lo, *hi = q.hi;
  return q.hi != 0;
}
#endif
