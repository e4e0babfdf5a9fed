/* SPDX-License-Identifier: Apache-2.0 */
/* linalg.softmax compiled by mips-compile against a double-precision C reference, over
 * rows (padded-row view, a NaN and infinities in some rows; rows of 64 and of 19, which
 * leave a masked tail at every VLEN) and over columns. The
 * bound: exp's stated 6 ulp, the sum's rounding over n terms and the divide, as a
 * relative error of the result (every term is positive, so nothing cancels). */
#include <math.h>

#include "softmax.h"
#include "e2e_driver.h"

static void reference_rows(const float *x, int64_t rows, int64_t cols, int64_t ld, double *out) {
  for (int64_t i = 0; i < rows; ++i) {
    double max = -INFINITY, sum = 0;
    for (int64_t j = 0; j < cols; ++j) max = fmax(max, x[i * ld + j]);
    for (int64_t j = 0; j < cols; ++j) sum += exp(x[i * ld + j] - max);
    for (int64_t j = 0; j < cols; ++j) out[i * cols + j] = exp(x[i * ld + j] - max) / sum;
  }
}

static void check(const char *what, double got, double want, int64_t n) {
  if (isnan(want)) {
    EXPECT(isnan(got), "%s: %g, reference NaN", what, got);
    return;
  }
  const double bound = (6 + 2.0 * (double)(n + 2) + 2) * 0x1p-24 * fabs(want) + 0x1p-126;
  EXPECT(fabs(got - want) <= bound, "%s: %.9g, reference %.9g (bound %.3g)", what, got, want, bound);
}

/* Every element of a softmax over rows against its reference (rows x cols, dense). */
static void check_rows(const char *name, mips_memref_f32_2d *out, const double *want) {
  const int64_t rows = out->sizes[0], cols = out->sizes[1];
  char what[64];
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j) {
      snprintf(what, sizeof what, "%s[%d][%d]", name, (int)i, (int)j);
      check(what, E2E_AT(*out, i, j), want[i * cols + j], cols);
    }
  free(out->allocated);
}

int main(void) {
  enum { ROWS = 9, COLS = 64, LD = 67 };
  static float x[ROWS * LD];
  static double want[ROWS * COLS];
  for (int i = 0; i < ROWS * LD; ++i) x[i] = (float)e2e_value(i, 400) / 16.0f;
  x[2 * LD + 5] = NAN;       /* the whole row is NaN */
  x[3 * LD + 7] = INFINITY;  /* exp(Inf - Inf): NaN too, like the reference */
  x[4 * LD + 9] = -INFINITY; /* contributes 0 */
  mips_memref_f32_2d in = {x, x, 0, {ROWS, COLS}, {LD, 1}}, out;
  _mlir_ciface_softmax_rows(&out, &in);
  reference_rows(x, ROWS, COLS, LD, want);
  check_rows("rows", &out, want);

  /* Dense rows of 19 (the function's copy for dense arguments, where the exponentials
   * and their sum are one pass): a masked tail at every VLEN, and nothing but the tail
   * from VLEN 1024. Values below 0, so that a masked-off lane counted as exp(0 - max)
   * would show. */
  enum { SHORT = 19, SHORT_ROWS = 5 };
  static float xs[SHORT_ROWS * SHORT];
  static double want_short[SHORT_ROWS * SHORT];
  for (int i = 0; i < SHORT_ROWS * SHORT; ++i) xs[i] = (float)(e2e_value(i, 40) - 41) / 16.0f;
  mips_memref_f32_2d short_in = E2E_ROW_MAJOR(mips_memref_f32_2d, xs, SHORT_ROWS, SHORT), short_out;
  _mlir_ciface_softmax_rows(&short_out, &short_in);
  reference_rows(xs, SHORT_ROWS, SHORT, SHORT, want_short);
  check_rows("short rows", &short_out, want_short);
  char what[64];

  /* Over columns: the transpose's rows are the columns. */
  enum { M = 37, N = 5 };
  static float y[M * N], yt[N * M];
  static double wantt[N * M];
  for (int i = 0; i < M * N; ++i) y[i] = (float)e2e_value(i + 11, 300) / 8.0f;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) yt[j * M + i] = y[i * N + j];
  mips_memref_f32_2d yin = E2E_ROW_MAJOR(mips_memref_f32_2d, y, M, N), yout;
  _mlir_ciface_softmax_columns(&yout, &yin);
  reference_rows(yt, N, M, M, wantt);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      snprintf(what, sizeof what, "columns[%d][%d]", i, j);
      check(what, E2E_AT(yout, i, j), wantt[j * M + i], M);
    }
  free(yout.allocated);
  return e2e_finish("softmax");
}
