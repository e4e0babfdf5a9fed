/* SPDX-License-Identifier: Apache-2.0 */
/* The x86-64 kernel set (name "x86"): the portable tile template stamped out with GCC/Clang
 * vector extensions, one vector = VW lanes of a row, in SSE2, AVX2 and AVX-512 shapes,
 * compiled with target attributes and picked at run time by the CPU's features, which
 * dispatch.c detects (the library's baseline stays x86-64 v1, so SSE2 is always there). */
#include <immintrin.h>

#include "kernels/portable_tile.h"

#define MIPS_VECTOR_TYPES(T, LANES)                                                      \
  typedef T T##x##LANES __attribute__((vector_size(LANES * sizeof(T))));                 \
  typedef T T##x##LANES##_unaligned                                                      \
      __attribute__((vector_size(LANES * sizeof(T)), aligned(sizeof(T)), may_alias));
MIPS_VECTOR_TYPES(float, 4)
MIPS_VECTOR_TYPES(float, 8)
MIPS_VECTOR_TYPES(float, 16)
MIPS_VECTOR_TYPES(uint32_t, 4)
MIPS_VECTOR_TYPES(uint32_t, 8)
MIPS_VECTOR_TYPES(uint32_t, 16)

#define MIPS_AVX512 __attribute__((target("avx512f,fma")))
#define MIPS_AVX2 __attribute__((target("avx2,fma")))
#define MIPS_SSE2

static bool cpu_has_avx512(void) { return mips_cpu_has(MIPS_CPU_X86_AVX512F); }
static bool cpu_has_avx2(void) { return mips_cpu_has(MIPS_CPU_X86_AVX2_FMA); }

MIPS_PORTABLE_TILE(f32_4x8_sse2, MIPS_SSE2, float, float, float, MIPS_F32_FROM, floatx4,
                   floatx4_unaligned, 4, 4, 8)
MIPS_PORTABLE_TILE(f32_6x16_avx2, MIPS_AVX2, float, float, float, MIPS_F32_FROM, floatx8,
                   floatx8_unaligned, 8, 6, 16)
MIPS_PORTABLE_TILE(f32_12x32_avx512, MIPS_AVX512, float, float, float, MIPS_F32_FROM, floatx16,
                   floatx16_unaligned, 16, 12, 32)
MIPS_PORTABLE_TILE(i8i32_4x8_sse2, MIPS_SSE2, int8_t, uint32_t, int32_t, MIPS_U32_FROM_I8,
                   uint32_tx4, uint32_tx4_unaligned, 4, 4, 8)
MIPS_PORTABLE_TILE(i8i32_6x16_avx2, MIPS_AVX2, int8_t, uint32_t, int32_t, MIPS_U32_FROM_I8,
                   uint32_tx8, uint32_tx8_unaligned, 8, 6, 16)
MIPS_PORTABLE_TILE(i8i32_12x32_avx512, MIPS_AVX512, int8_t, uint32_t, int32_t, MIPS_U32_FROM_I8,
                   uint32_tx16, uint32_tx16_unaligned, 16, 12, 32)

/* Each k step of the int8 tiles below costs four of the VNNI tile's: it multiplies four
 * k at once. */
MIPS_PORTABLE_TILE_DESC(f32_4x8_sse2, 4, float, pack_b_f32_portable, NULL, 1)
MIPS_PORTABLE_TILE_DESC(f32_6x16_avx2, 6, float, pack_b_f32_portable, cpu_has_avx2, 1)
MIPS_PORTABLE_TILE_DESC(f32_12x32_avx512, 12, float, pack_b_f32_portable, cpu_has_avx512, 1)
MIPS_PORTABLE_TILE_DESC(i8i32_4x8_sse2, 4, uint32_t, pack_b_i8_portable, NULL, 4)
MIPS_PORTABLE_TILE_DESC(i8i32_6x16_avx2, 6, uint32_t, pack_b_i8_portable, cpu_has_avx2, 4)
MIPS_PORTABLE_TILE_DESC(i8i32_12x32_avx512, 12, uint32_t, pack_b_i8_portable, cpu_has_avx512, 4)

/*------------------------------------------------------------------------------------
 * int8 with AVX-512 VNNI: vpdpbusd adds four u8 x s8 products to each int32 lane.
 *
 * A is signed, so the A packer stores a + 128 (the byte x ^ 0x80) and the tile takes
 * 128 * (the sum of B's column) back: one more vpdpbusd per B vector, of 0x80 bytes with
 * B, which is exact modulo 2^32 like every int8 sum of the library. Per 4 k: 2 loads of
 * B, 12 broadcasts of A (folded into the dot products), 24 + 2 dot products.
 *----------------------------------------------------------------------------------*/
#define MIPS_AVX512_VNNI __attribute__((target("avx512f,avx512bw,avx512vnni")))
enum { VNNI_MR = 12, VNNI_NR = 32, VNNI_K = 4 };

static bool cpu_has_avx512_vnni(void) {
  return mips_cpu_has(MIPS_CPU_X86_AVX512F | MIPS_CPU_X86_AVX512BW_VL | MIPS_CPU_X86_AVX512_VNNI);
}

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

static const mips_tile i8i32_12x32_vnni_tile = {
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
static const mips_tile i8i32_1x64_vnni_tile = {
    .name = "i8i32_1x64_vnni", .mr = 1, .nr = i8i32_1x64_vnni_nr, .cost_per_row = 8,
    .needs_packing = false, .packed_b_size = 1, .pack_b = pack_b_i8_rows,
    .run = i8i32_1x64_vnni, .available = cpu_has_avx512_vnni};

/*------------------------------------------------------------------------------------
 * One row of C, f32, in ascending k: a matrix-vector product against B's unit-stride
 * rows (one token times weights stored k x n) reads B in place (the driver packs B from
 * m = 3), where a packed tile would copy all of B first. Eight vectors of C in flight hide the multiply-add latency
 * of the per-column chains (each column's sum is a chain in k).
 *----------------------------------------------------------------------------------*/
enum { ROW_NR = 128, ROW_VECTORS = ROW_NR / 16 };

/* r[i] = row i of a 16 x 16 block  ->  r[u] = column u: four rounds of 16 shuffles. */
MIPS_AVX512 static inline void transpose_16x16(__m512 r[16]) {
  __m512 s[16];
  for (int i = 0; i < 16; i += 2) {
    s[i] = _mm512_unpacklo_ps(r[i], r[i + 1]);
    s[i + 1] = _mm512_unpackhi_ps(r[i], r[i + 1]);
  }
  for (int i = 0; i < 16; i += 4)
    for (int h = 0; h < 2; ++h) {
      const __m512d x = _mm512_castps_pd(s[i + h]), y = _mm512_castps_pd(s[i + 2 + h]);
      r[i + h] = _mm512_castpd_ps(_mm512_unpacklo_pd(x, y));
      r[i + 2 + h] = _mm512_castpd_ps(_mm512_unpackhi_pd(x, y));
    }
  /* r[4G + m] now holds, in its 128-bit lane q, column 4q + (0, 2, 1, 3)[m] of rows
   * 4G .. 4G + 3. Pair row groups (0, 1) and (2, 3), then (0-1, 2-3). */
  for (int i = 0; i < 8; ++i) {
    const int g = i / 4 * 8 + i % 4;
    s[i] = _mm512_shuffle_f32x4(r[g], r[g + 4], 0x88);
    s[i + 8] = _mm512_shuffle_f32x4(r[g], r[g + 4], 0xdd);
  }
  static const int column[4] = {0, 2, 1, 3};
  for (int m = 0; m < 4; ++m) {
    const int u = column[m];
    r[u] = _mm512_shuffle_f32x4(s[m], s[m + 4], 0x88);
    r[u + 8] = _mm512_shuffle_f32x4(s[m], s[m + 4], 0xdd);
    r[u + 4] = _mm512_shuffle_f32x4(s[m + 8], s[m + 12], 0x88);
    r[u + 12] = _mm512_shuffle_f32x4(s[m + 8], s[m + 12], 0xdd);
  }
}

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

MIPS_AVX512 static void column_block_f32_avx512(const mips_column_block_args *t) {
  for (int64_t j = 0; j < t->cols; j += 8)
    for (int64_t i = 0; i < t->rows; i += 16) column_pass_f32_avx512(t, i, j);
}

/* Two passes of 8 columns (measured: 128 x 16 x 1152 runs in half the 12-row tile's
 * time); the tiles without AVX-512. */
static int64_t column_block_max_cols_x86(void) { return cpu_has_avx512() ? 16 : 0; }

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
static const mips_tile f32_1x128_avx512_tile = {
    .name = "f32_1x128_avx512", .mr = 1, .nr = f32_1x128_avx512_nr, .cost_per_row = 8,
    .needs_packing = false, .packed_b_size = sizeof(float), .pack_b = pack_b_f32_portable,
    .run = f32_1x128_avx512, .available = cpu_has_avx512};

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
#define MIPS_AVX512BW __attribute__((target("avx512f,avx512bw,avx512vl")))
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

static bool cpu_has_avx512bw(void) {
  return mips_cpu_has(MIPS_CPU_X86_AVX512F | MIPS_CPU_X86_AVX512BW_VL);
}

/* Without AVX-512: eight partial sums per column (any order is allowed), which the
 * compiler keeps in vector registers; one chain per column would wait on every add. */
enum { PARTIAL_SUMS = 8 };
static void row_dot_f32_x86(const mips_row_dot_args *t) {
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

static void row_dot_i8i32_x86(const mips_row_dot_args *t) {
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

/* The driver runs the available tile its cost estimate finds cheapest for the shape;
 * the first is the fallback every x86-64 CPU has. */
static const mips_tile *const f32_tiles[] = {&f32_4x8_sse2_tile, &f32_6x16_avx2_tile,
                                             &f32_12x32_avx512_tile, &f32_1x128_avx512_tile};
static const mips_tile *const i8i32_tiles[] = {&i8i32_4x8_sse2_tile, &i8i32_6x16_avx2_tile,
                                               &i8i32_12x32_avx512_tile, &i8i32_12x32_vnni_tile,
                                               &i8i32_1x64_vnni_tile};

const mips_kernel_set mips_kernels_x86 = {
    .name = "x86",
    .tiles = {[MIPS_DTYPE_F32] = f32_tiles, [MIPS_DTYPE_I8I32] = i8i32_tiles},
    .tile_count = {[MIPS_DTYPE_F32] = sizeof f32_tiles / sizeof f32_tiles[0],
                   [MIPS_DTYPE_I8I32] = sizeof i8i32_tiles / sizeof i8i32_tiles[0]},
    .row_dot = {[MIPS_DTYPE_F32] = row_dot_f32_x86, [MIPS_DTYPE_I8I32] = row_dot_i8i32_x86},
    .row_dot_min_k = 16,
    .row_dot_max_rows = {[MIPS_DTYPE_F32] = 8, [MIPS_DTYPE_I8I32] = 8},
    .f32_column_block = column_block_f32_avx512,
    .column_block_max_cols = column_block_max_cols_x86,
    .column_block_strided_b = true,
};
