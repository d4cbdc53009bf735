#include <stdio.h>

#include "perm-twice.h"
int main(void) {
  printf("twice_get: %ld\n", twice_get(41));
  return 0;
}
