/* SPDX-License-Identifier: Apache-2.0 */
/* A program built only against the frozen 1.2 header (abi/1.2/mips/mips.h) must link
 * and run correctly with every later 1.x library, shared or static: what 1.2 added
 * (batched calls, pre-packed B, MIPS_MATMUL_ANY_ORDER, MIPS_ERROR_OUT_OF_MEMORY) behaves
 * as 1.2 documented it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mips/mips.h"

_Static_assert(MIPS_VERSION_MAJOR == 1 && MIPS_VERSION_MINOR == 2,
               "this test must see the frozen 1.2 header, not the current one");

static int failures;
#define CHECK(cond)                                                              \
  do {                                                                           \
    if (!(cond)) {                                                               \
      fprintf(stderr, "old_binary_1_2: %s:%d: %s\n", __FILE__, __LINE__, #cond); \
      failures++;                                                                \
    }                                                                            \
  } while (0)

enum { BATCH = 3, M = 5, N = 9, K = 70 };

/* C[i][j] of entry e, summed in ascending k (small integers: exact). */
static float reference(const float *a, const float *b, int e, int i, int j) {
  float sum = 0;
  for (int l = 0; l < K; ++l) sum += a[e * M * K + i * K + l] * b[e * K * N + l * N + j];
  return sum;
}

int main(void) {
  const uint32_t abi = mips_abi_version();
  CHECK((abi >> 16) == MIPS_VERSION_MAJOR && (abi & 0xffff) >= MIPS_VERSION_MINOR);

  float a[BATCH * M * K], b[BATCH * K * N], c[BATCH * M * N];
  for (int e = 0; e < BATCH * M * K; ++e) a[e] = (float)(e % 7 - 3);
  for (int e = 0; e < BATCH * K * N; ++e) b[e] = (float)(e % 5 - 2);

  /* Batched: entry e at offset e * stride of each operand. */
  CHECK(mips_matmul_batch_f32(BATCH, M, N, K, a, 0, M * K, K, 1, b, 0, K * N, N, 1, c, 0, M * N,
                              N, 1, 0) == MIPS_OK);
  for (int e = 0; e < BATCH; ++e)
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) CHECK(c[e * M * N + i * N + j] == reference(a, b, e, i, j));

  /* Pre-packed B, with any order (exact data: the same sums), then accumulated. */
  mips_packed_b *packed = NULL;
  CHECK(mips_pack_b_f32(K, N, b, 0, N, 1, &packed) == MIPS_OK && packed != NULL);
  memset(c, 0, sizeof c);
  CHECK(mips_matmul_packed_f32(M, a, 0, K, 1, packed, c, 0, N, 1, MIPS_MATMUL_ANY_ORDER) ==
        MIPS_OK);
  CHECK(mips_matmul_packed_f32(M, a, 0, K, 1, packed, c, 0, N, 1, MIPS_MATMUL_ACCUMULATE) ==
        MIPS_OK);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) CHECK(c[i * N + j] == 2 * reference(a, b, 0, i, j));
  mips_packed_b_free(packed);

  /* int8 packed, and 1.2's errors: a NULL handle, a handle of the other element type. */
  int8_t a8[M * K], b8[K * N];
  int32_t c8[M * N];
  for (int e = 0; e < M * K; ++e) a8[e] = (int8_t)(e % 9 - 4);
  for (int e = 0; e < K * N; ++e) b8[e] = (int8_t)(e % 11 - 5);
  CHECK(mips_pack_b_i8(K, N, b8, 0, N, 1, &packed) == MIPS_OK);
  CHECK(mips_matmul_packed_i8i32(M, a8, 0, K, 1, packed, c8, 0, N, 1, 0) == MIPS_OK);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; j += 4) {
      int32_t want = 0;
      for (int l = 0; l < K; ++l) want += a8[i * K + l] * b8[l * N + j];
      CHECK(c8[i * N + j] == want);
    }
  CHECK(mips_matmul_packed_f32(M, a, 0, K, 1, (const mips_packed_b *)packed, c, 0, N, 1, 0) ==
        MIPS_ERROR_INVALID_ARGUMENT);
  CHECK(mips_matmul_packed_i8i32(M, a8, 0, K, 1, NULL, c8, 0, N, 1, 0) ==
        MIPS_ERROR_NULL_POINTER);
  mips_packed_b_free(packed);
  CHECK(mips_pack_b_f32(K, N, b, 0, N, 1, NULL) == MIPS_ERROR_NULL_POINTER);
  CHECK(strcmp(mips_status_string(MIPS_ERROR_OUT_OF_MEMORY), "unknown status") != 0);

  printf("old_binary (1.2 header) with libmips %s: %s\n", mips_version_string(),
         failures ? "FAILED" : "ok");
  return failures != 0;
}
