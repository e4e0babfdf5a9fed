/* SPDX-License-Identifier: Apache-2.0 */
/* Every registered tile of every kernel set this CPU can run, through the driver, against
 * the reference: not only the tile the driver would pick. Small block sizes reach every
 * edge of the blocking (several k blocks, several B blocks, a last narrow panel, the
 * stack fallback used when malloc fails) with small problems. The thread grid is
 * checked the same way, with small problems split over 2 to 9 threads. Links the
 * library's internal objects. */
#include "matmul_cases.h"
#include "dispatch.h"
#include "driver/driver.h"
#include "threading/threading.h"

#if defined(MIPS_HAVE_RVV_KERNELS)
#include <sys/auxv.h>
static bool cpu_has_rvv(void) { return (getauxval(AT_HWCAP) & (1ul << ('V' - 'A'))) != 0; }
#endif

static const mips_tile *current_tile;
static const mips_gemm_blocking *current_blocking;

/* The case as the API layer hands it to the driver: offsets applied, strides of
 * extent-1 dimensions dropped. */
static mips_matmul_problem problem_of(const matmul_case *tc, const void *a, const view *av,
                                      const void *b, const view *bv, void *c, const view *cv) {
  const size_t is = in_size(tc->type), os = out_size(tc->type);
  return (mips_matmul_problem){
      .m = tc->m, .n = tc->n, .k = tc->k,
      .a = (const char *)a + av->offset * (int64_t)is,
      .a_stride0 = tc->m > 1 ? av->stride0 : 0, .a_stride1 = tc->k > 1 ? av->stride1 : 0,
      .b = (const char *)b + bv->offset * (int64_t)is,
      .b_stride0 = tc->k > 1 ? bv->stride0 : 0, .b_stride1 = tc->n > 1 ? bv->stride1 : 0,
      .c = (char *)c + cv->offset * (int64_t)os,
      .c_stride0 = tc->m > 1 ? cv->stride0 : 0, .c_stride1 = tc->n > 1 ? cv->stride1 : 0,
      .accumulate = (tc->flags & MIPS_MATMUL_ACCUMULATE) != 0,
      .any_order = (tc->flags & MIPS_MATMUL_ANY_ORDER) != 0,
  };
}

/* Runs the case through the driver with the current tile and blocking. */
static int run_through_driver(const matmul_case *tc, const void *a, const view *av,
                              const void *b, const view *bv, void *c, const view *cv) {
  const mips_matmul_problem p = problem_of(tc, a, av, b, bv, c, cv);
  mips_gemm_run_blocked(&p, tc->type == F32 ? MIPS_DTYPE_F32 : MIPS_DTYPE_I8I32, current_tile,
                        current_blocking);
  return MIPS_OK;
}

static const mips_gemm_blocking blockings[] = {
    {256, 1u << 20, false}, /* the library's own */
    {5, 1, false},          /* k blocks of 5, one panel per B block */
    {256, 1u << 20, true},  /* malloc failed: panels on the stack */
};
static const char *const blocking_names[] = {"default", "tiny-blocks", "stack-panel"};

/* Shapes around every tile's edges: 1s, remainders of mr, narrow and wide last panels,
 * odd k, k over one block. From FIRST_PACKED_A_SHAPE, A is row-major, so that tiles with a
 * row packer pack it (rows of 4, 8, 9 and 8 + 4, k up to a whole block). */
static const int64_t shapes[][3] = {{1, 1, 1},   {2, 3, 2},    {1, 40, 7},    {16, 1, 9},
                                    {17, 9, 4},  {31, 70, 5},  {7, 129, 33},  {45, 33, 300},
                                    {12, 20, 37}, {4, 9, 256}, {8, 33, 100},  {9, 5, 255}};
enum { FIRST_PACKED_A_SHAPE = 8 };
static const layout a_layouts[] = {ROW_MAJOR, COL_MAJOR, INTERLEAVED, ROW_MAJOR_FLIPPED};
static const layout b_layouts[] = {ROW_MAJOR, COL_MAJOR, INTERLEAVED, BROADCAST_COLS};
static const layout c_layouts[] = {ROW_MAJOR, COL_MAJOR, COL_MAJOR_SPACED};

static void check_tiles(const mips_kernel_set *set, const mips_tile *const *tiles, size_t count,
                        dtype t) {
  for (size_t ti = 0; ti < count; ++ti) {
    current_tile = tiles[ti];
    if (current_tile->available && !current_tile->available()) {
      /* Said, so that a CI machine without the feature shows what it did not test. */
      printf("%s/%s: skipped, this CPU lacks its features\n", set->name,
                    current_tile->name);
      continue;
    }
    for (size_t bi = 0; bi < sizeof blockings / sizeof blockings[0]; ++bi) {
      current_blocking = &blockings[bi];
      for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; ++s)
        for (int combo = 0; combo < 4; ++combo) {
          const layout al = s >= FIRST_PACKED_A_SHAPE ? ROW_MAJOR : a_layouts[test_rng_int(0, 3)];
          matmul_case tc = plain_case(t, shapes[s][0], shapes[s][1], shapes[s][2], al,
                                      b_layouts[test_rng_int(0, 3)],
                                      c_layouts[test_rng_int(0, 2)], (uint32_t)(combo & 1));
          tc.a.pad = test_rng_int(0, 2), tc.b.front = test_rng_int(0, 3);
          char label[160];
          snprintf(label, sizeof label, "%s/%s %s %lldx%lldx%lld A=%s B=%s C=%s%s", set->name,
                   current_tile->name, blocking_names[bi], (long long)tc.m, (long long)tc.n,
                   (long long)tc.k, layout_names[tc.a.layout], layout_names[tc.b.layout],
                   layout_names[tc.c.layout], tc.flags ? " accumulate" : "");
          run_case_with(&tc, label, run_through_driver);
          /* NaN and Inf, through this tile's padded panels and k blocks. */
          if (t == F32 && s >= 4 && combo < 2) run_nonfinite_cases_with(&tc, label, run_through_driver);
        }
    }
  }
}

static void check_set(const mips_kernel_set *set) {
  check_tiles(set, set->tiles[MIPS_DTYPE_F32], set->tile_count[MIPS_DTYPE_F32], F32);
  check_tiles(set, set->tiles[MIPS_DTYPE_I8I32], set->tile_count[MIPS_DTYPE_I8I32], I8I32);
}

static void check_row_dots(const mips_kernel_set *set);
static void check_int8_extremes(const mips_kernel_set *set);

static void test_portable_tiles(void **state) {
  (void)state;
  check_set(&mips_kernels_scalar);
  check_row_dots(&mips_kernels_scalar); /* none yet: the tiles run matrix-vector shapes */
  check_int8_extremes(&mips_kernels_scalar);
}

static const mips_kernel_set *row_dot_set;

/* As run_through_driver, through the set's dot products for one row of C at a time. */
static int run_through_row_dots(const matmul_case *tc, const void *a, const view *av,
                                const void *b, const view *bv, void *c, const view *cv) {
  const mips_matmul_problem p = problem_of(tc, a, av, b, bv, c, cv);
  const mips_dtype type = tc->type == F32 ? MIPS_DTYPE_F32 : MIPS_DTYPE_I8I32;
  mips_row_dots_run(&p, type, row_dot_set->row_dot[type]);
  return MIPS_OK;
}

/* Row dots need A's rows and B's columns unit-stride; k around the vector widths. */
static void check_row_dots(const mips_kernel_set *set) {
  static const int64_t dot_shapes[][3] = {{1, 1, 1},  {1, 9, 15},  {3, 17, 16},
                                          {2, 8, 33}, {1, 5, 300}, {4, 3, 64}};
  row_dot_set = set;
  for (int t = 0; t < 2; ++t) {
    if (set->row_dot[t] == NULL) continue;
    for (size_t s = 0; s < sizeof dot_shapes / sizeof dot_shapes[0]; ++s)
      for (int accumulate = 0; accumulate < 2; ++accumulate) {
        matmul_case tc = plain_case(all_types[t], dot_shapes[s][0], dot_shapes[s][1],
                                    dot_shapes[s][2], ROW_MAJOR, COL_MAJOR,
                                    c_layouts[test_rng_int(0, 2)],
                                    accumulate ? MIPS_MATMUL_ACCUMULATE : 0);
        char label[160];
        snprintf(label, sizeof label, "%s row dots %s %lldx%lldx%lld%s", set->name,
                 type_names[t], (long long)tc.m, (long long)tc.n, (long long)tc.k,
                 accumulate ? " accumulate" : "");
        run_case_with(&tc, label, run_through_row_dots);
      }
  }
}

/* int8 at its extremes through every int8 tile, added to C = INT32_MAX so that every
 * element wraps: a = b = -128 (VNNI's +128 offset at its edge, a + 128 = 0) and
 * a = b = 127 (a + 128 = 255: a tile that starts from C overflows inside; a saturating
 * dot product would stop there). */
static void check_int8_value(const mips_kernel_set *set, int8_t v) {
  enum { K = 67, N = 69, ROWS_MAX = MIPS_TILE_MR_MAX };
  static int8_t a[ROWS_MAX * K], b[K * N];
  static int32_t c[ROWS_MAX * N];
  memset(a, v, sizeof a);
  memset(b, v, sizeof b);
  const int32_t expected = (int32_t)((uint32_t)INT32_MAX + (uint32_t)(K * v * v));
  for (size_t i = 0; i < set->tile_count[MIPS_DTYPE_I8I32]; ++i) {
    const mips_tile *tile = set->tiles[MIPS_DTYPE_I8I32][i];
    if (tile->available && !tile->available()) continue;
    const int64_t m = tile->mr;
    for (int64_t e = 0; e < m * N; ++e) c[e] = INT32_MAX;
    const mips_matmul_problem p = {
        .m = m, .n = N, .k = K, .a = a, .a_stride0 = m > 1 ? K : 0, .a_stride1 = 1,
        .b = b, .b_stride0 = N, .b_stride1 = 1, .c = c, .c_stride0 = N, .c_stride1 = 1,
        .accumulate = true};
    mips_gemm_run_with_tile(&p, MIPS_DTYPE_I8I32, tile);
    for (int64_t e = 0; e < m * N; ++e)
      if (c[e] != expected)
        fail_msg("%s/%s, a = b = %d: C[%lld] = %d, expected %d", set->name, tile->name, v,
                 (long long)e, c[e], expected);
  }
}

static void check_int8_extremes(const mips_kernel_set *set) {
  for (int v = -128; v <= 127; v += 255) check_int8_value(set, (int8_t)v);
}

/* The x86 set on this CPU, then as CPUs without AVX-512 VNNI, without AVX-512 and without
 * AVX2 see it: each feature check picks other tiles and kernels. */
static void test_x86_tiles(void **state) {
  (void)state;
#if defined(MIPS_HAVE_X86_KERNELS)
  static const unsigned limits[] = {
      ~0u, ~(unsigned)MIPS_CPU_X86_AVX512_VNNI,
      MIPS_CPU_X86_AVX2_FMA, 0u};
  for (size_t i = 0; i < sizeof limits / sizeof limits[0]; ++i) {
    mips_cpu_features_limit(limits[i]);
    check_set(&mips_kernels_x86);
    check_row_dots(&mips_kernels_x86);
  }
  mips_cpu_features_limit(~0u);
  check_int8_extremes(&mips_kernels_x86);
  mips_cpu_features_limit(~0u);
#endif
}

static void test_rvv_tiles(void **state) {
  (void)state;
#if defined(MIPS_HAVE_RVV_KERNELS)
  if (cpu_has_rvv()) {
    check_set(&mips_kernels_rvv);
    check_row_dots(&mips_kernels_rvv);
    check_int8_extremes(&mips_kernels_rvv);
  }
#endif
}

/* Whether this CPU can run the set's code (nr() included). */
static bool runnable(const mips_kernel_set *set) {
#if defined(MIPS_HAVE_RVV_KERNELS)
  if (set == &mips_kernels_rvv) return cpu_has_rvv();
#endif
  (void)set;
  return true;
}

/* Every kernel set this build has. */
static const mips_kernel_set *const all_sets[] = {
    &mips_kernels_scalar,
#if defined(MIPS_HAVE_RVV_KERNELS)
    &mips_kernels_rvv,
#endif
#if defined(MIPS_HAVE_X86_KERNELS)
    &mips_kernels_x86,
#endif
};
#define SET_COUNT (sizeof all_sets / sizeof all_sets[0])

/* Narrow companions must match their tile's shape: the driver swaps them in per panel. */
static void test_narrow_companions_fit(void **state) {
  (void)state;
  for (size_t s = 0; s < SET_COUNT; ++s)
    for (int t = 0; t < 2; ++t) {
      const mips_tile *const *tiles = all_sets[s]->tiles[t];
      const size_t count = all_sets[s]->tile_count[t];
      assert_true(count >= 1 && tiles[0]->available == NULL); /* the fallback comes first */
      for (size_t i = 0; i < count; ++i) {
        const mips_tile *narrow = tiles[i]->narrow;
        assert_true(tiles[i]->mr >= 1 && tiles[i]->mr <= MIPS_TILE_MR_MAX);
        if (narrow == NULL) continue;
        assert_int_equal(narrow->mr, tiles[i]->mr);
        if (runnable(all_sets[s])) assert_true(narrow->nr() <= tiles[i]->nr());
        assert_int_equal(narrow->packed_b_size, tiles[i]->packed_b_size);
        assert_true(narrow->pack_b == tiles[i]->pack_b);
        assert_true(narrow->needs_packing == tiles[i]->needs_packing);
      }
    }
}

/* Wide companions read in place what their tile would: fewer rows, wider panels, and
 * wide_rows naming their rows (the driver tests it before looking at the tile). */
static void test_wide_companions_fit(void **state) {
  (void)state;
  for (size_t s = 0; s < SET_COUNT; ++s)
    for (int t = 0; t < 2; ++t)
      for (size_t i = 0; i < all_sets[s]->tile_count[t]; ++i) {
        const mips_tile *tile = all_sets[s]->tiles[t][i], *wide = tile->wide;
        if (wide == NULL) {
          assert_int_equal(tile->wide_rows, 0);
          continue;
        }
        assert_int_equal(tile->wide_rows, wide->mr);
        assert_true(wide->mr < tile->mr);
        if (runnable(all_sets[s])) assert_true(wide->nr() > tile->nr());
        assert_true(!wide->needs_packing && !tile->needs_packing && wide->available == NULL);
      }
}

static const mips_kernel_set *parallel_set;
static int parallel_threads;

/* As run_through_driver, through the thread grid instead, with no size threshold. */
static int run_through_grid(const matmul_case *tc, const void *a, const view *av, const void *b,
                            const view *bv, void *c, const view *cv) {
  const mips_matmul_problem p = problem_of(tc, a, av, b, bv, c, cv);
  const bool f32 = tc->type == F32;
  const mips_tile *tile = mips_gemm_choose_tile(
      parallel_set->tiles[f32 ? MIPS_DTYPE_F32 : MIPS_DTYPE_I8I32],
      parallel_set->tile_count[f32 ? MIPS_DTYPE_F32 : MIPS_DTYPE_I8I32], p.m, p.n);
  const mips_plan plan = {.family = MIPS_RUN_TILES, .threads = parallel_threads, .tile = tile};
  mips_run_parallel(plan, &p, f32 ? MIPS_DTYPE_F32 : MIPS_DTYPE_I8I32);
  return MIPS_OK;
}

/* Shapes with fewer tiles than threads, single rows and columns, ragged edges. */
static const int64_t grid_shapes[][3] = {{2, 2, 2},  {40, 70, 9},  {1, 300, 5},
                                         {300, 1, 5}, {31, 129, 33}, {17, 9, 4}};

static void check_grid(const mips_kernel_set *set) {
  parallel_set = set;
  char label[160];
  for (parallel_threads = 2; parallel_threads <= 9; ++parallel_threads)
    for (size_t s = 0; s < sizeof grid_shapes / sizeof grid_shapes[0]; ++s) {
      const dtype t = all_types[(s + (size_t)parallel_threads) % 2];
      matmul_case tc = plain_case(t, grid_shapes[s][0], grid_shapes[s][1], grid_shapes[s][2],
                                  a_layouts[test_rng_int(0, 3)], b_layouts[test_rng_int(0, 3)],
                                  c_layouts[test_rng_int(0, 2)], (uint32_t)(s & 1));
      snprintf(label, sizeof label, "%s grid, %d threads, %s %lldx%lldx%lld", set->name,
               parallel_threads, type_names[t], (long long)tc.m, (long long)tc.n, (long long)tc.k);
      run_case_with(&tc, label, run_through_grid);
    }
}

static void test_thread_grid(void **state) {
  (void)state;
#if defined(MIPS_HAVE_X86_KERNELS)
  mips_cpu_features_limit(~0u); /* whatever an earlier failure left */
#endif
  check_grid(&mips_kernels_scalar);
#if defined(MIPS_HAVE_X86_KERNELS)
  check_grid(&mips_kernels_x86);
#endif
#if defined(MIPS_HAVE_RVV_KERNELS)
  if (cpu_has_rvv()) check_grid(&mips_kernels_rvv);
#endif
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_portable_tiles),
    cmocka_unit_test(test_x86_tiles),
    cmocka_unit_test(test_rvv_tiles),
    cmocka_unit_test(test_narrow_companions_fit),
    cmocka_unit_test(test_wide_companions_fit),
    cmocka_unit_test(test_thread_grid),
};

MIPS_TEST_MAIN(tests)
