/* SPDX-License-Identifier: Apache-2.0 */
/* 1.2: batched calls (mips_matmul_batch_*) against a reference computed here, with
 * broadcast operands and threads across entries, every status, and the overlap check of
 * a batched C against a brute-force search over all pairs of its elements. */
#include <stdbool.h>

#include "mips/mips.h"
#include "test_harness.h"

static uint32_t rng_state = 88172645u;
static uint32_t next_random(void) {
  rng_state ^= rng_state << 13, rng_state ^= rng_state >> 17, rng_state ^= rng_state << 5;
  return rng_state;
}

/* One operand of a batch: entry e, element (i, j) at offset + e*sb + i*s0 + j*s1. */
typedef struct view3 {
  int64_t offset, sb, s0, s1, elems;
} view3;

/* Entries row-major and packed one after another (sb = rows*cols, or 0 to broadcast),
 * or transposed with a gap between entries. */
static view3 view_of(int64_t batch, int64_t rows, int64_t cols, int kind) {
  switch (kind) {
    case 0: return (view3){0, rows * cols, cols, 1, batch * rows * cols};
    case 1: return (view3){0, 0, cols, 1, rows * cols}; /* broadcast */
    default: {
      const int64_t sb = rows * cols + 5;
      return (view3){2, sb, 1, rows, 2 + batch * sb};
    }
  }
}

static void check_batch(bool i8, int64_t batch, int64_t m, int64_t n, int64_t k, int a_kind,
                        int b_kind, bool accumulate, int threads) {
  const view3 av = view_of(batch, m, k, a_kind), bv = view_of(batch, k, n, b_kind);
  const view3 cv = view_of(batch, m, n, 2);
  const size_t in = i8 ? 1 : sizeof(float);
  void *a = malloc((size_t)av.elems * in + 1), *b = malloc((size_t)bv.elems * in + 1);
  int32_t *c = malloc((size_t)cv.elems * 4 + 4), *before = malloc((size_t)cv.elems * 4 + 4);
  for (int64_t x = 0; x < av.elems; ++x) {
    const int v = (int)(next_random() % 9) - 4;
    if (i8) ((int8_t *)a)[x] = (int8_t)(v * 31);
    else ((float *)a)[x] = (float)v;
  }
  for (int64_t x = 0; x < bv.elems; ++x) {
    const int v = (int)(next_random() % 9) - 4;
    if (i8) ((int8_t *)b)[x] = (int8_t)(v * 29);
    else ((float *)b)[x] = (float)v;
  }
  for (int64_t x = 0; x < cv.elems; ++x) {
    const int v = (int)(next_random() % 9) - 4;
    if (i8) c[x] = v;
    else ((float *)c)[x] = (float)v;
  }
  memcpy(before, c, (size_t)cv.elems * 4);
  const uint32_t flags = (accumulate ? MIPS_MATMUL_ACCUMULATE : 0) | MIPS_MATMUL_MAX_THREADS(threads);
  const int status =
      i8 ? mips_matmul_batch_i8i32(batch, m, n, k, a, av.offset, av.sb, av.s0, av.s1, b, bv.offset,
                                   bv.sb, bv.s0, bv.s1, c, cv.offset, cv.sb, cv.s0, cv.s1, flags)
         : mips_matmul_batch_f32(batch, m, n, k, a, av.offset, av.sb, av.s0, av.s1, b, bv.offset,
                                 bv.sb, bv.s0, bv.s1, (float *)(void *)c, cv.offset, cv.sb, cv.s0,
                                 cv.s1, flags);
  assert_int_equal(status, MIPS_OK);
  for (int64_t e = 0; e < batch; ++e)
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        const int64_t at = cv.offset + e * cv.sb + i * cv.s0 + j * cv.s1;
        int64_t want = 0;
        if (accumulate) want = i8 ? before[at] : (int64_t)((float *)(void *)before)[at];
        for (int64_t l = 0; l < k; ++l) {
          const int64_t ai = av.offset + e * av.sb + i * av.s0 + l * av.s1;
          const int64_t bi = bv.offset + e * bv.sb + l * bv.s0 + j * bv.s1;
          want += i8 ? (int64_t)((int8_t *)a)[ai] * ((int8_t *)b)[bi]
                     : (int64_t)((float *)a)[ai] * (int64_t)((float *)b)[bi];
        }
        const int64_t have = i8 ? c[at] : (int64_t)((float *)(void *)c)[at];
        if (have != want)
          fail_msg("batch %s %lld x %lldx%lldx%lld (A %d, B %d): C[%lld](%lld, %lld) = %lld, "
                   "want %lld", i8 ? "i8" : "f32", (long long)batch, (long long)m, (long long)n,
                   (long long)k, a_kind, b_kind, (long long)e, (long long)i, (long long)j,
                   (long long)have, (long long)want);
      }
  /* Nothing outside the entries moved (the gaps between C's entries). */
  for (int64_t x = 0; x < cv.elems; ++x) {
    const int64_t rel = x - cv.offset;
    const bool inside = rel >= 0 && rel % cv.sb < m * n && rel / cv.sb < batch;
    if (!inside && c[x] != before[x]) fail_msg("batch wrote outside C's entries at %lld", (long long)x);
  }
  free(a), free(b), free(c), free(before);
}

static void test_batch_matches_reference(void **state) {
  (void)state;
  static const int64_t shapes[][4] = {{1, 3, 4, 5}, {3, 1, 17, 40}, {4, 64, 64, 64},
                                      {7, 5, 1, 9}, {2, 33, 20, 300}, {5, 16, 16, 16}};
  for (int i8 = 0; i8 < 2; ++i8)
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; ++s)
      for (int kinds = 0; kinds < 4; ++kinds) {
        const int a_kind = kinds == 1 ? 1 : kinds == 3 ? 2 : 0;
        const int b_kind = kinds == 2 ? 1 : kinds == 3 ? 2 : 0;
        check_batch(i8, shapes[s][0], shapes[s][1], shapes[s][2], shapes[s][3], a_kind, b_kind,
                    kinds % 2 == 1, 1);
      }
}

static void test_batch_threads(void **state) {
  (void)state;
  /* Many small entries (spread over threads) and a few big ones (each split). */
  check_batch(false, 96, 24, 24, 40, 0, 0, false, 4);
  check_batch(true, 96, 24, 24, 40, 2, 1, true, 3);
  check_batch(false, 3, 160, 130, 150, 0, 2, true, 4);
}

static void test_batch_statuses(void **state) {
  (void)state;
  float a[16] = {1, 2, 3, 4}, b[16] = {1, 0, 0, 1}, c[16];
  for (int x = 0; x < 16; ++x) c[x] = 9;
#define CALL(BATCH, AP, BP, CP, CB, FLAGS) \
  mips_matmul_batch_f32(BATCH, 2, 2, 2, AP, 0, 4, 2, 1, BP, 0, 4, 2, 1, CP, 0, CB, 2, 1, FLAGS)
  assert_int_equal(CALL(-1, a, b, c, 4, 0), MIPS_ERROR_INVALID_ARGUMENT);
  assert_int_equal(CALL(2, a, b, c, 4, 4u), MIPS_ERROR_INVALID_ARGUMENT);
  assert_int_equal(CALL(2, NULL, b, c, 4, 0), MIPS_ERROR_NULL_POINTER);
  assert_int_equal(CALL(2, a, b, NULL, 4, 0), MIPS_ERROR_NULL_POINTER);
  assert_int_equal(CALL(2, a, b, c, INT64_MAX / 2, 0), MIPS_ERROR_OVERFLOW);
  assert_int_equal(CALL(2, a, b, c, 0, 0), MIPS_ERROR_OVERLAP);    /* one C for two entries */
  assert_int_equal(CALL(2, a, b, c, 2, 0), MIPS_ERROR_OVERLAP);    /* entry 1 row 0 = entry 0 row 1 */
  assert_int_equal(CALL(2, a, b, c, -3, 0), MIPS_ERROR_OVERLAP);   /* offset 0 - 3 + 2 + 1 = 0 */
  for (int x = 0; x < 16; ++x) assert_true(c[x] == 9); /* nothing written */
  assert_int_equal(CALL(0, NULL, NULL, NULL, 0, 0), MIPS_OK); /* an empty batch */
  assert_int_equal(mips_matmul_batch_f32(1, 2, 2, 2, a, 0, 0, 2, 1, b, 0, 0, 2, 1, NULL, 0, 0, 2, 1,
                                         0),
                   MIPS_ERROR_NULL_POINTER);
  /* k = 0 reads nothing, even with A and B NULL, and zeroes each entry. */
  assert_int_equal(mips_matmul_batch_f32(2, 2, 2, 0, NULL, 0, 0, 0, 0, NULL, 0, 0, 0, 0, c, 0, 8, 2,
                                         1, 0),
                   MIPS_OK);
  for (int x = 0; x < 16; ++x) assert_true(c[x] == (x % 8 < 4 ? 0 : 9));
  assert_int_equal(CALL(2, a, b, c, 4, 0), MIPS_OK); /* A's entries broadcast B = I */
  for (int x = 0; x < 8; ++x) assert_true(c[x] == a[x]);
#undef CALL
}

/* The overlap check over (entry, i, j) against every pair of elements, on random small
 * views (k = 0 without accumulation: only C is checked and written). */
static void test_batch_overlap_check_is_exact(void **state) {
  (void)state;
  enum { CASES = 3000 };
  int overlapping = 0;
  for (int t = 0; t < CASES; ++t) {
    const int64_t e[3] = {1 + next_random() % 5, 1 + next_random() % 5, 1 + next_random() % 5};
    int64_t s[3];
    for (int d = 0; d < 3; ++d) s[d] = (int64_t)(next_random() % 25) - 12;
    /* Offset so that the lowest index is 0; the buffer spans to the highest. */
    int64_t lo = 0, hi = 0;
    for (int d = 0; d < 3; ++d) {
      const int64_t span = (e[d] - 1) * s[d];
      if (span < 0) lo += span;
      else hi += span;
    }
    bool collision = false;
    for (int64_t x = 0; x < e[0] * e[1] * e[2] && !collision; ++x)
      for (int64_t y = x + 1; y < e[0] * e[1] * e[2] && !collision; ++y) {
        const int64_t ix = (x / (e[1] * e[2])) * s[0] + (x / e[2] % e[1]) * s[1] + (x % e[2]) * s[2];
        const int64_t iy = (y / (e[1] * e[2])) * s[0] + (y / e[2] % e[1]) * s[1] + (y % e[2]) * s[2];
        collision = ix == iy;
      }
    float *c = malloc((size_t)(hi - lo + 1) * sizeof *c);
    const int status = mips_matmul_batch_f32(e[0], e[1], e[2], 0, NULL, 0, 0, 0, 0, NULL, 0, 0, 0, 0,
                                             c, -lo, s[0], s[1], s[2], 0);
    free(c);
    overlapping += collision;
    if (status != (collision ? MIPS_ERROR_OVERLAP : MIPS_OK))
      fail_msg("batch %lld, %lldx%lld, strides (%lld, %lld, %lld): status %d, but the elements "
               "%s", (long long)e[0], (long long)e[1], (long long)e[2], (long long)s[0],
               (long long)s[1], (long long)s[2], status, collision ? "collide" : "are distinct");
  }
  /* Both outcomes were exercised. */
  assert_true(overlapping > CASES / 10 && overlapping < CASES * 9 / 10);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_batch_matches_reference),
    cmocka_unit_test(test_batch_threads),
    cmocka_unit_test(test_batch_statuses),
    cmocka_unit_test(test_batch_overlap_check_is_exact),
};

MIPS_TEST_MAIN(tests)
