/* SPDX-License-Identifier: Apache-2.0 */
/* The RVV 1.0 tile body, shared by the f32 and int8 tiles (tiles.c).
 *
 * A tile holds `rows` (<= mr) rows of C in vector registers, one register group per row,
 * vl = cols (<= nr = VLMAX) columns wide, and runs over k: per step one load of B's row
 * and one vfmacc.vf (vwmacc.vx for int8) per row with A(i, l) as a scalar. Per k step the
 * vector unit spends LMUL on the load and rows * LMUL on the multiply-adds, so more rows
 * per tile is better, up to the 32 registers: 15 rows at LMUL 2 use all of them
 * (15 * 2 accumulators + 2 for B). vl is whatever vsetvl grants, so the code is correct
 * for every VLEN; padding columns are never computed. Each LMUL 2 tile has an LMUL 1
 * companion for a last panel at most half as wide, which then costs half as much.
 *
 * The row count and the operand modes are compile-time constants in each instantiation
 * (stamped out from one body per tile shape), so unused accumulators and branches
 * vanish. */
#ifndef MIPS_SRC_KERNELS_RVV_TILE_BODY_H
#define MIPS_SRC_KERNELS_RVV_TILE_BODY_H

#include "kernels/rvv/rvv_kernels.h"

/* The LMUL 1 tile's loops of 16 and 32 k steps, in optimized builds only (below). */
#if defined(__OPTIMIZE__)
#define MIPS_RVV_LONG_UNROLL 1
#else
#define MIPS_RVV_LONG_UNROLL 0
#endif

/* X(i, L) for each row i of the largest tile. */
#define MIPS_RVV_ROWS(X, L)                                                           \
  X(0, L) X(1, L) X(2, L) X(3, L) X(4, L) X(5, L) X(6, L) X(7, L) X(8, L) X(9, L)     \
  X(10, L) X(11, L) X(12, L) X(13, L) X(14, L)

/* Instantiates NAME(t) as a switch over NAME##_rows(t, R) for R = 1..MR, each row count
 * in a function of its own: the switch then only jumps, and a small tile saves only the
 * registers its own rows use (one function with all fifteen inlined saved them all, on
 * every call: a quarter of a 4x4x4 call). */
#define MIPS_RVV_ROW_FN(NAME, MR, R)                                                   \
  static __attribute__((noinline)) void NAME##_r##R(const mips_tile_args *t) {         \
    if ((MR) >= (R)) NAME##_rows(t, R);                                                \
  }
/* X(NAME, MR, R) for R = 1..15, and the table {NULL, F##1, ..., F##15} of the
 * functions it made: the tiles' row functions and the smallest calls' tiny ones. */
#define MIPS_RVV_EACH_ROW(X, NAME, MR)                                                 \
  X(NAME, MR, 1) X(NAME, MR, 2) X(NAME, MR, 3) X(NAME, MR, 4) X(NAME, MR, 5)           \
  X(NAME, MR, 6) X(NAME, MR, 7) X(NAME, MR, 8) X(NAME, MR, 9) X(NAME, MR, 10)          \
  X(NAME, MR, 11) X(NAME, MR, 12) X(NAME, MR, 13) X(NAME, MR, 14) X(NAME, MR, 15)
#define MIPS_RVV_ROW_TABLE(F)                                                          \
  {NULL,  F##1,  F##2,  F##3,  F##4,  F##5,  F##6,  F##7,                              \
   F##8,  F##9,  F##10, F##11, F##12, F##13, F##14, F##15}
#define MIPS_RVV_ROW_SWITCH(NAME, MR)                                                  \
  _Static_assert((MR) >= 1 && (MR) <= 15, "rows per tile");                           \
  MIPS_RVV_EACH_ROW(MIPS_RVV_ROW_FN, NAME, MR)                                         \
  static const mips_tile_fn NAME##_by_rows[16] = MIPS_RVV_ROW_TABLE(NAME##_r);         \
  static void NAME(const mips_tile_args *t) { NAME##_by_rows[t->rows](t); }

/*------------------------------------------------------------------------------------
 * The shared tile body. A's elements come either from a panel (one pointer, rows
 * adjacent: a packed panel or a column-major A) or from rows (a row-major A read in
 * place: one pointer per row, k adjacent); either way each is one scalar load with an
 * immediate offset. k is unrolled by two, or by four where the accumulators leave room
 * for four B rows in flight (UNROLL4_MAX_ROWS), or by eight, sixteen and (in full
 * tiles) thirty-two where B's rows are adjacent (UNROLL8_MAX_ROWS), so pointer updates
 * are shared. B's row is
 * unit-stride, except for a single-row tile reading an unpacked B with any column
 * stride (a matrix-vector product whose B is transposed).
 *
 * Each element type supplies: V (accumulator type), BV (B row type), A_T, C_T,
 * LOAD_B(p, strided), FMA(acc, a, bv), ZERO(), UNDEF(), LOAD_C(p), LOAD_C_STRIDED(p, bytes),
 * STORE_C(p, v), STORE_C_STRIDED(p, bytes, v), SETVL(n), B_ELEM (bytes of B's element
 * as the tile reads it), written once per type in terms of LMUL suffixes that each
 * instantiation sets.
 *----------------------------------------------------------------------------------*/
#define T_DECL(i, L)                                                                   \
  V acc##i = R <= i           ? UNDEF()                                                \
             : !t->accumulate ? ZERO()                                                 \
             : cs1 == 1       ? LOAD_C(c + i * cs0)                                    \
                              : LOAD_C_STRIDED(c + i * cs0, cs1 * (ptrdiff_t)sizeof(C_T));
#define T_A_PTR(i, L) const A_T *ap##i = a + (R > i ? i : 0) * a_rs;
#define T_A_ADVANCE(i, STEPS) ap##i += (STEPS);
#define T_A_AT(i, u) (a_rows ? ap##i[u] : a[(u) * a_ks + i])
#define T_FMA(i, u) if (R > i) acc##i = FMA(acc##i, T_A_AT(i, u), bv);
/* Row by row from one pointer: an add per row, where c + i * cs0 costs a multiply. */
#define T_STORE(i, L)                                                                  \
  if (R > i) {                                                                         \
    if (cs1 == 1) STORE_C(c, acc##i);                                                  \
    else STORE_C_STRIDED(c, cs1 * (ptrdiff_t)sizeof(C_T), acc##i);                     \
    c += cs0;                                                                          \
  }
/* One k step: B's row `row` times A's column u, for every row of the tile. */
#define T_STEP_WITH(row, u)                                                            \
  {                                                                                    \
    const BV bv = (row);                                                               \
    MIPS_RVV_ROWS(T_FMA, u)                                                            \
  }
#define T_STEP(u) T_STEP_WITH(LOAD_B(b + (u) * b_step, b_strided), u)
#define T_GROUP_STEP(u) T_STEP_WITH(B8_GET(group, u), u)
/* Steps 8h .. 8h + 7 from B's group of eight rows h, for the loops of sixteen and
 * thirty-two steps. Every second step follows a barrier for the compiler alone (a
 * signal fence emits nothing): without them the scheduler hoisted the loads of A of
 * many steps and spilled them. (An empty asm did as well, but each one cost a vsetvli
 * after it: +0.6 % on ResNet-18 at VLEN 128, whose 4-pixel layers run this tile.) */
#define T_BARRIER(g) if ((g) % 2 == 0) __atomic_signal_fence(__ATOMIC_SEQ_CST);
#define T_GROUP_H_STEP(h, g) T_BARRIER(g) T_STEP_WITH(B8_GET(group, g), 8 * (h) + (g))
#define T_EIGHT_STEPS(h)                                                               \
  {                                                                                    \
    const BV8 group = LOAD_B8(b + 8 * (h) * b_step);                                   \
    T_GROUP_H_STEP(h, 0) T_GROUP_H_STEP(h, 1) T_GROUP_H_STEP(h, 2) T_GROUP_H_STEP(h, 3) \
    T_GROUP_H_STEP(h, 4) T_GROUP_H_STEP(h, 5) T_GROUP_H_STEP(h, 6) T_GROUP_H_STEP(h, 7) \
  }
#define T_ADVANCE(STEPS)                                                               \
  b += (STEPS) * b_step;                                                               \
  if (a_rows) { MIPS_RVV_ROWS(T_A_ADVANCE, STEPS) } else a += (STEPS) * a_ks;

#define MIPS_RVV_TILE_BODY                                                             \
  const size_t vl = SETVL((size_t)t->cols);                                            \
  const A_T *a = t->a;                                                                 \
  const char *b = t->b;                                                                \
  C_T *c = t->c;                                                                       \
  const ptrdiff_t a_rs = t->a_rowstride, a_ks = t->a_kstride;                          \
  const ptrdiff_t b_step = t->b_kstride * (ptrdiff_t)B_ELEM;                           \
  const ptrdiff_t b_col_bytes = t->b_colstride * (ptrdiff_t)B_ELEM;                    \
  const ptrdiff_t cs0 = t->c_stride0, cs1 = t->c_stride1;                              \
  (void)b_col_bytes;                                                                   \
  MIPS_RVV_ROWS(T_A_PTR, 0)                                                            \
  MIPS_RVV_ROWS(T_DECL, 0)                                                             \
  int64_t l = 0;                                                                       \
  /* Tiles with registers to spare unroll further: fewer pointer updates per step. */ \
  /* Eight whole rows of B adjacent in memory (a panel as wide as a register) are one  \
   * load of eight registers: no vsetvl, no pointer step between them. */             \
  /* Thirty-two or sixteen steps share them where k allows: at VLEN 1024 the LMUL 1    \
   * tile is bound by its scalar work, and the row pointers' updates were an eighth of  \
   * it. Thirty-two only in full tiles, which do most of the work: code size. Neither   \
   * in unoptimized builds, where they only cost compile time (the sanitizer build's    \
   * compile of this file: over 11 minutes and 16 GB with them, 3 minutes without). */ \
  if (MIPS_RVV_LONG_UNROLL && b_adjacent && R == UNROLL8_MAX_ROWS)                     \
    for (; l + 32 <= t->k; l += 32) {                                                  \
      T_EIGHT_STEPS(0) T_EIGHT_STEPS(1) T_EIGHT_STEPS(2) T_EIGHT_STEPS(3)              \
      T_ADVANCE(32)                                                                    \
    }                                                                                  \
  if (MIPS_RVV_LONG_UNROLL && b_adjacent)                                              \
    for (; l + 16 <= t->k; l += 16) {                                                  \
      T_EIGHT_STEPS(0) T_EIGHT_STEPS(1)                                                \
      T_ADVANCE(16)                                                                    \
    }                                                                                  \
  if (b_adjacent)                                                                      \
    for (; l + 8 <= t->k; l += 8) {                                                    \
      const BV8 group = LOAD_B8(b);                                                    \
      T_GROUP_STEP(0) T_GROUP_STEP(1) T_GROUP_STEP(2) T_GROUP_STEP(3)                  \
      T_GROUP_STEP(4) T_GROUP_STEP(5) T_GROUP_STEP(6) T_GROUP_STEP(7)                  \
      T_ADVANCE(8)                                                                     \
    }                                                                                  \
  if (R <= UNROLL4_MAX_ROWS)                                                           \
    for (; l + 4 <= t->k; l += 4) {                                                    \
      T_STEP(0) T_STEP(1) T_STEP(2) T_STEP(3)                                          \
      T_ADVANCE(4)                                                                     \
    }                                                                                  \
  for (; l + 2 <= t->k; l += 2) {                                                      \
    T_STEP(0) T_STEP(1)                                                                \
    T_ADVANCE(2)                                                                       \
  }                                                                                    \
  if (l < t->k) T_STEP(0)                                                              \
  MIPS_RVV_ROWS(T_STORE, 0)

/* The variants a tile's R rows can need; each is a separate instantiation. */
#define MIPS_RVV_TILE_VARIANTS(NAME, MR)                                               \
  static MIPS_ALWAYS_INLINE void NAME##_rows(const mips_tile_args *t, const int R) {   \
    if (R == 1 && !t->b_packed && t->b_colstride != 1) {                               \
      NAME##_body(t, 1, false, false, true, false);                                    \
      return;                                                                          \
    }                                                                                  \
    const bool a_rows = t->a_kstride == 1; /* one row: its k steps are adjacent */    \
    /* B's rows adjacent and a register wide: a variant of its own, whose registers    \
     * the other loops do not share (sharing them spilled the four-step loop). */      \
    const bool adjacent = R <= UNROLL8_MAX_ROWS && a_rows && t->k >= 8 &&             \
                          t->cols == (int64_t)VLMAX() && t->b_kstride == t->cols &&    \
                          t->b_colstride == 1;                                         \
    if (t->b_packed) {                                                                 \
      if (adjacent) NAME##_body(t, R, true, true, false, true);                        \
      else if (a_rows) NAME##_body(t, R, true, true, false, false);                    \
      else NAME##_body(t, R, true, false, false, false);                               \
    } else {                                                                           \
      if (adjacent) NAME##_body(t, R, false, true, false, true);                       \
      else if (a_rows) NAME##_body(t, R, false, true, false, false);                   \
      else NAME##_body(t, R, false, false, false, false);                              \
    }                                                                                  \
  }                                                                                    \
  MIPS_RVV_ROW_SWITCH(NAME, MR)

/* NAME_blocks (mips_tile.run_blocks): full tiles of MR rows down A and C, then the
 * remaining rows. A local copy of the arguments, which no store through C can change, so
 * that what the tile derives from them is set up once. */
#define MIPS_RVV_BLOCKS_FN(NAME, MR)                                                   \
  static __attribute__((noinline)) void NAME##_blocks(const mips_tile_args *t) {       \
    mips_tile_args u = *t;                                                             \
    const int64_t a_step = (MR) * t->a_rowstride * (ptrdiff_t)sizeof(A_T);             \
    const int64_t c_step = (MR) * t->c_stride0 * (ptrdiff_t)sizeof(C_T);               \
    u.rows = (MR);                                                                     \
    for (int64_t done = 0; done + (MR) <= t->rows; done += (MR)) {                     \
      NAME##_rows(&u, MR);                                                             \
      u.a = (const char *)u.a + a_step, u.c = (char *)u.c + c_step;                    \
    }                                                                                  \
    u.rows = t->rows % (MR);                                                           \
    if (u.rows > 0) NAME##_by_rows[u.rows](&u);                                        \
  }

/* The tiles of the smallest calls (mips_tiny_fn), one per row count: the arguments become
 * a mips_tile_args that lives only in registers. */
#define MIPS_RVV_TINY_FN(NAME, MR, R)                                                  \
  static __attribute__((noinline)) int NAME##_tiny##R(                                 \
      const void *a, ptrdiff_t a_rowstride, ptrdiff_t a_kstride, const void *b,         \
      ptrdiff_t b_kstride, void *c, ptrdiff_t c_stride0, uint64_t shape) {             \
    mips_tile_args t;                                                                  \
    t.a = a, t.a_rowstride = a_rowstride, t.a_kstride = a_kstride;                     \
    t.b = b, t.b_kstride = b_kstride, t.b_colstride = 1;                               \
    t.c = c, t.c_stride0 = c_stride0, t.c_stride1 = 1;                                 \
    t.rows = R, t.cols = (int64_t)(shape & 0xff), t.k = (int64_t)((shape >> 8) & 0xff); \
    t.accumulate = (shape >> 16) != 0, t.b_packed = false;                             \
    if ((MR) >= (R)) {                                                                 \
      if (a_kstride == 1) NAME##_body(&t, R, false, true, false, false);               \
      else NAME##_body(&t, R, false, false, false, false);                             \
    }                                                                                  \
    return 0;                                                                          \
  }
#define MIPS_RVV_TINY_TABLE(NAME, MR)                                                  \
  MIPS_RVV_EACH_ROW(MIPS_RVV_TINY_FN, NAME, MR)                                        \
  static const mips_tiny_fn NAME##_tiny_by_rows[16] = MIPS_RVV_ROW_TABLE(NAME##_tiny);

#define MIPS_PASTE_(x, y) x##y
#define MIPS_PASTE(x, y) MIPS_PASTE_(x, y)

#define MIPS_RVV_TILE_DESC(NAME, MR, COST, PACKED_T, PACK, NARROW, WIDE, WIDE_ROWS,    \
                           PACK_A_ROWS, RUN_BLOCKS)                                    \
  static const mips_tile NAME##_tile = {                                               \
      .name = #NAME, .mr = MR, .nr = NAME##_nr, .cost_per_row = COST,                  \
      .needs_packing = false, .packed_b_size = sizeof(PACKED_T), .pack_b = PACK,       \
      .run = NAME, .by_rows = NAME##_by_rows, .available = NULL, .narrow = NARROW,     \
      .wide = WIDE, .wide_rows = WIDE_ROWS, .pack_a_rows = PACK_A_ROWS,                \
      .run_blocks = RUN_BLOCKS};

#endif /* MIPS_SRC_KERNELS_RVV_TILE_BODY_H */
