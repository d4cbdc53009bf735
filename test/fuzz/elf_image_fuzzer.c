/* elf_image_fuzzer.c - libFuzzer target for the ELF locating code
 * (elf_image.h): opening, section lookup by name, address translation and
 * note walking on any file, within the file's bytes. */
#include "elf_image.h"

#include <stdlib.h>
#include <string.h>

static int count_note(void *ctx, const char *name, uint32_t type,
                      const uint8_t *desc, uint32_t descsz) {
  (void)type;
  size_t *sum = ctx;
  *sum += strlen(name) + (descsz ? desc[descsz - 1] : 0);
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  uint8_t *copy = malloc(size ? size : 1);
  memcpy(copy, data, size);
  struct dipc_elf_image img;
  char err[256];
  if (dipc_elf_open(&img, copy, size, err, sizeof err) == 0) {
    size_t sum = 0;
    dipc_elf_notes(&img, count_note, &sum, err, sizeof err);
    int dup;
    for (unsigned i = 0; i < img.shnum; ++i) {
      const char *name = dipc_elf_section_name(&img, &img.sh[i]);
      if (name)
        dipc_elf_section(&img, name, &dup);
      const uint8_t *b = dipc_elf_bytes(&img, img.sh[i].sh_addr, 8);
      if (b)
        sum += b[7];
    }
    (void)sum;
  }
  free(copy);
  return 0;
}
