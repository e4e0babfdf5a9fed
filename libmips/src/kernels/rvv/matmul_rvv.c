/* RVV 1.0 kernels. This translation unit alone is compiled for +v; the dispatcher
 * calls it only when AT_HWCAP reports V.
 *
 * Vectorised along j (the columns of C): each step takes vl = vsetvl(n - j) and uses
 * exactly that vl, so the code is correct for any VLEN and any vl the hardware may
 * pick within the spec. Up to MIPS_RVV_ROWS rows of C share each load of B. Rows of
 * B and C are loaded with unit-stride accesses when their column stride is 1 and
 * with strided accesses otherwise (any stride, including negative or zero for B).
 * The API layer orients the problem so that C's smaller stride is the column one.
 *
 * One row-block body serves both element types; each type supplies its vector type,
 * how to load a row of B and C, store C, and multiply-accumulate. */
#include <riscv_vector.h>

#include "mips_internal.h"

#define MIPS_RVV_ROWS 4
#define MIPS_ALWAYS_INLINE inline __attribute__((always_inline))

/*------------------------------------------------------------------------------------
 * f32: LMUL=2 accumulators, one vfmacc per row and k step.
 *----------------------------------------------------------------------------------*/
typedef float f32_in_t;
typedef float f32_out_t;
typedef vfloat32m2_t f32_acc_t;

static MIPS_ALWAYS_INLINE vfloat32m2_t f32_load_out(const float *p, ptrdiff_t stride, size_t vl) {
  return stride == 1 ? __riscv_vle32_v_f32m2(p, vl)
                     : __riscv_vlse32_v_f32m2(p, stride * (ptrdiff_t)sizeof(float), vl);
}
static MIPS_ALWAYS_INLINE vfloat32m2_t f32_zero(size_t vl) { return __riscv_vfmv_v_f_f32m2(0.0f, vl); }
static MIPS_ALWAYS_INLINE void f32_store_out(float *p, ptrdiff_t stride, vfloat32m2_t v, size_t vl) {
  if (stride == 1)
    __riscv_vse32_v_f32m2(p, v, vl);
  else
    __riscv_vsse32_v_f32m2(p, stride * (ptrdiff_t)sizeof(float), v, vl);
}
#define f32_load_b f32_load_out
#define f32_macc(acc, a, b, vl) __riscv_vfmacc_vf_f32m2((acc), (a), (b), (vl))

/*------------------------------------------------------------------------------------
 * i8 x i8 -> i32: B is loaded as i8 (LMUL=1/2), sign-extended to i16 and multiplied
 * into i32 accumulators (LMUL=2) with vwmacc, which wraps like the scalar kernel.
 * e8mf2, e16m1 and e32m2 share SEW/LMUL, so one vsetvl_e32m2 fits all three.
 *----------------------------------------------------------------------------------*/
typedef int8_t i8i32_in_t;
typedef int32_t i8i32_out_t;
typedef vint32m2_t i8i32_acc_t;

static MIPS_ALWAYS_INLINE vint32m2_t i8i32_load_out(const int32_t *p, ptrdiff_t stride, size_t vl) {
  return stride == 1 ? __riscv_vle32_v_i32m2(p, vl)
                     : __riscv_vlse32_v_i32m2(p, stride * (ptrdiff_t)sizeof(int32_t), vl);
}
static MIPS_ALWAYS_INLINE vint32m2_t i8i32_zero(size_t vl) { return __riscv_vmv_v_x_i32m2(0, vl); }
static MIPS_ALWAYS_INLINE void i8i32_store_out(int32_t *p, ptrdiff_t stride, vint32m2_t v, size_t vl) {
  if (stride == 1)
    __riscv_vse32_v_i32m2(p, v, vl);
  else
    __riscv_vsse32_v_i32m2(p, stride * (ptrdiff_t)sizeof(int32_t), v, vl);
}
static MIPS_ALWAYS_INLINE vint16m1_t i8i32_load_b(const int8_t *p, ptrdiff_t stride, size_t vl) {
  const vint8mf2_t bytes =
      stride == 1 ? __riscv_vle8_v_i8mf2(p, vl) : __riscv_vlse8_v_i8mf2(p, stride, vl);
  return __riscv_vsext_vf2_i16m1(bytes, vl);
}
#define i8i32_macc(acc, a, b, vl) __riscv_vwmacc_vx_i32m2((acc), (a), (b), (vl))

/*------------------------------------------------------------------------------------
 * The shared body: `rows` (1..MIPS_RVV_ROWS) rows of C from row i, all columns.
 * `rows` is a compile-time constant at every call site, so unused accumulators vanish.
 *----------------------------------------------------------------------------------*/
#define MIPS_RVV_ROW_BLOCK(T)                                                             \
  static MIPS_ALWAYS_INLINE void T##_row_block(const mips_matmul_problem *p, int64_t i,   \
                                               const int rows) {                         \
    const T##_in_t *a = (const T##_in_t *)p->a + i * p->a_stride0;                       \
    const T##_in_t *b = (const T##_in_t *)p->b;                                          \
    T##_out_t *c = (T##_out_t *)p->c + i * p->c_stride0;                                 \
    const ptrdiff_t as0 = p->a_stride0, as1 = p->a_stride1;                              \
    const ptrdiff_t bs0 = p->b_stride0, bs1 = p->b_stride1;                              \
    const ptrdiff_t cs0 = p->c_stride0, cs1 = p->c_stride1;                              \
    const int accumulate = (p->flags & MIPS_MATMUL_ACCUMULATE) != 0;                     \
    for (int64_t j = 0; j < p->n;) {                                                     \
      const size_t vl = __riscv_vsetvl_e32m2((size_t)(p->n - j));                        \
      T##_out_t *cj = c + j * cs1;                                                       \
      T##_acc_t acc0 = accumulate ? T##_load_out(cj, cs1, vl) : T##_zero(vl);            \
      T##_acc_t acc1 = acc0, acc2 = acc0, acc3 = acc0;                                   \
      if (rows > 1) acc1 = accumulate ? T##_load_out(cj + cs0, cs1, vl) : T##_zero(vl);  \
      if (rows > 2) acc2 = accumulate ? T##_load_out(cj + 2 * cs0, cs1, vl) : T##_zero(vl); \
      if (rows > 3) acc3 = accumulate ? T##_load_out(cj + 3 * cs0, cs1, vl) : T##_zero(vl); \
      const T##_in_t *bj = b + j * bs1;                                                  \
      for (int64_t l = 0; l < p->k; ++l) {                                               \
        const __typeof__(T##_load_b(bj, bs1, vl)) bv = T##_load_b(bj + l * bs0, bs1, vl); \
        const T##_in_t *al = a + l * as1;                                                \
        acc0 = T##_macc(acc0, al[0], bv, vl);                                            \
        if (rows > 1) acc1 = T##_macc(acc1, al[as0], bv, vl);                            \
        if (rows > 2) acc2 = T##_macc(acc2, al[2 * as0], bv, vl);                        \
        if (rows > 3) acc3 = T##_macc(acc3, al[3 * as0], bv, vl);                        \
      }                                                                                  \
      T##_store_out(cj, cs1, acc0, vl);                                                  \
      if (rows > 1) T##_store_out(cj + cs0, cs1, acc1, vl);                              \
      if (rows > 2) T##_store_out(cj + 2 * cs0, cs1, acc2, vl);                          \
      if (rows > 3) T##_store_out(cj + 3 * cs0, cs1, acc3, vl);                          \
      j += (int64_t)vl;                                                                  \
    }                                                                                    \
  }

/* The outer loop over blocks of rows. */
#define MIPS_RVV_MATMUL(T)                                                               \
  MIPS_RVV_ROW_BLOCK(T)                                                                  \
  static void matmul_##T##_rvv(const mips_matmul_problem *p) {                           \
    int64_t i = 0;                                                                       \
    for (; i + MIPS_RVV_ROWS <= p->m; i += MIPS_RVV_ROWS) T##_row_block(p, i, 4);        \
    switch (p->m - i) {                                                                  \
      case 3: T##_row_block(p, i, 3); break;                                             \
      case 2: T##_row_block(p, i, 2); break;                                             \
      case 1: T##_row_block(p, i, 1); break;                                             \
      default: break;                                                                    \
    }                                                                                    \
  }

MIPS_RVV_MATMUL(f32)
MIPS_RVV_MATMUL(i8i32)

const mips_kernel_set mips_kernels_rvv = {
    .name = "rvv",
    .matmul_f32 = matmul_f32_rvv,
    .matmul_i8i32 = matmul_i8i32_rvv,
};
