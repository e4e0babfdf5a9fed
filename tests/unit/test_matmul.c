/* SPDX-License-Identifier: Apache-2.0 */
/* Correctness of mips_matmul_f32 and mips_matmul_i8i32 against an independent reference
 * computed in double (f32) or int64 (i8), over many shapes and layouts. */
#define _DEFAULT_SOURCE /* mmap's MAP_ANONYMOUS under -std=c11 */
#include "matmul_cases.h"

#include <sys/mman.h>
#include <unistd.h>

/*------------------------------------------------------------------------------------
 * The seed's cases, with hand-written expected values.
 *----------------------------------------------------------------------------------*/
static void test_identity_4x4(void **state) {
  (void)state;
  float a[16], id[16], c[16];
  int8_t a8[16], id8[16];
  int32_t c32[16];
  for (int x = 0; x < 16; ++x) {
    a[x] = (float)(x * 3 - 7), a8[x] = (int8_t)(x * 3 - 7);
    id[x] = (x % 5 == 0) ? 1.0f : 0.0f, id8[x] = (int8_t)(x % 5 == 0);
    c[x] = NAN, c32[x] = -1;
  }
  assert_int_equal(mips_matmul_f32(4, 4, 4, a, 0, 4, 1, id, 0, 4, 1, c, 0, 4, 1, 0), MIPS_OK);
  assert_memory_equal(c, a, sizeof c);
  assert_int_equal(mips_matmul_i8i32(4, 4, 4, id8, 0, 4, 1, a8, 0, 4, 1, c32, 0, 4, 1, 0), MIPS_OK);
  for (int x = 0; x < 16; ++x) assert_int_equal(c32[x], a8[x]);
}

static void test_2x3x2_known_values(void **state) {
  (void)state;
  /* [1 2; 3 4] (2x2 row-major) times [5 6 7; 8 9 10] (2x3) = [21 24 27; 47 54 61]. */
  const float a[] = {1, 2, 3, 4}, b[] = {5, 6, 7, 8, 9, 10};
  const float want[] = {21, 24, 27, 47, 54, 61};
  float c[6];
  assert_int_equal(mips_matmul_f32(2, 3, 2, a, 0, 2, 1, b, 0, 3, 1, c, 0, 3, 1, 0), MIPS_OK);
  assert_memory_equal(c, want, sizeof c);
  /* Accumulating the same product again doubles it. */
  assert_int_equal(mips_matmul_f32(2, 3, 2, a, 0, 2, 1, b, 0, 3, 1, c, 0, 3, 1,
                                   MIPS_MATMUL_ACCUMULATE), MIPS_OK);
  for (int x = 0; x < 6; ++x) assert_true(c[x] == 2 * want[x]);

  const int8_t a8[] = {1, 2, 3, 4}, b8[] = {5, 6, 7, 8, 9, 10};
  int32_t c32[6];
  assert_int_equal(mips_matmul_i8i32(2, 3, 2, a8, 0, 2, 1, b8, 0, 3, 1, c32, 0, 3, 1, 0), MIPS_OK);
  for (int x = 0; x < 6; ++x) assert_int_equal(c32[x], (int32_t)want[x]);
}

static void test_8x8_all_layouts(void **state) {
  (void)state;
  for (size_t t = 0; t < 2; ++t)
    for (int la = 0; la < LAYOUT_COUNT; ++la)
      for (int lc = 0; lc < BROADCAST_ROWS; ++lc) {
        char label[96];
        snprintf(label, sizeof label, "%s 8x8x8 A=%s C=%s", type_names[t], layout_names[la],
                 layout_names[lc]);
        const matmul_case tc = plain_case(all_types[t], 8, 8, 8, (layout)la, COL_MAJOR, (layout)lc, 0);
        run_case(&tc, label);
      }
}

/*------------------------------------------------------------------------------------
 * Sweeps
 *----------------------------------------------------------------------------------*/

/* Small and odd shapes, including 1s and sizes that are not multiples of any VL, over
 * every pairing of layouts, with and without accumulation. */
static void sweep_layouts(dtype t) {
  /* 4x4x1, 15x4x15, 2x2x6: the entry point's own path for the smallest calls (one of
   * them with k = 1, whose k strides no tile reads). */
  static const int64_t shapes[][3] = {{1, 1, 1},  {2, 3, 2},   {3, 5, 7},  {1, 17, 3},
                                      {17, 1, 3}, {5, 7, 1},   {13, 31, 9}, {9, 67, 4},
                                      {4, 4, 1},  {15, 4, 15}, {2, 2, 6}};
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; ++s)
    for (int la = 0; la < LAYOUT_COUNT; ++la)
      for (int lb = 0; lb < LAYOUT_COUNT; ++lb)
        for (int lc = 0; lc < BROADCAST_ROWS; ++lc)
          for (uint32_t flags = 0; flags <= MIPS_MATMUL_ACCUMULATE; ++flags) {
            matmul_case tc = plain_case(t, shapes[s][0], shapes[s][1], shapes[s][2], (layout)la,
                                        (layout)lb, (layout)lc, flags);
            tc.a.front = test_rng_int(0, 3), tc.a.pad = test_rng_int(0, 2);
            tc.b.front = test_rng_int(0, 3), tc.b.pad = test_rng_int(0, 2);
            tc.c.front = test_rng_int(0, 3), tc.c.pad = test_rng_int(0, 2);
            char label[128];
            snprintf(label, sizeof label, "%s %lldx%lldx%lld A=%s B=%s C=%s%s", type_names[t],
                     (long long)tc.m, (long long)tc.n, (long long)tc.k, layout_names[la],
                     layout_names[lb], layout_names[lc], flags ? " accumulate" : "");
            run_case(&tc, label);
          }
}

static void test_f32_layout_sweep(void **state) { (void)state; sweep_layouts(F32); }
static void test_i8i32_layout_sweep(void **state) { (void)state; sweep_layouts(I8I32); }

/* Prime sizes, large enough to cross many vector lengths and row blocks. */
static void test_prime_sizes_257x131x67(void **state) {
  (void)state;
  static const layout combos[][3] = {{ROW_MAJOR, ROW_MAJOR, ROW_MAJOR},
                                     {COL_MAJOR, COL_MAJOR, COL_MAJOR},
                                     {ROW_MAJOR_FLIPPED, COL_MAJOR, INTERLEAVED}};
  for (size_t t = 0; t < 2; ++t)
    for (size_t x = 0; x < sizeof combos / sizeof combos[0]; ++x)
      for (uint32_t flags = 0; flags <= MIPS_MATMUL_ACCUMULATE; ++flags) {
        matmul_case tc = plain_case(all_types[t], 257, 131, 67, combos[x][0], combos[x][1],
                                    combos[x][2], flags);
        tc.a.pad = 3, tc.c.front = 5;
        char label[96];
        snprintf(label, sizeof label, "%s 257x131x67 combo %zu%s", type_names[t], x,
                 flags ? " accumulate" : "");
        run_case(&tc, label);
      }
}

/* Few columns and many rows, A's rows unit-stride: from VLEN 256 the column blocks
 * (vectors along C's rows, groups of 8 rows of A transposed a run of 64 k at a time; up
 * to 4 columns at VLEN 256, 8 at 512, 16 at 1024).
 * Row counts cross partial groups and blocks of 32, k crosses runs; B row- or column-major,
 * read backwards or interleaved (x86 reads B through any strides); every layout of C. */
static void test_few_columns_many_rows(void **state) {
  (void)state;
  static const int64_t shapes[][3] = {{16, 1, 16},  {37, 3, 77},   {100, 4, 50}, {256, 4, 129},
                                      {33, 2, 200}, {64, 4, 16},   {47, 4, 64},  {33, 8, 65},
                                      {40, 9, 100}, {20, 12, 17},  {128, 16, 70}};
  static const layout b_layouts[] = {ROW_MAJOR, COL_MAJOR, ROW_MAJOR_FLIPPED, INTERLEAVED};
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; ++s)
    for (size_t lb = 0; lb < 4; ++lb)
      for (int lc = 0; lc < BROADCAST_ROWS; ++lc)
        for (uint32_t flags = 0; flags <= MIPS_MATMUL_ACCUMULATE; ++flags) {
          matmul_case tc = plain_case(F32, shapes[s][0], shapes[s][1], shapes[s][2], ROW_MAJOR,
                                      b_layouts[lb], (layout)lc, flags);
          tc.a.pad = test_rng_int(0, 3), tc.c.front = test_rng_int(0, 3);
          char label[128];
          snprintf(label, sizeof label, "f32 %lldx%lldx%lld B=%s C=%s%s", (long long)tc.m,
                   (long long)tc.n, (long long)tc.k, layout_names[b_layouts[lb]],
                   layout_names[lc], flags ? " accumulate" : "");
          run_case(&tc, label);
        }
}

/* All of C in one panel, as wide as a register at some VLEN (4, 8, 16 or 32 f32), and
 * many rows: RVV's LMUL 1 tile then loads eight rows of B at once where they are
 * adjacent (B dense, or packed), and runs its row tiles in one call. B with padded rows
 * takes the other loop; k below, at and off multiples of eight. From 121 rows the
 * blocked driver runs them (B packed into the narrow tile's panels), also with k in two
 * blocks (300). */
static void test_one_panel_many_rows(void **state) {
  (void)state;
  static const int64_t shapes[][3] = {
      {100, 32, 144}, {46, 32, 23}, {16, 32, 8},  {31, 16, 40},  {100, 16, 9},
      {45, 8, 144},   {15, 4, 8},   {100, 4, 23}, {29, 32, 7},   {256, 32, 144},
      {256, 8, 64},   {200, 16, 40}, {300, 4, 23}, {130, 32, 300}, {137, 16, 9}};
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; ++s)
    for (int64_t b_pad = 0; b_pad <= 2; b_pad += 2)
      for (int lc = 0; lc < BROADCAST_ROWS; ++lc)
        for (uint32_t flags = 0; flags <= MIPS_MATMUL_ACCUMULATE; ++flags) {
          matmul_case tc = plain_case(F32, shapes[s][0], shapes[s][1], shapes[s][2], ROW_MAJOR,
                                      ROW_MAJOR, (layout)lc, flags);
          tc.a.pad = test_rng_int(0, 3), tc.b.pad = b_pad, tc.c.front = test_rng_int(0, 3);
          char label[128];
          snprintf(label, sizeof label, "f32 %lldx%lldx%lld B pad %lld C=%s%s",
                   (long long)tc.m, (long long)tc.n, (long long)tc.k, (long long)b_pad,
                   layout_names[lc], flags ? " accumulate" : "");
          run_case(&tc, label);
        }
}

/* One row of C against a B whose columns are apart (a decode step against weights stored
 * n x k, or a matrix-vector product turned round): k unit-stride, or strided too (a
 * convolution's centre tap); column counts across groups of 16, k across runs of 16 and
 * below the column blocks' 16; every layout of C. */
static void test_one_row_columns_apart(void **state) {
  (void)state;
  static const int64_t shapes[][2] = {{5, 3},  {17, 9},  {40, 15}, {130, 12}, {40, 1},
                                      {130, 7}, {33, 40}, {5, 40},  {9, 300}};
  static const layout b_layouts[] = {COL_MAJOR, COL_MAJOR_SPACED, INTERLEAVED};
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; ++s)
    for (size_t lb = 0; lb < 3; ++lb)
      for (int lc = 0; lc < BROADCAST_ROWS; ++lc)
        for (uint32_t flags = 0; flags <= MIPS_MATMUL_ACCUMULATE; ++flags) {
          matmul_case tc = plain_case(F32, 1, shapes[s][0], shapes[s][1], ROW_MAJOR,
                                      b_layouts[lb], (layout)lc, flags);
          tc.b.pad = test_rng_int(0, 3), tc.c.front = test_rng_int(0, 3);
          char label[128];
          snprintf(label, sizeof label, "f32 1x%lldx%lld B=%s C=%s%s", (long long)tc.n,
                   (long long)tc.k, layout_names[b_layouts[lb]], layout_names[lc],
                   flags ? " accumulate" : "");
          run_case(&tc, label);
        }
}

/* Many rows and a few columns that fill the vectors badly (an NCHW convolution on a 3x3
 * image: 9 pixels take 16 lanes at VLEN 256), large enough that the call runs the other
 * way round (vectors along C's rows, C written across its layout, B's columns packed),
 * as the cost estimate decides. Every layout of C, both types, with and without
 * accumulation; A row-major (weights) or column-major. */
static void test_badly_filled_columns(void **state) {
  (void)state;
  /* 120x9x120: small enough for the small-call path, which keeps the orientation. */
  static const int64_t shapes[][3] = {{128, 9, 288}, {130, 9, 100}, {40, 9, 300},
                                      {200, 5, 90},  {120, 9, 120}};
  static const layout a_layouts[] = {ROW_MAJOR, COL_MAJOR};
  for (size_t t = 0; t < 2; ++t)
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; ++s)
      for (size_t la = 0; la < 2; ++la)
        for (int lc = 0; lc < BROADCAST_ROWS; ++lc)
          for (uint32_t flags = 0; flags <= MIPS_MATMUL_ACCUMULATE; ++flags) {
            matmul_case tc = plain_case(all_types[t], shapes[s][0], shapes[s][1], shapes[s][2],
                                        a_layouts[la], ROW_MAJOR, (layout)lc, flags);
            tc.a.pad = test_rng_int(0, 3), tc.c.front = test_rng_int(0, 3);
            char label[128];
            snprintf(label, sizeof label, "%s %lldx%lldx%lld A=%s C=%s%s", type_names[t],
                     (long long)tc.m, (long long)tc.n, (long long)tc.k,
                     layout_names[a_layouts[la]], layout_names[lc], flags ? " accumulate" : "");
            run_case(&tc, label);
          }
}

/* Column blocks read only the block's rows: A ends where an unreadable page begins, and
 * a block of 16 or 5 rows (fewer than the 32 a wide block transposes from VLEN 512)
 * must not touch it. */
static void test_column_blocks_stay_in_a(void **state) {
  (void)state;
  const long page = sysconf(_SC_PAGESIZE);
  static const int64_t shapes[][3] = {{16, 4, 64}, {37, 3, 64}, {16, 1, 32}};
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; ++s) {
    const int64_t m = shapes[s][0], n = shapes[s][1], k = shapes[s][2];
    const size_t a_bytes = (size_t)(m * k) * sizeof(float);
    const size_t span = (a_bytes + (size_t)page - 1) / (size_t)page * (size_t)page;
    char *mapping = mmap(NULL, span + (size_t)page, PROT_READ | PROT_WRITE,
                         MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    assert_true(mapping != MAP_FAILED);
    assert_int_equal(mprotect(mapping + span, (size_t)page, PROT_NONE), 0);
    float *a = (float *)(mapping + span - a_bytes), b[4 * 64], c[37 * 4];
    for (int64_t x = 0; x < m * k; ++x) a[x] = (float)(x % 7 - 3);
    for (int64_t x = 0; x < k * n; ++x) b[x] = (float)(x % 5 - 2);
    assert_int_equal(mips_matmul_f32(m, n, k, a, 0, k, 1, b, 0, n, 1, c, 0, n, 1, 0), MIPS_OK);
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double want = 0;
        for (int64_t l = 0; l < k; ++l) want += (double)a[i * k + l] * b[l * n + j];
        assert_true(c[i * n + j] == (float)want);
      }
    munmap(mapping, span + (size_t)page);
  }
}

/* Non-integer values: kernels may fuse or not, so compare within the classic
 * k * eps * sum|a*b| bound of recursive summation. */
static void test_f32_real_values_within_error_bound(void **state) {
  (void)state;
  for (uint32_t flags = 0; flags <= MIPS_MATMUL_ACCUMULATE; ++flags) {
    matmul_case tc = plain_case(F32, 37, 29, 101, ROW_MAJOR, COL_MAJOR, ROW_MAJOR, flags);
    tc.in_lo = -1000000, tc.in_hi = 1000000, tc.tolerance = 2.0;
    run_case(&tc, flags ? "f32 real-valued accumulate" : "f32 real-valued");
  }
}

/*------------------------------------------------------------------------------------
 * int8 extremes
 *----------------------------------------------------------------------------------*/
static void test_i8_extremes_large_k(void **state) {
  (void)state;
  matmul_case tc = plain_case(I8I32, 7, 9, 3001, ROW_MAJOR, ROW_MAJOR, ROW_MAJOR, 0);
  tc.in_lo = -128, tc.in_hi = 127;
  run_case(&tc, "i8 full range k=3001");
  tc = plain_case(I8I32, 5, 19, 4099, COL_MAJOR, ROW_MAJOR, COL_MAJOR, MIPS_MATMUL_ACCUMULATE);
  tc.in_lo = -128, tc.in_hi = -128;
  run_case(&tc, "i8 all -128 k=4099");
  tc.in_lo = 127, tc.in_hi = 127;
  run_case(&tc, "i8 all 127 k=4099");
}

/* (-128)^2 * 131072 = 2^31: one past INT32_MAX, which wraps to INT32_MIN. */
static void test_i8_int32_wraparound(void **state) {
  (void)state;
  enum { M = 2, N = 5, K = 131072 };
  int8_t *a = malloc((size_t)M * K), *b = malloc((size_t)K * N);
  int32_t c[M * N];
  assert_true(a && b);
  memset(a, 0x80, (size_t)M * K);
  memset(b, 0x80, (size_t)K * N);
  assert_int_equal(mips_matmul_i8i32(M, N, K, a, 0, K, 1, b, 0, N, 1, c, 0, N, 1, 0), MIPS_OK);
  for (int x = 0; x < M * N; ++x) assert_int_equal(c[x], INT32_MIN);
  free(a), free(b);
}

/* Accumulation wraps too: INT32_MAX + 1 is INT32_MIN, and INT32_MIN - 1 is INT32_MAX,
 * with k large enough to cross k blocks. */
static void test_i8_accumulate_wraps(void **state) {
  (void)state;
  enum { M = 3, N = 33, K = 600 };
  int8_t *a = calloc((size_t)M * K, 1), *b = calloc((size_t)K * N, 1);
  int32_t c[M * N];
  assert_true(a && b);
  a[0] = 1, a[1 * K + K - 1] = -1; /* row 0: +B(0, :), row 1: -B(K-1, :), row 2: 0 */
  for (int j = 0; j < N; ++j) b[j] = 1, b[(K - 1) * N + j] = 1;
  for (int x = 0; x < M * N; ++x) c[x] = x < N ? INT32_MAX : x < 2 * N ? INT32_MIN : 7;
  assert_int_equal(mips_matmul_i8i32(M, N, K, a, 0, K, 1, b, 0, N, 1, c, 0, N, 1,
                                     MIPS_MATMUL_ACCUMULATE), MIPS_OK);
  for (int j = 0; j < N; ++j) {
    assert_int_equal(c[j], INT32_MIN);
    assert_int_equal(c[N + j], INT32_MAX);
    assert_int_equal(c[2 * N + j], 7);
  }
  free(a), free(b);
}

/*------------------------------------------------------------------------------------
 * Empty problems
 *----------------------------------------------------------------------------------*/
static void test_zero_dimensions(void **state) {
  (void)state;
  float a[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, c[12];
  int32_t c32[12];
  const int8_t a8[12] = {1};
  for (int x = 0; x < 12; ++x) c[x] = (float)x + 0.5f, c32[x] = x + 100;
  const float c_orig0 = c[0];

  /* m = 0 or n = 0: nothing happens. */
  assert_int_equal(mips_matmul_f32(0, 3, 4, a, 0, 4, 1, a, 0, 3, 1, c, 0, 3, 1, 0), MIPS_OK);
  assert_int_equal(mips_matmul_f32(3, 0, 4, a, 0, 4, 1, a, 0, 3, 1, c, 0, 3, 1, 0), MIPS_OK);
  assert_true(c[0] == c_orig0);
  /* k = 0 with accumulation: C unchanged. */
  assert_int_equal(mips_matmul_f32(3, 4, 0, a, 0, 4, 1, a, 0, 3, 1, c, 0, 4, 1,
                                   MIPS_MATMUL_ACCUMULATE), MIPS_OK);
  for (int x = 0; x < 12; ++x) assert_true(c[x] == (float)x + 0.5f);
  /* k = 0 without: C becomes exactly zero, through its strides only (a 2x3 view of
     every other element of a column-major 2x6 block). */
  for (int x = 0; x < 12; ++x) c[x] = NAN;
  assert_int_equal(mips_matmul_f32(2, 3, 0, NULL, 0, 0, 0, NULL, 0, 0, 0, c, 0, 1, 4, 0), MIPS_OK);
  for (int x = 0; x < 12; ++x) {
    const int in_view = (x % 4) < 2;
    if (in_view) assert_true(c[x] == 0.0f && !signbit(c[x]));
    else assert_true(isnan(c[x]));
  }
  assert_int_equal(mips_matmul_i8i32(2, 3, 0, a8, 0, 0, 0, a8, 0, 0, 0, c32, 11, -1, -2, 0), MIPS_OK);
  for (int x = 0; x < 12; ++x) assert_int_equal(c32[x], x >= 6 ? 0 : x + 100);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_identity_4x4),
    cmocka_unit_test(test_2x3x2_known_values),
    cmocka_unit_test(test_8x8_all_layouts),
    cmocka_unit_test(test_f32_layout_sweep),
    cmocka_unit_test(test_i8i32_layout_sweep),
    cmocka_unit_test(test_prime_sizes_257x131x67),
    cmocka_unit_test(test_few_columns_many_rows),
    cmocka_unit_test(test_one_panel_many_rows),
    cmocka_unit_test(test_column_blocks_stay_in_a),
    cmocka_unit_test(test_one_row_columns_apart),
    cmocka_unit_test(test_badly_filled_columns),
    cmocka_unit_test(test_f32_real_values_within_error_bound),
    cmocka_unit_test(test_i8_extremes_large_k),
    cmocka_unit_test(test_i8_int32_wraparound),
    cmocka_unit_test(test_i8_accumulate_wraps),
    cmocka_unit_test(test_zero_dimensions),
};

MIPS_TEST_MAIN(tests)
