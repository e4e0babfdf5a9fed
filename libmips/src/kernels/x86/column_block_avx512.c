/* SPDX-License-Identifier: Apache-2.0 */
/* Column blocks with AVX-512: f32 in ascending k for a C with few columns. */
#include "kernels/x86/x86_kernels.h"

/*------------------------------------------------------------------------------------
 * Column blocks (f32 in ascending k, C with at most 16 columns and a row-major A: a CNN's
 * last stages in NCHW, 256 x 4 x 2304, or a matrix-vector product): 16 rows of A at a
 * time, each 16 x 16 block transposed in registers so that a lane keeps one row's sum,
 * and each of C's columns takes one broadcast element of B per k, 8 columns per pass.
 * The 12-row tile would pack all of A (the weights) for a few columns and fill a
 * quarter of its lanes.
 *----------------------------------------------------------------------------------*/
MIPS_AVX512 static void column_pass_f32_avx512(const mips_column_block_args *t, int64_t i,
                                               int64_t j0) {
  const ptrdiff_t as = t->a_rowstride, bs0 = t->b_stride0, bs1 = t->b_stride1;
  const ptrdiff_t cs0 = t->c_stride0, cs1 = t->c_stride1;
  const float *a = (const float *)t->a + i * as;
  const float *b = (const float *)t->b + j0 * bs1;
  float *c = (float *)t->c + i * cs0 + j0 * cs1;
  const int64_t rows = t->rows - i < 16 ? t->rows - i : 16;
  const int64_t cols = t->cols - j0 < 8 ? t->cols - j0 : 8;
  float lanes[16] = {0}; /* lanes past `rows` are computed, never stored */
  __m512 acc[8];
  _Pragma("GCC unroll 8") for (int j = 0; j < 8; ++j) {
    if (j < cols && t->accumulate)
      for (int64_t q = 0; q < rows; ++q) lanes[q] = c[q * cs0 + j * cs1];
    acc[j] = _mm512_loadu_ps(lanes);
  }
  for (int64_t l = 0; l < t->k; l += 16) {
    const int64_t steps = t->k - l < 16 ? t->k - l : 16;
    const __mmask16 k_mask = (__mmask16)((1u << steps) - 1);
    __m512 r[16];
    for (int q = 0; q < 16; ++q)
      r[q] = q < rows ? _mm512_maskz_loadu_ps(k_mask, a + q * as + l) : _mm512_setzero_ps();
    transpose_16x16(r);
    _Pragma("GCC unroll 16") for (int u = 0; u < 16; ++u) {
      if (u >= steps) break;
      const float *bl = b + (l + u) * bs0;
      _Pragma("GCC unroll 8") for (int j = 0; j < 8; ++j)
        if (j < cols) acc[j] = _mm512_fmadd_ps(_mm512_set1_ps(bl[j * bs1]), r[u], acc[j]);
    }
  }
  _Pragma("GCC unroll 8") for (int j = 0; j < 8; ++j) {
    if (j >= cols) break;
    _mm512_storeu_ps(lanes, acc[j]);
    for (int64_t q = 0; q < rows; ++q) c[q * cs0 + j * cs1] = lanes[q];
  }
}

MIPS_AVX512 void mips_column_block_f32_avx512(const mips_column_block_args *t) {
  for (int64_t j = 0; j < t->cols; j += 8)
    for (int64_t i = 0; i < t->rows; i += 16) column_pass_f32_avx512(t, i, j);
}

/* Two passes of 8 columns (measured: 128 x 16 x 1152 runs in half the 12-row tile's
 * time); the tiles without AVX-512. */
int64_t mips_column_block_max_cols_x86(void) { return cpu_has_avx512() ? 16 : 0; }
