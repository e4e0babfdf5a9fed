/* SPDX-License-Identifier: Apache-2.0 */
/* The plan's one estimate out of line (plan.h): whether the tiles run a call cheaper
 * the other way round. */
#include "driver/plan.h"

/* Whether the oriented problem runs cheaper the other way round (C^T = B^T A^T): when C's
 * columns fill the vectors badly and its rows would fill them well (an NCHW convolution
 * on a 3x3 image: 128 channels x 9 pixels, 9 of 16 lanes at VLEN 256 in the second
 * vector). The tiles' estimated work per k step, times k, on each side, plus on the
 * other side C written across its layout (a strided access per element, twice when
 * accumulating) and, on either side, a B whose columns are not unit-stride transposed
 * into panels (measured: about 5/8 of an operation per element, 8 loads and a segment
 * store per 64 floats and then the panel's rows, plus a fixed cost). It must come out a
 * sixteenth cheaper. */
enum { TRANSPOSED_B_FIXED = 1024 };

/* The tiles' work on m x n x k: their vector work, or their scalar work where that is
 * larger: a load of A per row, k step and panel (two registers wide), about 3/2
 * instructions with the pointers' steps. Few columns make a tile scalar-bound: int8
 * 256 x 4 x 256 at VLEN 256 issued 94 031 scalar instructions against a vector cost of
 * 82 986 (and 72 112 the other way round). */
static int64_t tiles_cost(const mips_tile *const *tiles, size_t count, int64_t m, int64_t n,
                          int64_t k, int64_t lanes) {
  const int64_t vector = k * mips_gemm_estimated_cost(tiles, count, m, n);
  const int64_t scalar = 3 * k * m * ((n + 2 * lanes - 1) / (2 * lanes)) / 2;
  return vector > scalar ? vector : scalar;
}

__attribute__((noinline)) bool mips_other_orientation_costs_less(const mips_matmul_problem *p,
                                                                 mips_dtype type,
                                                                 const mips_kernel_set *set) {
  const int64_t m = p->m, n = p->n, k = p->k;
  /* Only where C's columns leave at least a quarter of the lanes they take empty, and
   * the call is large enough for the estimate's own cost and error (both estimates cost
   * about 400 instructions); not so large that the products below could overflow. */
  if (set->vector_bits == NULL || m <= n || m > (1 << 18) || n > (1 << 18) ||
      k > (1 << 18) || m * n * k < (1 << 16))
    return false;
  const int64_t lanes = (int64_t)set->vector_bits() / 32;
  if (4 * n > 3 * ((n + lanes - 1) / lanes * lanes)) return false;
  const mips_tile *const *tiles = set->tiles[type];
  const size_t count = set->tile_count[type];
  const int64_t as_is = tiles_cost(tiles, count, m, n, k, lanes) +
                        (mips_magnitude(p->b_stride1) != 1 ? TRANSPOSED_B_FIXED + k * n * 5 / 8 : 0);
  const int64_t other = tiles_cost(tiles, count, n, m, k, lanes) +
                        (mips_magnitude(p->a_stride0) != 1 ? TRANSPOSED_B_FIXED + k * m * 5 / 8 : 0) +
                        m * n * (p->accumulate ? 2 : 1);
  return other * 16 < as_is * 15;
}
