/* SPDX-License-Identifier: Apache-2.0 */
/* The argument checks, in the order abi/ABI.md gives them: the common cases decided
 * inline, cheaply; the exact checks out of line, in checks.c. */
#ifndef MIPS_SRC_API_CHECKS_H
#define MIPS_SRC_API_CHECKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mips/mips.h"
#include "api/flags.h"
#include "driver/driver.h"

/* One matrix operand as passed across the ABI. */
typedef struct mips_operand {
  const void *base;
  int64_t offset, stride0, stride1;
  int64_t rows, cols; /* extent along stride0 and stride1 */
  /* Batched calls: batch_count matrices, one every batch_stride elements (0 or 1: one). */
  int64_t batch_count, batch_stride;
} mips_operand;

/* Checks that every element index of `op` (rows, cols >= 1), its byte offset, and the
 * byte distance each dimension spans fit in int64_t and ptrdiff_t. The extreme indices
 * are offset plus the negative, respectively the positive, parts of the spans
 * (rows-1)*stride0 and (cols-1)*stride1. Kernels step from element (0, 0) by at most
 * one span per dimension, so none of their address arithmetic can overflow. */
bool mips_operand_indices_fit(const mips_operand *op, size_t elem_size);

/* True if two distinct (i, j) in [0,rows) x [0,cols) reach the same element, i.e. if
 * di*stride0 + dj*stride1 = 0 for some (di, dj) != 0 with |di| < rows, |dj| < cols.
 * With both strides nonzero, the smallest such pair is (|s1|/g, |s0|/g), g = gcd. */
bool mips_operand_self_overlaps(const mips_operand *op);

/* The same over (batch entry, i, j) of a batched C: two distinct triples that reach one
 * element. Decides the equation exactly, in time linear in the smallest extent. */
bool mips_operand_batch_self_overlaps(const mips_operand *op);

/* A dimension of extent 1 never steps, so its stride can be anything the caller
 * liked; make it 0 so that kernels never scale it. */
static inline void drop_unit_extent_strides(mips_operand *op) {
  if (op->rows == 1) op->stride0 = 0;
  if (op->cols == 1) op->stride1 = 0;
}

/* The common case, cheaply: when every extent is below 2^24 and every offset and stride
 * in [-2^23, 2^23), no index exceeds 2^24 + 2 * 2^24 * 2^23 < 2^49 in magnitude and no
 * byte offset 2^52, so nothing can overflow and the exact checks can be skipped.
 * x + 2^23 maps [-2^23, 2^23) onto [0, 2^24): one add per value. */
static inline __attribute__((always_inline)) bool all_small(int64_t m, int64_t n, int64_t k, const mips_operand *a,
                      const mips_operand *b, const mips_operand *c) {
  if (sizeof(ptrdiff_t) < sizeof(int64_t)) return false; /* the bound needs 64-bit bytes */
  const uint64_t bias = 1u << 23;
#define MIPS_BIASED(x) ((uint64_t)(x) + bias)
  const uint64_t bits = (uint64_t)m | (uint64_t)n | (uint64_t)k | MIPS_BIASED(a->offset) |
                        MIPS_BIASED(a->stride0) | MIPS_BIASED(a->stride1) |
                        MIPS_BIASED(b->offset) | MIPS_BIASED(b->stride0) |
                        MIPS_BIASED(b->stride1) | MIPS_BIASED(c->offset) |
                        MIPS_BIASED(c->stride0) | MIPS_BIASED(c->stride1);
#undef MIPS_BIASED
  return bits >> 24 == 0;
}

/* The common case of distinct C elements: one stride is +-1 and the other at least the
 * extent of that dimension (a row- or column-major block). */
static inline bool plainly_distinct(const mips_operand *op) {
  const uint64_t s0 = mips_magnitude(op->stride0), s1 = mips_magnitude(op->stride1);
  return (s1 == 1 && s0 >= (uint64_t)op->cols) || (s0 == 1 && s1 >= (uint64_t)op->rows);
}

/* Checks, in the documented order, everything about a call except the work itself.
 * `a` and `b` are checked only when read, `c` only when written. */
static inline __attribute__((always_inline)) int validate(
    int64_t m, int64_t n, int64_t k, const mips_operand *a, const mips_operand *b,
                    const mips_operand *c, mips_call_flags flags, size_t ab_size, size_t c_size) {
  if (m < 0 || n < 0 || k < 0 || !mips_flags_known(flags)) return MIPS_ERROR_INVALID_ARGUMENT;
  const bool writes_c = m > 0 && n > 0 && (k > 0 || !mips_flags_accumulate(flags));
  const bool reads_ab = m > 0 && n > 0 && k > 0;
  if ((reads_ab && (a->base == NULL || b->base == NULL)) || (writes_c && c->base == NULL))
    return MIPS_ERROR_NULL_POINTER;
  if (!all_small(m, n, k, a, b, c) &&
      ((reads_ab && (!mips_operand_indices_fit(a, ab_size) || !mips_operand_indices_fit(b, ab_size))) ||
       (writes_c && !mips_operand_indices_fit(c, c_size))))
    return MIPS_ERROR_OVERFLOW;
  if (writes_c && !plainly_distinct(c) && mips_operand_self_overlaps(c)) return MIPS_ERROR_OVERLAP;
  return MIPS_OK;
}

#endif /* MIPS_SRC_API_CHECKS_H */
