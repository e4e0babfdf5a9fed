/* SPDX-License-Identifier: Apache-2.0 */
/* Pre-packed B (mips_packed_b): the panels the driver would pack on every call, packed
 * once over the whole of k. The format is the chosen tile's, so it depends on this
 * process's kernel set and, for RVV, its VLEN: the handle records the tile and its nr,
 * and a call refuses a handle whose nr is not what the running core gives (a handle
 * smuggled across processes), instead of reading a wrong layout. */
#include <stdlib.h>

#include "dispatch.h"
#include "driver/driver.h"
#include "driver/packed_b.h"

/* "mipsPKB" and the element type: a freed handle, or one of the other type, differs. */
static uint64_t packed_b_magic(mips_dtype type) {
  return UINT64_C(0x6d6970735042b000) | (uint64_t)type;
}

/* The tile for any number of rows: the one a tall problem (many rows) would choose, so
 * that calls with m from 1 to thousands all run the main tile and its narrow companion. */
enum { TALL_ROWS_HINT = 64 };

int mips_packed_b_make(mips_dtype type, int64_t k, int64_t n, const void *b, ptrdiff_t s0,
                       ptrdiff_t s1, mips_packed_b **out) {
  const mips_kernel_set *set = mips_selected_kernels();
  const mips_tile *const *tiles = set->tiles[type];
  const size_t count = set->tile_count[type];
  /* The choice weighs panel widths; a bounded n keeps its cost estimate in range (an
   * empty B may have any n). */
  const int64_t n_hint = n < 1 ? 1 : n > (1 << 20) ? (1 << 20) : n;
  const mips_tile *tile = mips_gemm_choose_tile(tiles, count, TALL_ROWS_HINT, n_hint);
  const int64_t nr = tile->nr();
  const int64_t panels = n / nr + (n % nr != 0);
  /* An empty B has no panels, whatever the other extent (k may be huge when n is 0). */
  int64_t panel_stride = 0, elems;
  size_t bytes = 0;
  if (k > 0 && n > 0 &&
      (k > INT64_MAX - 64 || (panel_stride = mips_panel_elems(tile, k, 1),
                              __builtin_mul_overflow(panel_stride, nr, &panel_stride)) ||
       __builtin_mul_overflow(panel_stride, panels, &elems) ||
       __builtin_mul_overflow((uint64_t)elems, (uint64_t)tile->packed_b_size, &bytes) ||
       bytes > (size_t)PTRDIFF_MAX))
    return MIPS_ERROR_OVERFLOW;
  mips_packed_b *packed = malloc(sizeof *packed);
  if (packed == NULL) return MIPS_ERROR_OUT_OF_MEMORY;
  *packed = (mips_packed_b){.magic = packed_b_magic(type), .type = type, .k = k, .n = n,
                            .tile = tile, .nr = nr, .panel_stride = panel_stride};
  if (bytes > 0) {
    /* Rounded up to the alignment, as aligned_alloc requires. */
    packed->panels = aligned_alloc(64, (bytes + 63) / 64 * 64);
    if (packed->panels == NULL) {
      free(packed);
      return MIPS_ERROR_OUT_OF_MEMORY;
    }
    tile->pack_b(packed->panels, b, s0, s1, k, n, nr);
  }
  *out = packed;
  return MIPS_OK;
}

bool mips_packed_b_is_live(const mips_packed_b *packed, mips_dtype type) {
  return packed->magic == packed_b_magic(type) && packed->nr == packed->tile->nr();
}

void mips_packed_b_release(mips_packed_b *packed) {
  if (packed == NULL) return;
  packed->magic = 0;
  free(packed->panels);
  free(packed);
}
