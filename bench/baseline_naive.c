/* SPDX-License-Identifier: Apache-2.0 */
/* The naive i-k-j loop: C's and B's rows are walked with unit stride when the layout has
 * them, so compilers vectorise the inner loop. No blocking, no packing. */
#include "bench_baselines.h"

#define BENCH_NAIVE(NAME, IN_T, OUT_T, ACC_T)                                            \
  void NAME(const bench_problem *p) {                                                    \
    const IN_T *restrict a = p->a, *restrict b = p->b;                                   \
    OUT_T *restrict c = p->c;                                                            \
    for (int64_t i = 0; i < p->m; ++i) {                                                 \
      OUT_T *ci = c + i * p->cs0;                                                        \
      for (int64_t j = 0; j < p->n; ++j) ci[j * p->cs1] = 0;                             \
      for (int64_t l = 0; l < p->k; ++l) {                                               \
        const ACC_T ail = (ACC_T)a[i * p->as0 + l * p->as1];                             \
        const IN_T *bl = b + l * p->bs0;                                                 \
        if (p->cs1 == 1 && p->bs1 == 1) /* the row-major loop, which compilers vectorise */ \
          for (int64_t j = 0; j < p->n; ++j)                                             \
            ci[j] = (OUT_T)((ACC_T)ci[j] + ail * (ACC_T)bl[j]);                          \
        else                                                                             \
          for (int64_t j = 0; j < p->n; ++j)                                             \
            ci[j * p->cs1] = (OUT_T)((ACC_T)ci[j * p->cs1] + ail * (ACC_T)bl[j * p->bs1]); \
      }                                                                                  \
    }                                                                                    \
  }

BENCH_NAIVE(baseline_naive_f32, float, float, float)
BENCH_NAIVE(baseline_naive_i8i32, int8_t, int32_t, uint32_t)
