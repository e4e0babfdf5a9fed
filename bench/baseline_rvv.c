/* SPDX-License-Identifier: Apache-2.0 */
/* The baseline mips-bench compares libmips with on riscv64: the straightforward RVV
 * matmul with no packing and no register blocking. One row of C at a time, LMUL 4, and
 * per k step one load of B's row (strided when B's rows are not contiguous) and one
 * multiply-add. This translation unit alone is compiled for +v. */
#include <riscv_vector.h>

#include "bench_baselines.h"

void baseline_rvv_f32(const bench_problem *p) {
  const float *a = p->a, *b = p->b;
  float *c = p->c;
  for (int64_t i = 0; i < p->m; ++i) {
    for (int64_t j = 0; j < p->n;) {
      const size_t vl = __riscv_vsetvl_e32m4((size_t)(p->n - j));
      float *cij = c + i * p->cs0 + j * p->cs1;
      vfloat32m4_t acc = __riscv_vfmv_v_f_f32m4(0.0f, vl);
      for (int64_t l = 0; l < p->k; ++l) {
        const float *bl = b + l * p->bs0 + j * p->bs1;
        const vfloat32m4_t bv = p->bs1 == 1 ? __riscv_vle32_v_f32m4(bl, vl)
                                            : __riscv_vlse32_v_f32m4(bl, p->bs1 * 4, vl);
        acc = __riscv_vfmacc_vf_f32m4(acc, a[i * p->as0 + l * p->as1], bv, vl);
      }
      if (p->cs1 == 1) __riscv_vse32_v_f32m4(cij, acc, vl);
      else __riscv_vsse32_v_f32m4(cij, p->cs1 * 4, acc, vl);
      j += (int64_t)vl;
    }
  }
}

void baseline_rvv_i8i32(const bench_problem *p) {
  const int8_t *a = p->a, *b = p->b;
  int32_t *c = p->c;
  for (int64_t i = 0; i < p->m; ++i) {
    for (int64_t j = 0; j < p->n;) {
      const size_t vl = __riscv_vsetvl_e16m2((size_t)(p->n - j));
      int32_t *cij = c + i * p->cs0 + j * p->cs1;
      vint32m4_t acc = __riscv_vmv_v_x_i32m4(0, vl);
      for (int64_t l = 0; l < p->k; ++l) {
        const int8_t *bl = b + l * p->bs0 + j * p->bs1;
        const vint8m1_t bytes = p->bs1 == 1 ? __riscv_vle8_v_i8m1(bl, vl)
                                            : __riscv_vlse8_v_i8m1(bl, p->bs1, vl);
        acc = __riscv_vwmacc_vx_i32m4(acc, a[i * p->as0 + l * p->as1],
                                      __riscv_vsext_vf2_i16m2(bytes, vl), vl);
      }
      if (p->cs1 == 1) __riscv_vse32_v_i32m4(cij, acc, vl);
      else __riscv_vsse32_v_i32m4(cij, p->cs1 * 4, acc, vl);
      j += (int64_t)vl;
    }
  }
}
