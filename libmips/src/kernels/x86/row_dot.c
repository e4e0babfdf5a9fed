/* SPDX-License-Identifier: Apache-2.0 */
/* Dot products for one row of C: f32 (MIPS_MATMUL_ANY_ORDER) and int8, AVX-512 where
 * the CPU has it. */
#include "kernels/x86/x86_kernels.h"

/*------------------------------------------------------------------------------------
 * Dot products for one row of C (a decode step against weights stored n x k, or a
 * matrix-vector product after orientation): f32 only with MIPS_MATMUL_ANY_ORDER, int8
 * always. Eight columns share each load of A's row; masked loads take k's tail.
 *----------------------------------------------------------------------------------*/
enum { DOT_COLS = 8 };

MIPS_AVX512 static void row_dot_f32_avx512(const mips_row_dot_args *t) {
  const float *a = t->a, *b = t->b;
  float *c = t->c;
  const int64_t k = t->k, body = k - k % 16;
  const __mmask16 tail = (__mmask16)((1u << (k % 16)) - 1);
  for (int64_t j0 = 0; j0 < t->cols; j0 += DOT_COLS) {
    const int64_t n = t->cols - j0 < DOT_COLS ? t->cols - j0 : DOT_COLS;
    __m512 acc[DOT_COLS];
    const float *col[DOT_COLS];
    for (int x = 0; x < DOT_COLS; ++x) {
      acc[x] = _mm512_setzero_ps();
      col[x] = b + (j0 + (x < n ? x : 0)) * t->b_colstride; /* spare lanes repeat column 0 */
    }
    for (int64_t l = 0; l < body; l += 16) {
      const __m512 al = _mm512_loadu_ps(a + l);
      for (int x = 0; x < DOT_COLS; ++x)
        acc[x] = _mm512_fmadd_ps(al, _mm512_loadu_ps(col[x] + l), acc[x]);
    }
    if (tail) {
      const __m512 al = _mm512_maskz_loadu_ps(tail, a + body);
      for (int x = 0; x < DOT_COLS; ++x)
        acc[x] = _mm512_fmadd_ps(al, _mm512_maskz_loadu_ps(tail, col[x] + body), acc[x]);
    }
    for (int64_t x = 0; x < n; ++x) {
      float *cj = c + (j0 + x) * t->c_stride;
      *cj = (t->accumulate ? *cj : 0.0f) + _mm512_reduce_add_ps(acc[x]);
    }
  }
}

/* int8: pairs of sign-extended products summed into int32 lanes (vpmaddwd), wrapping
 * like every int8 sum of the library. */
MIPS_AVX512BW static void row_dot_i8i32_avx512(const mips_row_dot_args *t) {
  const int8_t *a = t->a, *b = t->b;
  int32_t *c = t->c;
  const int64_t k = t->k, body = k - k % 32;
  const __mmask32 tail = (__mmask32)((1ull << (k % 32)) - 1);
  for (int64_t j0 = 0; j0 < t->cols; j0 += DOT_COLS) {
    const int64_t n = t->cols - j0 < DOT_COLS ? t->cols - j0 : DOT_COLS;
    __m512i acc[DOT_COLS];
    const int8_t *col[DOT_COLS];
    for (int x = 0; x < DOT_COLS; ++x) {
      acc[x] = _mm512_setzero_si512();
      col[x] = b + (j0 + (x < n ? x : 0)) * t->b_colstride;
    }
    for (int64_t l = 0; l < body + (tail ? 32 : 0); l += 32) {
      const __mmask32 m = l < body ? (__mmask32)0xffffffffu : tail;
      const __m512i al = _mm512_cvtepi8_epi16(_mm256_maskz_loadu_epi8(m, a + l));
      for (int x = 0; x < DOT_COLS; ++x)
        acc[x] = _mm512_add_epi32(
            acc[x], _mm512_madd_epi16(al, _mm512_cvtepi8_epi16(_mm256_maskz_loadu_epi8(m, col[x] + l))));
    }
    for (int64_t x = 0; x < n; ++x) {
      int32_t *cj = c + (j0 + x) * t->c_stride;
      uint32_t lanes[16], sum = 0; /* summed unsigned: int8 sums wrap, never overflow */
      _mm512_storeu_si512(lanes, acc[x]);
      for (int u = 0; u < 16; ++u) sum += lanes[u];
      *cj = (int32_t)((t->accumulate ? (uint32_t)*cj : 0u) + sum);
    }
  }
}


/* Without AVX-512: eight partial sums per column (any order is allowed), which the
 * compiler keeps in vector registers; one chain per column would wait on every add. */
enum { PARTIAL_SUMS = 8 };
void mips_row_dot_f32_x86(const mips_row_dot_args *t) {
  if (cpu_has_avx512()) {
    row_dot_f32_avx512(t);
    return;
  }
  const float *a = t->a;
  float *c = t->c;
  const int64_t k = t->k, body = k - k % PARTIAL_SUMS;
  for (int64_t j = 0; j < t->cols; ++j) {
    const float *b = (const float *)t->b + j * t->b_colstride;
    float part[PARTIAL_SUMS] = {0};
    for (int64_t l = 0; l < body; l += PARTIAL_SUMS)
      for (int u = 0; u < PARTIAL_SUMS; ++u) part[u] += a[l + u] * b[l + u];
    float sum = 0.0f;
    for (int u = 0; u < PARTIAL_SUMS; ++u) sum += part[u];
    for (int64_t l = body; l < k; ++l) sum += a[l] * b[l];
    c[j * t->c_stride] = (t->accumulate ? c[j * t->c_stride] : 0.0f) + sum;
  }
}

void mips_row_dot_i8i32_x86(const mips_row_dot_args *t) {
  if (cpu_has_avx512bw()) {
    row_dot_i8i32_avx512(t);
    return;
  }
  const int8_t *a = t->a, *b = t->b;
  int32_t *c = t->c;
  for (int64_t j = 0; j < t->cols; ++j) {
    uint32_t sum = t->accumulate ? (uint32_t)c[j * t->c_stride] : 0u;
    for (int64_t l = 0; l < t->k; ++l)
      sum += (uint32_t)((int32_t)a[l] * (int32_t)b[j * t->b_colstride + l]);
    c[j * t->c_stride] = (int32_t)sum;
  }
}
