/* SPDX-License-Identifier: Apache-2.0 */
/* 1.2: pre-packed B (mips_pack_b_*, mips_matmul_packed_*) and MIPS_MATMUL_ANY_ORDER,
 * against a reference computed here in double / int64, over the layouts and shapes that
 * reach every path (one row, a few rows, tiles, k blocks, narrow last panels, threads),
 * and every status of the contract. */
#include <math.h>
#include <stdbool.h>

#include "mips/mips.h"
#include "test_harness.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define MIPS_TEST_SANITIZED_ALLOCATOR 1
#endif
#endif
#ifndef MIPS_TEST_SANITIZED_ALLOCATOR
#define MIPS_TEST_SANITIZED_ALLOCATOR 0
#endif

/* A view of an r x c matrix inside a buffer: (i, j) at offset + i * s0 + j * s1. */
typedef struct layout {
  int64_t offset, s0, s1;
  int64_t elems; /* buffer size */
} layout;

typedef enum { ROW, COL, STRIDED, REVERSED } layout_kind;

static layout layout_of(layout_kind kind, int64_t r, int64_t c) {
  switch (kind) {
    case ROW: return (layout){0, c, 1, r * c};
    case COL: return (layout){0, 1, r, r * c};
    case STRIDED: return (layout){3, 2 * c + 1, 2, r * (2 * c + 1) + 3};
    case REVERSED: return (layout){r * c - 1, -c, -1, r * c}; /* both strides negative */
  }
  return (layout){0, 0, 0, 0};
}

static uint32_t rng_state = 2463534242u;
static uint32_t next_random(void) {
  rng_state ^= rng_state << 13, rng_state ^= rng_state >> 17, rng_state ^= rng_state << 5;
  return rng_state;
}

/* Small integers: every f32 sum is exact in any order, so results compare exactly. */
static float *random_f32(int64_t elems, bool integers) {
  float *x = malloc((size_t)elems * sizeof *x + 1);
  for (int64_t e = 0; e < elems; ++e)
    x[e] = integers ? (float)((int)(next_random() % 9) - 4)
                    : (float)((int)(next_random() % 2001) - 1000) / 997.0f;
  return x;
}

static int8_t *random_i8(int64_t elems) {
  int8_t *x = malloc((size_t)elems + 1);
  for (int64_t e = 0; e < elems; ++e) x[e] = (int8_t)(next_random() & 0xff);
  return x;
}

/* C = A * B (+ C0) in double, elementwise, with the magnitude for a tolerance. */
static double reference_f32(const float *a, const layout *al, const float *b, const layout *bl,
                            int64_t i, int64_t j, int64_t k, double start, double *magnitude) {
  double sum = start;
  *magnitude = fabs(start);
  for (int64_t l = 0; l < k; ++l) {
    const double x = a[al->offset + i * al->s0 + l * al->s1];
    const double y = b[bl->offset + l * bl->s0 + j * bl->s1];
    sum += x * y, *magnitude += fabs(x * y);
  }
  return sum;
}

static const int64_t shapes[][3] = {
    {1, 1, 1},    {1, 37, 300},  {1, 64, 1031}, {2, 5, 7},    {8, 100, 257},
    {15, 33, 16}, {16, 17, 513}, {33, 9, 64},   {64, 70, 300}, {3, 1, 40},
};
#define SHAPE_COUNT (sizeof shapes / sizeof shapes[0])

/* Packs B once, clobbers it, and checks two calls with the handle against the reference,
 * exactly (integer data). */
static void check_packed_f32(int64_t m, int64_t n, int64_t k, layout_kind bk, layout_kind ak,
                             layout_kind ck, uint32_t extra_flags) {
  const layout al = layout_of(ak, m, k), bl = layout_of(bk, k, n), cl = layout_of(ck, m, n);
  float *a = random_f32(al.elems, true), *b = random_f32(bl.elems, true);
  float *c = random_f32(cl.elems, true);
  float *b_saved = malloc((size_t)bl.elems * sizeof *b + 1);
  memcpy(b_saved, b, (size_t)bl.elems * sizeof *b);
  mips_packed_b *packed = NULL;
  assert_int_equal(mips_pack_b_f32(k, n, b, bl.offset, bl.s0, bl.s1, &packed), MIPS_OK);
  assert_non_null(packed);
  for (int64_t e = 0; e < bl.elems; ++e) b[e] = NAN; /* the handle holds a copy */
  float *expect = malloc((size_t)cl.elems * sizeof *expect + 1);
  for (int pass = 0; pass < 2; ++pass) { /* overwrite, then accumulate onto it */
    const uint32_t flags = extra_flags | (pass ? MIPS_MATMUL_ACCUMULATE : 0);
    memcpy(expect, c, (size_t)cl.elems * sizeof *c);
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        const int64_t at = cl.offset + i * cl.s0 + j * cl.s1;
        double magnitude;
        expect[at] = (float)reference_f32(a, &al, b_saved, &bl, i, j, k, pass ? c[at] : 0.0,
                                          &magnitude);
      }
    if (pass == 0) /* C is never read: NaN must not leak in */
      for (int64_t e = 0; e < cl.elems; ++e) c[e] = NAN;
    assert_int_equal(mips_matmul_packed_f32(m, a, al.offset, al.s0, al.s1, packed, c, cl.offset,
                                            cl.s0, cl.s1, flags),
                     MIPS_OK);
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        const int64_t at = cl.offset + i * cl.s0 + j * cl.s1;
        if (c[at] != expect[at])
          fail_msg("packed f32 %lldx%lldx%lld (B %d, A %d, C %d, flags %#x): C(%lld, %lld) = %g, "
                   "want %g", (long long)m, (long long)n, (long long)k, bk, ak, ck, flags,
                   (long long)i, (long long)j, c[at], expect[at]);
      }
  }
  mips_packed_b_free(packed);
  free(a), free(b), free(c), free(b_saved), free(expect);
}

static void test_packed_f32_matches_reference(void **state) {
  (void)state;
  for (size_t s = 0; s < SHAPE_COUNT; ++s) {
    const int64_t m = shapes[s][0], n = shapes[s][1], k = shapes[s][2];
    for (int bk = ROW; bk <= REVERSED; ++bk)
      check_packed_f32(m, n, k, (layout_kind)bk, (layout_kind)(s % 4), (layout_kind)(bk % 2), 0);
  }
}

static void test_packed_f32_threads_and_any_order(void **state) {
  (void)state;
  /* Big enough to split across threads; the cap and ANY_ORDER leave the result exact. */
  check_packed_f32(200, 300, 160, COL, ROW, ROW, MIPS_MATMUL_MAX_THREADS(4));
  check_packed_f32(1, 2000, 1100, COL, ROW, ROW, MIPS_MATMUL_MAX_THREADS(3));
  check_packed_f32(9, 40, 50, ROW, COL, COL, MIPS_MATMUL_ANY_ORDER);
}

static void check_packed_i8(int64_t m, int64_t n, int64_t k, layout_kind bk, layout_kind ak,
                            layout_kind ck) {
  const layout al = layout_of(ak, m, k), bl = layout_of(bk, k, n), cl = layout_of(ck, m, n);
  int8_t *a = random_i8(al.elems), *b = random_i8(bl.elems);
  int32_t *c = malloc((size_t)cl.elems * sizeof *c + 1);
  for (int64_t e = 0; e < cl.elems; ++e) c[e] = (int32_t)next_random();
  mips_packed_b *packed = NULL;
  assert_int_equal(mips_pack_b_i8(k, n, b, bl.offset, bl.s0, bl.s1, &packed), MIPS_OK);
  for (int pass = 0; pass < 2; ++pass) {
    int32_t *before = malloc((size_t)cl.elems * sizeof *c + 1);
    memcpy(before, c, (size_t)cl.elems * sizeof *c);
    assert_int_equal(mips_matmul_packed_i8i32(m, a, al.offset, al.s0, al.s1, packed, c,
                                              cl.offset, cl.s0, cl.s1,
                                              pass ? MIPS_MATMUL_ACCUMULATE : 0),
                     MIPS_OK);
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        const int64_t at = cl.offset + i * cl.s0 + j * cl.s1;
        int64_t want = pass ? before[at] : 0;
        for (int64_t l = 0; l < k; ++l)
          want += (int64_t)a[al.offset + i * al.s0 + l * al.s1] *
                  b[bl.offset + l * bl.s0 + j * bl.s1];
        if (c[at] != (int32_t)(uint32_t)(uint64_t)want)
          fail_msg("packed i8 %lldx%lldx%lld: C(%lld, %lld) = %d, want %lld", (long long)m,
                   (long long)n, (long long)k, (long long)i, (long long)j, c[at], (long long)want);
      }
    free(before);
  }
  mips_packed_b_free(packed);
  free(a), free(b), free(c);
}

static void test_packed_i8_matches_reference(void **state) {
  (void)state;
  for (size_t s = 0; s < SHAPE_COUNT; ++s)
    for (int bk = ROW; bk <= REVERSED; ++bk)
      check_packed_i8(shapes[s][0], shapes[s][1], shapes[s][2], (layout_kind)bk,
                      (layout_kind)((s + 1) % 4), (layout_kind)(bk % 2));
}

/* int8 with B's columns along k: the dot-product path where the kernel set has one
 * (integer sums need no flag), exact and wrapping modulo 2^32. */
static void check_i8_unpacked(int64_t m, int64_t n, int64_t k, layout_kind ak, layout_kind bk,
                              layout_kind ck, bool accumulate) {
  const layout al = layout_of(ak, m, k), bl = layout_of(bk, k, n), cl = layout_of(ck, m, n);
  int8_t *a = random_i8(al.elems), *b = random_i8(bl.elems);
  int32_t *c = malloc((size_t)cl.elems * sizeof *c + 1), *before = malloc((size_t)cl.elems * sizeof *c + 1);
  for (int64_t e = 0; e < cl.elems; ++e) c[e] = before[e] = (int32_t)next_random();
  assert_int_equal(mips_matmul_i8i32(m, n, k, a, al.offset, al.s0, al.s1, b, bl.offset, bl.s0,
                                     bl.s1, c, cl.offset, cl.s0, cl.s1,
                                     accumulate ? MIPS_MATMUL_ACCUMULATE : 0),
                   MIPS_OK);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      const int64_t at = cl.offset + i * cl.s0 + j * cl.s1;
      uint32_t want = accumulate ? (uint32_t)before[at] : 0;
      for (int64_t l = 0; l < k; ++l)
        want += (uint32_t)(a[al.offset + i * al.s0 + l * al.s1] * b[bl.offset + l * bl.s0 + j * bl.s1]);
      if ((uint32_t)c[at] != want)
        fail_msg("i8 %lldx%lldx%lld (B %d): C(%lld, %lld) = %d, want %d", (long long)m,
                 (long long)n, (long long)k, bk, (long long)i, (long long)j, c[at], (int32_t)want);
    }
  free(a), free(b), free(c), free(before);
}

static void test_i8_row_dots_match_reference(void **state) {
  (void)state;
  static const int64_t dims[][3] = {{1, 1, 16}, {1, 7, 17},  {1, 5, 300}, {1, 64, 1031},
                                    {3, 9, 33}, {8, 15, 250}, {9, 3, 40}, {1, 4, 15}};
  for (size_t d = 0; d < sizeof dims / sizeof dims[0]; ++d)
    for (int acc = 0; acc < 2; ++acc) {
      const int64_t m = dims[d][0], n = dims[d][1], k = dims[d][2];
      check_i8_unpacked(m, n, k, ROW, COL, (layout_kind)(d % 2), acc);
      check_i8_unpacked(n, m, k, ROW, ROW, COL, acc); /* matrix-vector when m is 1 */
    }
  /* 2^17 products of -128 * -128 wrap past 2^31. */
  const int64_t k = (int64_t)1 << 17;
  int8_t *a = malloc((size_t)k), *b = malloc((size_t)k * 3);
  memset(a, -128, (size_t)k), memset(b, -128, (size_t)k * 3);
  int32_t c[3];
  assert_int_equal(mips_matmul_i8i32(1, 3, k, a, 0, k, 1, b, 0, 1, k, c, 0, 3, 1, 0), MIPS_OK);
  for (int j = 0; j < 3; ++j) assert_int_equal(c[j], (int32_t)(uint32_t)((uint64_t)k << 14));
  free(a), free(b);
  check_i8_unpacked(1, 3001, 300, ROW, COL, ROW, false); /* threads, if the default allows */
}

/* MIPS_MATMUL_ANY_ORDER with B's columns along k (the dot-product path where the kernel
 * set has one) and elsewhere: random values, within the error bound of any order. */
static void check_any_order(int64_t m, int64_t n, int64_t k, layout_kind ak, layout_kind bk,
                            layout_kind ck, bool accumulate, int threads) {
  const layout al = layout_of(ak, m, k), bl = layout_of(bk, k, n), cl = layout_of(ck, m, n);
  float *a = random_f32(al.elems, false), *b = random_f32(bl.elems, false);
  float *c = random_f32(cl.elems, false);
  float *before = malloc((size_t)cl.elems * sizeof *c + 1);
  memcpy(before, c, (size_t)cl.elems * sizeof *c);
  if (!accumulate)
    for (int64_t e = 0; e < cl.elems; ++e) c[e] = NAN;
  const uint32_t flags = MIPS_MATMUL_ANY_ORDER | (accumulate ? MIPS_MATMUL_ACCUMULATE : 0) |
                         MIPS_MATMUL_MAX_THREADS(threads);
  assert_int_equal(mips_matmul_f32(m, n, k, a, al.offset, al.s0, al.s1, b, bl.offset, bl.s0,
                                   bl.s1, c, cl.offset, cl.s0, cl.s1, flags),
                   MIPS_OK);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      const int64_t at = cl.offset + i * cl.s0 + j * cl.s1;
      double magnitude;
      const double want =
          reference_f32(a, &al, b, &bl, i, j, k, accumulate ? before[at] : 0.0, &magnitude);
      const double bound = 2.0 * (double)(k + 2) * ldexp(magnitude, -24);
      if (!(fabs((double)c[at] - want) <= bound))
        fail_msg("any order %lldx%lldx%lld (A %d, B %d, C %d): C(%lld, %lld) = %.9g, want %.9g",
                 (long long)m, (long long)n, (long long)k, ak, bk, ck, (long long)i,
                 (long long)j, c[at], want);
    }
  free(a), free(b), free(c), free(before);
}

static void test_any_order_matches_reference(void **state) {
  (void)state;
  static const int64_t dims[][3] = {{1, 1, 16},  {1, 7, 17},   {1, 8, 100},  {1, 13, 1031},
                                    {1, 100, 64}, {3, 9, 33},   {8, 15, 250}, {9, 20, 40},
                                    {1, 5, 3},    {2, 3, 15},   {40, 4, 100}, {33, 3, 300},
                                    {17, 8, 16},  {100, 5, 1031}, {20, 6, 50},
                                    {12, 2, 40},  {9, 7, 20},     {20, 5, 60},
                                    {20, 3, 40}};
  for (size_t d = 0; d < sizeof dims / sizeof dims[0]; ++d)
    for (int acc = 0; acc < 2; ++acc) {
      const int64_t m = dims[d][0], n = dims[d][1], k = dims[d][2];
      check_any_order(m, n, k, ROW, COL, (layout_kind)(d % 2), acc, 1); /* B n x k */
      check_any_order(m, n, k, ROW, ROW, ROW, acc, 1);
      check_any_order(n, m, k, ROW, ROW, COL, acc, 1); /* matrix-vector when m is 1 */
      check_any_order(m, n, k, STRIDED, STRIDED, REVERSED, acc, 1);
    }
  /* Columns split over threads. */
  check_any_order(1, 3001, 700, ROW, COL, ROW, false, 4);
  check_any_order(3001, 1, 700, ROW, ROW, ROW, true, 3);
}

/*------------------------------------------------------------------------------------
 * Statuses
 *----------------------------------------------------------------------------------*/
static void test_pack_statuses(void **state) {
  (void)state;
  float b[6] = {1, 2, 3, 4, 5, 6};
  int8_t qb[6] = {1, 2, 3, 4, 5, 6};
  mips_packed_b *packed = (mips_packed_b *)(void *)b; /* must be overwritten with NULL */
  assert_int_equal(mips_pack_b_f32(2, 3, b, 0, 3, 1, NULL), MIPS_ERROR_NULL_POINTER);
  assert_int_equal(mips_pack_b_f32(-1, 3, b, 0, 3, 1, &packed), MIPS_ERROR_INVALID_ARGUMENT);
  assert_null(packed);
  packed = (mips_packed_b *)(void *)b;
  assert_int_equal(mips_pack_b_i8(2, -3, qb, 0, 3, 1, &packed), MIPS_ERROR_INVALID_ARGUMENT);
  assert_null(packed);
  assert_int_equal(mips_pack_b_f32(2, 3, NULL, 0, 3, 1, &packed), MIPS_ERROR_NULL_POINTER);
  assert_null(packed);
  assert_int_equal(mips_pack_b_f32(2, 3, b, INT64_MAX, 3, 1, &packed), MIPS_ERROR_OVERFLOW);
  assert_null(packed);
  assert_int_equal(mips_pack_b_f32(2, 3, b, 0, INT64_MIN / 2, 1, &packed), MIPS_ERROR_OVERFLOW);
  assert_int_equal(mips_pack_b_i8(3, 2, qb, INT64_MAX - 1, 1, 2, &packed), MIPS_ERROR_OVERFLOW);
  /* Indices fit (zero strides), but the packed size does not. */
  assert_int_equal(mips_pack_b_f32((int64_t)1 << 40, (int64_t)1 << 40, b, 0, 0, 0, &packed),
                   MIPS_ERROR_OVERFLOW);
  assert_null(packed);
#if !MIPS_TEST_SANITIZED_ALLOCATOR /* ASan and TSan abort on the attempt instead */
  /* 2^22 x 2^18 floats: 4 TiB, which no test machine has. */
  assert_int_equal(mips_pack_b_f32((int64_t)1 << 22, (int64_t)1 << 18, b, 0, 0, 0, &packed),
                   MIPS_ERROR_OUT_OF_MEMORY);
  assert_null(packed);
#endif
  /* Empty shapes are valid handles; B is not read. */
  assert_int_equal(mips_pack_b_f32(0, 3, NULL, 0, 0, 0, &packed), MIPS_OK);
  assert_non_null(packed);
  mips_packed_b_free(packed);
  assert_int_equal(mips_pack_b_i8(5, 0, NULL, 0, 0, 0, &packed), MIPS_OK);
  mips_packed_b_free(packed);
  /* Even when the other extent is huge: no panels, so no size to overflow (the fuzzer's
   * find). */
  assert_int_equal(mips_pack_b_i8(0, INT64_MAX, NULL, 0, 0, 0, &packed), MIPS_OK);
  mips_packed_b_free(packed);
  assert_int_equal(mips_pack_b_f32(INT64_MAX - 1, 0, NULL, 0, 0, 0, &packed), MIPS_OK);
  float untouched[2] = {7, 7};
  assert_int_equal(mips_matmul_packed_f32(2, NULL, 0, 0, 0, packed, untouched, 0, 1, 1, 0), MIPS_OK);
  assert_true(untouched[0] == 7 && untouched[1] == 7);
  mips_packed_b_free(packed);
  mips_packed_b_free(NULL);
}

static void test_packed_call_statuses(void **state) {
  (void)state;
  const float a[6] = {1, 2, 3, 4, 5, 6}, b[6] = {1, 0, 0, 1, 1, 1};
  const int8_t qa[6] = {1, 2, 3, 4, 5, 6};
  float c[4] = {7, 7, 7, 7};
  int32_t qc[4] = {7, 7, 7, 7};
  mips_packed_b *pf = NULL, *pi = NULL;
  assert_int_equal(mips_pack_b_f32(3, 2, b, 0, 2, 1, &pf), MIPS_OK);
  assert_int_equal(mips_pack_b_i8(3, 2, qa, 0, 2, 1, &pi), MIPS_OK);
  assert_int_equal(mips_matmul_packed_f32(2, a, 0, 3, 1, NULL, c, 0, 2, 1, 0),
                   MIPS_ERROR_NULL_POINTER);
  assert_int_equal(mips_matmul_packed_f32(-1, a, 0, 3, 1, pf, c, 0, 2, 1, 0),
                   MIPS_ERROR_INVALID_ARGUMENT);
  assert_int_equal(mips_matmul_packed_f32(2, a, 0, 3, 1, pf, c, 0, 2, 1, 4u),
                   MIPS_ERROR_INVALID_ARGUMENT);
  /* A handle of the other type, and something that is no handle at all. */
  assert_int_equal(mips_matmul_packed_f32(2, a, 0, 3, 1, pi, c, 0, 2, 1, 0),
                   MIPS_ERROR_INVALID_ARGUMENT);
  assert_int_equal(mips_matmul_packed_i8i32(2, qa, 0, 3, 1, pf, qc, 0, 2, 1, 0),
                   MIPS_ERROR_INVALID_ARGUMENT);
  _Alignas(64) unsigned char not_a_handle[256] = {0};
  assert_int_equal(mips_matmul_packed_f32(2, a, 0, 3, 1, (const mips_packed_b *)(void *)not_a_handle,
                                          c, 0, 2, 1, 0),
                   MIPS_ERROR_INVALID_ARGUMENT);
  assert_int_equal(mips_matmul_packed_f32(2, NULL, 0, 3, 1, pf, c, 0, 2, 1, 0),
                   MIPS_ERROR_NULL_POINTER);
  assert_int_equal(mips_matmul_packed_f32(2, a, 0, 3, 1, pf, NULL, 0, 2, 1, 0),
                   MIPS_ERROR_NULL_POINTER);
  assert_int_equal(mips_matmul_packed_f32(2, a, INT64_MAX, 3, 1, pf, c, 0, 2, 1, 0),
                   MIPS_ERROR_OVERFLOW);
  assert_int_equal(mips_matmul_packed_i8i32(2, qa, 0, 3, 1, pi, qc, 0, 1, 1, 0),
                   MIPS_ERROR_OVERLAP);
  for (int e = 0; e < 4; ++e) assert_true(c[e] == 7 && qc[e] == 7); /* nothing written */
  /* m = 0: nothing read or written, any pointer may be NULL. */
  assert_int_equal(mips_matmul_packed_f32(0, NULL, 0, 0, 0, pf, NULL, 0, 0, 0, 0), MIPS_OK);
  /* The result, and i8 beside it. */
  assert_int_equal(mips_matmul_packed_f32(2, a, 0, 3, 1, pf, c, 0, 2, 1, 0), MIPS_OK);
  assert_true(c[0] == 4 && c[1] == 5 && c[2] == 10 && c[3] == 11);
  assert_int_equal(mips_matmul_packed_i8i32(2, qa, 0, 3, 1, pi, qc, 0, 1, 2, 0), MIPS_OK);
  /* C column-major: C(0, 0) = 1*1 + 2*3 + 3*5, C(1, 0) = 4*1 + 5*3 + 6*5 */
  assert_true(qc[0] == 22 && qc[1] == 49 && qc[2] == 28 && qc[3] == 64);
  mips_packed_b_free(pf);
  mips_packed_b_free(pi);

  /* k = 0: overwrite writes +0.0, accumulate touches nothing. */
  mips_packed_b *empty_k = NULL;
  assert_int_equal(mips_pack_b_f32(0, 2, NULL, 0, 0, 0, &empty_k), MIPS_OK);
  float z[4] = {7, 7, 7, 7};
  assert_int_equal(mips_matmul_packed_f32(2, NULL, 0, 0, 0, empty_k, z, 0, 2, 1,
                                          MIPS_MATMUL_ACCUMULATE),
                   MIPS_OK);
  assert_true(z[0] == 7 && z[3] == 7);
  assert_int_equal(mips_matmul_packed_f32(2, NULL, 0, 0, 0, empty_k, z, 0, 2, 1, 0), MIPS_OK);
  for (int e = 0; e < 4; ++e) assert_true(z[e] == 0 && !signbit(z[e]));
  mips_packed_b_free(empty_k);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_packed_f32_matches_reference),
    cmocka_unit_test(test_packed_f32_threads_and_any_order),
    cmocka_unit_test(test_packed_i8_matches_reference),
    cmocka_unit_test(test_any_order_matches_reference),
    cmocka_unit_test(test_i8_row_dots_match_reference),
    cmocka_unit_test(test_pack_statuses),
    cmocka_unit_test(test_packed_call_statuses),
};

MIPS_TEST_MAIN(tests)
