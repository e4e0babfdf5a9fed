/* SPDX-License-Identifier: Apache-2.0 */
/* What the RVV kernel set's files share: every file here is compiled for +v (only
 * these: the dispatcher selects the set when AT_HWCAP reports V), and each defines one
 * kind of kernel, which kernel_set.c gathers into mips_kernels_rvv. */
#ifndef MIPS_SRC_KERNELS_RVV_RVV_KERNELS_H
#define MIPS_SRC_KERNELS_RVV_RVV_KERNELS_H

#include <riscv_vector.h>

#include "kernels/contract.h"
#include "kernels/kernel_set.h"

#define MIPS_ALWAYS_INLINE inline __attribute__((always_inline))

/* Two 32-bit elements moved as one 64-bit element: an alias of the buffers of floats
 * and of int8 rows. */
typedef uint64_t __attribute__((may_alias)) pair_bits;

/* tiles.c: the tile tables (the first entry is the small-problem tile;
 * the driver costs the others per call) and the smallest calls' tiles by row count. */
extern const mips_tile *const mips_rvv_f32_tiles[3];
extern const mips_tile *const mips_rvv_i8i32_tiles[3];
extern const mips_tiny_fn mips_rvv_f32_tiny_by_rows[16];
extern const mips_tiny_fn mips_rvv_i8i32_tiny_by_rows[16];

/* pack_b.c: B panels for the tiles (int8 widened to int16). */
void mips_pack_b_f32_rvv(void *dst, const void *src, ptrdiff_t s0, ptrdiff_t s1, int64_t k,
                         int64_t cols, int64_t nr);
void mips_pack_b_i8_rvv(void *dst, const void *src, ptrdiff_t s0, ptrdiff_t s1, int64_t k,
                        int64_t cols, int64_t nr);
/* pack_a_rows.c: a row-major int8 A as one panel. */
int64_t mips_pack_a_rows_i8_rvv(void *dst, const void *a, ptrdiff_t s0, int64_t rows,
                                int64_t kc);
/* row_dot.c: one row of C as dot products. */
void mips_row_dot_f32_rvv(const mips_row_dot_args *t);
void mips_row_dot_i8i32_rvv(const mips_row_dot_args *t);
/* dot_block.c: blocks of up to 4 x 4 dot products, and B's columns split for them. */
void mips_dot_block_f32_rvv(const mips_dot_block_args *t);
bool mips_split_columns_f32_rvv(float *columns, const float *b, ptrdiff_t s0, ptrdiff_t s1,
                                int64_t k, int64_t n);
/* column_block.c: few columns, many rows, in ascending k. */
void mips_column_block_f32_rvv(const mips_column_block_args *t);
int64_t mips_column_block_max_cols_rvv(void);

#endif /* MIPS_SRC_KERNELS_RVV_RVV_KERNELS_H */
