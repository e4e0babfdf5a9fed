/* SPDX-License-Identifier: Apache-2.0 */
/* The matmul entry points: argument checks, empty-problem handling, orientation, then
 * one call into the driver with the selected kernel set's tiles. The driver and the
 * tiles see only validated, non-empty problems. */
#include "api/entry.h"

/* Kernels vectorise along C's columns. Vectorise along the rows instead (by running
 * C^T = B^T A^T, which swaps the roles and strides of A and B) when C is a single
 * column, or when its rows have the smaller stride and there is more than one row. */
static bool prefer_transposed(int64_t m, int64_t n, ptrdiff_t c_stride0, ptrdiff_t c_stride1) {
  if (m == 1) return false;
  if (n == 1) return true;
  return magnitude(c_stride0) < magnitude(c_stride1);
}

/* Whether the oriented problem runs cheaper the other way round (C^T = B^T A^T): when C's
 * columns fill the vectors badly and its rows would fill them well (an NCHW convolution
 * on a 3x3 image: 128 channels x 9 pixels, 9 of 16 lanes at VLEN 256 in the second
 * vector). The tiles' estimated work per k step, times k, on each side, plus on the
 * other side C written across its layout (a strided access per element, twice when
 * accumulating) and, on either side, a B whose columns are not unit-stride transposed
 * into panels (measured: about 5/8 of an operation per element, 8 loads and a segment
 * store per 64 floats and then the panel's rows, plus a fixed cost). It must come out a
 * sixteenth cheaper. */
enum { TRANSPOSED_B_FIXED = 1024 };

/* The tiles' work on m x n x k: their vector work, or their scalar work where that is
 * larger: a load of A per row, k step and panel (two registers wide), about 3/2
 * instructions with the pointers' steps. Few columns make a tile scalar-bound: int8
 * 256 x 4 x 256 at VLEN 256 issued 94 031 scalar instructions against a vector cost of
 * 82 986 (and 72 112 the other way round). */
static int64_t tiles_cost(const mips_tile *const *tiles, size_t count, int64_t m, int64_t n,
                          int64_t k, int64_t lanes) {
  const int64_t vector = k * mips_gemm_estimated_cost(tiles, count, m, n);
  const int64_t scalar = 3 * k * m * ((n + 2 * lanes - 1) / (2 * lanes)) / 2;
  return vector > scalar ? vector : scalar;
}
/* Out of line: the calls it does not apply to then save no registers for it, and the
 * driver keeps one call site here (an embedded libmips inlines it). */
static __attribute__((noinline)) bool other_orientation_costs_less(
    const mips_matmul_problem *p, mips_dtype type, const mips_kernel_set *set) {
  const int64_t m = p->m, n = p->n, k = p->k;
  /* Only where C's columns leave at least a quarter of the lanes they take empty, and
   * the call is large enough for the estimate's own cost and error (both estimates cost
   * about 400 instructions); not so large that the products below could overflow. */
  if (set->vector_bits == NULL || m <= n || m > (1 << 18) || n > (1 << 18) ||
      k > (1 << 18) || m * n * k < (1 << 16))
    return false;
  const int64_t lanes = (int64_t)set->vector_bits() / 32;
  if (4 * n > 3 * ((n + lanes - 1) / lanes * lanes)) return false;
  const mips_tile *const *tiles = set->tiles[type];
  const size_t count = set->tile_count[type];
  const int64_t as_is = tiles_cost(tiles, count, m, n, k, lanes) +
                        (magnitude(p->b_stride1) != 1 ? TRANSPOSED_B_FIXED + k * n * 5 / 8 : 0);
  const int64_t other = tiles_cost(tiles, count, n, m, k, lanes) +
                        (magnitude(p->a_stride0) != 1 ? TRANSPOSED_B_FIXED + k * m * 5 / 8 : 0) +
                        m * n * (p->accumulate ? 2 : 1);
  return other * 16 < as_is * 15;
}

/* The dot-product kernel for a few rows of C whose B columns run along k, unit-stride
 * like A's rows (a decode step against weights stored n x k, or a matrix-vector product
 * after orientation), or NULL. The tiles would read B across its columns, one element at
 * a time, or pack it on every call. f32 needs MIPS_MATMUL_ANY_ORDER: a dot product does
 * not sum in ascending order. */
static mips_row_dot_fn row_dot_for(const mips_matmul_problem *p, mips_dtype type,
                                   const mips_kernel_set *set) {
  const bool any_order = type != MIPS_DTYPE_F32 || p->any_order;
  const mips_row_dot_fn fn = any_order ? set->row_dot[type] : NULL;
  const bool fits = p->m <= set->row_dot_max_rows[type] && p->k >= set->row_dot_min_k &&
                    p->a_stride1 == 1 && p->b_stride0 == 1;
  return fits ? fn : NULL;
}

/* Many rows and few columns (a CNN's last stages: 256 x 4 x 2304), with any order: dot
 * blocks share each load of B among four rows, where the tiles would run vectors as wide
 * as C's few columns, so only where those fill at most half a register (measured: at VLEN
 * 128 four columns fill one, and the tiles win). k is bounded for the copy of B's columns. */
static bool runs_as_dot_blocks(const mips_matmul_problem *p, mips_dtype type,
                               const mips_kernel_set *set) {
  return type == MIPS_DTYPE_F32 && p->any_order &&
         set->f32_dot_block != NULL && p->n <= set->dot_block_max_cols &&
         set->vector_bits != NULL && p->n * 64 <= (int64_t)set->vector_bits() &&
         p->m > set->row_dot_max_rows[MIPS_DTYPE_F32] && p->k >= set->row_dot_min_k &&
         p->k <= (1 << 24) && p->a_stride1 == 1;
}

/* Few columns and many rows, in ascending k (a CNN's last stages in NCHW, or a matrix-vector
 * product with A's rows along k, such as one token against weights stored n x k): column
 * blocks run vectors along C's rows, where the tiles would run them as wide as C's few
 * columns and load A an element at a time, or read A's columns with strided loads
 * (256 x 4 x 2304, eff at VLEN 256 / 512 / 1024: 0.34 / 0.17 / 0.09 -> 0.55 / 0.42 /
 * 0.33). B's columns apart only where the kernel set reads them so (x86: a few tokens
 * against weights stored n x k, turned round). With MIPS_MATMUL_ANY_ORDER they run where
 * dot products do not: for more rows than those take, or from two rows where they fit. */
static bool column_blocks_fit(int64_t m, int64_t n, int64_t k, ptrdiff_t a_kstride,
                              ptrdiff_t b_colstride, int64_t max_cols,
                              const mips_kernel_set *set) {
  return n <= max_cols && m >= 16 && k >= 16 && a_kstride == 1 &&
         (b_colstride == 1 || n == 1 || set->column_block_strided_b);
}

/* C^T = B^T A^T: the roles and strides of A and B swap. */
#define MIPS_TRANSPOSED(p)                                                             \
  ((mips_matmul_problem){.m = (p).n, .n = (p).m, .k = (p).k,                           \
                         .a = (p).b, .a_stride0 = (p).b_stride1, .a_stride1 = (p).b_stride0, \
                         .b = (p).a, .b_stride0 = (p).a_stride1, .b_stride1 = (p).a_stride0, \
                         .c = (p).c, .c_stride0 = (p).c_stride1, .c_stride1 = (p).c_stride0, \
                         .accumulate = (p).accumulate, .any_order = (p).any_order})

static void run_column_blocks(const mips_matmul_problem *p, const mips_kernel_set *set,
                              int threads) {
  if (threads > 1) mips_column_blocks_run_parallel(p, set->f32_column_block, threads);
  else mips_column_blocks_run(p, set->f32_column_block);
}

/* Runs an f32 call on column blocks in whichever orientation they take, on `threads`
 * threads, or returns false having done nothing. Inline: out of line it cost 16x16x16 18
 * instructions more at VLEN 256. */
static inline __attribute__((always_inline)) bool try_column_blocks(
    const mips_matmul_problem *p, mips_dtype type, const mips_kernel_set *set, int threads) {
  const int64_t m = p->m, n = p->n, k = p->k;
  if (type != MIPS_DTYPE_F32 || set->f32_column_block == NULL || k < 16 ||
      (m > MIPS_COLUMN_BLOCK_COLS && n > MIPS_COLUMN_BLOCK_COLS) || (m < 16 && n < 16))
    return false;
  const int64_t max_cols = set->column_block_max_cols();
  if (column_blocks_fit(m, n, k, p->a_stride1, p->b_stride1, max_cols, set)) {
    run_column_blocks(p, set, threads);
    return true;
  }
  if (column_blocks_fit(n, m, k, p->b_stride0, p->a_stride0, max_cols, set)) {
    const mips_matmul_problem t = MIPS_TRANSPOSED(*p);
    run_column_blocks(&t, set, threads);
    return true;
  }
  return false;
}

/* Handles empty problems and runs the picked kernel on the rest of a validated call. */
static inline __attribute__((always_inline)) void run_checked(
    int64_t m, int64_t n, int64_t k, mips_operand a, mips_operand b, mips_operand c,
    uint32_t flags, size_t ab_size, size_t c_size, mips_dtype type) {
  char *c00;
  if (mips_finish_if_empty(m, n, k, flags, &c, c_size, type, &c00)) return;
  drop_unit_extent_strides(&a);
  drop_unit_extent_strides(&b);
  mips_matmul_problem p = {
      .m = m, .n = n, .k = k,
      .a = (const char *)a.base + (ptrdiff_t)a.offset * (ptrdiff_t)ab_size,
      .a_stride0 = a.stride0, .a_stride1 = a.stride1,
      .b = (const char *)b.base + (ptrdiff_t)b.offset * (ptrdiff_t)ab_size,
      .b_stride0 = b.stride0, .b_stride1 = b.stride1,
      .c = c00, .c_stride0 = c.stride0, .c_stride1 = c.stride1,
      .accumulate = (flags & MIPS_MATMUL_ACCUMULATE) != 0,
      .any_order = (flags & MIPS_MATMUL_ANY_ORDER) != 0,
  };
  const mips_kernel_set *set = mips_selected_kernels();
  const int threads = may_split(m, n, k) ? mips_threads_for_problem(m, n, k, flags) : 1;
  /* In ascending k, column blocks beat either orientation of the tiles for the shapes
   * they take, whichever side is the narrow one. */
  if (!p.any_order && try_column_blocks(&p, type, set, threads)) return;
  if (prefer_transposed(m, n, p.c_stride0, p.c_stride1)) p = MIPS_TRANSPOSED(p);
  if (threads == 1 && runs_as_dot_blocks(&p, type, set) &&
      mips_dot_blocks_run(&p, set->f32_dot_block, set->f32_split_columns))
    return;
  const mips_row_dot_fn row_dot = row_dot_for(&p, type, set);
  if (row_dot != NULL) {
    /* Dot products read B once per row, column blocks once for all rows: from two rows
     * those are faster where they fit (x86, 2 x 1024 x 1024 against weights stored n x k:
     * 26 GFLOP/s, dot products 13). */
    if (p.m > 1 && try_column_blocks(&p, type, set, threads)) return;
    if (threads > 1) mips_row_dots_run_parallel(&p, type, row_dot, threads);
    else mips_row_dots_run(&p, type, row_dot);
    return;
  }
  /* Any order, but too many rows for dot products: column blocks where they fit. */
  if (p.any_order && try_column_blocks(&p, type, set, threads)) return;
  const mips_tile *const *tiles = set->tiles[type];
  const size_t tile_count = set->tile_count[type];
  if (threads > 1)
    mips_gemm_run_parallel(&p, type, mips_gemm_choose_tile(tiles, tile_count, p.m, p.n), threads);
  else {
    /* The estimate knows only the tiles: dot products were ruled out first. */
    if (p.m > p.n && p.m >= 32 && p.n >= 2 && other_orientation_costs_less(&p, type, set))
      p = MIPS_TRANSPOSED(p);
    mips_gemm_run(&p, type, tiles, tile_count);
  }
}

#undef MIPS_TRANSPOSED

/* Whether a call may be one of the smallest (below): m in [2, 15], n in [2, 4] (what every
 * kernel set's tiny tile has at its smallest VLEN), k in [1, 15]. */
static inline bool tiny_shape(int64_t m, int64_t n, int64_t k) {
  /* Unsigned: the sizes are not validated yet (INT64_MIN - 2 would overflow). */
  return (uint64_t)n - 2 <= MIPS_TINY_MAX_COLS - 2 && (uint64_t)m - 2 <= 13 &&
         (uint64_t)k - 1 <= 14;
}

/* The smallest calls: m in [2, 15], n in [2, 4], k in [1, 15] (too small to split across
 * threads, or for dot products, whatever the flags allow), small strides, C's rows apart
 * and not transposed, A and B read in place by one tile. These are checked and run as the
 * general path would run them (one tile on the operands, see mips_gemm_run), without
 * building its problem, whose set-up costs more than the product: the entry point jumps
 * to the tile with the operands in registers (f32 4x4x4 at VLEN 256, mips-bench: 492
 * instructions through the general path, 280 with a mips_tile_args built here, 239).
 * Returns the kernel set's tiny tiles for the call (by row count: the caller jumps to one,
 * see MIPS_DEFINE_MATMUL), or NULL for every other call. */
static inline __attribute__((always_inline)) const mips_tiny_fn *tiny_tiles(
    int64_t n, int64_t k, const void *a, int64_t a_offset, int64_t a_stride0,
    int64_t a_stride1, const void *b, int64_t b_offset, int64_t b_stride0, int64_t b_stride1,
    void *c, int64_t c_offset, int64_t c_stride0, int64_t c_stride1, uint32_t flags,
    mips_dtype type) {
  if ((flags & ~(uint32_t)MIPS_KNOWN_FLAGS) != 0 || a == NULL || b == NULL || c == NULL)
    return NULL;
  /* Offsets and strides below 2^23: no index overflows (as all_small). B's and C's
   * column strides must be 1 (below). */
  const uint64_t bias = 1u << 23;
  if ((((uint64_t)a_offset + bias) | ((uint64_t)a_stride0 + bias) | ((uint64_t)a_stride1 + bias) |
       ((uint64_t)b_offset + bias) | ((uint64_t)b_stride0 + bias) |
       ((uint64_t)c_offset + bias) | ((uint64_t)c_stride0 + bias)) >> 24 != 0)
    return NULL;
  /* C row-major and plainly without self-overlap (rows apart, in increasing address; the
   * rest is left to the general path); B's rows unit-stride; A either way. With k = 1 the
   * tile reads no k stride (the general path drops them), so they need not be 0. */
  if (c_stride1 != 1 || c_stride0 < n || b_stride1 != 1 || (a_stride0 != 1 && a_stride1 != 1))
    return NULL;
  const mips_kernel_set *set =
      atomic_load_explicit(&mips_selected_kernel_set, memory_order_acquire);
  if (set == NULL) return NULL;
  const mips_tiny_fn *by_rows = set->tiny_by_rows[type];
  return k < set->row_dot_min_k ? by_rows : NULL;
}

/* Small dense calls: m and n in [2, 127], k in [1, 127] (one thread), small offsets and
 * strides, C's rows apart and not transposed. They are checked as validate() checks them
 * and run as run_checked() would run them (dot blocks, row dots, else the driver: the
 * same choices in its order, except that they keep their orientation, which the test
 * for the other one would cost i8 16x16x16 two instructions, its eff of 0.50 at VLEN
 * 256; a few that would gain, such as 120x9x120 with A column-major, lose that), without
 * the general path's operands, whose set-up costs a tenth of a 16x16x16 product (117
 * instructions). Returns false, having done nothing,
 * for every other call, and for those that the other paths may take. */
static inline __attribute__((always_inline)) bool run_small(
    int64_t m, int64_t n, int64_t k, const void *a, int64_t a_offset, int64_t a_stride0,
    int64_t a_stride1, const void *b, int64_t b_offset, int64_t b_stride0, int64_t b_stride1,
    void *c, int64_t c_offset, int64_t c_stride0, int64_t c_stride1, uint32_t flags,
    size_t ab_size, size_t c_size, mips_dtype type) {
  /* f32 that column blocks may take, in either order (run_checked's choice; whether they
   * do depends on the kernel set, the VLEN and B's strides): left to the general path
   * first of all. */
  if (type == MIPS_DTYPE_F32 && k >= 16 &&
      ((n <= MIPS_COLUMN_BLOCK_COLS && m >= 16 && a_stride1 == 1) ||
       (m <= MIPS_COLUMN_BLOCK_COLS && n >= 16 && b_stride0 == 1)))
    return false;
  if ((uint64_t)m - 2 > 125 || (uint64_t)n - 2 > 125 || (uint64_t)k - 1 > 126 ||
      (flags & ~(uint32_t)MIPS_KNOWN_FLAGS) != 0 || a == NULL || b == NULL || c == NULL)
    return false;
  /* Offsets and strides in [-2^23, 2^23): every index fits (validate's all_small, which
   * also needs 64-bit byte offsets). */
  const uint64_t bias = 1u << 23;
  if (sizeof(ptrdiff_t) < sizeof(int64_t) ||
      (((uint64_t)a_offset + bias) | ((uint64_t)a_stride0 + bias) | ((uint64_t)a_stride1 + bias) |
       ((uint64_t)b_offset + bias) | ((uint64_t)b_stride0 + bias) | ((uint64_t)b_stride1 + bias) |
       ((uint64_t)c_offset + bias) | ((uint64_t)c_stride0 + bias)) >> 24 != 0)
    return false;
  /* C's rows plainly apart (no self-overlap) and along its columns (no transposition). */
  if (c_stride1 != 1 || magnitude(c_stride0) < (uint64_t)n) return false;
  const mips_kernel_set *set =
      atomic_load_explicit(&mips_selected_kernel_set, memory_order_acquire);
  if (set == NULL) return false;
  /* k = 1: the k strides are dropped, as drop_unit_extent_strides does. Field by field:
   * an initializer would also zero the padding (seven stores). */
  mips_matmul_problem p;
  p.m = m, p.n = n, p.k = k;
  p.a = (const char *)a + (ptrdiff_t)a_offset * (ptrdiff_t)ab_size;
  p.a_stride0 = a_stride0, p.a_stride1 = k > 1 ? a_stride1 : 0;
  p.b = (const char *)b + (ptrdiff_t)b_offset * (ptrdiff_t)ab_size;
  p.b_stride0 = k > 1 ? b_stride0 : 0, p.b_stride1 = b_stride1;
  p.c = (char *)c + (ptrdiff_t)c_offset * (ptrdiff_t)c_size;
  p.c_stride0 = c_stride0, p.c_stride1 = 1;
  p.accumulate = (flags & MIPS_MATMUL_ACCUMULATE) != 0;
  p.any_order = (flags & MIPS_MATMUL_ANY_ORDER) != 0;
  p.b_panel_stride = 0;
  if (runs_as_dot_blocks(&p, type, set) || row_dot_for(&p, type, set) != NULL) return false;
  mips_gemm_run(&p, type, set->tiles[type], set->tile_count[type]);
  return true;
}

/* A batch's entry runs as the plain call of its views would, the smallest ones too
 * (4 heads of i8 64x64x64 in one call at VLEN 1024 cost 2.6 % more than 4 calls). */
void mips_matmul_run_checked(int64_t m, int64_t n, int64_t k, const mips_operand *a,
                             const mips_operand *b, const mips_operand *c, uint32_t flags,
                             size_t ab_size, size_t c_size, mips_dtype type) {
  if (run_small(m, n, k, a->base, a->offset, a->stride0, a->stride1, b->base, b->offset,
                b->stride0, b->stride1, (void *)c->base, c->offset, c->stride0, c->stride1,
                flags, ab_size, c_size, type))
    return;
  run_checked(m, n, k, *a, *b, *c, flags, ab_size, c_size, type);
}

/* Validates, then runs. */
static inline __attribute__((always_inline)) int run_matmul(
    int64_t m, int64_t n, int64_t k, mips_operand a, mips_operand b, mips_operand c,
    uint32_t flags, size_t ab_size, size_t c_size, mips_dtype type) {
  const int status = validate(m, n, k, &a, &b, &c, flags, ab_size, c_size);
  if (status == MIPS_OK) run_checked(m, n, k, a, b, c, flags, ab_size, c_size, type);
  return status;
}

/* The entry point of one element type, and every call but the smallest in a function of
 * its own (the same arguments), so that the entry point's short path saves no more
 * registers than it uses. The smallest calls run in the entry point itself, so that their
 * operands are read where the caller left them (the general path's call copies its
 * eight stack arguments). */
#define MIPS_DEFINE_MATMUL(TYPE, A_T, C_T, DTYPE)                                             \
  static __attribute__((noinline)) int matmul_##TYPE##_general(                               \
      int64_t m, int64_t n, int64_t k, const A_T *a, int64_t a_offset, int64_t a_stride0,     \
      int64_t a_stride1, const A_T *b, int64_t b_offset, int64_t b_stride0,                   \
      int64_t b_stride1, C_T *c, int64_t c_offset, int64_t c_stride0, int64_t c_stride1,      \
      uint32_t flags) {                                                                       \
    if (run_small(m, n, k, a, a_offset, a_stride0, a_stride1, b, b_offset, b_stride0,         \
                  b_stride1, c, c_offset, c_stride0, c_stride1, flags, sizeof(A_T),           \
                  sizeof(C_T), DTYPE))                                                        \
      return MIPS_OK;                                                                         \
    return run_matmul(m, n, k, (mips_operand){a, a_offset, a_stride0, a_stride1, m, k, 1, 0}, \
                      (mips_operand){b, b_offset, b_stride0, b_stride1, k, n, 1, 0},          \
                      (mips_operand){c, c_offset, c_stride0, c_stride1, m, n, 1, 0}, flags,   \
                      sizeof(A_T), sizeof(C_T), DTYPE);                                       \
  }                                                                                           \
                                                                                              \
  int mips_matmul_##TYPE(int64_t m, int64_t n, int64_t k, const A_T *a, int64_t a_offset,     \
                         int64_t a_stride0, int64_t a_stride1, const A_T *b, int64_t b_offset, \
                         int64_t b_stride0, int64_t b_stride1, C_T *c, int64_t c_offset,      \
                         int64_t c_stride0, int64_t c_stride1, uint32_t flags) {              \
    const mips_tiny_fn *tiny =                                                                \
        tiny_shape(m, n, k) ? tiny_tiles(n, k, a, a_offset, a_stride0, a_stride1, b, b_offset, \
                                         b_stride0, b_stride1, c, c_offset, c_stride0,        \
                                         c_stride1, flags, DTYPE)                             \
                            : NULL;                                                           \
    if (tiny != NULL) /* a jump, with the operands in registers */                            \
      return tiny[m](a + a_offset, a_stride0, a_stride1, b + b_offset, b_stride0,             \
                     c + c_offset, c_stride0,                                                 \
                     (uint64_t)n | (uint64_t)k << 8 |                                         \
                         (uint64_t)((flags & MIPS_MATMUL_ACCUMULATE) != 0) << 16);            \
    return matmul_##TYPE##_general(m, n, k, a, a_offset, a_stride0, a_stride1, b, b_offset,   \
                                   b_stride0, b_stride1, c, c_offset, c_stride0, c_stride1,   \
                                   flags);                                                    \
  }

MIPS_DEFINE_MATMUL(f32, float, float, MIPS_DTYPE_F32)
MIPS_DEFINE_MATMUL(i8i32, int8_t, int32_t, MIPS_DTYPE_I8I32)
#undef MIPS_DEFINE_MATMUL

