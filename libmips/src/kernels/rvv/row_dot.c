/* SPDX-License-Identifier: Apache-2.0 */
/* Dot products for one row of C: f32 (MIPS_MATMUL_ANY_ORDER) and int8. */
#include "kernels/rvv/rvv_kernels.h"

/*------------------------------------------------------------------------------------
 * Dot products for one row of C (MIPS_MATMUL_ANY_ORDER): up to 8 columns of B at a time
 * run along k at LMUL 2, sharing each load of A's chunk, so per chunk a column costs one
 * load and one vfmacc: the matrix-vector bound, half the peak. Full chunks run at VLMAX;
 * the last one leaves the accumulators' other lanes as they were (tail undisturbed), and
 * one reduction per column ends it.
 *----------------------------------------------------------------------------------*/
#define DOT_COLS(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7)
#define DOT_DECL(j)                                                                    \
  const float *bp##j = b + (J > j ? j : 0) * bs;                                       \
  vfloat32m2_t acc##j = __riscv_vfmv_v_f_f32m2(0.0f, vlmax);
#define DOT_FULL(j) \
  if (J > j) acc##j = __riscv_vfmacc_vv_f32m2(acc##j, va, __riscv_vle32_v_f32m2(bp##j + l, vlmax), vlmax);
#define DOT_TAIL(j)                                                                    \
  if (J > j)                                                                           \
    acc##j = __riscv_vfmacc_vv_f32m2_tu(acc##j, va, __riscv_vle32_v_f32m2(bp##j + l, vl), vl);
#define DOT_STORE(j)                                                                   \
  if (J > j) {                                                                         \
    const float sum = __riscv_vfmv_f_s_f32m1_f32(                                      \
        __riscv_vfredusum_vs_f32m2_f32m1(acc##j, zero, vlmax));                        \
    c[j * cs] = accumulate ? c[j * cs] + sum : sum;                                    \
  }

static MIPS_ALWAYS_INLINE void row_dot_f32_cols(const float *a, const float *b, ptrdiff_t bs,
                                                float *c, ptrdiff_t cs, int64_t k,
                                                bool accumulate, const int J) {
  const size_t vlmax = __riscv_vsetvlmax_e32m2();
  DOT_COLS(DOT_DECL)
  int64_t l = 0;
  for (; l + (int64_t)vlmax <= k; l += (int64_t)vlmax) {
    const vfloat32m2_t va = __riscv_vle32_v_f32m2(a + l, vlmax);
    DOT_COLS(DOT_FULL)
  }
  if (l < k) {
    const size_t vl = __riscv_vsetvl_e32m2((size_t)(k - l));
    const vfloat32m2_t va = __riscv_vle32_v_f32m2(a + l, vl);
    DOT_COLS(DOT_TAIL)
  }
  const vfloat32m1_t zero = __riscv_vfmv_s_f_f32m1(0.0f, 1);
  DOT_COLS(DOT_STORE)
}

void mips_row_dot_f32_rvv(const mips_row_dot_args *t) {
  const float *a = t->a, *b = t->b;
  float *c = t->c;
  const ptrdiff_t bs = t->b_colstride, cs = t->c_stride;
  int64_t j = 0;
  for (; j + 8 <= t->cols; j += 8) row_dot_f32_cols(a, b + j * bs, bs, c + j * cs, cs, t->k, t->accumulate, 8);
  if (j + 4 <= t->cols) row_dot_f32_cols(a, b + j * bs, bs, c + j * cs, cs, t->k, t->accumulate, 4), j += 4;
  if (j + 2 <= t->cols) row_dot_f32_cols(a, b + j * bs, bs, c + j * cs, cs, t->k, t->accumulate, 2), j += 2;
  if (j < t->cols) row_dot_f32_cols(a, b + j * bs, bs, c + j * cs, cs, t->k, t->accumulate, 1);
}

/* int8: per chunk of one register of bytes, a column costs a load, a widening multiply
 * to i16 and a widening add into i32 accumulators (four registers each), 4 of them at a
 * time; the sums wrap modulo 2^32 as the tiles' do, so their order does not matter. */
#define IDOT_COLS(X) X(0) X(1) X(2) X(3)
#define IDOT_DECL(j)                                                                   \
  const int8_t *bp##j = b + (J > j ? j : 0) * bs;                                      \
  vint32m4_t acc##j = __riscv_vmv_v_x_i32m4(0, vlmax);
/* All products of a chunk first, then all the sums: one vtype change each way per chunk
 * instead of per column. */
#define IDOT_MUL(j, VL) \
  const vint16m2_t prod##j = __riscv_vwmul_vv_i16m2(va, __riscv_vle8_v_i8m1(bp##j + l, VL), VL);
#define IDOT_MUL_FULL(j) IDOT_MUL(j, vlmax)
#define IDOT_MUL_TAIL(j) IDOT_MUL(j, vl)
#define IDOT_ADD_FULL(j) if (J > j) acc##j = __riscv_vwadd_wv_i32m4(acc##j, prod##j, vlmax);
#define IDOT_ADD_TAIL(j) if (J > j) acc##j = __riscv_vwadd_wv_i32m4_tu(acc##j, acc##j, prod##j, vl);
#define IDOT_STORE(j)                                                                  \
  if (J > j) {                                                                         \
    const uint32_t sum = (uint32_t)__riscv_vmv_x_s_i32m1_i32(                          \
        __riscv_vredsum_vs_i32m4_i32m1(acc##j, zero, vlmax));                          \
    c[j * cs] = (int32_t)(accumulate ? (uint32_t)c[j * cs] + sum : sum);               \
  }

static MIPS_ALWAYS_INLINE void row_dot_i8i32_cols(const int8_t *a, const int8_t *b, ptrdiff_t bs,
                                                  int32_t *c, ptrdiff_t cs, int64_t k,
                                                  bool accumulate, const int J) {
  const size_t vlmax = __riscv_vsetvlmax_e8m1();
  IDOT_COLS(IDOT_DECL)
  int64_t l = 0;
  for (; l + (int64_t)vlmax <= k; l += (int64_t)vlmax) {
    const vint8m1_t va = __riscv_vle8_v_i8m1(a + l, vlmax);
    IDOT_COLS(IDOT_MUL_FULL)
    IDOT_COLS(IDOT_ADD_FULL)
  }
  if (l < k) {
    const size_t vl = __riscv_vsetvl_e8m1((size_t)(k - l));
    const vint8m1_t va = __riscv_vle8_v_i8m1(a + l, vl);
    IDOT_COLS(IDOT_MUL_TAIL)
    IDOT_COLS(IDOT_ADD_TAIL)
  }
  const vint32m1_t zero = __riscv_vmv_s_x_i32m1(0, 1);
  IDOT_COLS(IDOT_STORE)
}

void mips_row_dot_i8i32_rvv(const mips_row_dot_args *t) {
  const int8_t *a = t->a, *b = t->b;
  int32_t *c = t->c;
  const ptrdiff_t bs = t->b_colstride, cs = t->c_stride;
  int64_t j = 0;
  for (; j + 4 <= t->cols; j += 4)
    row_dot_i8i32_cols(a, b + j * bs, bs, c + j * cs, cs, t->k, t->accumulate, 4);
  if (j + 2 <= t->cols) row_dot_i8i32_cols(a, b + j * bs, bs, c + j * cs, cs, t->k, t->accumulate, 2), j += 2;
  if (j < t->cols) row_dot_i8i32_cols(a, b + j * bs, bs, c + j * cs, cs, t->k, t->accumulate, 1);
}
