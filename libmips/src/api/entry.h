/* SPDX-License-Identifier: Apache-2.0 */
/* What the entry points share beyond the argument checks (checks.h): empty problems, the
 * run of a plan, and the run of a checked call (matmul.c). */
#ifndef MIPS_SRC_API_ENTRY_H
#define MIPS_SRC_API_ENTRY_H

#include <stdbool.h>

#include "api/checks.h"
#include "api/flags.h"
#include "dispatch.h"
#include "driver/driver.h"
#include "driver/packed_b.h"
#include "driver/plan.h"
#include "threading/threading.h"

/* What every entry point does with a validated call before any work: returns true when
 * the call is done (nothing to read or write; or k = 0, and C is set to zero); otherwise
 * drops C's unit-extent strides and gives the address of C's element (0, 0). */
static inline __attribute__((always_inline)) bool mips_finish_if_empty(
    int64_t m, int64_t n, int64_t k, mips_call_flags flags, mips_operand *c, size_t c_size,
    mips_dtype type, char **c00) {
  if (m == 0 || n == 0 || (k == 0 && mips_flags_accumulate(flags))) return true;
  drop_unit_extent_strides(c);
  *c00 = (char *)c->base + (ptrdiff_t)c->offset * (ptrdiff_t)c_size;
  if (k != 0) return false;
  mips_dtypes[type].zero_fill(*c00, c->stride0, c->stride1, m, n);
  return true;
}

/* Runs a plan for the oriented problem: the one place that chooses between the calling
 * thread and the decorator. False as mips_run_serial. */
static inline __attribute__((always_inline)) bool mips_run_plan(const mips_plan *plan,
                                                                const mips_matmul_problem *p,
                                                                mips_dtype type) {
  if (plan->threads == 1) return mips_run_serial(plan, p, type);
  mips_run_parallel(*plan, p, type);
  return true;
}

/* Runs a call (a batch entry) that validate() accepted, as the plain call would (matmul.c). */
void mips_matmul_run_checked(int64_t m, int64_t n, int64_t k, const mips_operand *a,
                             const mips_operand *b, const mips_operand *c, mips_call_flags flags,
                             size_t ab_size, size_t c_size, mips_dtype type);

#endif /* MIPS_SRC_API_ENTRY_H */
