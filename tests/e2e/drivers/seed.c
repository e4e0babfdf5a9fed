/* SPDX-License-Identifier: Apache-2.0 */
#include "seed.h"
#include "e2e_driver.h"

int main(void) {
  /* A * I = A */
  float a[16], id[16];
  for (int x = 0; x < 16; ++x) a[x] = (float)(x * 3 - 7), id[x] = x % 5 == 0 ? 1.0f : 0.0f;
  mips_memref_f32_2d ma = E2E_ROW_MAJOR(mips_memref_f32_2d, a, 4, 4);
  mips_memref_f32_2d mi = E2E_ROW_MAJOR(mips_memref_f32_2d, id, 4, 4);
  mips_memref_f32_2d r;
  _mlir_ciface_identity4(&r, &ma, &mi);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      EXPECT(E2E_AT(r, i, j) == a[i * 4 + j], "identity (%d,%d) = %g", i, j, E2E_AT(r, i, j));
  free(r.allocated);

  /* [1 2; 3 4] * [5 6 7; 8 9 10] = [21 24 27; 47 54 61] */
  float a2[4] = {1, 2, 3, 4}, b2[6] = {5, 6, 7, 8, 9, 10};
  const float want2[6] = {21, 24, 27, 47, 54, 61};
  mips_memref_f32_2d ma2 = E2E_ROW_MAJOR(mips_memref_f32_2d, a2, 2, 2);
  mips_memref_f32_2d mb2 = E2E_ROW_MAJOR(mips_memref_f32_2d, b2, 2, 3);
  _mlir_ciface_mm2x3x2(&r, &ma2, &mb2);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j)
      EXPECT(E2E_AT(r, i, j) == want2[i * 3 + j], "2x3x2 (%d,%d) = %g", i, j, E2E_AT(r, i, j));
  free(r.allocated);

  /* C + A * B on 8x8; the caller's C must not change. */
  float a8[64], b8[64], c8[64], c8_before[64];
  for (int x = 0; x < 64; ++x)
    a8[x] = (float)e2e_value(x, 4), b8[x] = (float)e2e_value(x + 99, 4), c8[x] = (float)x;
  memcpy(c8_before, c8, sizeof c8);
  mips_memref_f32_2d ma8 = E2E_ROW_MAJOR(mips_memref_f32_2d, a8, 8, 8);
  mips_memref_f32_2d mb8 = E2E_ROW_MAJOR(mips_memref_f32_2d, b8, 8, 8);
  mips_memref_f32_2d mc8 = E2E_ROW_MAJOR(mips_memref_f32_2d, c8, 8, 8);
  _mlir_ciface_mm8_accumulate(&r, &ma8, &mb8, &mc8);
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j) {
      float want = c8_before[i * 8 + j];
      for (int k = 0; k < 8; ++k) want += a8[i * 8 + k] * b8[k * 8 + j];
      EXPECT(E2E_AT(r, i, j) == want, "8x8 (%d,%d) = %g, expected %g", i, j, E2E_AT(r, i, j), want);
    }
  EXPECT(memcmp(c8, c8_before, sizeof c8) == 0, "the caller's C was modified");
  if (r.allocated != c8) free(r.allocated);
  return e2e_finish("seed");
}
