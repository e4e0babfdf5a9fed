/* SPDX-License-Identifier: Apache-2.0 */
/* The status abi/ABI.md prescribes for a matmul call, derived from the contract's
 * table with 128-bit arithmetic. It shares no code with libmips/src/api/checks.c on purpose:
 * the fuzzers compare the two. */
#ifndef MIPS_TESTS_FUZZ_EXPECTED_STATUS_H
#define MIPS_TESTS_FUZZ_EXPECTED_STATUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mips/mips.h"

typedef __int128 wide;

typedef struct model_view {
  bool null;
  int64_t offset, stride0, stride1;
} model_view;

typedef struct model_call {
  int64_t m, n, k;
  model_view a, b, c;
  uint32_t flags;
  size_t in_size, out_size; /* bytes per element of A and B, and of C */
} model_call;

/* The flag bits this library version defines: 1.1 added the thread cap, 1.2 any order. */
#define MODEL_KNOWN_FLAGS \
  (MIPS_MATMUL_ACCUMULATE | MIPS_MATMUL_ANY_ORDER | MIPS_MATMUL_MAX_THREADS(255))

/* A and B are read only when every dimension is positive. */
static inline bool model_reads_inputs(const model_call *call) {
  return call->m > 0 && call->n > 0 && call->k > 0;
}

/* C is written unless it is empty or the call accumulates nothing (k = 0). */
static inline bool model_writes_c(const model_call *call) {
  return call->m > 0 && call->n > 0 && (call->k > 0 || !(call->flags & MIPS_MATMUL_ACCUMULATE));
}

static inline bool wide_fits_ptrdiff(wide v) { return v >= PTRDIFF_MIN && v <= PTRDIFF_MAX; }

/* Lowest and highest element index of a rows x cols view (rows, cols >= 1), exact. */
static inline void model_extent(const model_view *v, int64_t rows, int64_t cols, wide *lo, wide *hi) {
  const wide span0 = (wide)(rows - 1) * v->stride0, span1 = (wide)(cols - 1) * v->stride1;
  *lo = (wide)v->offset + (span0 < 0 ? span0 : 0) + (span1 < 0 ? span1 : 0);
  *hi = (wide)v->offset + (span0 > 0 ? span0 : 0) + (span1 > 0 ? span1 : 0);
}

/* The OVERFLOW row of the table, for one accessed view. */
static inline bool model_view_overflows(const model_view *v, int64_t rows, int64_t cols, size_t elem) {
  wide lo, hi;
  model_extent(v, rows, cols, &lo, &hi);
  const wide span0 = (wide)(rows - 1) * v->stride0, span1 = (wide)(cols - 1) * v->stride1;
  const wide size = (wide)elem;
  return !wide_fits_ptrdiff(lo) || !wide_fits_ptrdiff(hi) || !wide_fits_ptrdiff(lo * size) ||
         !wide_fits_ptrdiff(hi * size) || !wide_fits_ptrdiff(span0 * size) ||
         !wide_fits_ptrdiff(span1 * size);
}

static inline unsigned __int128 wide_abs(wide v) { return v < 0 ? (unsigned __int128)-v : (unsigned __int128)v; }

static inline unsigned __int128 wide_gcd(unsigned __int128 x, unsigned __int128 y) {
  while (y != 0) {
    const unsigned __int128 r = x % y;
    x = y;
    y = r;
  }
  return x;
}

/* The OVERLAP row: some (di, dj) != 0 with |di| < m, |dj| < n and di*s0 + dj*s1 = 0.
 * The solutions of di*s0 = -dj*s1 are the multiples of (s1/g, -s0/g), g = gcd, so the
 * smallest one decides; a zero stride is a solution (1, 0) or (0, 1) by itself. */
static inline bool model_c_overlaps(const model_view *c, int64_t m, int64_t n) {
  const wide s0 = c->stride0, s1 = c->stride1;
  if (m > 1 && s0 == 0) return true;
  if (n > 1 && s1 == 0) return true;
  if (s0 == 0 || s1 == 0) return false;
  const unsigned __int128 g = wide_gcd(wide_abs(s0), wide_abs(s1));
  return wide_abs(s1) / g < (unsigned __int128)m && wide_abs(s0) / g < (unsigned __int128)n;
}

/* The first row of the table that the call fails, or MIPS_OK. */
static inline int model_expected_status(const model_call *call) {
  if (call->m < 0 || call->n < 0 || call->k < 0) return MIPS_ERROR_INVALID_ARGUMENT;
  if (call->flags & ~(uint32_t)MODEL_KNOWN_FLAGS) return MIPS_ERROR_INVALID_ARGUMENT;
  const bool reads = model_reads_inputs(call), writes = model_writes_c(call);
  if (reads && (call->a.null || call->b.null)) return MIPS_ERROR_NULL_POINTER;
  if (writes && call->c.null) return MIPS_ERROR_NULL_POINTER;
  if (reads && (model_view_overflows(&call->a, call->m, call->k, call->in_size) ||
                model_view_overflows(&call->b, call->k, call->n, call->in_size)))
    return MIPS_ERROR_OVERFLOW;
  if (writes && model_view_overflows(&call->c, call->m, call->n, call->out_size))
    return MIPS_ERROR_OVERFLOW;
  if (writes && model_c_overlaps(&call->c, call->m, call->n)) return MIPS_ERROR_OVERLAP;
  return MIPS_OK;
}

/* The same product through a pre-packed B (1.2): mips_pack_b_<type>(k, n, B) first, whose
 * failure is the result, then mips_matmul_packed_<type>(m, A, packed, C, flags), which
 * checks m and the flags, then A and C as the plain call does. (The packed size of the
 * cases that reach here is far below any overflow; memory never runs out.) */
static inline int model_expected_pack_status(const model_call *call) {
  if (call->k < 0 || call->n < 0) return MIPS_ERROR_INVALID_ARGUMENT;
  const bool packs = call->k > 0 && call->n > 0;
  if (packs && call->b.null) return MIPS_ERROR_NULL_POINTER;
  if (packs && model_view_overflows(&call->b, call->k, call->n, call->in_size))
    return MIPS_ERROR_OVERFLOW;
  return MIPS_OK;
}

static inline int model_expected_packed_status(const model_call *call) {
  const int pack_status = model_expected_pack_status(call);
  if (pack_status != MIPS_OK) return pack_status;
  model_call rest = *call;
  rest.b = (model_view){false, 0, 0, 0}; /* the handle: always valid from here */
  return model_expected_status(&rest);
}

#endif /* MIPS_TESTS_FUZZ_EXPECTED_STATUS_H */
