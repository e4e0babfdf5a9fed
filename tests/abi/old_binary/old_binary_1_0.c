/* SPDX-License-Identifier: Apache-2.0 */
/* A program built only against the frozen 1.0 header (abi/1.0/mips/mips.h) must link
 * and run correctly with every later 1.x library, shared or static. */
#include <stdio.h>
#include <string.h>

#include "mips/mips.h"

_Static_assert(MIPS_VERSION_MAJOR == 1 && MIPS_VERSION_MINOR == 0,
               "this test must see the frozen 1.0 header, not the current one");

static int failures;
#define CHECK(cond)                                                   \
  do {                                                                \
    if (!(cond)) {                                                    \
      fprintf(stderr, "old_binary: %s:%d: %s\n", __FILE__, __LINE__, #cond); \
      failures++;                                                     \
    }                                                                 \
  } while (0)

int main(void) {
  /* The 1.0 start-up check of ABI.md. */
  const uint32_t abi = mips_abi_version();
  CHECK((abi >> 16) == MIPS_VERSION_MAJOR && (abi & 0xffff) >= MIPS_VERSION_MINOR);
  CHECK(mips_version_string() != NULL && mips_kernel_name() != NULL);
  CHECK(strcmp(mips_status_string(MIPS_ERROR_OVERLAP), mips_status_string(MIPS_OK)) != 0);

  /* f32: a 3x4 by 4x2 product, then += the same, every value exact. */
  const float a[12] = {1, 2, 3, 4, -1, 0, 2, 5, 7, -3, 1, 0};
  const float b[8] = {1, -2, 0, 3, 4, 1, -1, 2};
  const float want[6] = {9, 15, 2, 14, 11, -22};
  float c[6];
  memset(c, 0xff, sizeof c); /* NaN: overwrite must not read it */
  CHECK(mips_matmul_f32(3, 2, 4, a, 0, 4, 1, b, 0, 2, 1, c, 0, 2, 1, 0) == MIPS_OK);
  for (int i = 0; i < 6; ++i) CHECK(c[i] == want[i]);
  CHECK(mips_matmul_f32(3, 2, 4, a, 0, 4, 1, b, 0, 2, 1, c, 0, 2, 1, MIPS_MATMUL_ACCUMULATE) == MIPS_OK);
  for (int i = 0; i < 6; ++i) CHECK(c[i] == 2 * want[i]);

  /* int8 -> int32, B transposed through its strides. */
  const int8_t qa[4] = {-128, 127, 3, -2};
  const int8_t qbt[4] = {1, 2, -1, 4}; /* B^T stored 2 x 2 row-major */
  int32_t qc[4];
  CHECK(mips_matmul_i8i32(2, 2, 2, qa, 0, 2, 1, qbt, 0, 1, 2, qc, 0, 2, 1, 0) == MIPS_OK);
  CHECK(qc[0] == -128 * 1 + 127 * 2 && qc[1] == -128 * -1 + 127 * 4);
  CHECK(qc[2] == 3 * 1 + -2 * 2 && qc[3] == 3 * -1 + -2 * 4);

  /* 1.0's errors are still the same errors. */
  CHECK(mips_matmul_f32(-1, 2, 4, a, 0, 4, 1, b, 0, 2, 1, c, 0, 2, 1, 0) == MIPS_ERROR_INVALID_ARGUMENT);
  /* Bit 1 became MIPS_MATMUL_ANY_ORDER in 1.2; bit 2 is still undefined. */
  CHECK(mips_matmul_f32(3, 2, 4, a, 0, 4, 1, b, 0, 2, 1, c, 0, 2, 1, 4u) == MIPS_ERROR_INVALID_ARGUMENT);
  CHECK(mips_matmul_f32(3, 2, 4, a, 0, 4, 1, b, 0, 2, 1, c, 0, 0, 1, 0) == MIPS_ERROR_OVERLAP);

  printf("old_binary (1.0 header) with libmips %s: %s\n", mips_version_string(),
         failures ? "FAILED" : "ok");
  return failures != 0;
}
