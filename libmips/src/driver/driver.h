/* SPDX-License-Identifier: Apache-2.0 */
/* The driver between the API layer and the kernels: a validated, oriented problem in,
 * blocking, packing and the loops over register tiles (or dot products, or column
 * blocks) inside. */
#ifndef MIPS_SRC_DRIVER_DRIVER_H
#define MIPS_SRC_DRIVER_DRIVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "driver/dtypes.h"
#include "kernels/contract.h"

/* A validated, non-empty problem: m, n, k >= 1 and every element index in range.
 * a, b and c point at element (0, 0); strides are in elements, and the stride of a
 * dimension of extent 1 is 0. Without accumulate the kernel must not read C. The API
 * layer orients it so that, when m > 1 and n > 1, |c_stride1| <= |c_stride0| (tiles
 * vectorise along C's columns), except where the tiles' cost estimate finds the other
 * orientation cheaper (driver/plan.h): every kernel takes any C strides. */
typedef struct mips_matmul_problem {
  int64_t m, n, k;
  const void *a;
  ptrdiff_t a_stride0, a_stride1;
  const void *b;
  ptrdiff_t b_stride0, b_stride1;
  void *c;
  ptrdiff_t c_stride0, c_stride1;
  /* The call's flags, decoded once by the API layer (api/flags.h). */
  bool accumulate; /* MIPS_MATMUL_ACCUMULATE: add to C; else C is never read */
  bool any_order;  /* MIPS_MATMUL_ANY_ORDER: f32 sums in any order */
  /* 0, or B is pre-packed (mips_packed_b) in the format of the tile the call must use:
   * b points at panel 0, each panel is mips_panel_elems(tile, k, nr) packed elements
   * ((l, j) -> l * nr + j unless the tile has a k_group: then its own layout, in which k
   * block pc, a multiple of the group, starts at pc * nr), and panel p starts
   * p * b_panel_stride packed elements after panel 0; b's strides are unused. */
  int64_t b_panel_stride;
} mips_matmul_problem;

/* |v|, for strides and offsets. */
static inline uint64_t mips_magnitude(int64_t v) { return v < 0 ? 0 - (uint64_t)v : (uint64_t)v; }

/* Runs a validated, oriented, non-empty problem with the tiles given. */
void mips_gemm_run(const mips_matmul_problem *p, mips_dtype type, const mips_tile *const *tiles,
                   size_t tile_count);

/* The estimated vector work of one k step of an m x n C on the table's cheapest tile, in
 * single-register operations (multiply-adds and loads of B, padding counted in full). */
int64_t mips_gemm_estimated_cost(const mips_tile *const *tiles, size_t count, int64_t m,
                                 int64_t n);

/* The table's cheapest available tile for an m x n C (the first is always available). */
const mips_tile *mips_gemm_choose_tile(const mips_tile *const *tiles, size_t count, int64_t m,
                                       int64_t n);

/* Runs the problem with exactly `tile`. */
void mips_gemm_run_with_tile(const mips_matmul_problem *p, mips_dtype type,
                             const mips_tile *tile);

/* Runs a validated, oriented problem (A's rows and B's columns unit-stride) as dot
 * products, one row of C at a time: each row reads all of B once, as a matrix-vector
 * product must. */
void mips_row_dots_run(const mips_matmul_problem *p, mips_dtype type, mips_row_dot_fn row_dot);

/* Runs a validated, oriented f32 problem (A's rows unit-stride, few columns) as dot blocks
 * of 4 x 4; B's columns are copied to be unit-stride first unless they are (by
 * split_columns where not NULL and it takes the layout). Returns false,
 * having done nothing, if that copy cannot be allocated. */
bool mips_dot_blocks_run(const mips_matmul_problem *p, mips_dot_block_fn dot_block,
                         mips_split_columns_fn split_columns);
/* The whole problem as column blocks (few columns, many rows). */
void mips_column_blocks_run(const mips_matmul_problem *p, mips_column_block_fn column_block);

/* Block sizes, for tests that reach every edge of the blocking with small problems. */
typedef struct mips_gemm_blocking {
  int64_t kc_max;        /* k per block, at most 256 */
  size_t b_block_bytes;  /* packed B per block (at least one panel is packed) */
  bool b_on_stack;       /* as if malloc failed: one panel at a time on the stack */
} mips_gemm_blocking;

void mips_gemm_run_blocked(const mips_matmul_problem *p, mips_dtype type, const mips_tile *tile,
                           const mips_gemm_blocking *blocking);

#endif /* MIPS_SRC_DRIVER_DRIVER_H */
