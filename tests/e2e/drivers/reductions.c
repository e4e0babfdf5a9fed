/* SPDX-License-Identifier: Apache-2.0 */
#include <math.h>
#include <string.h>

#include "reductions.h"
#include "e2e_driver.h"

/* Bit for bit, any NaN matching any NaN. */
static int same(float a, float b) { return (isnan(a) && isnan(b)) || memcmp(&a, &b, sizeof a) == 0; }

/* arith.maximumf: NaN if either is, +0 above -0. */
static float maximum(float a, float b) {
  if (isnan(a) || isnan(b)) return NAN;
  if (a == 0 && b == 0) return signbit(a) ? b : a;
  return a > b ? a : b;
}

int main(void) {
  enum { R = 8, L = 37 };
  static float x[R * L], init[R];
  for (int i = 0; i < R * L; ++i) x[i] = (float)((i * 13) % 17) - 8.5f;
  x[0 * L + 36] = NAN; /* in the tail at every VLEN */
  x[1 * L + 3] = NAN;  /* in a whole vector */
  for (int j = 0; j < L; ++j) x[2 * L + j] = x[3 * L + j] = -0.0f, x[4 * L + j] = -INFINITY;
  x[2 * L + 20] = 0.0f; /* +0 above the -0s */
  x[5 * L + 30] = INFINITY;
  for (int r = 0; r < R; ++r) init[r] = -INFINITY;
  init[6] = NAN;
  init[3] = -0.0f;
  mips_memref_f32_2d mx = E2E_ROW_MAJOR(mips_memref_f32_2d, x, R, L);
  mips_memref_f32_1d mi = {init, init, 0, {R}, {1}};
  mips_memref_f32_1d got;
  _mlir_ciface_rmax(&got, &mx, &mi);
  for (int r = 0; r < R; ++r) {
    float want = init[r];
    for (int j = 0; j < L; ++j) want = maximum(x[r * L + j], want);
    const float g = got.aligned[got.offset + r * got.strides[0]];
    EXPECT(same(g, want), "max of row %d = %g, expected %g", r, g, want);
  }
  if (got.allocated != init) free(got.allocated);

  for (int r = 0; r < R; ++r) init[r] = r == 7 ? -0.0f : 0.5f * (float)r;
  _mlir_ciface_rsum(&got, &mx, &mi);
  for (int r = 0; r < R; ++r) {
    float want = init[r];
    for (int j = 0; j < L; ++j) want = want + x[r * L + j]; /* in order */
    const float g = got.aligned[got.offset + r * got.strides[0]];
    EXPECT(same(g, want), "sum of row %d = %g, expected %g", r, g, want);
  }
  if (got.allocated != init) free(got.allocated);
  return e2e_finish("reductions");
}
