/* SPDX-License-Identifier: Apache-2.0 */
/* Pre-packed B (driver/packed_b.c): the handle behind mips_packed_b. */
#ifndef MIPS_SRC_DRIVER_PACKED_B_H
#define MIPS_SRC_DRIVER_PACKED_B_H

#include <stdbool.h>
#include <stdint.h>

#include "mips/mips.h"
#include "driver/dtypes.h"
#include "kernels/contract.h"

/* The handle behind mips_packed_b: one tile's panels over the whole of k. */
struct mips_packed_b {
  uint64_t magic;         /* mips_packed_b_magic(type) while live, 0 once freed */
  mips_dtype type;
  int64_t k, n;
  const mips_tile *tile;  /* whose panel format this is; the calls run it */
  int64_t nr;             /* tile->nr() when packed */
  int64_t panel_stride;   /* packed elements from one panel to the next:
                           * mips_panel_elems(tile, k, nr) */
  void *panels;           /* ceil(n / nr) panels; NULL when k or n is 0 */
};

/* Packs a validated B (k, n >= 0; b points at element (0, 0)) into a new handle.
 * Returns MIPS_OK, MIPS_ERROR_OVERFLOW (size) or MIPS_ERROR_OUT_OF_MEMORY. */
int mips_packed_b_make(mips_dtype type, int64_t k, int64_t n, const void *b, ptrdiff_t s0,
                       ptrdiff_t s1, mips_packed_b **out);

/* Whether `packed` is a live handle of `type` made in this process for this core. */
bool mips_packed_b_is_live(const mips_packed_b *packed, mips_dtype type);

void mips_packed_b_release(mips_packed_b *packed);

#endif /* MIPS_SRC_DRIVER_PACKED_B_H */
