/* SPDX-License-Identifier: Apache-2.0 */
/* The generic driver between the API layer and the tiles: picks a tile, blocks the
 * problem over k (KC) and over C's columns (NC), packs B blocks and A panels, and loops
 * over register tiles. It is the same for every kernel set; only the tiles are
 * ISA-specific. Loop order (BLIS's):
 *
 *   for each KC block of k:
 *     for each NC block of C's columns:   pack B[kc x nc] into nr-wide panels (heap)
 *       for each mr-row block of C:       pack A[mr x kc] (stack), unless read in place
 *         for each nr panel:              tile
 *
 * Packing makes every tile read unit-stride memory whatever the caller's layout. Small
 * problems whose B rows are already unit-stride skip B packing: it would cost more than
 * the tile saves. If the heap buffer cannot be had, B is packed one panel at a time into
 * a stack buffer instead: slower, never an error. */
#include <stdlib.h>
#include <string.h>

#include "driver/driver.h"

enum {
  B_BLOCK_BYTES = 1 << 20,               /* packed B block: about an L2 */
  /* The fallback's one packed B panel: at least one row of any tile's panel at the
   * largest VLEN RVV allows (65536 bits: 32 KiB for f32_7x4v). */
  STACK_PANEL_BYTES = 32 * 1024,
  A_PANEL_ELEMS = MIPS_TILE_MR_MAX * MIPS_KC_MAX,
  /* A B this small (an L1's worth) is read in place by up to IN_PLACE_ROW_BLOCKS row
   * blocks rather than packed: a copy costs about what reading it once more costs. */
  IN_PLACE_B_BYTES = 64 * 1024,
  IN_PLACE_ROW_BLOCKS = 8,
  /* int8: a tile widens B on every read in place, a packed B once (measured: 64^3 and
   * 96^3 lose at VLEN 128-512 from 4 row blocks on, 32^3 gains with 3). */
  IN_PLACE_ROW_BLOCKS_I8 = 3,
  /* Fewer rows read in place step no more than three pointers: not worth a packing. */
  PACK_A_ROWS_MIN = 4,
};

static int64_t min64(int64_t x, int64_t y) { return x < y ? x : y; }
/* x >= 0, y >= 1; no overflow for any x (k may be huge when A and B broadcast). */
static int64_t ceil_div(int64_t x, int64_t y) { return x / y + (x % y != 0); }

/*------------------------------------------------------------------------------------
 * Tile choice
 *----------------------------------------------------------------------------------*/

/* The vector cost of one row-step across C's n columns: the tile's per panel, the last
 * (narrow) panel's on its narrow companion when it fits. */
static int64_t row_step_cost(const mips_tile *t, int64_t n) {
  const int64_t nr = t->nr();
  const int64_t last = n - (ceil_div(n, nr) - 1) * nr;
  const int64_t last_cost =
      t->narrow && last <= t->narrow->nr() ? t->narrow->cost_per_row : t->cost_per_row;
  return (n - last) / nr * t->cost_per_row + last_cost;
}

/* Per k step, a tile of r rows costs about (r + 1) row-steps: r multiply-adds and one
 * load of B. Padding counts in full, since the vector unit works on it anyway. */
static int64_t estimated_cost(const mips_tile *t, int64_t m, int64_t n) {
  const int64_t row_blocks = ceil_div(m, t->mr);
  const int64_t rows = t->needs_packing ? row_blocks * t->mr : m;
  return row_step_cost(t, n) * (rows + row_blocks);
}

/* The cheapest available tile, and its cost in *best_cost. */
static const mips_tile *cheapest_tile(const mips_tile *const *tiles, size_t count, int64_t m,
                                      int64_t n, int64_t *best_cost) {
  const mips_tile *best = NULL;
  for (size_t i = 0; i < count; ++i) {
    if (tiles[i]->available && !tiles[i]->available()) continue;
    const int64_t cost = estimated_cost(tiles[i], m, n);
    if (best == NULL || cost < *best_cost) best = tiles[i], *best_cost = cost;
  }
  return best;
}

int64_t mips_gemm_estimated_cost(const mips_tile *const *tiles, size_t count, int64_t m,
                                  int64_t n) {
  int64_t cost = 0;
  cheapest_tile(tiles, count, m, n, &cost);
  return cost;
}

/* Kept out of line so that the small-problem path saves no registers for it. */
__attribute__((noinline)) const mips_tile *mips_gemm_choose_tile(
    const mips_tile *const *tiles, size_t count, int64_t m, int64_t n) {
  int64_t cost = 0;
  return cheapest_tile(tiles, count, m, n, &cost);
}

/*------------------------------------------------------------------------------------
 * The loops
 *----------------------------------------------------------------------------------*/

/* Whether tiles reading a row-major A in place would be bound by their scalar work: per
 * k and row, each panel costs about 1.5 scalar instructions (a load of A and half a step
 * of the row's pointer) against its vector cost per row. A panel (one pointer) saves the
 * half step, and its packing costs about 1 % of a call's vector work (measured at i8
 * 96^3: VLEN 1024 scalar-bound 35 012 -> 27 612, VLEN 128 vector-bound +1 %). */
static bool scalar_bound_in_place(const mips_tile *tile, int64_t n) {
  return 3 * ceil_div(n, tile->nr()) >= 2 * row_step_cost(tile, n);
}

/* Where B's packed blocks live for this call. */
typedef struct b_buffer {
  void *data;
  int64_t nc; /* columns per block */
  bool on_heap;
} b_buffer;

static const mips_gemm_blocking default_blocking = {MIPS_KC_MAX, B_BLOCK_BYTES, false};

void mips_gemm_run_with_tile(const mips_matmul_problem *p, mips_dtype type,
                             const mips_tile *tile) {
  mips_gemm_run_blocked(p, type, tile, &default_blocking);
}

__attribute__((noinline)) void mips_gemm_run_blocked(const mips_matmul_problem *p,
                                                     mips_dtype type, const mips_tile *tile,
                                                     const mips_gemm_blocking *blocking) {
  const int64_t m = p->m, n = p->n, k = p->k;
  const bool prepacked = p->b_panel_stride != 0; /* a mips_packed_b: nothing to pack */
  /* Where every panel is narrow and the narrow tile runs row blocks in one call (RVV's
   * f32 LMUL 1 tile), it runs them all and B packs into its own panels, whose rows are
   * then adjacent: it loads eight at once. */
  if (!prepacked && tile->narrow != NULL && tile->narrow->run_blocks != NULL &&
      n <= tile->narrow->nr())
    tile = tile->narrow;
  const int mr = tile->mr;
  const int64_t nr = tile->nr();
  const size_t in_size = mips_input_size(type), out_size = mips_output_size(type);
  const size_t packed_size = tile->packed_b_size;

  /* B is read in place when A is too short for a packed block to pay back (each packed
   * element is read once per mr rows) and its rows are unit-stride, or when there is a
   * single row, which reads B with any column stride: packing would touch each element
   * as often as the tile does. */
  const bool pack_b = !prepacked && (tile->needs_packing || m > 2 * (int64_t)mr ||
                                     (p->b_stride1 != 1 && n > 1 && m > 1));
  const int64_t narrow_nr = tile->narrow ? tile->narrow->nr() : 0;
  /* A is read in place when one of its strides is 1: tiles read either direction. */
  const bool pack_a_panels =
      tile->needs_packing || (p->a_stride0 != 1 && p->a_stride1 != 1 && m > 1);
  /* A row-major A is packed where the tile has a packer for it (see mips_tile) and the
   * tiles would be bound by their scalar work. */
  const bool pack_a_rows = !pack_a_panels && tile->pack_a_rows != NULL && p->a_stride1 == 1 &&
                           scalar_bound_in_place(tile, n);

  /* Balanced k blocks: 300 is two blocks of 150, not 256 and 44. */
  const int64_t kc_max =
      blocking->kc_max < 1 ? 1 : blocking->kc_max < MIPS_KC_MAX ? blocking->kc_max : MIPS_KC_MAX;
  const int64_t k_group = tile->k_group > 1 ? tile->k_group : 1;
  int64_t kc_size = ceil_div(ceil_div(k, ceil_div(k, kc_max)), k_group) * k_group;

  _Alignas(64) unsigned char stack_panel[STACK_PANEL_BYTES];
  b_buffer buf = {NULL, 0, false};
  if (pack_b) {
    const int64_t panels = ceil_div(n, nr);
    const int64_t panels_per_block = min64(
        panels, (int64_t)(blocking->b_block_bytes /
                          ((size_t)mips_panel_elems(tile, kc_size, nr) * packed_size)) + 1);
    buf.nc = panels_per_block * nr;
    const size_t block_bytes = (size_t)(mips_panel_elems(tile, kc_size, nr) * panels_per_block) * packed_size;
    /* A small B packs on the stack: malloc and free cost a 32^3 call a twelfth of its
     * instructions. (b_on_stack asks for the fallback below, for tests.) */
    const bool whole_on_stack = !blocking->b_on_stack && block_bytes <= STACK_PANEL_BYTES;
    buf.data = blocking->b_on_stack || whole_on_stack ? NULL : malloc(block_bytes);
    buf.on_heap = buf.data != NULL;
    if (whole_on_stack) {
      buf.data = stack_panel;
    } else if (!buf.on_heap) { /* one panel at a time, k blocks shrunk to fit */
      buf.data = stack_panel;
      buf.nc = nr;
      kc_size = min64(kc_size, (int64_t)(STACK_PANEL_BYTES / ((size_t)nr * packed_size)));
      kc_size = kc_size / k_group * k_group;
      if (kc_size < k_group) kc_size = k_group;
    }
  }

  _Alignas(64) unsigned char a_panel[A_PANEL_ELEMS * sizeof(float)];
  const char *a_base = p->a, *b_base = p->b;
  char *c_base = p->c;

  for (int64_t pc = 0; pc < k; pc += kc_size) {
    const int64_t kc = min64(kc_size, k - pc);
    const bool accumulate = pc > 0 || p->accumulate;
    const int64_t nc_step = pack_b ? buf.nc : n;
    for (int64_t jc = 0; jc < n; jc += nc_step) {
      const int64_t nc = min64(nc_step, n - jc);
      const char *b_block = b_base + (pc * p->b_stride0 + jc * p->b_stride1) * (ptrdiff_t)in_size;
      if (pack_b) tile->pack_b(buf.data, b_block, p->b_stride0, p->b_stride1, kc, nc, nr);
      const bool one_call = tile->run_blocks != NULL && nc <= nr && nc > narrow_nr;
      for (int64_t ic = 0; ic < m; ic += mr) {
        const int64_t rows = min64(mr, m - ic);
        const char *a_block = a_base + (ic * p->a_stride0 + pc * p->a_stride1) * (ptrdiff_t)in_size;
        mips_tile_args args = {
            .a = a_block, .a_rowstride = p->a_stride0, .a_kstride = p->a_stride1,
            .c_stride0 = p->c_stride0, .c_stride1 = p->c_stride1,
            .rows = rows, .k = kc, .accumulate = accumulate, .b_packed = pack_b || prepacked,
        };
        if (pack_a_panels) {
          (tile->pack_a ? tile->pack_a : mips_dtypes[type].pack_a)(
              a_panel, a_block, p->a_stride0, p->a_stride1, rows, kc,
              tile->needs_packing ? mr : (int)rows);
          args.a = a_panel, args.a_rowstride = 1;
          args.a_kstride = tile->needs_packing ? mr : rows;
        } else if (pack_a_rows && rows >= PACK_A_ROWS_MIN) {
          args.a_kstride = tile->pack_a_rows(a_panel, a_block, p->a_stride0, rows, kc);
          args.a = a_panel, args.a_rowstride = 1;
        } else if (rows == 1) {
          args.a_rowstride = 1; /* never stepped */
        }
        /* One panel and A in place: the rest of the rows in one call. */
        const bool all_rows = one_call && rows > 1 && args.a == a_block;
        if (all_rows) args.rows = m - ic;
        for (int64_t jr = 0; jr < nc; jr += nr) {
          args.cols = min64(nr, nc - jr);
          if (pack_b) {
            args.b = (const char *)buf.data +
                     (size_t)(jr / nr * mips_panel_elems(tile, kc, nr)) * packed_size;
            args.b_kstride = nr, args.b_colstride = 1;
          } else if (prepacked) {
            args.b = b_base + (size_t)((jc + jr) / nr * p->b_panel_stride + pc * nr) * packed_size;
            args.b_kstride = nr, args.b_colstride = 1;
          } else {
            args.b = b_block + jr * p->b_stride1 * (ptrdiff_t)in_size;
            args.b_kstride = p->b_stride0, args.b_colstride = n > 1 ? p->b_stride1 : 1;
          }
          args.c = c_base + (ic * p->c_stride0 + (jc + jr) * p->c_stride1) * (ptrdiff_t)out_size;
          if (all_rows) tile->run_blocks(&args);
          else (args.cols <= narrow_nr ? tile->narrow : tile)->run(&args);
        }
        if (all_rows) break;
      }
    }
  }
  if (buf.on_heap) free(buf.data);
}

/* The whole of C as one tile that reads A and B in place: the small-problem path's
 * arguments, before it splits them into row blocks and panels. Field by field: an
 * initializer would also zero the padding, seven stores more. */
static inline void set_in_place_args(mips_tile_args *args, const mips_matmul_problem *p) {
  args->a = p->a, args->a_rowstride = p->m > 1 ? p->a_stride0 : 1, args->a_kstride = p->a_stride1;
  args->b = p->b, args->b_kstride = p->b_stride0, args->b_colstride = p->n > 1 ? p->b_stride1 : 1;
  args->c = p->c, args->c_stride0 = p->c_stride0, args->c_stride1 = p->c_stride1;
  args->rows = p->m, args->cols = p->n, args->k = p->k;
  args->accumulate = p->accumulate, args->b_packed = false;
}

/* The tile for a last panel of `cols` columns, fewer than `tile`'s: `tail` if it fits
 * that (the table's tile, when `tile` is its wide companion), then that one's narrow
 * tile if it fits: a panel of one column would otherwise cost the multiply-adds of a
 * full one. */
__attribute__((noinline)) static const mips_tile *last_panel_tile(const mips_tile *tile,
                                                                 const mips_tile *tail,
                                                                 int64_t cols) {
  const mips_tile *last = tail != tile && cols <= tail->nr() ? tail : tile;
  return last->narrow && cols <= last->narrow->nr() ? last->narrow : last;
}

/* Runs `tile` on `args`, without its switch on the rows where it has one per row count. */
static inline void run_tile(const mips_tile *tile, const mips_tile_args *args) {
  if (tile->by_rows != NULL) tile->by_rows[args->rows](args);
  else tile->run(args);
}

/* The small-problem path: A and B read in place, no blocking, no packing, so a call
 * costs little more than its tiles. It takes the problems for which the blocked path
 * would not pack B either (few rows, or a B that stays in L1) and whose k fits one
 * block, on the table's first tile or, for at most its wide_rows rows, on its wide
 * companion (`tail` is then the first tile, for a narrow last panel). */
static inline __attribute__((always_inline)) void run_unpacked(const mips_matmul_problem *p,
                                                               mips_dtype type,
                                                               const mips_tile *tile,
                                                               const mips_tile *tail) {
  const int64_t m = p->m, n = p->n;
  int64_t nr = tile->nr();
  /* One panel narrower than the tile: its tile chosen once, for every row block. */
  if (n < nr) tile = last_panel_tile(tile, tail, n), nr = n;
  const ptrdiff_t in_size = (ptrdiff_t)mips_input_size(type);
  const ptrdiff_t out_size = (ptrdiff_t)mips_output_size(type);
  mips_tile_args args;
  set_in_place_args(&args, p);
  /* Row blocks split evenly: 16 rows run as 8 + 8, not 15 + 1. */
  const int64_t row_blocks = (m + tile->mr - 1) / tile->mr;
  for (int64_t ic = 0, block = 0; block < row_blocks; ++block) {
    args.rows = (m - ic) / (row_blocks - block);
    args.a = (const char *)p->a + ic * p->a_stride0 * in_size;
    for (int64_t jr = 0; jr < n; jr += nr) {
      args.cols = min64(nr, n - jr);
      args.b = (const char *)p->b + jr * p->b_stride1 * in_size;
      args.c = (char *)p->c + (ic * p->c_stride0 + jr * p->c_stride1) * out_size;
      run_tile(args.cols < nr ? last_panel_tile(tile, tail, args.cols) : tile, &args);
    }
    ic += args.rows;
  }
}

static bool reads_in_place(const mips_matmul_problem *p, mips_dtype type,
                           const mips_tile *tile) {
  const int64_t m = p->m, mr = tile->mr;
  if (p->b_panel_stride != 0 || tile->needs_packing || p->k > MIPS_KC_MAX ||
      !(p->b_stride1 == 1 || p->n == 1 || m == 1) ||
      !(p->a_stride0 == 1 || p->a_stride1 == 1 || m == 1))
    return false;
  /* Two row blocks always; more only for a B that stays in L1 (n is bounded first, so
   * k * n cannot overflow). */
  return m <= 2 * mr ||
         (m <= (type == MIPS_DTYPE_I8I32 ? IN_PLACE_ROW_BLOCKS_I8 : IN_PLACE_ROW_BLOCKS) * mr &&
          p->n <= IN_PLACE_B_BYTES &&
          p->k * p->n * (int64_t)mips_input_size(type) <= IN_PLACE_B_BYTES);
}

/* Kept out of mips_gemm_run, whose other paths then need no registers saved. */
__attribute__((noinline)) static void run_blocked(const mips_matmul_problem *p, mips_dtype type,
                                                  const mips_tile *const *tiles,
                                                  size_t tile_count) {
  mips_gemm_run_with_tile(p, type, mips_gemm_choose_tile(tiles, tile_count, p->m, p->n));
}

void mips_gemm_run(const mips_matmul_problem *p, mips_dtype type, const mips_tile *const *tiles,
                   size_t tile_count) {
  /* The first tile is the table's fallback: always available. */
  const mips_tile *const first = tiles[0];
  const mips_tile *tile = first;
  if (p->m <= first->wide_rows && p->n > first->nr()) tile = first->wide;
  if (!reads_in_place(p, type, tile)) {
    run_blocked(p, type, tiles, tile_count);
    return;
  }
  const mips_tile *narrow = tile->narrow;
  if (p->m <= tile->mr && p->n <= (narrow ? narrow->nr() : tile->nr())) {
    /* One tile: the smallest calls. */
    mips_tile_args one;
    set_in_place_args(&one, p);
    (narrow ? narrow : tile)->run(&one);
    return;
  }
  run_unpacked(p, type, tile, first);
}

void mips_row_dots_run(const mips_matmul_problem *p, mips_dtype type, mips_row_dot_fn row_dot) {
  const ptrdiff_t in_size = (ptrdiff_t)mips_input_size(type);
  const ptrdiff_t out_size = (ptrdiff_t)mips_output_size(type);
  mips_row_dot_args args = {
      .b = p->b, .b_colstride = p->b_stride1, .c_stride = p->c_stride1,
      .cols = p->n, .k = p->k, .accumulate = p->accumulate,
  };
  for (int64_t i = 0; i < p->m; ++i) {
    args.a = (const char *)p->a + i * p->a_stride0 * in_size;
    args.c = (char *)p->c + i * p->c_stride0 * out_size;
    row_dot(&args);
  }
}

bool mips_dot_blocks_run(const mips_matmul_problem *p, mips_dot_block_fn dot_block,
                         mips_split_columns_fn split_columns) {
  const int64_t m = p->m, n = p->n, k = p->k;
  const float *b = p->b;
  ptrdiff_t b_colstride = p->b_stride1;
  float *columns = NULL;
  if (p->b_stride0 != 1) { /* B's columns, each made unit-stride: n x k, small */
    columns = malloc((size_t)(n * k) * sizeof(float));
    if (columns == NULL) return false;
    if (split_columns == NULL ||
        !split_columns(columns, b, p->b_stride0, p->b_stride1, k, n))
      for (int64_t j = 0; j < n; ++j)
        for (int64_t l = 0; l < k; ++l) columns[j * k + l] = b[l * p->b_stride0 + j * p->b_stride1];
    b = columns, b_colstride = k;
  }
  mips_dot_block_args args = {
      .a_rowstride = p->a_stride0, .b_colstride = b_colstride,
      .c_stride0 = p->c_stride0, .c_stride1 = p->c_stride1, .k = k,
      .accumulate = p->accumulate,
  };
  for (int64_t i = 0; i < m; i += 4) {
    args.rows = min64(4, m - i);
    args.a = (const float *)p->a + i * p->a_stride0;
    for (int64_t j = 0; j < n; j += 4) {
      args.cols = min64(4, n - j);
      args.b = b + j * b_colstride;
      args.c = (float *)p->c + i * p->c_stride0 + j * p->c_stride1;
      dot_block(&args);
    }
  }
  free(columns);
  return true;
}

void mips_column_blocks_run(const mips_matmul_problem *p, mips_column_block_fn column_block) {
  mips_column_block_args args = {
      .a_rowstride = p->a_stride0, .b = p->b, .b_stride0 = p->b_stride0,
      .b_stride1 = p->b_stride1, .c_stride0 = p->c_stride0, .c_stride1 = p->c_stride1,
      .cols = p->n, .k = p->k, .accumulate = p->accumulate,
  };
  for (int64_t i = 0; i < p->m; i += MIPS_COLUMN_BLOCK_ROWS) {
    args.rows = min64(MIPS_COLUMN_BLOCK_ROWS, p->m - i);
    args.a = (const float *)p->a + i * p->a_stride0;
    args.c = (float *)p->c + i * p->c_stride0;
    column_block(&args);
  }
}
