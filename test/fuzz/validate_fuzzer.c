/* validate_fuzzer.c - libFuzzer target for the validator (validate.h): any
 * file must be accepted or refused with a message, never crash, hang or
 * read outside the file (AddressSanitizer). The input is copied into an
 * exactly-sized buffer so that ASan sees every read past its end. */
#include "elf_image.h"
#include "validate.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  uint8_t *copy = malloc(size ? size : 1);
  memcpy(copy, data, size);
  struct dipc_elf_image img;
  struct dipc_validated v;
  char err[512] = "";
  int status = -1;
  if (dipc_elf_open(&img, copy, size, err, sizeof err) == 0)
    status = dipc_validate(&img, &v, err, sizeof err);
  /* A refusal always says why. */
  if (status < 0 && err[0] == '\0')
    abort();
  free(copy);
  return 0;
}
