/* SPDX-License-Identifier: Apache-2.0 */
/* The exact argument checks, for calls the inline checks of checks.h cannot clear. */
#include "api/checks.h"

/* Checks that every element index of `op` (rows, cols >= 1), its byte offset, and the
 * byte distance each dimension spans fit in int64_t and ptrdiff_t. The extreme indices
 * are offset plus the negative, respectively the positive, parts of the spans
 * (rows-1)*stride0 and (cols-1)*stride1. Kernels step from element (0, 0) by at most
 * one span per dimension, so none of their address arithmetic can overflow. */
bool mips_operand_indices_fit(const mips_operand *op, size_t elem_size) {
  const ptrdiff_t size = (ptrdiff_t)elem_size;
  int64_t lowest = op->offset, highest = op->offset;
  const int64_t extents[3] = {op->rows - 1, op->cols - 1,
                              op->batch_count > 1 ? op->batch_count - 1 : 0};
  const int64_t strides[3] = {op->stride0, op->stride1, op->batch_stride};
  for (int d = 0; d < 3; ++d) {
    int64_t span;
    ptrdiff_t span_index, span_bytes;
    if (__builtin_mul_overflow(extents[d], strides[d], &span) ||
        __builtin_add_overflow(span, 0, &span_index) ||
        __builtin_mul_overflow(span_index, size, &span_bytes))
      return false;
    if (__builtin_add_overflow(span < 0 ? lowest : highest, span, span < 0 ? &lowest : &highest))
      return false;
  }
  ptrdiff_t lowest_index, highest_index, byte_offset;
  if (__builtin_add_overflow(lowest, 0, &lowest_index) ||
      __builtin_add_overflow(highest, 0, &highest_index))
    return false;
  return !__builtin_mul_overflow(lowest_index, size, &byte_offset) &&
         !__builtin_mul_overflow(highest_index, size, &byte_offset);
}

static uint64_t gcd_u64(uint64_t x, uint64_t y) {
  while (y != 0) {
    const uint64_t t = x % y;
    x = y;
    y = t;
  }
  return x;
}

/* True if two distinct (i, j) in [0,rows) x [0,cols) reach the same element, i.e. if
 * di*stride0 + dj*stride1 = 0 for some (di, dj) != 0 with |di| < rows, |dj| < cols.
 * With both strides nonzero, the smallest such pair is (|s1|/g, |s0|/g), g = gcd. */
bool mips_operand_self_overlaps(const mips_operand *op) {
  const uint64_t s0 = mips_magnitude(op->stride0), s1 = mips_magnitude(op->stride1);
  const uint64_t max_di = (uint64_t)op->rows - 1, max_dj = (uint64_t)op->cols - 1;
  if ((s0 == 0 && max_di > 0) || (s1 == 0 && max_dj > 0)) return true;
  if (s0 == 0 || s1 == 0) return false; /* the zero stride's dimension has extent 1 */
  const uint64_t g = gcd_u64(s0, s1);
  return s1 / g <= max_di && s0 / g <= max_dj;
}


/*------------------------------------------------------------------------------------
 * Batched C: does x*s_x + y*s_y + z*s_z = 0 have a solution with (x, y, z) != 0 and
 * |x| < e_x, |y| < e_y, |z| < e_z? The indices were checked to fit int64_t, so every
 * partial sum below fits __int128.
 *----------------------------------------------------------------------------------*/
__extension__ typedef __int128 wide; /* GCC and clang: 64 x 64-bit products exactly */

static wide floor_div(wide x, wide y) { /* y > 0 */
  const wide q = x / y;
  return q * y > x ? q - 1 : q;
}
static wide ceil_div_wide(wide x, wide y) { return -floor_div(-x, y); } /* y > 0 */
static wide magnitude_wide(wide x) { return x < 0 ? -x : x; }

/* Narrows [*lo, *hi] to the u with lo_v <= base + step * u <= hi_v (step != 0). */
static void clamp_steps(wide base, wide step, wide lo_v, wide hi_v, wide *lo, wide *hi) {
  if (step < 0) {
    step = -step, base = -base;
    const wide t = lo_v;
    lo_v = -hi_v, hi_v = -t;
  }
  const wide from = ceil_div_wide(lo_v - base, step), to = floor_div(hi_v - base, step);
  if (from > *lo) *lo = from;
  if (to < *hi) *hi = to;
}

/* x*a + y*b = g = gcd(|a|, |b|) for a, b != 0 (extended Euclid on the magnitudes). */
static wide extended_gcd(wide a, wide b, wide *x, wide *y) {
  const wide sign_a = a < 0 ? -1 : 1, sign_b = b < 0 ? -1 : 1;
  wide r0 = a * sign_a, r1 = b * sign_b, x0 = 1, x1 = 0, y0 = 0, y1 = 1;
  while (r1 != 0) {
    const wide q = r0 / r1;
    wide t = r0 - q * r1;
    r0 = r1, r1 = t;
    t = x0 - q * x1, x0 = x1, x1 = t;
    t = y0 - q * y1, y0 = y1, y1 = t;
  }
  *x = x0 * sign_a, *y = y0 * sign_b;
  return r0;
}

/* Whether y*sy + z*sz = t has a solution with |y| < ey, |z| < ez (sy, sz != 0). */
static bool pair_solves(wide sy, wide sz, wide ey, wide ez, wide t) {
  wide y0, z0;
  const wide g = extended_gcd(sy, sz, &y0, &z0);
  if (t % g != 0) return false;
  const wide period = (sz < 0 ? -sz : sz) / g; /* y's solutions are y_base + period * u */
  const wide y_base = ((y0 % period) * ((t / g) % period) % period + period) % period;
  const wide z_base = (t - y_base * sy) / sz;
  const wide z_step = -(period * sy) / sz; /* exact: sz / g divides period * sz */
  wide lo = -((wide)1 << 100), hi = (wide)1 << 100;
  clamp_steps(y_base, period, -(ey - 1), ey - 1, &lo, &hi);
  clamp_steps(z_base, z_step, -(ez - 1), ez - 1, &lo, &hi);
  return lo <= hi;
}

bool mips_operand_batch_self_overlaps(const mips_operand *op) {
  wide e[3] = {op->batch_count, op->rows, op->cols};
  wide s[3] = {op->batch_stride, op->stride0, op->stride1};
  /* A zero stride over an extent above 1 repeats an element; extents of 1 never step. */
  int dims = 0;
  for (int d = 0; d < 3; ++d) {
    if (e[d] <= 1) continue;
    if (s[d] == 0) return true;
    e[dims] = e[d], s[dims] = s[d], ++dims;
  }
  if (dims < 3) {
    const mips_operand flat = {.rows = dims > 0 ? (int64_t)e[0] : 1, .cols = dims > 1 ? (int64_t)e[1] : 1,
                               .stride0 = dims > 0 ? (int64_t)s[0] : 0,
                               .stride1 = dims > 1 ? (int64_t)s[1] : 0};
    return mips_operand_self_overlaps(&flat);
  }
  /* The usual layouts nest: in order of stride magnitude, each stride steps past every
   * element the smaller ones reach, so no difference of indices sums to zero (its
   * largest nonzero term outweighs the rest). That settles them without the search
   * below, whose 128-bit divisions cost more than a small entry's product. */
  int order[3] = {0, 1, 2};
  for (int i = 1; i < 3; ++i)
    for (int j = i; j > 0 && magnitude_wide(s[order[j]]) < magnitude_wide(s[order[j - 1]]); --j) {
      const int t = order[j];
      order[j] = order[j - 1], order[j - 1] = t;
    }
  wide reach = 0; /* the largest offset the dimensions so far span */
  int nested = 0;
  while (nested < 3 && magnitude_wide(s[order[nested]]) > reach) {
    reach += (e[order[nested]] - 1) * magnitude_wide(s[order[nested]]);
    ++nested;
  }
  if (nested == 3) return false;
  /* x runs over the smallest extent; x = 0 is the plain two-dimensional case, and a
   * solution's negation is one too, so x > 0 covers the rest. */
  int x = 0;
  for (int d = 1; d < 3; ++d)
    if (e[d] < e[x]) x = d;
  const int y = x == 0 ? 1 : 0, z = x == 2 ? 1 : 2;
  const mips_operand pair = {.rows = (int64_t)e[y], .cols = (int64_t)e[z],
                             .stride0 = (int64_t)s[y], .stride1 = (int64_t)s[z]};
  if (mips_operand_self_overlaps(&pair)) return true;
  for (wide step = 1; step < e[x]; ++step)
    if (pair_solves(s[y], s[z], e[y], e[z], -step * s[x])) return true;
  return false;
}
