/* SPDX-License-Identifier: Apache-2.0 */
/* The kernel contract: what each kind of kernel takes and promises. Every kernel set
 * implements these function types; kernels are pure (no globals, no allocation, no
 * feature detection). */
#ifndef MIPS_SRC_KERNELS_CONTRACT_H
#define MIPS_SRC_KERNELS_CONTRACT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*------------------------------------------------------------------------------------
 * Tiles
 *----------------------------------------------------------------------------------*/

/* One call of a tile function: C[rows x cols] (+)= A[rows x k] * B[k x cols].
 *   A(i, l) = a[i * a_rowstride + l * a_kstride], where one of the two strides is 1
 *             (or rows is 1): a packed panel (1, mr when the tile needs_packing, else
 *             1, rows), a column-major A read in place (1, lda), or a row-major A read
 *             in place (lda, 1). Rows past `rows` are never read unless the tile
 *             needs_packing (then A is a zero-padded panel of mr rows). A tile with
 *             its own pack_a reads its own panel layout; the strides mean nothing to it.
 *   B(l, j) = b[l * b_kstride + j * b_colstride]. When b_packed, b is a panel in the
 *             tile's packed element type (see mips_tile.pack_b) and b_colstride is 1;
 *             otherwise it is the caller's matrix in the input element type, and
 *             b_colstride is 1 unless rows is 1.
 *   C(i, j) = c[i * c_stride0 + j * c_stride1]. Without accumulate C is never read.
 * 1 <= rows <= mr (any rows >= 1 for mips_tile.run_blocks), 1 <= cols <= nr, k >= 1. */
typedef struct mips_tile_args {
  const void *a;
  ptrdiff_t a_rowstride, a_kstride;
  const void *b;
  ptrdiff_t b_kstride, b_colstride;
  void *c;
  ptrdiff_t c_stride0, c_stride1;
  int64_t rows, cols, k;
  bool accumulate;
  bool b_packed;
} mips_tile_args;

/* Tiles are pure: no globals, no allocation, no feature detection. */
typedef void (*mips_tile_fn)(const mips_tile_args *args);

/* One tile for the smallest calls, its arguments in registers (8: no stack arguments, so
 * the entry point may jump to it): a row-major-like C (column stride 1), B's rows
 * unit-stride and unpacked; shape = cols | k << 8 | accumulate << 16. Returns MIPS_OK. */
typedef int (*mips_tiny_fn)(const void *a, ptrdiff_t a_rowstride, ptrdiff_t a_kstride,
                            const void *b, ptrdiff_t b_kstride, void *c, ptrdiff_t c_stride0,
                            uint64_t shape);

/* Packs B[k x cols] (element (l, j) at b[l * b_stride0 + j * b_stride1]) into
 * ceil(cols / nr) panels of k x nr packed elements, panel p at dst + p * k * nr elements,
 * (l, j) at l * nr + j (a tile with a k_group g: panels of mips_panel_elems, k padded
 * with zeros, the layout its own). Columns past `cols` in the last panel are zero when the tile
 * needs_packing (its loads are nr wide); other tiles never read them, and their packers
 * leave them unwritten. */
typedef void (*mips_pack_b_fn)(void *dst, const void *b, ptrdiff_t b_stride0,
                               ptrdiff_t b_stride1, int64_t k, int64_t cols, int64_t nr);

/* Packs A[rows x kc] (element (i, l) at a[i * s0 + l * s1]) into a panel of mr rows in
 * the tile's own layout, zero-padded (in the tile's terms) to mr rows and to kc rounded
 * up to the tile's k_group. */
typedef void (*mips_pack_a_fn)(void *dst, const void *a, ptrdiff_t s0, ptrdiff_t s1,
                               int64_t rows, int64_t kc, int mr);

/* Packs rows (1 <= rows <= mr) rows of a row-major A[rows x kc] (element (i, l) at
 * a[i * s0 + l], kc <= MIPS_KC_MAX) into a panel (i, l) -> l * stride + i, stride >= rows,
 * and returns the stride. */
typedef int64_t (*mips_pack_a_rows_fn)(void *dst, const void *a, ptrdiff_t s0, int64_t rows,
                                       int64_t kc);

typedef struct mips_tile {
  const char *name;         /* op, types, shape and ISA: "f32_15x2v_rvv" */
  int mr;                   /* rows of C per tile */
  int64_t (*nr)(void);      /* columns of C per tile (may depend on VLEN) */
  int cost_per_row;         /* relative cost of one row of one k step, for the choice */
  bool needs_packing;       /* A and B must always be packed and zero-padded to mr, nr */
  size_t packed_b_size;     /* bytes of one packed B element */
  mips_pack_b_fn pack_b;
  mips_tile_fn run;
  /* NULL, or run's own functions by row count (1 to mr; [0] unused): the driver calls
   * one directly where run would only switch on the rows. */
  const mips_tile_fn *by_rows;
  bool (*available)(void);  /* NULL: always; else a CPU check */
  /* NULL, or a tile with the same mr and packed B format that costs less for a panel of
   * at most narrow->nr() columns: the driver runs last, narrow panels with it. */
  const struct mips_tile *narrow;
  /* NULL, or a tile of fewer rows (at most wide->mr) and wider panels, with the same
   * packed B format, for small problems read in place: half the panels, so half the
   * scalar loads of A, which bound a call with few rows. */
  const struct mips_tile *wide;
  int wide_rows; /* wide->mr, or 0 without a wide tile: one load to rule it out */
  /* 0 or 1, or the number of consecutive k a packed tile multiplies at once (4 for VNNI's
   * 4-byte dot products): its panels pad k to a multiple of it, and k blocks other than
   * the last are multiples of it. */
  int k_group;
  /* NULL: A panels are (i, l) -> l * mr + i; else the tile's own packer. */
  mips_pack_a_fn pack_a;
  /* NULL, or a packer the blocked driver uses for a row-major A (k adjacent) that the
   * tile would otherwise read in place with one pointer per row. */
  mips_pack_a_rows_fn pack_a_rows;
  /* NULL, or run for any number of rows read in place (one panel): tiles of mr rows
   * down A and C, in one call that saves and sets up once. Where run is bound by its
   * scalar work, a call per tile costs a call of 15 rows at VLEN 1024 a seventh more. */
  mips_tile_fn run_blocks;
} mips_tile;

/* Packed elements in one B panel of kc rows: k rounded up to the tile's k_group, times nr. */
static inline int64_t mips_panel_elems(const mips_tile *t, int64_t kc, int64_t nr) {
  const int64_t g = t->k_group > 1 ? t->k_group : 1;
  return (kc + g - 1) / g * g * nr;
}

/* The largest mr of any tile: the driver's A panel buffer is sized by it. */
#define MIPS_TILE_MR_MAX 16
/* k per block of the blocked driver: A panels stay in L1. */
#define MIPS_KC_MAX 256

/* Dot products for one row of C: C(0, j) (+)= sum over l of a[l] * b[j * b_colstride + l],
 * A's row and each of B's columns unit-stride. For f32 only when the caller allows any
 * order over k (MIPS_MATMUL_ANY_ORDER); integer sums are the same in any order. */
typedef struct mips_row_dot_args {
  const void *a;
  const void *b;
  ptrdiff_t b_colstride;
  void *c;
  ptrdiff_t c_stride;
  int64_t cols, k;
  bool accumulate;
} mips_row_dot_args;
typedef void (*mips_row_dot_fn)(const mips_row_dot_args *args);

/* Dot products for a block of at most 4 x 4 elements of C: C(i, j) (+)= sum over l of
 * a[i * a_rowstride + l] * b[j * b_colstride + l]. Rows of A share each load of a column
 * of B: what a C with few columns and many rows needs (a CNN's last stages). */
typedef struct mips_dot_block_args {
  const void *a;
  ptrdiff_t a_rowstride;
  const void *b;
  ptrdiff_t b_colstride;
  void *c;
  ptrdiff_t c_stride0, c_stride1;
  int64_t rows, cols, k;
  bool accumulate;
} mips_dot_block_args;
typedef void (*mips_dot_block_fn)(const mips_dot_block_args *args);
/* Copies B[k x n]'s columns (element (l, j) at b[l * s0 + j * s1]) to columns[j * k + l]
 * for the dot blocks, or returns false, having written nothing, for a layout it does not
 * take. */
typedef bool (*mips_split_columns_fn)(float *columns, const float *b, ptrdiff_t s0,
                                      ptrdiff_t s1, int64_t k, int64_t n);

/* Sums in ascending k for a block of at most 32 rows and 16 columns of C: C(i, j) (+)= sum
 * over l of a[i * a_rowstride + l] * b[l * b_stride0 + j * b_stride1], A's rows
 * unit-stride, and B's rows unit-stride (or one column) unless the kernel set says
 * otherwise. Vectors run along C's rows: what a C with few columns needs without
 * MIPS_MATMUL_ANY_ORDER. */
typedef struct mips_column_block_args {
  const void *a;
  ptrdiff_t a_rowstride;
  const void *b;
  ptrdiff_t b_stride0, b_stride1;
  void *c;
  ptrdiff_t c_stride0, c_stride1;
  int64_t rows, cols, k;
  bool accumulate;
} mips_column_block_args;
typedef void (*mips_column_block_fn)(const mips_column_block_args *args);
/* At most 16 columns; each kernel set says how many it takes (column_block_max_cols). */
enum { MIPS_COLUMN_BLOCK_ROWS = 32, MIPS_COLUMN_BLOCK_COLS = 16 };

#endif /* MIPS_SRC_KERNELS_CONTRACT_H */
