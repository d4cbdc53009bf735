/* scan.c - the code that is in the process before the program runs (mpk):
 * each executable mapping is checked - writable and executable, or
 * execute-only (it cannot be read), is refused; the system libc and
 * dynamic linker get their PKRU writes rewritten to traps (trusted.c);
 * libdipc, whose gates write PKRU with checks, is the runtime; any other
 * object holding a PKRU-writing byte sequence is refused - and replaced by
 * a private anonymous copy of its checked bytes: Linux lets a library's
 * file be written while it is mapped, and a dropped page would be re-read
 * from it. Later executable memory goes through the runtime (seccomp
 * filter, rt/exec.c), which does the same. Under sfi nothing is scanned,
 * but the code is copied all the same, at start and after each dlopen:
 * a domain that rewrote an instrumented library's file ran it without
 * its checks. So are, under both, the other file mappings of every loaded
 * object (its constants, relro and data; objects without code too),
 * whose unwritten pages showed a rewritten file's bytes: a domain widened
 * a bound in another domain's .rodata and read its secret through its
 * entry (under mpk the copies are made before the pages get their keys:
 * at start, and after a dlopen before its domains are loaded). Also
 * after iconv_open, whose converter modules libc loads with its own
 * dlopen (sfi_unknown.c). */
#define _GNU_SOURCE
#include "scan.h"
#include "../rt/procmaps.h"
#include "sfi_code.h"
#include "trusted.h"

#include <dipc/rt.h>
#include <dipc/sfi.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

enum { MAX_MAPPINGS = 2048 };

struct mapping {
  uintptr_t lo, hi;
  int prot, shared;
  unsigned major, minor;
  unsigned long ino;
  char path[256];
};

struct code {
  struct mapping *m;
  unsigned n;
  int files; /* also the other mappings of files */
};

/* Collects the executable mappings (and with `files` every other mapping
 * of a file); 1 when there are too many. */
static int collect_code(const struct dipc_mapping *d, void *p) {
  struct code *c = p;
  if (!(d->prot & PROT_EXEC) && !(c->files && d->ino))
    return 0;
  if (c->n == MAX_MAPPINGS) {
    fputs("dipc-loader: too many mappings to check\n", stderr);
    return 1;
  }
  struct mapping *x = &c->m[c->n++];
  *x = (struct mapping){d->lo,    d->hi,    d->prot, d->shared,
                        d->major, d->minor, d->ino,  ""};
  snprintf(x->path, sizeof x->path, "%s", d->path);
  return 0;
}

static int read_mappings(struct mapping *m, unsigned *n, int files) {
  struct code c = {m, 0, files};
  int r = dipc_maps_each(collect_code, &c);
  if (r < 0)
    perror("dipc-loader: /proc/self/maps");
  *n = c.n;
  return r ? -1 : 0;
}

static const char *name(const struct mapping *m) {
  return m->path[0] ? m->path : "[anonymous code]";
}

/* Under sfi, code that is not instrumented must not hold the call magic
 * (dipc/sfi.h): instrumented code could call the address after it, in the
 * middle of code nothing checks. The validator holds instrumented objects
 * to the same, but before their functions (validate/sfi_magic.h). */
static int stray_magic(const struct mapping *m, const unsigned char *copy) {
  static const unsigned char magic[4] = {
      DIPC_SFI_CALL_MAGIC & 0xff, (DIPC_SFI_CALL_MAGIC >> 8) & 0xff,
      (DIPC_SFI_CALL_MAGIC >> 16) & 0xff, DIPC_SFI_CALL_MAGIC >> 24};
  if (!sfi_code_on)
    return 0;
  size_t size = m->hi - m->lo, off = 0;
  const unsigned char *hit;
  while ((hit = memmem(copy + off, size - off, magic, 4)) &&
         sfi_code_contains(m->lo + (uintptr_t)(hit - copy)))
    off = (size_t)(hit - copy) + 1;
  if (!hit)
    return 0;
  fprintf(stderr,
          "dipc-loader: refusing %s under sfi: its code holds the sfi call "
          "magic at %#lx, so instrumented code could call the code after it "
          "unchecked\n",
          name(m), (unsigned long)(m->lo + (uintptr_t)(hit - copy)));
  return 1;
}

/* Checks one mapping in `copy`, its bytes (for PKRU writes when `scan`);
 * rewrites a trusted object's. */
static int check(const struct mapping *m, unsigned char *copy,
                 uintptr_t runtime, int scan) {
  if (m->prot & PROT_WRITE) {
    fprintf(stderr,
            "dipc-loader: refusing writable and executable memory at "
            "%#lx-%#lx %s: its code could be changed after it was checked\n",
            (unsigned long)m->lo, (unsigned long)m->hi, name(m));
    return -1;
  }
  if (stray_magic(m, copy))
    return -1;
  if (!scan || (runtime >= m->lo && runtime < m->hi))
    return 0;
  if (m->ino && trusted_file(m->major, m->minor, m->ino))
    return trusted_rewrite(m->lo, m->hi, copy, name(m));
  struct dipc_code_hit hit;
  if (!dipc_code_scan(copy, m->hi - m->lo, &hit))
    return 0;
  fprintf(stderr,
          "dipc-loader: refusing %s: it contains a %s instruction at %#lx, "
          "which could switch protection keys outside dIPC's gates\n",
          name(m), hit.insn, (unsigned long)(m->lo + hit.offset));
  return -1;
}

/* A private anonymous copy of m's bytes (m readable), or NULL. */
static unsigned char *copy_of(const struct mapping *m) {
  size_t size = m->hi - m->lo;
  unsigned char *copy = mmap(NULL, size, PROT_READ | PROT_WRITE,
                             MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (copy == MAP_FAILED) {
    perror("dipc-loader: copy of a mapping");
    return NULL;
  }
  memcpy(copy, (void *)m->lo, size);
  return copy;
}

/* Puts the copy in m's place with protection prot (the pages' sfi tags
 * are by address), or unmaps it. */
static int put_in_place(unsigned char *copy, const struct mapping *m,
                        int prot) {
  size_t size = m->hi - m->lo;
  if (mprotect(copy, size, prot) == 0 &&
      mremap(copy, size, size, MREMAP_MAYMOVE | MREMAP_FIXED,
             (void *)m->lo) != MAP_FAILED)
    return 0;
  fprintf(stderr, "dipc-loader: cannot put a copy in place of %s: %m\n",
          name(m));
  munmap(copy, size);
  return -1;
}

/* Checks the mapping and puts the checked copy in its place. */
static int seal_mapping(const struct mapping *m, uintptr_t runtime,
                        int scan) {
  if (strcmp(m->path, "[vsyscall]") == 0)
    return 0; /* the kernel's, execute-only, fixed */
  if (!(m->prot & PROT_READ)) {
    fprintf(stderr,
            "dipc-loader: refusing execute-only mapping %#lx-%#lx %s: it "
            "cannot be checked for PKRU writes\n",
            (unsigned long)m->lo, (unsigned long)m->hi, name(m));
    return -1;
  }
  unsigned char *copy = copy_of(m);
  if (!copy)
    return -1;
  int err = check(m, copy, runtime, scan);
  /* The vDSO is the kernel's special mapping: checked, left in place. */
  if (err == 0 && strcmp(m->path, "[vdso]") != 0)
    return put_in_place(copy, m, PROT_READ | PROT_EXEC);
  munmap(copy, m->hi - m->lo);
  return err;
}

/* Puts a private anonymous copy of a readable private mapping of a file in
 * its place, with its protection. */
static int copy_mapping(const struct mapping *m) {
  unsigned char *copy = copy_of(m);
  return copy ? put_in_place(copy, m, m->prot) : -1;
}

/* The loaded objects' segments (dl_iterate_phdr: the program's dlopen,
 * libc's own, objects without code alike), page-rounded. */
enum { MAX_SEGMENTS = 4096 };
struct segments {
  uintptr_t lo[MAX_SEGMENTS], hi[MAX_SEGMENTS];
  unsigned n;
};
static struct segments segments;

static int collect_segments(struct dl_phdr_info *info, size_t size, void *p) {
  (void)size;
  struct segments *s = p;
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type != PT_LOAD || ph->p_memsz == 0)
      continue;
    if (s->n == MAX_SEGMENTS)
      return 1;
    uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
    s->lo[s->n] = lo & ~(uintptr_t)4095;
    s->hi[s->n++] = (lo + ph->p_memsz + 4095) & ~(uintptr_t)4095;
  }
  return 0;
}

/* Whether m is a mapping of a loaded object's file still mapped from it
 * (copies are anonymous): readable, private, not code (sealed apart). */
static int loaded_object_data(const struct mapping *m) {
  if ((m->prot & PROT_EXEC) || m->shared || !(m->prot & PROT_READ) || !m->ino)
    return 0;
  for (unsigned i = 0; i < segments.n; ++i)
    if (m->lo < segments.hi[i] && m->hi > segments.lo[i])
      return 1;
  return 0;
}

/* The mappings of one pass (large: off the stack), under the lock (dlopen
 * pins from any thread). */
static struct mapping mappings[MAX_MAPPINGS];
static pthread_mutex_t mappings_lock = PTHREAD_MUTEX_INITIALIZER;

/* Seals every executable mapping (scan: checked for PKRU writes), or only
 * those of files (anonymous code is a copy already), and (`data`) first
 * copies the loaded objects' other mappings still mapped from their
 * files. After a dlopen those are the new objects' alone, which no other
 * thread writes yet (unless their constructors started one). */
static int seal_all(uintptr_t runtime, int scan, int data) {
  unsigned n;
  pthread_mutex_lock(&mappings_lock);
  int err = read_mappings(mappings, &n, data);
  if (err == 0 && data) {
    segments.n = 0;
    if (dl_iterate_phdr(collect_segments, &segments) != 0) {
      fputs("dipc-loader: too many segments of loaded objects\n", stderr);
      err = -1;
    }
  }
  for (unsigned i = 0; err == 0 && data && i < n; ++i)
    if (loaded_object_data(&mappings[i]))
      err = copy_mapping(&mappings[i]);
  for (unsigned i = 0; err == 0 && i < n; ++i)
    if ((mappings[i].prot & PROT_EXEC) && (scan || mappings[i].ino))
      err = seal_mapping(&mappings[i], runtime, scan);
  pthread_mutex_unlock(&mappings_lock);
  return err;
}

int scan_start(uintptr_t runtime, int data) {
  return seal_all(runtime, 1, data);
}

int scan_pin_code(void) { return seal_all(0, 0, 1); }
