/* SPDX-License-Identifier: Apache-2.0 */
/* Scalar gathers of B panels for kernel sets whose own packing only handles unit-stride
 * rows (the RVV set). They live in a baseline translation unit on purpose: compiled for
 * +v, the compiler vectorises them into strided accesses that move one element a cycle
 * on the vector unit the tiles need, while scalar code runs beside it. When B's columns
 * are contiguous (a transposed B) they move 4 x 4 blocks, so that every access has an
 * immediate offset. (l, j) of B, at b[l * s0 + j * s1], goes to out[l * nr + j]. */
#include "driver/gemm_pack.h"

#define MIPS_GATHER_B(NAME, IN_T, OUT_T)                                                \
  void NAME(OUT_T *restrict out, const IN_T *b, ptrdiff_t s0, ptrdiff_t s1, int64_t k,   \
            int64_t w, int64_t nr) {                                                     \
    int64_t j = 0;                                                                       \
    if (s0 == 1)                                                                         \
      for (; j + 4 <= w; j += 4) {                                                       \
        const IN_T *c0 = b + j * s1, *c1 = c0 + s1, *c2 = c1 + s1, *c3 = c2 + s1;        \
        OUT_T *o = out + j;                                                              \
        int64_t l = 0;                                                                   \
        for (; l + 4 <= k; l += 4, c0 += 4, c1 += 4, c2 += 4, c3 += 4, o += 4 * nr)      \
          for (int u = 0; u < 4; ++u) {                                                  \
            o[u * nr + 0] = c0[u], o[u * nr + 1] = c1[u];                                \
            o[u * nr + 2] = c2[u], o[u * nr + 3] = c3[u];                                \
          }                                                                              \
        for (; l < k; ++l, ++c0, ++c1, ++c2, ++c3, o += nr)                              \
          o[0] = c0[0], o[1] = c1[0], o[2] = c2[0], o[3] = c3[0];                        \
      }                                                                                  \
    for (; j < w; ++j) {                                                                 \
      const IN_T *col = b + j * s1;                                                      \
      for (int64_t l = 0; l < k; ++l) out[l * nr + j] = col[l * s0];                     \
    }                                                                                    \
  }

MIPS_GATHER_B(mips_gather_b_f32, float, float)
MIPS_GATHER_B(mips_gather_b_i8_to_i16, int8_t, int16_t)
