/* SPDX-License-Identifier: Apache-2.0 */
/* Binds the kernel provider up front through mipsrt_bind() and reports the status
 * instead of exiting: exits 0 if the status is the one given as argv[1]. */
#include "seed.h"

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s <expected mipsrt_bind() status>\n", argv[0]);
    return 2;
  }
  const int status = mipsrt_bind();
  printf("mipsrt_bind() = %d, message: \"%s\"\n", status, mipsrt_error_message());
  /* A second call answers the same without retrying. */
  if (mipsrt_bind() != status) return 1;
  return status == atoi(argv[1]) ? 0 : 1;
}
