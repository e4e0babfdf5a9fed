/* SPDX-License-Identifier: Apache-2.0 */
/* How many threads a call may have: the process default and the work a thread must get
 * (thread_count.c). Which family runs on them is the plan's (driver/plan.h). */
#ifndef MIPS_SRC_THREADING_THREAD_COUNT_H
#define MIPS_SRC_THREADING_THREAD_COUNT_H

#include <stdbool.h>
#include <stdint.h>

#define MIPS_MAX_THREADS 255

/* Multiply-adds each thread must get before a call is split. Measured on the x86-64
 * host (2 cores), f32 n^3 on 2 threads against 1: OpenMP breaks even near 96^3 (0.9 M),
 * the pthreads pool near 128^3 (2 M); both gain 1.3-1.5x from 160^3 (4 M). 2^20 per
 * thread starts 2 threads at 2 M. (Overridable only to measure it again.) */
#ifndef MIPS_PARALLEL_MIN_WORK
#define MIPS_PARALLEL_MIN_WORK ((int64_t)1 << 20)
#endif

/* The process default: MIPS_NUM_THREADS if a positive integer (read once), else the
 * CPUs this process may run on; at least 1, at most MIPS_MAX_THREADS. */
int mips_threads_default(void);

/* Whether the problem has work for two threads: small calls stop here, inline, and
 * never pay for the thread-count lookup. */
static inline __attribute__((always_inline)) bool mips_may_split(int64_t m, int64_t n, int64_t k) {
  /* All three under 128: the work is under 128^3, too little. One OR decides. */
  _Static_assert(2 * MIPS_PARALLEL_MIN_WORK >= (int64_t)128 * 128 * 128, "128^3 must not split");
  if (((uint64_t)m | (uint64_t)n | (uint64_t)k) < 128) return false;
  int64_t work;
  return __builtin_mul_overflow(m, n, &work) || __builtin_mul_overflow(work, k, &work) ||
         work >= 2 * MIPS_PARALLEL_MIN_WORK;
}

/* The threads an m x n x k call runs on: 1 when it has too little work for two, else at
 * most `cap` (0: the default) and at most one per MIPS_PARALLEL_MIN_WORK of work. */
int mips_threads_for_problem(int64_t m, int64_t n, int64_t k, int cap);

#endif /* MIPS_SRC_THREADING_THREAD_COUNT_H */
