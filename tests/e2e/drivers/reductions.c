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

/* Rows of `length`: 37 leaves a tail at every VLEN, 64 none up to VLEN 2048. */
static void check_rows(int length) {
  enum { R = 10, L_MAX = 64 };
  const int L = length;
  static float x[R * L_MAX], init[R];
  for (int i = 0; i < R * L; ++i) x[i] = (float)((i * 13) % 17) - 8.5f;
  x[0 * L + L - 1] = NAN; /* in the tail, where there is one */
  x[1 * L + 3] = NAN;     /* in a whole vector */
  for (int j = 0; j < L; ++j) x[2 * L + j] = x[3 * L + j] = -0.0f, x[4 * L + j] = -INFINITY;
  x[2 * L + 20] = 0.0f; /* +0 above the -0s */
  x[5 * L + 30] = INFINITY;
  /* +Inf and -Inf in whole vectors sum to NaN: looked at again, no NaN found. */
  x[8 * L + 1] = INFINITY, x[8 * L + 2] = -INFINITY, x[8 * L + 5] = -INFINITY;
  /* ... and with a NaN among them. */
  x[9 * L + 0] = -INFINITY, x[9 * L + 6] = NAN, x[9 * L + 9] = INFINITY;
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
    EXPECT(same(g, want), "rows of %d: max of row %d = %g, expected %g", L, r, g, want);
  }
  if (got.allocated != init) free(got.allocated);

  for (int r = 0; r < R; ++r) init[r] = r == 7 ? -0.0f : 0.5f * (float)r;
  _mlir_ciface_rsum(&got, &mx, &mi);
  for (int r = 0; r < R; ++r) {
    float want = init[r];
    for (int j = 0; j < L; ++j) want = want + x[r * L + j]; /* in order */
    const float g = got.aligned[got.offset + r * got.strides[0]];
    EXPECT(same(g, want), "rows of %d: sum of row %d = %g, expected %g", L, r, g, want);
  }
  if (got.allocated != init) free(got.allocated);
}

int main(void) {
  check_rows(37);
  check_rows(64);
  return e2e_finish("reductions");
}
