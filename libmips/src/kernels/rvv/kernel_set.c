/* SPDX-License-Identifier: Apache-2.0 */
/* The RVV kernel set: every kind of kernel of this folder, in one table. */
#include "kernels/rvv/rvv_kernels.h"

static unsigned rvv_vector_bits(void) { return (unsigned)__riscv_vsetvlmax_e8m1() * 8; }

const mips_kernel_set mips_kernels_rvv = {
    .name = "rvv",
    .vector_bits = rvv_vector_bits,
    .tiles = {[MIPS_DTYPE_F32] = mips_rvv_f32_tiles, [MIPS_DTYPE_I8I32] = mips_rvv_i8i32_tiles},
    .tile_count = {[MIPS_DTYPE_F32] = sizeof mips_rvv_f32_tiles / sizeof mips_rvv_f32_tiles[0],
                   [MIPS_DTYPE_I8I32] = sizeof mips_rvv_i8i32_tiles / sizeof mips_rvv_i8i32_tiles[0]},
    .row_dot = {[MIPS_DTYPE_F32] = mips_row_dot_f32_rvv, [MIPS_DTYPE_I8I32] = mips_row_dot_i8i32_rvv},
    .row_dot_min_k = 16,
    /* f32 at 1024 x 1024, weights stored n x k, eff at VLEN 256 / 1024: 4 rows 0.45 / 0.43
     * as dot products, 0.41 / 0.44 in ascending order; 6 rows 0.45 / 0.43 and 0.53 / 0.54. */
    .row_dot_max_rows = {[MIPS_DTYPE_F32] = 4, [MIPS_DTYPE_I8I32] = 8},
    .f32_dot_block = mips_dot_block_f32_rvv,
    .dot_block_max_cols = 8,
    .f32_split_columns = mips_split_columns_f32_rvv,
    .f32_column_block = mips_column_block_f32_rvv,
    .column_block_max_cols = mips_column_block_max_cols_rvv,
    /* tiles[0]'s narrow variants; their widths at VLEN 128 (m1 of f32, mf2 of int16): 4. */
    .tiny_by_rows = {[MIPS_DTYPE_F32] = mips_rvv_f32_tiny_by_rows,
                     [MIPS_DTYPE_I8I32] = mips_rvv_i8i32_tiny_by_rows},
};
