/* RVV 1.0 kernels. This translation unit alone is compiled for +v; the dispatcher
 * calls it only when AT_HWCAP reports V.
 *
 * Vectorised along j (the columns of C): each step takes vl = vsetvl(n - j) and uses
 * exactly that vl, so the code is correct for any VLEN and any vl the hardware may
 * pick within the spec. Up to MIPS_RVV_ROWS rows of C share each load of B. Rows of
 * B and C are loaded with unit-stride accesses when their column stride is 1 and
 * with strided accesses otherwise (any stride, including negative or zero for B).
 * The API layer orients the problem so that C's smaller stride is the column one. */
#include <riscv_vector.h>

#include "mips_internal.h"

#define MIPS_RVV_ROWS 4
#define MIPS_ALWAYS_INLINE inline __attribute__((always_inline))

/*------------------------------------------------------------------------------------
 * f32: LMUL=2 accumulators, one vfmacc per row and k step.
 *----------------------------------------------------------------------------------*/
static MIPS_ALWAYS_INLINE vfloat32m2_t load_f32(const float *p, ptrdiff_t stride, size_t vl) {
  return stride == 1 ? __riscv_vle32_v_f32m2(p, vl)
                     : __riscv_vlse32_v_f32m2(p, stride * (ptrdiff_t)sizeof(float), vl);
}

static MIPS_ALWAYS_INLINE void store_f32(float *p, ptrdiff_t stride, vfloat32m2_t v, size_t vl) {
  if (stride == 1)
    __riscv_vse32_v_f32m2(p, v, vl);
  else
    __riscv_vsse32_v_f32m2(p, stride * (ptrdiff_t)sizeof(float), v, vl);
}

static MIPS_ALWAYS_INLINE vfloat32m2_t init_f32(const float *c, ptrdiff_t stride, int accumulate,
                                                size_t vl) {
  return accumulate ? load_f32(c, stride, vl) : __riscv_vfmv_v_f_f32m2(0.0f, vl);
}

/* `rows` is a compile-time constant at every call site, so unused accumulators vanish. */
static MIPS_ALWAYS_INLINE void f32_row_block(const mips_matmul_problem *p, int64_t i,
                                             const int rows) {
  const float *a = (const float *)p->a + i * p->a_stride0;
  const float *b = (const float *)p->b;
  float *c = (float *)p->c + i * p->c_stride0;
  const ptrdiff_t as0 = p->a_stride0, as1 = p->a_stride1;
  const ptrdiff_t bs0 = p->b_stride0, bs1 = p->b_stride1;
  const ptrdiff_t cs0 = p->c_stride0, cs1 = p->c_stride1;
  const int accumulate = (p->flags & MIPS_MATMUL_ACCUMULATE) != 0;

  for (int64_t j = 0; j < p->n;) {
    const size_t vl = __riscv_vsetvl_e32m2((size_t)(p->n - j));
    float *cj = c + j * cs1;
    vfloat32m2_t acc0 = init_f32(cj, cs1, accumulate, vl);
    vfloat32m2_t acc1 = rows > 1 ? init_f32(cj + cs0, cs1, accumulate, vl) : acc0;
    vfloat32m2_t acc2 = rows > 2 ? init_f32(cj + 2 * cs0, cs1, accumulate, vl) : acc0;
    vfloat32m2_t acc3 = rows > 3 ? init_f32(cj + 3 * cs0, cs1, accumulate, vl) : acc0;
    const float *bj = b + j * bs1;
    for (int64_t l = 0; l < p->k; ++l) {
      const vfloat32m2_t bv = load_f32(bj + l * bs0, bs1, vl);
      const float *al = a + l * as1;
      acc0 = __riscv_vfmacc_vf_f32m2(acc0, al[0], bv, vl);
      if (rows > 1) acc1 = __riscv_vfmacc_vf_f32m2(acc1, al[as0], bv, vl);
      if (rows > 2) acc2 = __riscv_vfmacc_vf_f32m2(acc2, al[2 * as0], bv, vl);
      if (rows > 3) acc3 = __riscv_vfmacc_vf_f32m2(acc3, al[3 * as0], bv, vl);
    }
    store_f32(cj, cs1, acc0, vl);
    if (rows > 1) store_f32(cj + cs0, cs1, acc1, vl);
    if (rows > 2) store_f32(cj + 2 * cs0, cs1, acc2, vl);
    if (rows > 3) store_f32(cj + 3 * cs0, cs1, acc3, vl);
    j += (int64_t)vl;
  }
}

/*------------------------------------------------------------------------------------
 * i8 x i8 -> i32: B is loaded as i8 (LMUL=1/2), sign-extended to i16 and multiplied
 * into i32 accumulators (LMUL=2) with vwmacc, which wraps like the scalar kernel.
 *----------------------------------------------------------------------------------*/
static MIPS_ALWAYS_INLINE vint8mf2_t load_i8(const int8_t *p, ptrdiff_t stride, size_t vl) {
  return stride == 1 ? __riscv_vle8_v_i8mf2(p, vl) : __riscv_vlse8_v_i8mf2(p, stride, vl);
}

static MIPS_ALWAYS_INLINE vint32m2_t load_i32(const int32_t *p, ptrdiff_t stride, size_t vl) {
  return stride == 1 ? __riscv_vle32_v_i32m2(p, vl)
                     : __riscv_vlse32_v_i32m2(p, stride * (ptrdiff_t)sizeof(int32_t), vl);
}

static MIPS_ALWAYS_INLINE void store_i32(int32_t *p, ptrdiff_t stride, vint32m2_t v, size_t vl) {
  if (stride == 1)
    __riscv_vse32_v_i32m2(p, v, vl);
  else
    __riscv_vsse32_v_i32m2(p, stride * (ptrdiff_t)sizeof(int32_t), v, vl);
}

static MIPS_ALWAYS_INLINE vint32m2_t init_i32(const int32_t *c, ptrdiff_t stride, int accumulate,
                                              size_t vl) {
  return accumulate ? load_i32(c, stride, vl) : __riscv_vmv_v_x_i32m2(0, vl);
}

static MIPS_ALWAYS_INLINE void i8i32_row_block(const mips_matmul_problem *p, int64_t i,
                                               const int rows) {
  const int8_t *a = (const int8_t *)p->a + i * p->a_stride0;
  const int8_t *b = (const int8_t *)p->b;
  int32_t *c = (int32_t *)p->c + i * p->c_stride0;
  const ptrdiff_t as0 = p->a_stride0, as1 = p->a_stride1;
  const ptrdiff_t bs0 = p->b_stride0, bs1 = p->b_stride1;
  const ptrdiff_t cs0 = p->c_stride0, cs1 = p->c_stride1;
  const int accumulate = (p->flags & MIPS_MATMUL_ACCUMULATE) != 0;

  for (int64_t j = 0; j < p->n;) {
    const size_t vl = __riscv_vsetvl_e32m2((size_t)(p->n - j));
    int32_t *cj = c + j * cs1;
    vint32m2_t acc0 = init_i32(cj, cs1, accumulate, vl);
    vint32m2_t acc1 = rows > 1 ? init_i32(cj + cs0, cs1, accumulate, vl) : acc0;
    vint32m2_t acc2 = rows > 2 ? init_i32(cj + 2 * cs0, cs1, accumulate, vl) : acc0;
    vint32m2_t acc3 = rows > 3 ? init_i32(cj + 3 * cs0, cs1, accumulate, vl) : acc0;
    const int8_t *bj = b + j * bs1;
    for (int64_t l = 0; l < p->k; ++l) {
      const vint16m1_t bv = __riscv_vsext_vf2_i16m1(load_i8(bj + l * bs0, bs1, vl), vl);
      const int8_t *al = a + l * as1;
      acc0 = __riscv_vwmacc_vx_i32m2(acc0, al[0], bv, vl);
      if (rows > 1) acc1 = __riscv_vwmacc_vx_i32m2(acc1, al[as0], bv, vl);
      if (rows > 2) acc2 = __riscv_vwmacc_vx_i32m2(acc2, al[2 * as0], bv, vl);
      if (rows > 3) acc3 = __riscv_vwmacc_vx_i32m2(acc3, al[3 * as0], bv, vl);
    }
    store_i32(cj, cs1, acc0, vl);
    if (rows > 1) store_i32(cj + cs0, cs1, acc1, vl);
    if (rows > 2) store_i32(cj + 2 * cs0, cs1, acc2, vl);
    if (rows > 3) store_i32(cj + 3 * cs0, cs1, acc3, vl);
    j += (int64_t)vl;
  }
}

/*------------------------------------------------------------------------------------
 * Outer loop over blocks of rows, shared by both element types.
 *----------------------------------------------------------------------------------*/
#define MIPS_RVV_MATMUL(NAME, ROW_BLOCK)                                               \
  static void NAME(const mips_matmul_problem *p) {                                     \
    int64_t i = 0;                                                                     \
    for (; i + MIPS_RVV_ROWS <= p->m; i += MIPS_RVV_ROWS) ROW_BLOCK(p, i, 4);          \
    switch (p->m - i) {                                                                \
      case 3: ROW_BLOCK(p, i, 3); break;                                               \
      case 2: ROW_BLOCK(p, i, 2); break;                                               \
      case 1: ROW_BLOCK(p, i, 1); break;                                               \
      default: break;                                                                  \
    }                                                                                  \
  }

MIPS_RVV_MATMUL(matmul_f32_rvv, f32_row_block)
MIPS_RVV_MATMUL(matmul_i8i32_rvv, i8i32_row_block)

const mips_kernel_set mips_kernels_rvv = {
    .name = "rvv",
    .matmul_f32 = matmul_f32_rvv,
    .matmul_i8i32 = matmul_i8i32_rvv,
};
