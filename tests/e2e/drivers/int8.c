/* SPDX-License-Identifier: Apache-2.0 */
#include "int8.h"
#include "e2e_driver.h"

int main(void) {
  /* Full int8 range, including -128 * -128. */
  enum { M = 7, N = 19, K = 257 };
  static int8_t a[M * K], b[K * N];
  for (int x = 0; x < M * K; ++x) a[x] = (int8_t)(x % 3 == 0 ? -128 : e2e_value(x, 127));
  for (int x = 0; x < K * N; ++x) b[x] = (int8_t)(x % 5 == 0 ? -128 : e2e_value(x + 1, 127));
  mips_memref_i8_2d ma = E2E_ROW_MAJOR(mips_memref_i8_2d, a, M, K);
  mips_memref_i8_2d mb = E2E_ROW_MAJOR(mips_memref_i8_2d, b, K, N);
  mips_memref_i32_2d r;
  _mlir_ciface_qmatmul(&r, &ma, &mb);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      int32_t want = 0;
      for (int l = 0; l < K; ++l) want += a[i * K + l] * b[l * N + j];
      EXPECT(E2E_AT(r, i, j) == want, "(%d,%d) = %d, expected %d", i, j, E2E_AT(r, i, j), want);
    }
  free(r.allocated);

  /* C + A * B with the extremes everywhere. */
  static int8_t qa[6 * 300], qb[300 * 5];
  int32_t qc[30];
  for (int x = 0; x < 6 * 300; ++x) qa[x] = (int8_t)(x % 2 ? 127 : -128);
  for (int x = 0; x < 300 * 5; ++x) qb[x] = (int8_t)(x % 3 ? -128 : 127);
  for (int x = 0; x < 30; ++x) qc[x] = 1000 * x - 15000;
  mips_memref_i8_2d mqa = E2E_ROW_MAJOR(mips_memref_i8_2d, qa, 6, 300);
  mips_memref_i8_2d mqb = E2E_ROW_MAJOR(mips_memref_i8_2d, qb, 300, 5);
  mips_memref_i32_2d mqc = E2E_ROW_MAJOR(mips_memref_i32_2d, qc, 6, 5);
  _mlir_ciface_qmatmul_accumulate(&r, &mqa, &mqb, &mqc);
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 5; ++j) {
      int32_t want = 1000 * (i * 5 + j) - 15000;
      for (int l = 0; l < 300; ++l) want += qa[i * 300 + l] * qb[l * 5 + j];
      EXPECT(E2E_AT(r, i, j) == want, "acc (%d,%d) = %d, expected %d", i, j, E2E_AT(r, i, j), want);
    }
  if (r.allocated != qc) free(r.allocated);
  return e2e_finish("int8");
}
