/* SPDX-License-Identifier: Apache-2.0 */
/* decode.mlir, compiled with --mips-any-order: exact results (small integers sum
 * exactly in any order) for one and three tokens against n x k weights and for a
 * matrix-vector product. */
#include "decode.h"
#include "e2e_driver.h"

static void check_tokens(int m, int n, int k) {
  float *x = malloc(sizeof(float) * (size_t)(m * k)), *w = malloc(sizeof(float) * (size_t)(n * k));
  for (int e = 0; e < m * k; ++e) x[e] = (float)e2e_value(e, 7);
  for (int e = 0; e < n * k; ++e) w[e] = (float)e2e_value(e + 5, 7);
  mips_memref_f32_2d mx = E2E_ROW_MAJOR(mips_memref_f32_2d, x, m, k);
  mips_memref_f32_2d mw = E2E_ROW_MAJOR(mips_memref_f32_2d, w, n, k);
  mips_memref_f32_2d r;
  _mlir_ciface_tokens_times_weights(&r, &mx, &mw);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      float want = 0;
      for (int l = 0; l < k; ++l) want += x[i * k + l] * w[j * k + l];
      EXPECT(E2E_AT(r, i, j) == want, "%d tokens: (%d,%d) = %g, expected %g", m, i, j,
             E2E_AT(r, i, j), want);
    }
  free(r.allocated), free(x), free(w);
}

int main(void) {
  check_tokens(1, 37, 100);
  check_tokens(3, 21, 1031);
  float a[64 * 200], v[200], y[64];
  for (int e = 0; e < 64 * 200; ++e) a[e] = (float)e2e_value(e, 5);
  for (int e = 0; e < 200; ++e) v[e] = (float)e2e_value(e + 1, 5);
  for (int e = 0; e < 64; ++e) y[e] = (float)(e - 30);
  mips_memref_f32_2d ma = E2E_ROW_MAJOR(mips_memref_f32_2d, a, 64, 200);
  mips_memref_f32_2d mv = E2E_ROW_MAJOR(mips_memref_f32_2d, v, 200, 1);
  mips_memref_f32_2d my = E2E_ROW_MAJOR(mips_memref_f32_2d, y, 64, 1);
  mips_memref_f32_2d r;
  _mlir_ciface_matrix_vector(&r, &ma, &mv, &my);
  for (int i = 0; i < 64; ++i) {
    float want = (float)(i - 30);
    for (int l = 0; l < 200; ++l) want += a[i * 200 + l] * v[l];
    EXPECT(E2E_AT(r, i, 0) == want, "A v (%d) = %g, expected %g", i, E2E_AT(r, i, 0), want);
  }
  free(r.allocated);
  return e2e_finish("decode");
}
