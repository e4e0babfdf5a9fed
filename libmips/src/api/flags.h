/* SPDX-License-Identifier: Apache-2.0 */
/* A call's flags: the one place that knows their bits. */
#ifndef MIPS_SRC_API_FLAGS_H
#define MIPS_SRC_API_FLAGS_H

#include <stdbool.h>
#include <stdint.h>

#include "mips/mips.h"
#include "threading/thread_count.h"

/* The thread cap's bits, from the public encoding alone (MIPS_MATMUL_MAX_THREADS(n)). */
#define MIPS_THREAD_CAP_MASK MIPS_MATMUL_MAX_THREADS(MIPS_MAX_THREADS)
#define MIPS_KNOWN_FLAGS (MIPS_MATMUL_ACCUMULATE | MIPS_MATMUL_ANY_ORDER | MIPS_THREAD_CAP_MASK)

/* The flags as they cross the ABI, read only through the functions below: bits, tested
 * where used. Decoded into a struct of fields up front, they cost f32 16x16x16 17
 * instructions more at VLEN 256 (values held in registers across the checks, and
 * spilled); a struct around the bits cost the smallest calls 4 (RISC-V passes it
 * zero-extended). */
typedef uint32_t mips_call_flags;
/* No bit outside MIPS_KNOWN_FLAGS (else the call is invalid). */
static inline bool mips_flags_known(mips_call_flags f) {
  return (f & ~(uint32_t)MIPS_KNOWN_FLAGS) == 0;
}
static inline bool mips_flags_accumulate(mips_call_flags f) {
  return (f & MIPS_MATMUL_ACCUMULATE) != 0;
}
static inline bool mips_flags_any_order(mips_call_flags f) {
  return (f & MIPS_MATMUL_ANY_ORDER) != 0;
}
/* No bit but the thread cap's (what mips_parallel_for accepts). */
static inline bool mips_flags_only_thread_cap(mips_call_flags f) {
  return (f & ~(uint32_t)MIPS_THREAD_CAP_MASK) == 0;
}
/* MIPS_MATMUL_MAX_THREADS(n)'s n; 0: none, the process default. */
static inline int mips_flags_thread_cap(mips_call_flags f) {
  return (int)((f & MIPS_THREAD_CAP_MASK) / MIPS_MATMUL_MAX_THREADS(1));
}
/* The same call capped at `threads` (a batch's entries, each on the thread that runs it). */
static inline mips_call_flags mips_flags_with_thread_cap(mips_call_flags f, int threads) {
  return (f & ~(uint32_t)MIPS_THREAD_CAP_MASK) | MIPS_MATMUL_MAX_THREADS(threads);
}

/* The threads an m x n x k call may have (thread_count.h), small calls decided inline. */
static inline __attribute__((always_inline)) int mips_call_threads(int64_t m, int64_t n,
                                                                   int64_t k, mips_call_flags f) {
  return mips_may_split(m, n, k) ? mips_threads_for_problem(m, n, k, mips_flags_thread_cap(f))
                                 : 1;
}

#endif /* MIPS_SRC_API_FLAGS_H */
