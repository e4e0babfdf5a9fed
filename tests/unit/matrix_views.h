/* SPDX-License-Identifier: Apache-2.0 */
/* Test-side matrix views: storage buffers laid out in the ways the ABI allows, and an
 * independent reference product computed from logical (i, j) accessors. */
#ifndef MIPS_TESTS_MATRIX_VIEWS_H
#define MIPS_TESTS_MATRIX_VIEWS_H

#include <stdint.h>
#include <stdlib.h>

typedef enum layout {
  ROW_MAJOR,        /* s0 = cols + pad, s1 = 1 */
  COL_MAJOR,        /* s0 = 1, s1 = rows + pad */
  ROW_MAJOR_FLIPPED /* negative strides on both dims: row-major read backwards */,
  COL_MAJOR_SPACED, /* s0 = 2, s1 = 2 * rows + pad: every other element */
  INTERLEAVED,      /* s0 = 3, s1 = 2 * 3 ... : both strides > 1, coprime */
  BROADCAST_ROWS,   /* s0 = 0: every row is the same (inputs only) */
  BROADCAST_COLS,   /* s1 = 0: every column is the same (inputs only) */
  LAYOUT_COUNT
} layout;

static const char *const layout_names[LAYOUT_COUNT] = {
    "row", "col", "row-flipped", "col-spaced", "interleaved", "bcast-rows", "bcast-cols"};

typedef struct view {
  int64_t offset, stride0, stride1;
  int64_t size; /* elements the storage needs */
} view;

/* A view of rows x cols (both >= 1) with `front` unused elements before the lowest
 * index and `pad` elements of padding per leading dimension. */
static view make_view(layout l, int64_t rows, int64_t cols, int64_t front, int64_t pad) {
  view v = {0, 0, 0, 0};
  switch (l) {
    case ROW_MAJOR: v.stride0 = cols + pad, v.stride1 = 1; break;
    case COL_MAJOR: v.stride0 = 1, v.stride1 = rows + pad; break;
    case ROW_MAJOR_FLIPPED: v.stride0 = -(cols + pad), v.stride1 = -1; break;
    case COL_MAJOR_SPACED: v.stride0 = 2, v.stride1 = 2 * rows + pad; break;
    /* i*3 + j*s1 with s1 = 3*rows+1 is injective and leaves gaps. */
    case INTERLEAVED: v.stride0 = 3, v.stride1 = 3 * rows + 1; break;
    case BROADCAST_ROWS: v.stride0 = 0, v.stride1 = 1; break;
    case BROADCAST_COLS: v.stride0 = 1, v.stride1 = 0; break;
    default: abort();
  }
  int64_t lowest = 0, highest = 0;
  const int64_t s0 = (rows - 1) * v.stride0, s1 = (cols - 1) * v.stride1;
  if (s0 < 0) lowest += s0; else highest += s0;
  if (s1 < 0) lowest += s1; else highest += s1;
  v.offset = front - lowest;
  v.size = front + (highest - lowest) + 1 + pad;
  return v;
}

static int64_t view_index(const view *v, int64_t i, int64_t j) {
  return v->offset + i * v->stride0 + j * v->stride1;
}

/* Deterministic xorshift, so every runner (host or qemu) sees the same data. */
static uint64_t test_rng_state = 0x9E3779B97F4A7C15ull;
static uint64_t test_rng_next(void) {
  uint64_t x = test_rng_state;
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  return test_rng_state = x;
}
/* Uniform integer in [lo, hi]. */
static int64_t test_rng_int(int64_t lo, int64_t hi) {
  return lo + (int64_t)(test_rng_next() % (uint64_t)(hi - lo + 1));
}

#endif /* MIPS_TESTS_MATRIX_VIEWS_H */
