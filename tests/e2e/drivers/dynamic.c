/* SPDX-License-Identifier: Apache-2.0 */
#include "dynamic.h"
#include "e2e_driver.h"

static void check_shape(int m, int n, int k) {
  float *a = malloc(sizeof(float) * (size_t)(m * k)), *b = malloc(sizeof(float) * (size_t)(k * n));
  for (int x = 0; x < m * k; ++x) a[x] = (float)e2e_value(x, 3);
  for (int x = 0; x < k * n; ++x) b[x] = (float)e2e_value(x + 7, 3);
  mips_memref_f32_2d ma = E2E_ROW_MAJOR(mips_memref_f32_2d, a, m, k);
  mips_memref_f32_2d mb = E2E_ROW_MAJOR(mips_memref_f32_2d, b, k, n);
  mips_memref_f32_2d r;
  _mlir_ciface_matmul(&r, &ma, &mb);
  EXPECT(r.sizes[0] == m && r.sizes[1] == n, "result is %lldx%lld, expected %dx%d",
         (long long)r.sizes[0], (long long)r.sizes[1], m, n);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      float want = 0;
      for (int l = 0; l < k; ++l) want += a[i * k + l] * b[l * n + j];
      EXPECT(E2E_AT(r, i, j) == want, "%dx%dx%d: (%d,%d) = %g, expected %g", m, n, k, i, j,
             E2E_AT(r, i, j), want);
    }
  free(r.allocated), free(a), free(b);
}

/* Descriptors are views: A is a 5x3 window at offset 7 of a buffer with rows of 11,
 * and B is passed as the transpose of a row-major N x K buffer (strides {1, K}). */
static void check_views(void) {
  enum { M = 5, K = 3, N = 4, LD = 11 };
  float a_storage[7 + M * LD], bt[N * K];
  for (int x = 0; x < 7 + M * LD; ++x) a_storage[x] = (float)e2e_value(x, 6);
  for (int x = 0; x < N * K; ++x) bt[x] = (float)e2e_value(x + 40, 6);
  mips_memref_f32_2d ma = {a_storage, a_storage, 7, {M, K}, {LD, 1}};
  mips_memref_f32_2d mb = {bt, bt, 0, {K, N}, {1, K}};
  mips_memref_f32_2d r;
  _mlir_ciface_matmul(&r, &ma, &mb);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float want = 0;
      for (int l = 0; l < K; ++l) want += a_storage[7 + i * LD + l] * bt[j * K + l];
      EXPECT(E2E_AT(r, i, j) == want, "views: (%d,%d) = %g, expected %g", i, j, E2E_AT(r, i, j), want);
    }
  free(r.allocated);
}

int main(void) {
  check_views();
  check_shape(1, 1, 1);
  check_shape(37, 29, 23);
  check_shape(64, 17, 130);
  check_shape(3, 257, 2);
  return e2e_finish("dynamic");
}
