/* SPDX-License-Identifier: Apache-2.0 */
/* A program built only against the frozen 1.1 header (abi/1.1/mips/mips.h) must link
 * and run correctly with every later 1.x library, shared or static: what 1.1 added
 * (mips_default_threads, the thread-cap bits) behaves as 1.1 documented it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mips/mips.h"

_Static_assert(MIPS_VERSION_MAJOR == 1 && MIPS_VERSION_MINOR == 1,
               "this test must see the frozen 1.1 header, not the current one");

static int failures;
#define CHECK(cond)                                                              \
  do {                                                                           \
    if (!(cond)) {                                                               \
      fprintf(stderr, "old_binary_1_1: %s:%d: %s\n", __FILE__, __LINE__, #cond); \
      failures++;                                                                \
    }                                                                            \
  } while (0)

enum { N = 160 }; /* big enough for the library to split it across threads */

int main(void) {
  const uint32_t abi = mips_abi_version();
  CHECK((abi >> 16) == MIPS_VERSION_MAJOR && (abi & 0xffff) >= MIPS_VERSION_MINOR);
  const int threads = mips_default_threads();
  CHECK(threads >= 1 && threads <= 255);

  /* Small integers: exact sums, so every thread count gives the reference exactly. */
  float *a = malloc(sizeof(float) * N * N), *b = malloc(sizeof(float) * N * N);
  float *c1 = malloc(sizeof(float) * N * N), *c4 = malloc(sizeof(float) * N * N);
  for (int e = 0; e < N * N; ++e) a[e] = (float)(e % 7 - 3), b[e] = (float)(e % 5 - 2);
  CHECK(mips_matmul_f32(N, N, N, a, 0, N, 1, b, 0, N, 1, c1, 0, N, 1, MIPS_MATMUL_MAX_THREADS(1)) ==
        MIPS_OK);
  /* The same on up to 4 threads, into a column-major C. */
  CHECK(mips_matmul_f32(N, N, N, a, 0, N, 1, b, 0, N, 1, c4, 0, 1, N, MIPS_MATMUL_MAX_THREADS(4)) ==
        MIPS_OK);
  for (int i = 0; i < N; i += 13)
    for (int j = 0; j < N; j += 11) {
      float want = 0;
      for (int l = 0; l < N; ++l) want += a[i * N + l] * b[l * N + j];
      CHECK(c1[i * N + j] == want);
      CHECK(c4[j * N + i] == want);
    }
  free(a), free(b), free(c1), free(c4);

  /* 1.1's errors: a cap of 256 is not one; bit 2 is still undefined. */
  float x = 1, y = 1, z = 0;
  CHECK(mips_matmul_f32(1, 1, 1, &x, 0, 1, 1, &y, 0, 1, 1, &z, 0, 1, 1, MIPS_MATMUL_MAX_THREADS(256)) ==
        MIPS_ERROR_INVALID_ARGUMENT);
  CHECK(mips_matmul_f32(1, 1, 1, &x, 0, 1, 1, &y, 0, 1, 1, &z, 0, 1, 1, 4u) ==
        MIPS_ERROR_INVALID_ARGUMENT);
  CHECK(z == 0);

  printf("old_binary (1.1 header) with libmips %s: %s\n", mips_version_string(),
         failures ? "FAILED" : "ok");
  return failures != 0;
}
