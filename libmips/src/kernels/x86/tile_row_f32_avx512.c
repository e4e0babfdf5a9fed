/* SPDX-License-Identifier: Apache-2.0 */
/* One row of C, f32, in ascending k, with AVX-512 (the 1x128 tile). */
#include "kernels/portable_tile.h"
#include "kernels/x86/x86_kernels.h"

/*------------------------------------------------------------------------------------
 * One row of C, f32, in ascending k: a matrix-vector product against B's unit-stride
 * rows (one token times weights stored k x n) reads B in place (the driver packs B from
 * m = 3), where a packed tile would copy all of B first. Eight vectors of C in flight hide the multiply-add latency
 * of the per-column chains (each column's sum is a chain in k).
 *----------------------------------------------------------------------------------*/
enum { ROW_NR = 128, ROW_VECTORS = ROW_NR / 16 };

/* The sums of 16 columns of B (fewer in `col_mask`) against a's k elements, added to acc
 * in ascending k. B's k unit-stride: each 16 x 16 block transposed in registers so that
 * a lane keeps one column's sum. */
MIPS_AVX512 static __m512 columns_dot_transposed(__m512 acc, const float *a, ptrdiff_t ks,
                                                const float *b, ptrdiff_t bs, int64_t cols,
                                                int64_t k) {
  for (int64_t l = 0; l < k; l += 16) {
    const int64_t steps = k - l < 16 ? k - l : 16;
    const __mmask16 k_mask = (__mmask16)((1u << steps) - 1);
    __m512 r[16];
    for (int q = 0; q < 16; ++q)
      r[q] = q < cols ? _mm512_maskz_loadu_ps(k_mask, b + q * bs + l) : _mm512_setzero_ps();
    transpose_16x16(r);
    for (int u = 0; u < steps; ++u) acc = _mm512_fmadd_ps(_mm512_set1_ps(a[(l + u) * ks]), r[u], acc);
  }
  return acc;
}

/* The same with B's k strided too (a convolution's centre tap): a gather per k. */
MIPS_AVX512 static __m512 columns_dot_gathered(__m512 acc, const float *a, ptrdiff_t ks,
                                              const float *b, ptrdiff_t b_ks, ptrdiff_t bs,
                                              __mmask16 col_mask, int64_t k) {
  const __m512i at = _mm512_mullo_epi32(
      _mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0), _mm512_set1_epi32((int)bs));
  for (int64_t l = 0; l < k; ++l)
    acc = _mm512_fmadd_ps(_mm512_set1_ps(a[l * ks]),
                          _mm512_mask_i32gather_ps(_mm512_setzero_ps(), col_mask, at, b + l * b_ks, 4), acc);
  return acc;
}

/* One row of C against a B whose columns are apart (weights stored n x k), in ascending
 * k per column, 16 columns at a time. The scalar loop it replaces ran one dependent
 * multiply-add chain per column: 512 x 1 x 2304 took 5 times as long. */
MIPS_AVX512 static void f32_1x128_columns_apart(const mips_tile_args *t) {
  const float *a = t->a, *b = t->b;
  float *c = t->c;
  const ptrdiff_t bs = t->b_colstride, cs = t->c_stride1;
  for (int64_t j = 0; j < t->cols; j += 16) {
    const int64_t cols = t->cols - j < 16 ? t->cols - j : 16;
    const __mmask16 col_mask = (__mmask16)((1u << cols) - 1);
    float lanes[16] = {0};
    if (t->accumulate)
      for (int64_t q = 0; q < cols; ++q) lanes[q] = c[(j + q) * cs];
    __m512 acc = _mm512_loadu_ps(lanes);
    acc = t->b_kstride == 1
              ? columns_dot_transposed(acc, a, t->a_kstride, b + j * bs, bs, cols, t->k)
              : columns_dot_gathered(acc, a, t->a_kstride, b + j * bs, t->b_kstride, bs, col_mask, t->k);
    _mm512_storeu_ps(lanes, acc);
    for (int64_t q = 0; q < cols; ++q) c[(j + q) * cs] = lanes[q];
  }
}

MIPS_AVX512 static void f32_1x128_avx512(const mips_tile_args *t) {
  const float *a = t->a, *b = t->b;
  float *c = t->c;
  const ptrdiff_t bs = t->b_colstride;
  /* Gathers take 32-bit indices: 15 columns apart must fit. */
  if (bs != 1 && (t->b_kstride == 1 || (bs >= -(INT32_MAX / 16) && bs <= INT32_MAX / 16))) {
    f32_1x128_columns_apart(t);
    return;
  }
  /* C's columns apart, or B's beyond the gathers' reach: one column at a time. */
  if (bs != 1 || t->c_stride1 != 1) {
    for (int64_t j = 0; j < t->cols; ++j) {
      float sum = t->accumulate ? c[j * t->c_stride1] : 0.0f;
      for (int64_t l = 0; l < t->k; ++l)
        sum = __builtin_fmaf(a[l * t->a_kstride], b[l * t->b_kstride + j * bs], sum);
      c[j * t->c_stride1] = sum;
    }
    return;
  }
  __mmask16 mask[ROW_VECTORS];
  __m512 acc[ROW_VECTORS];
  for (int v = 0; v < ROW_VECTORS; ++v) {
    const int64_t left = t->cols - v * 16;
    mask[v] = left >= 16 ? (__mmask16)0xffff : left <= 0 ? 0 : (__mmask16)((1u << left) - 1);
    acc[v] = t->accumulate ? _mm512_maskz_loadu_ps(mask[v], c + v * 16) : _mm512_setzero_ps();
  }
  for (int64_t l = 0; l < t->k; ++l) {
    const __m512 al = _mm512_set1_ps(a[l * t->a_kstride]);
    const float *bl = b + l * t->b_kstride;
    for (int v = 0; v < ROW_VECTORS; ++v)
      acc[v] = _mm512_fmadd_ps(al, _mm512_maskz_loadu_ps(mask[v], bl + v * 16), acc[v]);
  }
  for (int v = 0; v < ROW_VECTORS; ++v) _mm512_mask_storeu_ps(c + v * 16, mask[v], acc[v]);
}
static int64_t f32_1x128_avx512_nr(void) { return ROW_NR; }

/* Costs 8 per row-step so that it runs only the few rows (m <= 3) that a 12-row tile
 * would mostly pad. */
const mips_tile mips_f32_1x128_avx512_tile = {
    .name = "f32_1x128_avx512", .mr = 1, .nr = f32_1x128_avx512_nr, .cost_per_row = 8,
    .needs_packing = false, .packed_b_size = sizeof(float), .pack_b = mips_pack_b_f32_portable,
    .run = f32_1x128_avx512, .available = cpu_has_avx512};
