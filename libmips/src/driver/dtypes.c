/* SPDX-License-Identifier: Apache-2.0 */
/* The functions of the per-type descriptor (mips_dtypes, in dtypes.h, with the
 * element sizes): the default A packer and C's zero fill of each element type. */
#include "driver/dtypes.h"

/* A(i, l) -> panel[l * mr + i], rows past `rows` up to mr zero. */
#define MIPS_PACK_A(NAME, T)                                                              \
  void NAME(void *dst_, const void *a_, ptrdiff_t s0, ptrdiff_t s1, int64_t rows,         \
            int64_t kc, int mr) {                                                         \
    T *restrict dst = dst_;                                                               \
    const T *a = a_;                                                                      \
    for (int64_t i = 0; i < rows; ++i) {                                                  \
      const T *row = a + i * s0;                                                          \
      for (int64_t l = 0; l < kc; ++l) dst[l * mr + i] = row[l * s1];                     \
    }                                                                                     \
    for (int64_t i = rows; i < mr; ++i)                                                   \
      for (int64_t l = 0; l < kc; ++l) dst[l * mr + i] = 0;                               \
  }
MIPS_PACK_A(mips_pack_a_f32, float)
MIPS_PACK_A(mips_pack_a_i8, int8_t)

/* Steps one dimension at a time, as the kernels do, to stay within the validated spans. */
#define MIPS_ZERO_FILL(NAME, T)                                                           \
  void NAME(void *c_, ptrdiff_t s0, ptrdiff_t s1, int64_t m, int64_t n) {                 \
    T *c = c_;                                                                            \
    for (int64_t i = 0; i < m; ++i) {                                                     \
      T *row = c + i * s0;                                                                \
      for (int64_t j = 0; j < n; ++j) row[j * s1] = 0;                                    \
    }                                                                                     \
  }
MIPS_ZERO_FILL(mips_zero_fill_f32, float)
MIPS_ZERO_FILL(mips_zero_fill_i32, int32_t)
