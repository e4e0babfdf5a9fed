/* SPDX-License-Identifier: Apache-2.0 */
/* Portable C tiles: the kernel set for every CPU without a better one (name "scalar"),
 * such as rv64gc without V, and the fallback everywhere else. Scalar accumulators,
 * 6 x 4 = 24 of the 32 FP registers of RISC-V, so the loop is loads and fmadd.s only. */
#include "kernels/portable_tile.h"

MIPS_PORTABLE_TILE(f32_6x4_scalar, , float, float, float, MIPS_F32_FROM, float, float, 1, 6, 4)
MIPS_PORTABLE_TILE(i8i32_6x4_scalar, , int8_t, uint32_t, int32_t, MIPS_U32_FROM_I8, uint32_t,
                   uint32_t, 1, 6, 4)
MIPS_PORTABLE_TILE_DESC(f32_6x4_scalar, 6, float, mips_pack_b_f32_portable, NULL, 1)
MIPS_PORTABLE_TILE_DESC(i8i32_6x4_scalar, 6, uint32_t, mips_pack_b_i8_portable, NULL, 1)
static const mips_tile *const f32_tiles[] = {&mips_f32_6x4_scalar_tile};
static const mips_tile *const i8i32_tiles[] = {&mips_i8i32_6x4_scalar_tile};

const mips_kernel_set mips_kernels_scalar = {
    .name = "scalar",
    .tiles = {[MIPS_DTYPE_F32] = f32_tiles, [MIPS_DTYPE_I8I32] = i8i32_tiles},
    .tile_count = {[MIPS_DTYPE_F32] = sizeof f32_tiles / sizeof f32_tiles[0],
                   [MIPS_DTYPE_I8I32] = sizeof i8i32_tiles / sizeof i8i32_tiles[0]},
};
