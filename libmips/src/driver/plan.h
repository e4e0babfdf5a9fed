/* SPDX-License-Identifier: Apache-2.0 */
/* What runs a call: the kernel family, C's orientation, the tile and the thread count,
 * decided here once for every entry point (the small path and the general one take the
 * same answer), then run as planned (mips_run_serial here, or the one threading decorator,
 * mips_run_parallel in threading/run_parallel.c). Inline, always: the small calls then
 * pay for the decisions what they paid when each entry point made them in place (within
 * 0.22 % of mips-bench's counts; out of line, the column-block test alone once cost f32
 * 16x16x16 18 instructions at VLEN 256). */
#ifndef MIPS_SRC_DRIVER_PLAN_H
#define MIPS_SRC_DRIVER_PLAN_H

#include <stdbool.h>
#include <stdint.h>

#include "driver/driver.h"
#include "kernels/kernel_set.h"
#include "threading/thread_count.h"

typedef enum mips_kernel_family {
  MIPS_RUN_TILES,         /* the driver's register tiles (mips_gemm_run) */
  MIPS_RUN_ROW_DOTS,      /* a dot product per row of C (mips_row_dots_run) */
  MIPS_RUN_DOT_BLOCKS,    /* f32 4 x 4 dot blocks (mips_dot_blocks_run), one thread */
  MIPS_RUN_COLUMN_BLOCKS, /* f32 blocks of C's rows in ascending k (mips_column_blocks_run) */
} mips_kernel_family;

typedef struct mips_plan {
  mips_kernel_family family;
  int threads;             /* >= 1 */
  const mips_tile *tile;   /* tiles: the tile, or NULL: the driver picks (one thread) */
  mips_row_dot_fn row_dot; /* row dots: the kernel */
  const mips_kernel_set *set;
} mips_plan;

/* What the caller already knows, so the plan need not ask. */
enum {
  /* The small path (api/matmul.c: run_small): one thread, C row-major with its rows apart
   * (so its orientation stays), and no shape that column blocks might take. */
  MIPS_PLAN_SMALL = 1u << 0,
  /* The dot blocks could not have their copy of B: plan without them. */
  MIPS_PLAN_NO_DOT_BLOCKS = 1u << 1,
};

/* C^T = B^T A^T: the roles and strides of A and B swap. */
static inline __attribute__((always_inline)) mips_matmul_problem mips_transposed(
    const mips_matmul_problem *p) {
  return (mips_matmul_problem){
      .m = p->n, .n = p->m, .k = p->k,
      .a = p->b, .a_stride0 = p->b_stride1, .a_stride1 = p->b_stride0,
      .b = p->a, .b_stride0 = p->a_stride1, .b_stride1 = p->a_stride0,
      .c = p->c, .c_stride0 = p->c_stride1, .c_stride1 = p->c_stride0,
      .accumulate = p->accumulate, .any_order = p->any_order};
}

/* Kernels vectorise along C's columns. Vectorise along the rows instead (by running
 * C^T = B^T A^T) when C is a single column, or when its rows have the smaller stride and
 * there is more than one row. Applied twice, it decides as once. */
static inline __attribute__((always_inline)) bool mips_prefers_transposed(
    const mips_matmul_problem *p) {
  if (p->m == 1) return false;
  if (p->n == 1) return true;
  return mips_magnitude(p->c_stride0) < mips_magnitude(p->c_stride1);
}

/* Whether the oriented problem runs cheaper the other way round, by the tiles' cost
 * estimate (plan.c). Out of line: the calls it does not apply to then save no registers
 * for it. */
bool mips_other_orientation_costs_less(const mips_matmul_problem *p, mips_dtype type,
                                       const mips_kernel_set *set);

/* The dot-product kernel for a few rows of C whose B columns run along k, unit-stride
 * like A's rows (a decode step against weights stored n x k, or a matrix-vector product
 * after orientation), or NULL. The tiles would read B across its columns, one element at
 * a time, or pack it on every call. f32 needs MIPS_MATMUL_ANY_ORDER: a dot product does
 * not sum in ascending order. */
static inline __attribute__((always_inline)) mips_row_dot_fn mips_row_dot_for(
    const mips_matmul_problem *p, mips_dtype type, const mips_kernel_set *set) {
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
static inline __attribute__((always_inline)) bool mips_runs_as_dot_blocks(
    const mips_matmul_problem *p, mips_dtype type, const mips_kernel_set *set) {
  return type == MIPS_DTYPE_F32 && p->any_order &&
         set->f32_dot_block != NULL && p->n <= set->dot_block_max_cols &&
         set->vector_bits != NULL && p->n * 64 <= (int64_t)set->vector_bits() &&
         p->m > set->row_dot_max_rows[MIPS_DTYPE_F32] && p->k >= set->row_dot_min_k &&
         p->k <= (1 << 24) && p->a_stride1 == 1;
}

/* Whether column blocks might take an f32 m x n x k call in either orientation, from its
 * sizes and k strides alone: the small path asks this first of all, before it has a
 * problem. */
static inline __attribute__((always_inline)) bool mips_column_blocks_might_take(
    mips_dtype type, int64_t m, int64_t n, int64_t k, int64_t a_kstride, int64_t b_kstride) {
  return type == MIPS_DTYPE_F32 && k >= 16 &&
         ((n <= MIPS_COLUMN_BLOCK_COLS && m >= 16 && a_kstride == 1) ||
          (m <= MIPS_COLUMN_BLOCK_COLS && n >= 16 && b_kstride == 1));
}

/* Few columns and many rows, in ascending k (a CNN's last stages in NCHW, or a matrix-vector
 * product with A's rows along k, such as one token against weights stored n x k): column
 * blocks run vectors along C's rows, where the tiles would run them as wide as C's few
 * columns and load A an element at a time, or read A's columns with strided loads
 * (256 x 4 x 2304, eff at VLEN 256 / 512 / 1024: 0.34 / 0.17 / 0.09 -> 0.55 / 0.42 /
 * 0.33). B's columns apart only where the kernel set reads them so (x86: a few tokens
 * against weights stored n x k, turned round). With MIPS_MATMUL_ANY_ORDER they run where
 * dot products do not: for more rows than those take, or from two rows where they fit. */
static inline __attribute__((always_inline)) bool mips_column_blocks_fit(
    int64_t m, int64_t n, int64_t k, ptrdiff_t a_kstride, ptrdiff_t b_colstride, int64_t max_cols,
    const mips_kernel_set *set) {
  return n <= max_cols && m >= 16 && k >= 16 && a_kstride == 1 &&
         (b_colstride == 1 || n == 1 || set->column_block_strided_b);
}

/* Whether an f32 call runs on column blocks, orienting *p for them if so. */
static inline __attribute__((always_inline)) bool mips_plan_column_blocks(
    mips_matmul_problem *p, mips_dtype type, const mips_kernel_set *set) {
  const int64_t m = p->m, n = p->n, k = p->k;
  if (type != MIPS_DTYPE_F32 || set->f32_column_block == NULL || k < 16 ||
      (m > MIPS_COLUMN_BLOCK_COLS && n > MIPS_COLUMN_BLOCK_COLS) || (m < 16 && n < 16))
    return false;
  const int64_t max_cols = set->column_block_max_cols();
  if (mips_column_blocks_fit(m, n, k, p->a_stride1, p->b_stride1, max_cols, set)) return true;
  if (mips_column_blocks_fit(n, m, k, p->b_stride0, p->a_stride0, max_cols, set)) {
    *p = mips_transposed(p);
    return true;
  }
  return false;
}

/* The plan for a validated, non-empty problem, which it orients (*p is then the problem
 * to run), on the `threads` the call may have (mips_call_threads); `known` is a mask of
 * MIPS_PLAN_*. */
static inline __attribute__((always_inline)) mips_plan mips_plan_matmul(
    mips_matmul_problem *p, mips_dtype type, const mips_kernel_set *set, int threads,
    unsigned known) {
  const bool small = (known & MIPS_PLAN_SMALL) != 0;
  mips_plan plan = {.family = MIPS_RUN_COLUMN_BLOCKS, .threads = small ? 1 : threads, .set = set};
  /* In ascending k, column blocks beat either orientation of the tiles for the shapes
   * they take, whichever side is the narrow one. */
  if (!small && !p->any_order && mips_plan_column_blocks(p, type, set)) return plan;
  if (!small && mips_prefers_transposed(p)) *p = mips_transposed(p);
  if (plan.threads == 1 && !(known & MIPS_PLAN_NO_DOT_BLOCKS) &&
      mips_runs_as_dot_blocks(p, type, set)) {
    plan.family = MIPS_RUN_DOT_BLOCKS;
    return plan;
  }
  plan.row_dot = mips_row_dot_for(p, type, set);
  if (plan.row_dot != NULL) {
    /* Dot products read B once per row, column blocks once for all rows: from two rows
     * those are faster where they fit (x86, 2 x 1024 x 1024 against weights stored n x k:
     * 26 GFLOP/s, dot products 13). */
    if (!small && p->m > 1 && mips_plan_column_blocks(p, type, set)) return plan;
    plan.family = MIPS_RUN_ROW_DOTS;
    return plan;
  }
  /* Any order, but too many rows for dot products: column blocks where they fit. */
  if (!small && p->any_order && mips_plan_column_blocks(p, type, set)) return plan;
  plan.family = MIPS_RUN_TILES;
  if (plan.threads > 1)
    plan.tile = mips_gemm_choose_tile(set->tiles[type], set->tile_count[type], p->m, p->n);
  /* The estimate knows only the tiles: dot products were ruled out first. */
  else if (!small && p->m > p->n && p->m >= 32 && p->n >= 2 &&
           mips_other_orientation_costs_less(p, type, set))
    *p = mips_transposed(p);
  return plan;
}

/* The plan for a pre-packed B (mips_packed_b): the tile it was packed for, in C's
 * orientation (its panels run along C's columns). */
static inline mips_plan mips_plan_packed(const mips_tile *tile, int threads) {
  return (mips_plan){.family = MIPS_RUN_TILES, .threads = threads, .tile = tile};
}

/* Runs the plan on the calling thread. Returns false, having done nothing, only where the
 * dot blocks could not allocate their copy of B (plan again with MIPS_PLAN_NO_DOT_BLOCKS). */
static inline __attribute__((always_inline)) bool mips_run_serial(const mips_plan *plan,
                                                                  const mips_matmul_problem *p,
                                                                  mips_dtype type) {
  const mips_kernel_set *set = plan->set;
  switch (plan->family) {
    case MIPS_RUN_COLUMN_BLOCKS:
      mips_column_blocks_run(p, set->f32_column_block);
      return true;
    case MIPS_RUN_DOT_BLOCKS:
      return mips_dot_blocks_run(p, set->f32_dot_block, set->f32_split_columns);
    case MIPS_RUN_ROW_DOTS:
      mips_row_dots_run(p, type, plan->row_dot);
      return true;
    case MIPS_RUN_TILES:
      break;
  }
  if (plan->tile != NULL) mips_gemm_run_with_tile(p, type, plan->tile);
  else mips_gemm_run(p, type, set->tiles[type], set->tile_count[type]);
  return true;
}

#endif /* MIPS_SRC_DRIVER_PLAN_H */
