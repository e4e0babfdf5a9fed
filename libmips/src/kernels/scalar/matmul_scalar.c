/* Portable C kernels: correct for every layout the API accepts, and the fallback
 * on every CPU. One body per operation, stamped out per element type. */
#include "mips_internal.h"

/* ACC_T accumulates; MULADD(acc, a, b) adds one product; TO_C converts back. */
#define MIPS_SCALAR_MATMUL(NAME, A_T, C_T, ACC_T, MULADD, TO_C)                        \
  static void NAME(const mips_matmul_problem *p) {                                     \
    const A_T *a = (const A_T *)p->a;                                                  \
    const A_T *b = (const A_T *)p->b;                                                  \
    C_T *c = (C_T *)p->c;                                                              \
    const int accumulate = (p->flags & MIPS_MATMUL_ACCUMULATE) != 0;                   \
    for (int64_t i = 0; i < p->m; ++i) {                                               \
      const A_T *a_row = a + i * p->a_stride0;                                         \
      C_T *c_row = c + i * p->c_stride0;                                               \
      for (int64_t j = 0; j < p->n; ++j) {                                             \
        const A_T *b_col = b + j * p->b_stride1;                                       \
        C_T *c_ij = c_row + j * p->c_stride1;                                          \
        ACC_T acc = accumulate ? (ACC_T)*c_ij : (ACC_T)0;                              \
        for (int64_t l = 0; l < p->k; ++l)                                             \
          acc = MULADD(acc, a_row[l * p->a_stride1], b_col[l * p->b_stride0]);         \
        *c_ij = TO_C(acc);                                                             \
      }                                                                                \
    }                                                                                  \
  }

#define MIPS_F32_MULADD(acc, x, y) ((acc) + (x) * (y))
#define MIPS_F32_TO_C(acc) (acc)
/* Unsigned arithmetic makes int32 overflow wrap (as the vector kernels do) instead of
 * being undefined. */
#define MIPS_I8_MULADD(acc, x, y) ((acc) + (uint32_t)((int32_t)(x) * (int32_t)(y)))
#define MIPS_I8_TO_C(acc) ((int32_t)(acc))

MIPS_SCALAR_MATMUL(matmul_f32_scalar, float, float, float, MIPS_F32_MULADD, MIPS_F32_TO_C)
MIPS_SCALAR_MATMUL(matmul_i8i32_scalar, int8_t, int32_t, uint32_t, MIPS_I8_MULADD,
                   MIPS_I8_TO_C)

const mips_kernel_set mips_kernels_scalar = {
    .name = "scalar",
    .matmul_f32 = matmul_f32_scalar,
    .matmul_i8i32 = matmul_i8i32_scalar,
};
