/* SPDX-License-Identifier: Apache-2.0 */
/* What mips-bench measures libmips against. All take the same strided problem. */
#ifndef MIPS_BENCH_BENCH_BASELINES_H
#define MIPS_BENCH_BENCH_BASELINES_H

#include <stddef.h>
#include <stdint.h>

typedef struct bench_problem {
  int64_t m, n, k;
  const void *a;
  ptrdiff_t as0, as1;
  const void *b;
  ptrdiff_t bs0, bs1;
  void *c;
  ptrdiff_t cs0, cs1;
} bench_problem;

/* The naive loop in i, k, j order (B and C walked along rows), as a C programmer would
 * write it; compilers vectorise its inner loop. C = A * B. */
void baseline_naive_f32(const bench_problem *p);
void baseline_naive_i8i32(const bench_problem *p);

#if defined(__riscv)
/* The unpacked 1-row x LMUL 4 RVV kernel (baseline_rvv.c). */
void baseline_rvv_f32(const bench_problem *p);
void baseline_rvv_i8i32(const bench_problem *p);
#endif

#endif /* MIPS_BENCH_BENCH_BASELINES_H */
