/* SPDX-License-Identifier: Apache-2.0 */
/* Runs models/vector_print.mlir; the test matches what vector.print wrote. A is all
 * ones and B(l, j) = j % 4 + 1 for l < 2, else 0: row 31 of A*B begins 2, 4, 6, 8,
 * whose erf in thousandths is 995, 1000, 1000, 1000. */
#include "vector_print.h"
#include "e2e_driver.h"

int main(void) {
  static float a[32 * 64], b[64 * 48];
  for (int x = 0; x < 32 * 64; ++x) a[x] = 1;
  for (int l = 0; l < 64; ++l)
    for (int j = 0; j < 48; ++j) b[l * 48 + j] = l < 2 ? (float)(j % 4 + 1) : 0;
  mips_memref_f32_2d ma = E2E_ROW_MAJOR(mips_memref_f32_2d, a, 32, 64);
  mips_memref_f32_2d mb = E2E_ROW_MAJOR(mips_memref_f32_2d, b, 64, 48);
  mips_memref_f32_2d r;
  _mlir_ciface_show(&r, &ma, &mb);
  fflush(stdout);
  EXPECT(E2E_AT(r, 31, 3) == 8, "C(31,3) = %g, expected 8", E2E_AT(r, 31, 3));
  free(r.allocated);

  float x[8] = {-3, -0.5f, 0, 0.25f, 1, 2, -7, 100};
  mips_memref_f32_1d mx = {x, x, 0, {8}, {1}}, y;
  _mlir_ciface_double_relu(&y, &mx);
  for (int i = 0; i < 8; ++i)
    EXPECT(y.aligned[y.offset + i * y.strides[0]] == (x[i] > 0 ? 2 * x[i] : 0),
           "double_relu(%g) = %g", x[i], y.aligned[y.offset + i * y.strides[0]]);
  free(y.allocated);
  return e2e_finish("vector_print");
}
