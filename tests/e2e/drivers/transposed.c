/* SPDX-License-Identifier: Apache-2.0 */
#include "transposed.h"
#include "e2e_driver.h"

int main(void) {
  /* A (M x K) * B^T where B is stored N x K. */
  enum { M = 13, N = 21, K = 9 };
  float a[M * K], bt[N * K];
  for (int x = 0; x < M * K; ++x) a[x] = (float)e2e_value(x, 5);
  for (int x = 0; x < N * K; ++x) bt[x] = (float)e2e_value(x + 3, 5);
  mips_memref_f32_2d ma = E2E_ROW_MAJOR(mips_memref_f32_2d, a, M, K);
  mips_memref_f32_2d mbt = E2E_ROW_MAJOR(mips_memref_f32_2d, bt, N, K);
  mips_memref_f32_2d r;
  _mlir_ciface_matmul_rhs_transposed(&r, &ma, &mbt);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float want = 0;
      for (int l = 0; l < K; ++l) want += a[i * K + l] * bt[j * K + l];
      EXPECT(E2E_AT(r, i, j) == want, "A*B^T (%d,%d) = %g, expected %g", i, j, E2E_AT(r, i, j), want);
    }
  free(r.allocated);

  /* C + A^T * B where A is stored K x M (5 x 3). */
  float at[15], b[20], c[12];
  for (int x = 0; x < 15; ++x) at[x] = (float)e2e_value(x + 11, 4);
  for (int x = 0; x < 20; ++x) b[x] = (float)e2e_value(x + 5, 4);
  for (int x = 0; x < 12; ++x) c[x] = (float)(x - 6);
  mips_memref_f32_2d mat = E2E_ROW_MAJOR(mips_memref_f32_2d, at, 5, 3);
  mips_memref_f32_2d mb = E2E_ROW_MAJOR(mips_memref_f32_2d, b, 5, 4);
  mips_memref_f32_2d mc = E2E_ROW_MAJOR(mips_memref_f32_2d, c, 3, 4);
  _mlir_ciface_matmul_lhs_transposed(&r, &mat, &mb, &mc);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j) {
      float want = (float)(i * 4 + j - 6);
      for (int l = 0; l < 5; ++l) want += at[l * 3 + i] * b[l * 4 + j];
      EXPECT(E2E_AT(r, i, j) == want, "A^T*B (%d,%d) = %g, expected %g", i, j, E2E_AT(r, i, j), want);
    }
  if (r.allocated != c) free(r.allocated);

  /* A^T * B^T: A stored K x M (6 x 11), B stored N x K (9 x 6). */
  float at2[6 * 11], bt2[9 * 6];
  for (int x = 0; x < 66; ++x) at2[x] = (float)e2e_value(x + 17, 5);
  for (int x = 0; x < 54; ++x) bt2[x] = (float)e2e_value(x + 23, 5);
  mips_memref_f32_2d mat2 = E2E_ROW_MAJOR(mips_memref_f32_2d, at2, 6, 11);
  mips_memref_f32_2d mbt2 = E2E_ROW_MAJOR(mips_memref_f32_2d, bt2, 9, 6);
  _mlir_ciface_matmul_both_transposed(&r, &mat2, &mbt2);
  EXPECT(r.sizes[0] == 11 && r.sizes[1] == 9, "A^T*B^T is %lldx%lld", (long long)r.sizes[0],
         (long long)r.sizes[1]);
  for (int i = 0; i < 11; ++i)
    for (int j = 0; j < 9; ++j) {
      float want = 0;
      for (int l = 0; l < 6; ++l) want += at2[l * 11 + i] * bt2[j * 6 + l];
      EXPECT(E2E_AT(r, i, j) == want, "A^T*B^T (%d,%d) = %g, expected %g", i, j, E2E_AT(r, i, j), want);
    }
  free(r.allocated);
  return e2e_finish("transposed");
}
