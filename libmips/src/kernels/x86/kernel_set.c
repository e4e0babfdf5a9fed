/* SPDX-License-Identifier: Apache-2.0 */
/* The x86-64 kernel set (name "x86"): every kind of kernel of this folder, in one table. */
#include "kernels/x86/x86_kernels.h"

/* The driver runs the available tile its cost estimate finds cheapest for the shape;
 * the first is the fallback every x86-64 CPU has. */
static const mips_tile *const f32_tiles[] = {&mips_f32_4x8_sse2_tile, &mips_f32_6x16_avx2_tile,
                                             &mips_f32_12x32_avx512_tile, &mips_f32_1x128_avx512_tile};
static const mips_tile *const i8i32_tiles[] = {&mips_i8i32_4x8_sse2_tile, &mips_i8i32_6x16_avx2_tile,
                                               &mips_i8i32_12x32_avx512_tile, &mips_i8i32_12x32_vnni_tile,
                                               &mips_i8i32_1x64_vnni_tile};

const mips_kernel_set mips_kernels_x86 = {
    .name = "x86",
    .tiles = {[MIPS_DTYPE_F32] = f32_tiles, [MIPS_DTYPE_I8I32] = i8i32_tiles},
    .tile_count = {[MIPS_DTYPE_F32] = sizeof f32_tiles / sizeof f32_tiles[0],
                   [MIPS_DTYPE_I8I32] = sizeof i8i32_tiles / sizeof i8i32_tiles[0]},
    .row_dot = {[MIPS_DTYPE_F32] = mips_row_dot_f32_x86, [MIPS_DTYPE_I8I32] = mips_row_dot_i8i32_x86},
    .row_dot_min_k = 16,
    .row_dot_max_rows = {[MIPS_DTYPE_F32] = 8, [MIPS_DTYPE_I8I32] = 8},
    .f32_column_block = mips_column_block_f32_avx512,
    .column_block_max_cols = mips_column_block_max_cols_x86,
    .column_block_strided_b = true,
};
