/* SPDX-License-Identifier: Apache-2.0 */
/* Internal contract between the three layers of the library. Nothing here is exported.
 *
 *   api.c            checks arguments, handles empty problems, orients the problem
 *   threading/       splits big problems into blocks of C, one per thread
 *   driver/          blocks the problem, packs panels, loops over register tiles
 *   kernels/<set>/   tile functions: one register tile of C over a run of k, pure
 *
 * The kernel set is chosen once per process (dispatch.c); the driver picks a tile from
 * the set's ordered table for each call. */
#ifndef MIPS_SRC_MIPS_INTERNAL_H
#define MIPS_SRC_MIPS_INTERNAL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mips/mips.h"

/* A validated, non-empty problem: m, n, k >= 1 and every element index in range.
 * a, b and c point at element (0, 0); strides are in elements, and the stride of a
 * dimension of extent 1 is 0. Without accumulate the kernel must not read C. The API
 * layer orients it so that, when m > 1 and n > 1, |c_stride1| <= |c_stride0| (tiles
 * vectorise along C's columns), except where the tiles' cost estimate finds the other
 * orientation cheaper (other_orientation_costs_less): every kernel takes any C strides. */
typedef struct mips_matmul_problem {
  int64_t m, n, k;
  const void *a;
  ptrdiff_t a_stride0, a_stride1;
  const void *b;
  ptrdiff_t b_stride0, b_stride1;
  void *c;
  ptrdiff_t c_stride0, c_stride1;
  /* The call's flags, decoded once by the API layer (the thread cap is spent there). */
  bool accumulate; /* MIPS_MATMUL_ACCUMULATE: add to C; else C is never read */
  bool any_order;  /* MIPS_MATMUL_ANY_ORDER: f32 sums in any order */
  /* 0, or B is pre-packed (mips_packed_b) in the format of the tile the call must use:
   * b points at panel 0, each panel is mips_panel_elems(tile, k, nr) packed elements
   * ((l, j) -> l * nr + j unless the tile has a k_group: then its own layout, in which k
   * block pc, a multiple of the group, starts at pc * nr), and panel p starts
   * p * b_panel_stride packed elements after panel 0; b's strides are unused. */
  int64_t b_panel_stride;
} mips_matmul_problem;

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

/* The element types of a call: f32 x f32 -> f32 and int8 x int8 -> int32. Kernel sets
 * and the per-type descriptor are indexed by it. */
typedef enum mips_dtype { MIPS_DTYPE_F32, MIPS_DTYPE_I8I32, MIPS_DTYPE_COUNT } mips_dtype;

/* One implementation of every operation, selected as a whole. Tile tables start with
 * the fallback; the driver picks by estimated cost among them. */
typedef struct mips_kernel_set {
  const char *name;
  const mips_tile *const *tiles[MIPS_DTYPE_COUNT];
  size_t tile_count[MIPS_DTYPE_COUNT];
  unsigned (*vector_bits)(void); /* NULL, or the vector register width (VLEN) */
  /* NULL: none, the tiles run matrix-vector products too. f32's runs only with
   * MIPS_MATMUL_ANY_ORDER. */
  mips_row_dot_fn row_dot[MIPS_DTYPE_COUNT];
  /* Below this k, or with more rows than row_dot_max_rows (per element type: each row
   * reads all of B again), the tiles are faster. */
  int64_t row_dot_min_k;
  int64_t row_dot_max_rows[MIPS_DTYPE_COUNT];
  /* NULL, or dot blocks for f32 (with MIPS_MATMUL_ANY_ORDER) when C has at most
   * dot_block_max_cols columns and more rows than f32's row_dot_max_rows. */
  mips_dot_block_fn f32_dot_block;
  int64_t dot_block_max_cols;
  /* NULL, or the dot blocks' copy of a B whose columns are not unit-stride. */
  mips_split_columns_fn f32_split_columns;
  /* NULL, or column blocks for f32 in ascending k, for C with up to
   * column_block_max_cols() columns (0: none on this CPU). */
  mips_column_block_fn f32_column_block;
  int64_t (*column_block_max_cols)(void);
  /* Whether they read B through any column stride (else unit-stride rows, or one
   * column): few tokens against weights stored n x k, turned round. */
  bool column_block_strided_b;
  /* NULL, or the tile the smallest calls run directly (the tile mips_gemm_run would run
   * for them: the first table entry's narrow variant), one function per row count from
   * 1 to 15 ([0] unused), each for up to MIPS_TINY_MAX_COLS columns (what the tile has at
   * the set's smallest VLEN: RVV's V extension has VLEN >= 128, 4 floats in a register)
   * and k below row_dot_min_k. They take their arguments in registers: building a
   * mips_tile_args in memory and reading it back cost these calls a tenth of their
   * instructions. */
  const mips_tiny_fn *tiny_by_rows[MIPS_DTYPE_COUNT];
} mips_kernel_set;
enum { MIPS_TINY_MAX_COLS = 4 };

extern const mips_kernel_set mips_kernels_scalar;
#if defined(MIPS_HAVE_RVV_KERNELS)
extern const mips_kernel_set mips_kernels_rvv;
#endif
#if defined(MIPS_HAVE_X86_KERNELS)
extern const mips_kernel_set mips_kernels_x86;
#endif

/* CPU features that tiles of a kernel set need beyond the set's own baseline. */
typedef enum mips_cpu_feature {
  MIPS_CPU_X86_AVX2_FMA = 1u << 0,
  MIPS_CPU_X86_AVX512F = 1u << 1,
  MIPS_CPU_X86_AVX512BW_VL = 1u << 2,
  MIPS_CPU_X86_AVX512_VNNI = 1u << 3,
} mips_cpu_feature;

/* Whether this CPU has every feature in `features` (a mips_cpu_feature mask). Features
 * are detected once per process, in dispatch.c, the only place that asks the CPU. */
bool mips_cpu_has(unsigned features);
/* For tests only: from now on report at most the features in `mask` (~0u: all), so that
 * the paths for older CPUs run on this one. */
void mips_cpu_features_limit(unsigned mask);

/* The kernel set for this process, chosen once (thread-safe) on first call. */
const mips_kernel_set *mips_selected_kernels(void);
/* The same once chosen, else NULL: read without a call on the smallest calls' path. */
extern _Atomic(const mips_kernel_set *) mips_selected_kernel_set;

/* What the layers need to know of an element type, in one place (driver/dtypes.c). */
typedef struct mips_dtype_info {
  size_t input_size;  /* bytes of an element of A and B */
  size_t output_size; /* bytes of an element of C */
  /* The default A panel packer: A(i, l) -> panel[l * mr + i], rows past `rows` zero. */
  void (*pack_a)(void *dst, const void *a, ptrdiff_t s0, ptrdiff_t s1, int64_t rows,
                 int64_t kc, int mr);
  /* Writes zero to every element of an m x n C (k = 0 without accumulation). */
  void (*zero_fill)(void *c, ptrdiff_t s0, ptrdiff_t s1, int64_t m, int64_t n);
} mips_dtype_info;

void mips_pack_a_f32(void *dst, const void *a, ptrdiff_t s0, ptrdiff_t s1, int64_t rows,
                     int64_t kc, int mr);
void mips_pack_a_i8(void *dst, const void *a, ptrdiff_t s0, ptrdiff_t s1, int64_t rows,
                    int64_t kc, int mr);
void mips_zero_fill_f32(void *c, ptrdiff_t s0, ptrdiff_t s1, int64_t m, int64_t n);
void mips_zero_fill_i32(void *c, ptrdiff_t s0, ptrdiff_t s1, int64_t m, int64_t n);

/* In every translation unit, so that what a type known at compile time (the entry
 * points') needs is a constant, not a load. */
static const mips_dtype_info mips_dtypes[MIPS_DTYPE_COUNT] = {
    [MIPS_DTYPE_F32] = {.input_size = sizeof(float), .output_size = sizeof(float),
                        .pack_a = mips_pack_a_f32, .zero_fill = mips_zero_fill_f32},
    [MIPS_DTYPE_I8I32] = {.input_size = sizeof(int8_t), .output_size = sizeof(int32_t),
                          .pack_a = mips_pack_a_i8, .zero_fill = mips_zero_fill_i32},
};

/* The element sizes where the type is known only at run time (the driver): the table's,
 * as a select instead of an indexed load (measured: 8 instructions per 16^3 call). */
static inline size_t mips_input_size(mips_dtype type) {
  return type == MIPS_DTYPE_F32 ? mips_dtypes[MIPS_DTYPE_F32].input_size
                                : mips_dtypes[MIPS_DTYPE_I8I32].input_size;
}
static inline size_t mips_output_size(mips_dtype type) {
  return type == MIPS_DTYPE_F32 ? mips_dtypes[MIPS_DTYPE_F32].output_size
                                : mips_dtypes[MIPS_DTYPE_I8I32].output_size;
}

/* Scalar gathers of a B panel of w <= nr columns (driver/gemm_pack.c):
 * (l, j) at b[l * s0 + j * s1] goes to out[l * nr + j]. */
void mips_gather_b_f32(float *restrict out, const float *b, ptrdiff_t s0, ptrdiff_t s1,
                       int64_t k, int64_t w, int64_t nr);
void mips_gather_b_i8_to_i16(int16_t *restrict out, const int8_t *b, ptrdiff_t s0,
                             ptrdiff_t s1, int64_t k, int64_t w, int64_t nr);

/*------------------------------------------------------------------------------------
 * Driver
 *----------------------------------------------------------------------------------*/

/* Runs a validated, oriented, non-empty problem with the tiles given. */
void mips_gemm_run(const mips_matmul_problem *p, mips_dtype type, const mips_tile *const *tiles,
                   size_t tile_count);

/* The estimated vector work of one k step of an m x n C on the table's cheapest tile, in
 * single-register operations (multiply-adds and loads of B, padding counted in full). */
int64_t mips_gemm_estimated_cost(const mips_tile *const *tiles, size_t count, int64_t m,
                                 int64_t n);

/* The table's cheapest available tile for an m x n C (the first is always available). */
const mips_tile *mips_gemm_choose_tile(const mips_tile *const *tiles, size_t count, int64_t m,
                                       int64_t n);

/* Runs the problem with exactly `tile`. */
void mips_gemm_run_with_tile(const mips_matmul_problem *p, mips_dtype type,
                             const mips_tile *tile);

/* Runs a validated, oriented problem (A's rows and B's columns unit-stride) as dot
 * products, one row of C at a time: each row reads all of B once, as a matrix-vector
 * product must. */
void mips_row_dots_run(const mips_matmul_problem *p, mips_dtype type, mips_row_dot_fn row_dot);

/* Runs a validated, oriented f32 problem (A's rows unit-stride, few columns) as dot blocks
 * of 4 x 4; B's columns are copied to be unit-stride first unless they are (by
 * split_columns where not NULL and it takes the layout). Returns false,
 * having done nothing, if that copy cannot be allocated. */
bool mips_dot_blocks_run(const mips_matmul_problem *p, mips_dot_block_fn dot_block,
                         mips_split_columns_fn split_columns);
/* The whole problem as column blocks (few columns, many rows). */
void mips_column_blocks_run(const mips_matmul_problem *p, mips_column_block_fn column_block);

/* Block sizes, for tests that reach every edge of the blocking with small problems. */
typedef struct mips_gemm_blocking {
  int64_t kc_max;        /* k per block, at most 256 */
  size_t b_block_bytes;  /* packed B per block (at least one panel is packed) */
  bool b_on_stack;       /* as if malloc failed: one panel at a time on the stack */
} mips_gemm_blocking;

void mips_gemm_run_blocked(const mips_matmul_problem *p, mips_dtype type, const mips_tile *tile,
                           const mips_gemm_blocking *blocking);

/*------------------------------------------------------------------------------------
 * Pre-packed B (driver/gemm_prepack.c)
 *----------------------------------------------------------------------------------*/

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

#endif /* MIPS_SRC_MIPS_INTERNAL_H */
