/* SPDX-License-Identifier: Apache-2.0 */
/* int8 tiles with AVX-512 VNNI: 12x32 over packed panels, and one row read in place. */
#include <string.h>

#include "kernels/x86/x86_kernels.h"

/*------------------------------------------------------------------------------------
 * int8 with AVX-512 VNNI: vpdpbusd adds four u8 x s8 products to each int32 lane.
 *
 * A is signed, so the A packer stores a + 128 (the byte x ^ 0x80) and the tile takes
 * 128 * (the sum of B's column) back: one more vpdpbusd per B vector, of 0x80 bytes with
 * B, which is exact modulo 2^32 like every int8 sum of the library. Per 4 k: 2 loads of
 * B, 12 broadcasts of A (folded into the dot products), 24 + 2 dot products.
 *----------------------------------------------------------------------------------*/
enum { VNNI_MR = 12, VNNI_NR = 32, VNNI_K = 4 };


/* A(i, l) -> byte (l / 4 * mr + i) * 4 + l % 4, as a + 128; rows past `rows` and k past kc
 * hold a = 0 (B is zero past kc, and rows past `rows` are never stored). */
static void pack_a_i8_vnni(void *dst, const void *src, ptrdiff_t s0, ptrdiff_t s1,
                           int64_t rows, int64_t kc, int mr) {
  uint8_t *out = dst;
  const int8_t *a = src;
  const int64_t groups = (kc + VNNI_K - 1) / VNNI_K;
  for (int64_t q = 0; q < groups; ++q)
    for (int64_t i = 0; i < mr; ++i, out += VNNI_K) {
      const int8_t *from = a + i * s0 + q * VNNI_K * s1;
      if (i < rows && s1 == 1 && (q + 1) * VNNI_K <= kc) { /* four bytes at once */
        uint32_t four;
        memcpy(&four, from, sizeof four);
        four ^= 0x80808080u;
        memcpy(out, &four, sizeof four);
        continue;
      }
      for (int64_t r = 0; r < VNNI_K; ++r)
        out[r] = (uint8_t)((i < rows && q * VNNI_K + r < kc) ? from[r * s1] : 0) ^ 0x80u;
    }
}

/* B(l, j) -> byte (l / 4 * nr + j) * 4 + l % 4 of its panel: four k of one column side by
 * side, a column's group per int32 lane. Columns past `cols` and k past k are zero. */
static void pack_b_i8_vnni(void *dst, const void *src, ptrdiff_t s0, ptrdiff_t s1, int64_t k,
                           int64_t cols, int64_t nr) {
  int8_t *out = dst;
  const int8_t *b = src;
  const int64_t groups = (k + VNNI_K - 1) / VNNI_K;
  for (int64_t j0 = 0; j0 < cols; j0 += nr, out += groups * VNNI_K * nr) {
    const int64_t w = cols - j0 < nr ? cols - j0 : nr;
    for (int64_t q = 0; q < groups; ++q) {
      int8_t *group = out + q * VNNI_K * nr;
      for (int64_t r = 0; r < VNNI_K; ++r) {
        const int64_t l = q * VNNI_K + r;
        if (l >= k) {
          for (int64_t j = 0; j < nr; ++j) group[j * VNNI_K + r] = 0;
          continue;
        }
        const int8_t *row = b + l * s0 + j0 * s1;
        for (int64_t j = 0; j < w; ++j) group[j * VNNI_K + r] = row[j * s1];
        for (int64_t j = w; j < nr; ++j) group[j * VNNI_K + r] = 0;
      }
    }
  }
}

/* The accumulators are named variables, not an array: GCC keeps an array of vectors in
 * memory and stores all 24 of them on every k step. */
#define VNNI_ROWS(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11)
#define VNNI_DECLARE(i) __m512i acc##i##_0, acc##i##_1;
#define VNNI_FROM_BLOCK(i)                                \
  acc##i##_0 = _mm512_loadu_si512(&block[i][0]);          \
  acc##i##_1 = _mm512_loadu_si512(&block[i][16]);
#define VNNI_ZERO(i) acc##i##_0 = acc##i##_1 = _mm512_setzero_si512();
#define VNNI_LOAD_C(i)                                            \
  acc##i##_0 = _mm512_loadu_si512(c + (i) * t->c_stride0);        \
  acc##i##_1 = _mm512_loadu_si512(c + (i) * t->c_stride0 + 16);
#define VNNI_STORE_C(i)                                           \
  _mm512_storeu_si512(c + (i) * t->c_stride0, acc##i##_0);        \
  _mm512_storeu_si512(c + (i) * t->c_stride0 + 16, acc##i##_1);
#define VNNI_TO_BLOCK(i)                                  \
  _mm512_storeu_si512(&block[i][0], acc##i##_0);          \
  _mm512_storeu_si512(&block[i][16], acc##i##_1);
#define VNNI_STEP(i)                                            \
  {                                                             \
    int32_t four;                                               \
    memcpy(&four, a + (i) * VNNI_K, sizeof four);               \
    const __m512i ai = _mm512_set1_epi32(four);                 \
    acc##i##_0 = _mm512_dpbusd_epi32(acc##i##_0, ai, b0);       \
    acc##i##_1 = _mm512_dpbusd_epi32(acc##i##_1, ai, b1);       \
  }
#define VNNI_TAKE(i)                                      \
  acc##i##_0 = _mm512_sub_epi32(acc##i##_0, taken0);      \
  acc##i##_1 = _mm512_sub_epi32(acc##i##_1, taken1);

/* One row of C over the same panels (m = 1 against pre-packed B). */
MIPS_AVX512_VNNI static void i8i32_12x32_vnni_one_row(const mips_tile_args *t) {
  int32_t *c = t->c;
  int32_t row[VNNI_NR] = {0};
  for (int64_t j = 0; t->accumulate && j < t->cols; ++j) row[j] = c[j * t->c_stride1];
  __m512i acc0 = _mm512_loadu_si512(row), acc1 = _mm512_loadu_si512(row + 16);
  const __m512i offset = _mm512_set1_epi32((int)0x80808080u);
  __m512i taken0 = _mm512_setzero_si512(), taken1 = _mm512_setzero_si512();
  const uint8_t *a = t->a;
  const int8_t *b = t->b;
  for (int64_t q = (t->k + VNNI_K - 1) / VNNI_K; q > 0; --q) {
    const __m512i b0 = _mm512_loadu_si512(b), b1 = _mm512_loadu_si512(b + 64);
    int32_t four;
    memcpy(&four, a, sizeof four);
    const __m512i a0 = _mm512_set1_epi32(four);
    taken0 = _mm512_dpbusd_epi32(taken0, offset, b0);
    taken1 = _mm512_dpbusd_epi32(taken1, offset, b1);
    acc0 = _mm512_dpbusd_epi32(acc0, a0, b0);
    acc1 = _mm512_dpbusd_epi32(acc1, a0, b1);
    a += VNNI_MR * VNNI_K;
    b += VNNI_NR * VNNI_K;
  }
  _mm512_storeu_si512(row, _mm512_sub_epi32(acc0, taken0));
  _mm512_storeu_si512(row + 16, _mm512_sub_epi32(acc1, taken1));
  for (int64_t j = 0; j < t->cols; ++j) c[j * t->c_stride1] = row[j];
}

MIPS_AVX512_VNNI static void i8i32_12x32_vnni(const mips_tile_args *t) {
  if (t->rows == 1) {
    i8i32_12x32_vnni_one_row(t);
    return;
  }
  VNNI_ROWS(VNNI_DECLARE)
  int32_t *c = t->c;
  int32_t block[VNNI_MR][VNNI_NR]; /* C of an edge tile, zero where the tile has none */
  const bool direct = t->rows == VNNI_MR && t->cols == VNNI_NR && t->c_stride1 == 1;
  if (!t->accumulate) {
    VNNI_ROWS(VNNI_ZERO)
  } else if (direct) {
    VNNI_ROWS(VNNI_LOAD_C)
  } else {
    for (int i = 0; i < VNNI_MR; ++i)
      for (int j = 0; j < VNNI_NR; ++j)
        block[i][j] = i < t->rows && j < t->cols ? c[i * t->c_stride0 + j * t->c_stride1] : 0;
    VNNI_ROWS(VNNI_FROM_BLOCK)
  }
  const __m512i offset = _mm512_set1_epi32((int)0x80808080u);
  __m512i taken0 = _mm512_setzero_si512(), taken1 = _mm512_setzero_si512();
  const uint8_t *a = t->a;
  const int8_t *b = t->b;
  for (int64_t q = (t->k + VNNI_K - 1) / VNNI_K; q > 0; --q) {
    const __m512i b0 = _mm512_loadu_si512(b), b1 = _mm512_loadu_si512(b + 64);
    taken0 = _mm512_dpbusd_epi32(taken0, offset, b0);
    taken1 = _mm512_dpbusd_epi32(taken1, offset, b1);
    VNNI_ROWS(VNNI_STEP)
    a += VNNI_MR * VNNI_K;
    b += VNNI_NR * VNNI_K;
  }
  VNNI_ROWS(VNNI_TAKE)
  if (direct) {
    VNNI_ROWS(VNNI_STORE_C)
    return;
  }
  VNNI_ROWS(VNNI_TO_BLOCK)
  for (int64_t i = 0; i < t->rows; ++i)
    for (int64_t j = 0; j < t->cols; ++j) c[i * t->c_stride0 + j * t->c_stride1] = block[i][j];
}
static int64_t i8i32_12x32_vnni_nr(void) { return VNNI_NR; }

const mips_tile mips_i8i32_12x32_vnni_tile = {
    .name = "i8i32_12x32_vnni", .mr = VNNI_MR, .nr = i8i32_12x32_vnni_nr, .cost_per_row = 1,
    .needs_packing = true, .packed_b_size = 1, .pack_b = pack_b_i8_vnni,
    .run = i8i32_12x32_vnni, .available = cpu_has_avx512_vnni,
    .k_group = VNNI_K, .pack_a = pack_a_i8_vnni};

/*------------------------------------------------------------------------------------
 * One row of C, int8, against B's rows read in place (one token times K x N int8
 * weights), where the 12-row tile would pack all of B into groups of four k first: four
 * rows of B are interleaved into those groups in registers (byte, then word unpacks).
 * The unpacks work within 128-bit lanes, so vector q holds the columns 16 L + 4 q + w
 * (L = lane, w = 0..3) in its dword 4 L + w; the row is put back in order at the end.
 *----------------------------------------------------------------------------------*/
enum { ROW_I8_NR = 64 };

/* B(l, j) -> out[l * nr + j], as it is (the tile reads rows; packed only from m = 3). */
static void pack_b_i8_rows(void *dst, const void *src, ptrdiff_t s0, ptrdiff_t s1, int64_t k,
                           int64_t cols, int64_t nr) {
  int8_t *out = dst;
  const int8_t *b = src;
  for (int64_t j0 = 0; j0 < cols; j0 += nr, out += k * nr) {
    const int64_t w = cols - j0 < nr ? cols - j0 : nr;
    for (int64_t l = 0; l < k; ++l)
      for (int64_t j = 0; j < w; ++j) out[l * nr + j] = b[l * s0 + (j0 + j) * s1];
  }
}

MIPS_AVX512_VNNI static void i8i32_1x64_vnni(const mips_tile_args *t) {
  const int8_t *a = t->a, *b = t->b;
  int32_t *c = t->c;
  uint32_t row[ROW_I8_NR] = {0};
  if (t->b_colstride != 1) { /* B's columns apart: one column at a time */
    for (int64_t j = 0; j < t->cols; ++j)
      for (int64_t l = 0; l < t->k; ++l)
        row[j] += (uint32_t)((int32_t)a[l * t->a_kstride] *
                             (int32_t)b[l * t->b_kstride + j * t->b_colstride]);
  } else {
    const __mmask64 cols = t->cols >= ROW_I8_NR ? ~(__mmask64)0 : ((__mmask64)1 << t->cols) - 1;
    const __m512i offset = _mm512_set1_epi32((int)0x80808080u);
    __m512i acc[4], taken[4];
    for (int q = 0; q < 4; ++q) acc[q] = taken[q] = _mm512_setzero_si512();
    for (int64_t l = 0; l < t->k; l += VNNI_K) {
      __m512i r[VNNI_K];
      uint32_t four = 0;
      for (int u = 0; u < VNNI_K; ++u) {
        const bool in = l + u < t->k; /* past k: a = 0 against a zero row */
        r[u] = in ? _mm512_maskz_loadu_epi8(cols, b + (l + u) * t->b_kstride) : _mm512_setzero_si512();
        four |= (uint32_t)((uint8_t)(in ? a[(l + u) * t->a_kstride] : 0) ^ 0x80u) << (8 * u);
      }
      const __m512i lo01 = _mm512_unpacklo_epi8(r[0], r[1]), hi01 = _mm512_unpackhi_epi8(r[0], r[1]);
      const __m512i lo23 = _mm512_unpacklo_epi8(r[2], r[3]), hi23 = _mm512_unpackhi_epi8(r[2], r[3]);
      const __m512i groups[4] = {_mm512_unpacklo_epi16(lo01, lo23), _mm512_unpackhi_epi16(lo01, lo23),
                                 _mm512_unpacklo_epi16(hi01, hi23), _mm512_unpackhi_epi16(hi01, hi23)};
      const __m512i ax = _mm512_set1_epi32((int)four);
      for (int q = 0; q < 4; ++q) {
        acc[q] = _mm512_dpbusd_epi32(acc[q], ax, groups[q]);
        taken[q] = _mm512_dpbusd_epi32(taken[q], offset, groups[q]);
      }
    }
    for (int q = 0; q < 4; ++q) {
      uint32_t lanes[16];
      _mm512_storeu_si512(lanes, _mm512_sub_epi32(acc[q], taken[q]));
      for (int p = 0; p < 16; ++p) row[16 * (p / 4) + 4 * q + p % 4] = lanes[p];
    }
  }
  for (int64_t j = 0; j < t->cols; ++j) {
    int32_t *cj = c + j * t->c_stride1;
    *cj = (int32_t)((t->accumulate ? (uint32_t)*cj : 0u) + row[j]);
  }
}
static int64_t i8i32_1x64_vnni_nr(void) { return ROW_I8_NR; }

/* Costs 8 per row-step: it runs one row (m = 1) of more than 32 columns, where the
 * 12-row tile pads 11 rows (for 32 or fewer the 12-row tile's one panel costs less). */
const mips_tile mips_i8i32_1x64_vnni_tile = {
    .name = "i8i32_1x64_vnni", .mr = 1, .nr = i8i32_1x64_vnni_nr, .cost_per_row = 8,
    .needs_packing = false, .packed_b_size = 1, .pack_b = pack_b_i8_rows,
    .run = i8i32_1x64_vnni, .available = cpu_has_avx512_vnni};
