/* SPDX-License-Identifier: Apache-2.0 */
/* The portable tile template (kernels/portable_tile.h) stamped out with GCC/Clang vector
 * extensions, one vector = VW lanes of a row, in SSE2, AVX2 and AVX-512 shapes, compiled
 * with target attributes and picked at run time by the CPU's features. */
#include "kernels/portable_tile.h"
#include "kernels/x86/x86_kernels.h"

#define MIPS_VECTOR_TYPES(T, LANES)                                                      \
  typedef T T##x##LANES __attribute__((vector_size(LANES * sizeof(T))));                 \
  typedef T T##x##LANES##_unaligned                                                      \
      __attribute__((vector_size(LANES * sizeof(T)), aligned(sizeof(T)), may_alias));
MIPS_VECTOR_TYPES(float, 4)
MIPS_VECTOR_TYPES(float, 8)
MIPS_VECTOR_TYPES(float, 16)
MIPS_VECTOR_TYPES(uint32_t, 4)
MIPS_VECTOR_TYPES(uint32_t, 8)
MIPS_VECTOR_TYPES(uint32_t, 16)

MIPS_PORTABLE_TILE(f32_4x8_sse2, MIPS_SSE2, float, float, float, MIPS_F32_FROM, floatx4,
                   floatx4_unaligned, 4, 4, 8)
MIPS_PORTABLE_TILE(f32_6x16_avx2, MIPS_AVX2, float, float, float, MIPS_F32_FROM, floatx8,
                   floatx8_unaligned, 8, 6, 16)
MIPS_PORTABLE_TILE(f32_12x32_avx512, MIPS_AVX512, float, float, float, MIPS_F32_FROM, floatx16,
                   floatx16_unaligned, 16, 12, 32)
MIPS_PORTABLE_TILE(i8i32_4x8_sse2, MIPS_SSE2, int8_t, uint32_t, int32_t, MIPS_U32_FROM_I8,
                   uint32_tx4, uint32_tx4_unaligned, 4, 4, 8)
MIPS_PORTABLE_TILE(i8i32_6x16_avx2, MIPS_AVX2, int8_t, uint32_t, int32_t, MIPS_U32_FROM_I8,
                   uint32_tx8, uint32_tx8_unaligned, 8, 6, 16)
MIPS_PORTABLE_TILE(i8i32_12x32_avx512, MIPS_AVX512, int8_t, uint32_t, int32_t, MIPS_U32_FROM_I8,
                   uint32_tx16, uint32_tx16_unaligned, 16, 12, 32)

/* Each k step of the int8 tiles below costs four of the VNNI tile's: it multiplies four
 * k at once. */
MIPS_PORTABLE_TILE_DESC(f32_4x8_sse2, 4, float, mips_pack_b_f32_portable, NULL, 1)
MIPS_PORTABLE_TILE_DESC(f32_6x16_avx2, 6, float, mips_pack_b_f32_portable, cpu_has_avx2, 1)
MIPS_PORTABLE_TILE_DESC(f32_12x32_avx512, 12, float, mips_pack_b_f32_portable, cpu_has_avx512, 1)
MIPS_PORTABLE_TILE_DESC(i8i32_4x8_sse2, 4, uint32_t, mips_pack_b_i8_portable, NULL, 4)
MIPS_PORTABLE_TILE_DESC(i8i32_6x16_avx2, 6, uint32_t, mips_pack_b_i8_portable, cpu_has_avx2, 4)
MIPS_PORTABLE_TILE_DESC(i8i32_12x32_avx512, 12, uint32_t, mips_pack_b_i8_portable, cpu_has_avx512, 4)
