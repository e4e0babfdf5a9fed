/* SPDX-License-Identifier: Apache-2.0 */
/* A kernel set: one implementation of every kernel kind, selected as a whole (dispatch.c). */
#ifndef MIPS_SRC_KERNELS_KERNEL_SET_H
#define MIPS_SRC_KERNELS_KERNEL_SET_H

#include "driver/dtypes.h"
#include "kernels/contract.h"

/* One implementation of every operation, selected as a whole. Tile tables start with
 * the fallback; the driver picks by estimated cost among them. */
typedef struct mips_kernel_set {
  const char *name;
  const mips_tile *const *tiles[MIPS_DTYPE_COUNT];
  size_t tile_count[MIPS_DTYPE_COUNT];
  unsigned (*vector_bits)(void); /* NULL, or the vector register width (VLEN) */
  /* NULL: none, the tiles run matrix-vector products too. f32's runs only with
   * MIPS_MATMUL_ANY_ORDER. */
  mips_row_dot_fn row_dot[MIPS_DTYPE_COUNT];
  /* Below this k, or with more rows than row_dot_max_rows (per element type: each row
   * reads all of B again), the tiles are faster. */
  int64_t row_dot_min_k;
  int64_t row_dot_max_rows[MIPS_DTYPE_COUNT];
  /* NULL, or dot blocks for f32 (with MIPS_MATMUL_ANY_ORDER) when C has at most
   * dot_block_max_cols columns and more rows than f32's row_dot_max_rows. */
  mips_dot_block_fn f32_dot_block;
  int64_t dot_block_max_cols;
  /* NULL, or the dot blocks' copy of a B whose columns are not unit-stride. */
  mips_split_columns_fn f32_split_columns;
  /* NULL, or column blocks for f32 in ascending k, for C with up to
   * column_block_max_cols() columns (0: none on this CPU). */
  mips_column_block_fn f32_column_block;
  int64_t (*column_block_max_cols)(void);
  /* Whether they read B through any column stride (else unit-stride rows, or one
   * column): few tokens against weights stored n x k, turned round. */
  bool column_block_strided_b;
  /* NULL, or the tile the smallest calls run directly (the tile mips_gemm_run would run
   * for them: the first table entry's narrow variant), one function per row count from
   * 1 to 15 ([0] unused), each for up to MIPS_TINY_MAX_COLS columns (what the tile has at
   * the set's smallest VLEN: RVV's V extension has VLEN >= 128, 4 floats in a register)
   * and k below row_dot_min_k. They take their arguments in registers: building a
   * mips_tile_args in memory and reading it back cost these calls a tenth of their
   * instructions. */
  const mips_tiny_fn *tiny_by_rows[MIPS_DTYPE_COUNT];
} mips_kernel_set;
enum { MIPS_TINY_MAX_COLS = 4 };

extern const mips_kernel_set mips_kernels_scalar;
#if defined(MIPS_HAVE_RVV_KERNELS)
extern const mips_kernel_set mips_kernels_rvv;
#endif
#if defined(MIPS_HAVE_X86_KERNELS)
extern const mips_kernel_set mips_kernels_x86;
#endif

#endif /* MIPS_SRC_KERNELS_KERNEL_SET_H */
