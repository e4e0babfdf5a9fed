/* SPDX-License-Identifier: Apache-2.0 */
/* What the x86-64 kernel set's files share: the ISA levels as target attributes (the
 * library's baseline stays x86-64 v1, so SSE2 is always there), the CPU checks behind
 * them (dispatch.c detects the features), and each file's part of the set, which
 * kernel_set.c gathers into mips_kernels_x86. */
#ifndef MIPS_SRC_KERNELS_X86_X86_KERNELS_H
#define MIPS_SRC_KERNELS_X86_X86_KERNELS_H

#include <immintrin.h>

#include "dispatch.h"
#include "kernels/contract.h"
#include "kernels/kernel_set.h"

#define MIPS_AVX512 __attribute__((target("avx512f,fma")))
#define MIPS_AVX2 __attribute__((target("avx2,fma")))
#define MIPS_SSE2
#define MIPS_AVX512_VNNI __attribute__((target("avx512f,avx512bw,avx512vnni")))
#define MIPS_AVX512BW __attribute__((target("avx512f,avx512bw,avx512vl")))

static inline bool cpu_has_avx512(void) { return mips_cpu_has(MIPS_CPU_X86_AVX512F); }
static inline bool cpu_has_avx2(void) { return mips_cpu_has(MIPS_CPU_X86_AVX2_FMA); }
static inline bool cpu_has_avx512bw(void) {
  return mips_cpu_has(MIPS_CPU_X86_AVX512F | MIPS_CPU_X86_AVX512BW_VL);
}
static inline bool cpu_has_avx512_vnni(void) {
  return mips_cpu_has(MIPS_CPU_X86_AVX512F | MIPS_CPU_X86_AVX512BW_VL | MIPS_CPU_X86_AVX512_VNNI);
}

/* tiles.c: the portable template's tiles in SSE2, AVX2 and AVX-512 shapes. */
extern const mips_tile mips_f32_4x8_sse2_tile, mips_f32_6x16_avx2_tile, mips_f32_12x32_avx512_tile;
extern const mips_tile mips_i8i32_4x8_sse2_tile, mips_i8i32_6x16_avx2_tile,
    mips_i8i32_12x32_avx512_tile;
/* tiles_vnni.c: int8 with AVX-512 VNNI, packed (12x32) and one row read in place (1x64). */
extern const mips_tile mips_i8i32_12x32_vnni_tile, mips_i8i32_1x64_vnni_tile;
/* tile_row_f32_avx512.c: one row of C, f32, in ascending k (1x128). */
extern const mips_tile mips_f32_1x128_avx512_tile;
/* column_block_avx512.c: few columns, many rows, f32 in ascending k. */
void mips_column_block_f32_avx512(const mips_column_block_args *t);
int64_t mips_column_block_max_cols_x86(void);
/* row_dot.c: one row of C as dot products (AVX-512 where the CPU has it). */
void mips_row_dot_f32_x86(const mips_row_dot_args *t);
void mips_row_dot_i8i32_x86(const mips_row_dot_args *t);

/* r[i] = row i of a 16 x 16 block  ->  r[u] = column u: four rounds of 16 shuffles. */
MIPS_AVX512 static inline void transpose_16x16(__m512 r[16]) {
  __m512 s[16];
  for (int i = 0; i < 16; i += 2) {
    s[i] = _mm512_unpacklo_ps(r[i], r[i + 1]);
    s[i + 1] = _mm512_unpackhi_ps(r[i], r[i + 1]);
  }
  for (int i = 0; i < 16; i += 4)
    for (int h = 0; h < 2; ++h) {
      const __m512d x = _mm512_castps_pd(s[i + h]), y = _mm512_castps_pd(s[i + 2 + h]);
      r[i + h] = _mm512_castpd_ps(_mm512_unpacklo_pd(x, y));
      r[i + 2 + h] = _mm512_castpd_ps(_mm512_unpackhi_pd(x, y));
    }
  /* r[4G + m] now holds, in its 128-bit lane q, column 4q + (0, 2, 1, 3)[m] of rows
   * 4G .. 4G + 3. Pair row groups (0, 1) and (2, 3), then (0-1, 2-3). */
  for (int i = 0; i < 8; ++i) {
    const int g = i / 4 * 8 + i % 4;
    s[i] = _mm512_shuffle_f32x4(r[g], r[g + 4], 0x88);
    s[i + 8] = _mm512_shuffle_f32x4(r[g], r[g + 4], 0xdd);
  }
  static const int column[4] = {0, 2, 1, 3};
  for (int m = 0; m < 4; ++m) {
    const int u = column[m];
    r[u] = _mm512_shuffle_f32x4(s[m], s[m + 4], 0x88);
    r[u + 8] = _mm512_shuffle_f32x4(s[m], s[m + 4], 0xdd);
    r[u + 4] = _mm512_shuffle_f32x4(s[m + 8], s[m + 12], 0x88);
    r[u + 12] = _mm512_shuffle_f32x4(s[m + 8], s[m + 12], 0xdd);
  }
}

#endif /* MIPS_SRC_KERNELS_X86_X86_KERNELS_H */
