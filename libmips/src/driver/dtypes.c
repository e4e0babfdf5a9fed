/* SPDX-License-Identifier: Apache-2.0 */
/* The per-type descriptor: element sizes, the default A packer and C's zero fill of each
 * element type, so that the API layer, the driver and the threading read one table
 * instead of testing the type. */
#include "mips_internal.h"

/* A(i, l) -> panel[l * mr + i], rows past `rows` up to mr zero. */
#define MIPS_PACK_A(NAME, T)                                                              \
  static void NAME(void *dst_, const void *a_, ptrdiff_t s0, ptrdiff_t s1, int64_t rows,  \
                   int64_t kc, int mr) {                                                  \
    T *restrict dst = dst_;                                                               \
    const T *a = a_;                                                                      \
    for (int64_t i = 0; i < rows; ++i) {                                                  \
      const T *row = a + i * s0;                                                          \
      for (int64_t l = 0; l < kc; ++l) dst[l * mr + i] = row[l * s1];                     \
    }                                                                                     \
    for (int64_t i = rows; i < mr; ++i)                                                   \
      for (int64_t l = 0; l < kc; ++l) dst[l * mr + i] = 0;                               \
  }
MIPS_PACK_A(pack_a_f32, float)
MIPS_PACK_A(pack_a_i8, int8_t)

/* Steps one dimension at a time, as the kernels do, to stay within the validated spans. */
#define MIPS_ZERO_FILL(NAME, T)                                                      \
  static void NAME(void *c_, ptrdiff_t s0, ptrdiff_t s1, int64_t m, int64_t n) {     \
    T *c = c_;                                                                       \
    for (int64_t i = 0; i < m; ++i) {                                                \
      T *row = c + i * s0;                                                           \
      for (int64_t j = 0; j < n; ++j) row[j * s1] = 0;                               \
    }                                                                                \
  }
MIPS_ZERO_FILL(zero_fill_f32, float)
MIPS_ZERO_FILL(zero_fill_i32, int32_t)

const mips_dtype_info mips_dtypes[MIPS_DTYPE_COUNT] = {
    [MIPS_DTYPE_F32] = {.input_size = sizeof(float), .output_size = sizeof(float),
                        .pack_a = pack_a_f32, .zero_fill = zero_fill_f32},
    [MIPS_DTYPE_I8I32] = {.input_size = sizeof(int8_t), .output_size = sizeof(int32_t),
                          .pack_a = pack_a_i8, .zero_fill = zero_fill_i32},
};
