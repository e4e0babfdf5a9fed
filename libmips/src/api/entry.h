/* SPDX-License-Identifier: Apache-2.0 */
/* What the entry points share beyond the argument checks (checks.h): the thread
 * decision's inline shortcut, empty problems, and the run of a checked call (matmul.c). */
#ifndef MIPS_SRC_API_ENTRY_H
#define MIPS_SRC_API_ENTRY_H

#include <stdbool.h>

#include "api/checks.h"
#include "dispatch.h"
#include "driver/driver.h"
#include "driver/packed_b.h"
#include "threading/threading.h"

/* Whether the problem has work for two threads: small calls stop here, inline, and
 * never pay for the thread-count lookup. */
static inline bool may_split(int64_t m, int64_t n, int64_t k) {
  /* All three under 128: the work is under 128^3, too little. One OR decides. */
  _Static_assert(2 * MIPS_PARALLEL_MIN_WORK >= (int64_t)128 * 128 * 128, "128^3 must not split");
  if (((uint64_t)m | (uint64_t)n | (uint64_t)k) < 128) return false;
  int64_t work;
  return __builtin_mul_overflow(m, n, &work) || __builtin_mul_overflow(work, k, &work) ||
         work >= 2 * MIPS_PARALLEL_MIN_WORK;
}

/* What every entry point does with a validated call before any work: returns true when
 * the call is done (nothing to read or write; or k = 0, and C is set to zero); otherwise
 * drops C's unit-extent strides and gives the address of C's element (0, 0). */
static inline __attribute__((always_inline)) bool mips_finish_if_empty(
    int64_t m, int64_t n, int64_t k, uint32_t flags, mips_operand *c, size_t c_size,
    mips_dtype type, char **c00) {
  if (m == 0 || n == 0 || (k == 0 && (flags & MIPS_MATMUL_ACCUMULATE))) return true;
  drop_unit_extent_strides(c);
  *c00 = (char *)c->base + (ptrdiff_t)c->offset * (ptrdiff_t)c_size;
  if (k != 0) return false;
  mips_dtypes[type].zero_fill(*c00, c->stride0, c->stride1, m, n);
  return true;
}

/* Runs a call (a batch entry) that validate() accepted, as the plain call would (matmul.c). */
void mips_matmul_run_checked(int64_t m, int64_t n, int64_t k, const mips_operand *a,
                             const mips_operand *b, const mips_operand *c, uint32_t flags,
                             size_t ab_size, size_t c_size, mips_dtype type);

#endif /* MIPS_SRC_API_ENTRY_H */
