/* SPDX-License-Identifier: Apache-2.0 */
/* Blocks of up to 4 x 4 dot products (f32, MIPS_MATMUL_ANY_ORDER), and B's columns
 * split for them. */
#include "kernels/rvv/rvv_kernels.h"

/* Blocks of up to 4 x 4 dot products at LMUL 1 (MIPS_MATMUL_ANY_ORDER, a C with few
 * columns): per chunk of k, a load of each of the block's rows of A and columns of B and
 * one vfmacc per element of the block, 16 multiply-adds for 8 loads where a row at a time
 * (mips_row_dot_f32_rvv) needs 5 loads for 4. 16 accumulators, 4 + 4 operands: 24 registers. */
#define DB_PAIRS(X)                                                                    \
  X(0, 0) X(0, 1) X(0, 2) X(0, 3) X(1, 0) X(1, 1) X(1, 2) X(1, 3)                      \
  X(2, 0) X(2, 1) X(2, 2) X(2, 3) X(3, 0) X(3, 1) X(3, 2) X(3, 3)
#define DB_FOUR(X) X(0) X(1) X(2) X(3)
#define DB_DECL_ACC(i, j) vfloat32m1_t acc##i##j = __riscv_vfmv_v_f_f32m1(0.0f, vlmax);
#define DB_LOAD_A(i, VL) \
  const vfloat32m1_t va##i = R > i ? __riscv_vle32_v_f32m1(a + i * as + l, VL) : __riscv_vundefined_f32m1();
#define DB_LOAD_B(j, VL) \
  const vfloat32m1_t vb##j = J > j ? __riscv_vle32_v_f32m1(b + j * bs + l, VL) : __riscv_vundefined_f32m1();
#define DB_FULL_A(i) DB_LOAD_A(i, vlmax)
#define DB_FULL_B(j) DB_LOAD_B(j, vlmax)
#define DB_TAIL_A(i) DB_LOAD_A(i, vl)
#define DB_TAIL_B(j) DB_LOAD_B(j, vl)
#define DB_FMA_FULL(i, j) \
  if (R > i && J > j) acc##i##j = __riscv_vfmacc_vv_f32m1(acc##i##j, va##i, vb##j, vlmax);
#define DB_FMA_TAIL(i, j) \
  if (R > i && J > j) acc##i##j = __riscv_vfmacc_vv_f32m1_tu(acc##i##j, va##i, vb##j, vl);
#define DB_STORE(i, j)                                                                 \
  if (R > i && J > j) {                                                                \
    const float sum = __riscv_vfmv_f_s_f32m1_f32(                                      \
        __riscv_vfredusum_vs_f32m1_f32m1(acc##i##j, zero, vlmax));                     \
    float *at = c + i * cs0 + j * cs1;                                                 \
    *at = accumulate ? *at + sum : sum;                                                \
  }

static MIPS_ALWAYS_INLINE void dot_block_f32_body(const mips_dot_block_args *t, const int R,
                                                  const int J) {
  const float *a = t->a, *b = t->b;
  float *c = t->c;
  const ptrdiff_t as = t->a_rowstride, bs = t->b_colstride;
  const ptrdiff_t cs0 = t->c_stride0, cs1 = t->c_stride1;
  const int64_t k = t->k;
  const bool accumulate = t->accumulate;
  const size_t vlmax = __riscv_vsetvlmax_e32m1();
  DB_PAIRS(DB_DECL_ACC)
  int64_t l = 0;
  for (; l + (int64_t)vlmax <= k; l += (int64_t)vlmax) {
    DB_FOUR(DB_FULL_A)
    DB_FOUR(DB_FULL_B)
    DB_PAIRS(DB_FMA_FULL)
  }
  if (l < k) {
    const size_t vl = __riscv_vsetvl_e32m1((size_t)(k - l));
    DB_FOUR(DB_TAIL_A)
    DB_FOUR(DB_TAIL_B)
    DB_PAIRS(DB_FMA_TAIL)
  }
  const vfloat32m1_t zero = __riscv_vfmv_s_f_f32m1(0.0f, 1);
  DB_PAIRS(DB_STORE)
}

/* B's columns for the dot blocks, when B's rows are dense and adjacent (a row-major k x n
 * B, n <= 8): a segment load of n fields splits a run of rows into n columns, where the
 * driver's scalar copy spent five instructions per element (256x4x256 at VLEN 1024: a
 * fifth of the call, eff 0.418 -> 0.522). Only for short k: a 4x4 dot block costs about
 * 110 scalar instructions (16 reductions and stores) plus 10 per chunk of k, against 24
 * vector cycles per chunk, so from 16 chunks it is bound by its vector work and the
 * scalar copy runs beside it for free (measured: the vector copy cost 0.003 eff at
 * 256x4x256, VLEN 256 and 512, and at 256x4x2304, VLEN 1024). */
#define SC_STORE(N, j)                                                                 \
  __riscv_vse32_v_f32m1(columns + (j) * k + l, __riscv_vget_v_f32m1x##N##_f32m1(t, j), vl);
#define SC_CASE(N, STORES)                                                             \
  case N:                                                                              \
    for (int64_t l = 0; l < k;) {                                                      \
      const size_t vl = __riscv_vsetvl_e32m1((size_t)(k - l));                         \
      const vfloat32m1x##N##_t t = __riscv_vlseg##N##e32_v_f32m1x##N(b + l * N, vl);   \
      STORES                                                                           \
      l += (int64_t)vl;                                                                \
    }                                                                                  \
    return true;
bool mips_split_columns_f32_rvv(float *columns, const float *b, ptrdiff_t s0, ptrdiff_t s1,
                                  int64_t k, int64_t n) {
  if (s1 != 1 || s0 != n || k >= 16 * (int64_t)__riscv_vsetvlmax_e32m1()) return false;
  switch (n) {
    SC_CASE(2, SC_STORE(2, 0) SC_STORE(2, 1))
    SC_CASE(3, SC_STORE(3, 0) SC_STORE(3, 1) SC_STORE(3, 2))
    SC_CASE(4, SC_STORE(4, 0) SC_STORE(4, 1) SC_STORE(4, 2) SC_STORE(4, 3))
    SC_CASE(5, SC_STORE(5, 0) SC_STORE(5, 1) SC_STORE(5, 2) SC_STORE(5, 3) SC_STORE(5, 4))
    SC_CASE(6, SC_STORE(6, 0) SC_STORE(6, 1) SC_STORE(6, 2) SC_STORE(6, 3) SC_STORE(6, 4)
               SC_STORE(6, 5))
    SC_CASE(7, SC_STORE(7, 0) SC_STORE(7, 1) SC_STORE(7, 2) SC_STORE(7, 3) SC_STORE(7, 4)
               SC_STORE(7, 5) SC_STORE(7, 6))
    SC_CASE(8, SC_STORE(8, 0) SC_STORE(8, 1) SC_STORE(8, 2) SC_STORE(8, 3) SC_STORE(8, 4)
               SC_STORE(8, 5) SC_STORE(8, 6) SC_STORE(8, 7))
    default: return false;
  }
}

#define DB_CASE(R, J) \
  case (R) * 8 + (J): dot_block_f32_body(t, R, J); break;
void mips_dot_block_f32_rvv(const mips_dot_block_args *t) {
  switch (t->rows * 8 + t->cols) {
    DB_CASE(1, 1) DB_CASE(1, 2) DB_CASE(1, 3) DB_CASE(1, 4)
    DB_CASE(2, 1) DB_CASE(2, 2) DB_CASE(2, 3) DB_CASE(2, 4)
    DB_CASE(3, 1) DB_CASE(3, 2) DB_CASE(3, 3) DB_CASE(3, 4)
    DB_CASE(4, 1) DB_CASE(4, 2) DB_CASE(4, 3) DB_CASE(4, 4)
    default: break;
  }
}
