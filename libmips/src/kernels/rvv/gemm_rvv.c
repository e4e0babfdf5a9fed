/* SPDX-License-Identifier: Apache-2.0 */
/* RVV 1.0 tiles. This translation unit alone is compiled for +v; the dispatcher selects
 * the RVV kernel set only when AT_HWCAP reports V.
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
#include <riscv_vector.h>

#include "mips_internal.h"

#define MIPS_ALWAYS_INLINE inline __attribute__((always_inline))
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

/*------------------------------------------------------------------------------------
 * f32 (packed and unpacked B are both f32). Each instantiation sets LM, the LMUL
 * suffix of the accumulators and of B's rows (m1, m2, m4).
 *----------------------------------------------------------------------------------*/
#define A_T float
#define C_T float
#define B_ELEM sizeof(float)
#define V MIPS_PASTE(MIPS_PASTE(vfloat32, LM), _t)
#define BV V
#define F32_OP(name) MIPS_PASTE(name, LM)
#define SETVL(n) F32_OP(__riscv_vsetvl_e32)(n)
#define UNDEF() F32_OP(__riscv_vundefined_f32)()
#define ZERO() F32_OP(__riscv_vfmv_v_f_f32)(0.0f, vl)
#define LOAD_B(p, strided)                                                             \
  ((strided) ? F32_OP(__riscv_vlse32_v_f32)((const float *)(const void *)(p), b_col_bytes, vl) \
             : F32_OP(__riscv_vle32_v_f32)((const float *)(const void *)(p), vl))
#define VLMAX() F32_OP(__riscv_vsetvlmax_e32)()
#define FMA(acc, x, bv) F32_OP(__riscv_vfmacc_vf_f32)((acc), (x), (bv), vl)
#define LOAD_C(p) F32_OP(__riscv_vle32_v_f32)((p), vl)
#define LOAD_C_STRIDED(p, bytes) F32_OP(__riscv_vlse32_v_f32)((p), (bytes), vl)
#define STORE_C(p, v) F32_OP(__riscv_vse32_v_f32)((p), (v), vl)
#define STORE_C_STRIDED(p, bytes, v) F32_OP(__riscv_vsse32_v_f32)((p), (bytes), (v), vl)

#define MIPS_RVV_F32_TILE(NAME, MR)                                                    \
  static MIPS_ALWAYS_INLINE void NAME##_body(const mips_tile_args *t, const int R,     \
                                             const bool b_packed, const bool a_rows,   \
                                             const bool b_strided,                     \
                                             const bool b_adjacent) {                  \
    (void)b_packed;                                                                    \
    MIPS_RVV_TILE_BODY                                                                 \
  }                                                                                    \
  MIPS_RVV_TILE_VARIANTS(NAME, MR)                                                     \
  static int64_t NAME##_nr(void) { return (int64_t)F32_OP(__riscv_vsetvlmax_e32)(); }

/* UNROLL4_MAX_ROWS: rows * LMUL + 4 B rows * LMUL must fit 32 registers with room for
 * the compiler's scheduling (measured: no spills). */
/* Eight registers read as one whole-register load (vl8re32): a type that may alias the
 * floats of B, which the caller and the packers write as floats. */
typedef vfloat32m8_t __attribute__((may_alias)) f32m8_alias;
/* UNROLL8_MAX_ROWS: LMUL 1 only, whose tiles are scalar-bound (one load of A per
 * multiply-add of one register): eight steps or more (up to thirty-two) share the
 * pointer updates, and each eight rows of B come in one whole-register load where they
 * are adjacent. Elsewhere the group
 * macros are placeholders that are never reached. */
#define BV8 BV
#define LOAD_B8(p) LOAD_B(p, false)
#define B8_GET(group, u) (group)
#define LM m2
#define UNROLL4_MAX_ROWS 8
#define UNROLL8_MAX_ROWS 0
MIPS_RVV_F32_TILE(f32_15x2v_rvv, 15)
#undef LM
#undef UNROLL4_MAX_ROWS
#undef UNROLL8_MAX_ROWS
#undef BV8
#undef LOAD_B8
#undef B8_GET
#define BV8 vfloat32m8_t
#define LOAD_B8(p) (*(const f32m8_alias *)(const void *)(p))
#define B8_GET(group, u) __riscv_vget_v_f32m8_f32m1((group), (u))
#define LM m1
#define UNROLL4_MAX_ROWS 15
#define UNROLL8_MAX_ROWS 15
MIPS_RVV_F32_TILE(f32_15x1v_rvv, 15)
MIPS_RVV_TINY_TABLE(f32_15x1v_rvv, 15)
MIPS_RVV_BLOCKS_FN(f32_15x1v_rvv, 15)
#undef LM
#undef UNROLL4_MAX_ROWS
#undef UNROLL8_MAX_ROWS
#undef BV8
#undef LOAD_B8
#undef B8_GET
#define BV8 BV
#define LOAD_B8(p) LOAD_B(p, false)
#define B8_GET(group, u) (group)
#define LM m4
#define UNROLL4_MAX_ROWS 2
#define UNROLL8_MAX_ROWS 0
MIPS_RVV_F32_TILE(f32_7x4v_rvv, 7)
#undef LM
#undef UNROLL4_MAX_ROWS
#undef UNROLL8_MAX_ROWS

#undef A_T
#undef C_T
#undef B_ELEM
#undef V
#undef BV
#undef SETVL
#undef UNDEF
#undef ZERO
#undef LOAD_B
#undef VLMAX
#undef FMA
#undef LOAD_C
#undef LOAD_C_STRIDED
#undef STORE_C
#undef STORE_C_STRIDED

/*------------------------------------------------------------------------------------
 * i8 x i8 -> i32: packed B is widened to i16 once; unpacked B is loaded as i8 and
 * sign-extended in the loop. vwmacc.vx multiplies it by A as a sign-extended scalar into
 * i32 accumulators of twice B's LMUL; B's e16 vtype and the accumulators' e32 share
 * VLMAX, so the inner loop never changes vtype. vwmacc wraps modulo 2^32 like the
 * portable tiles. Each instantiation sets the LMUL suffixes of the accumulators (LM32),
 * of B widened (LM16) and of B as loaded (LM8).
 *----------------------------------------------------------------------------------*/
#define A_T int8_t
#define C_T int32_t
#define V MIPS_PASTE(MIPS_PASTE(vint32, LM32), _t)
#define BV MIPS_PASTE(MIPS_PASTE(vint16, LM16), _t)
#define I32_OP(name) MIPS_PASTE(name, LM32)
#define I16_OP(name) MIPS_PASTE(name, LM16)
#define I8_OP(name) MIPS_PASTE(name, LM8)
#define SETVL(n) I16_OP(__riscv_vsetvl_e16)(n)
#define UNDEF() I32_OP(__riscv_vundefined_i32)()
#define ZERO() I32_OP(__riscv_vmv_v_x_i32)(0, vl)
#define LOAD_B(p, strided)                                                             \
  (b_packed ? I16_OP(__riscv_vle16_v_i16)((const int16_t *)(const void *)(p), vl)      \
            : I16_OP(__riscv_vsext_vf2_i16)(                                           \
                  (strided) ? I8_OP(__riscv_vlse8_v_i8)((const int8_t *)(p), b_col_bytes, vl) \
                            : I8_OP(__riscv_vle8_v_i8)((const int8_t *)(p), vl), vl))
#define VLMAX() I16_OP(__riscv_vsetvlmax_e16)()
#define FMA(acc, x, bv) I32_OP(__riscv_vwmacc_vx_i32)((acc), (int16_t)(x), (bv), vl)
#define LOAD_C(p) I32_OP(__riscv_vle32_v_i32)((p), vl)
#define LOAD_C_STRIDED(p, bytes) I32_OP(__riscv_vlse32_v_i32)((p), (bytes), vl)
#define STORE_C(p, v) I32_OP(__riscv_vse32_v_i32)((p), (v), vl)
#define STORE_C_STRIDED(p, bytes, v) I32_OP(__riscv_vsse32_v_i32)((p), (bytes), (v), vl)

#define MIPS_RVV_I8_TILE(NAME, MR)                                                     \
  static MIPS_ALWAYS_INLINE void NAME##_body(const mips_tile_args *t, const int R,     \
                                             const bool b_packed, const bool a_rows,   \
                                             const bool b_strided,                     \
                                             const bool b_adjacent) {                  \
    const size_t B_ELEM = b_packed ? sizeof(int16_t) : sizeof(int8_t);                 \
    /* Its group macros are placeholders (one row for eight). */                       \
    _Static_assert(UNROLL8_MAX_ROWS == 0, "int8 tiles load no eight rows of B at once"); \
    MIPS_RVV_TILE_BODY                                                                 \
  }                                                                                    \
  MIPS_RVV_TILE_VARIANTS(NAME, MR)                                                     \
  static int64_t NAME##_nr(void) { return (int64_t)I16_OP(__riscv_vsetvlmax_e16)(); }

/* int8 keeps the unroll by two (measured, four made the unpacked path slower), except for
 * a single row, whose loop is all overhead: decode against packed weights. */
#define UNROLL4_MAX_ROWS 1
#define UNROLL8_MAX_ROWS 0
#define LM32 m2
#define LM16 m1
#define LM8 mf2
MIPS_RVV_I8_TILE(i8i32_15x2v_rvv, 15)
#undef LM32
#undef LM16
#undef LM8
#define LM32 m1
#define LM16 mf2
#define LM8 mf4
MIPS_RVV_I8_TILE(i8i32_15x1v_rvv, 15)
MIPS_RVV_TINY_TABLE(i8i32_15x1v_rvv, 15)
#undef LM32
#undef LM16
#undef LM8
/* Few rows, wide panels: 7 accumulators at LMUL 4 (28 registers), half the panels of
 * 15x2v, so half the scalar loads of A (what bounds a call with few rows). */
#define LM32 m4
#define LM16 m2
#define LM8 m1
MIPS_RVV_I8_TILE(i8i32_7x4v_rvv, 7)
#undef LM32
#undef LM16
#undef LM8
#undef UNROLL4_MAX_ROWS
#undef UNROLL8_MAX_ROWS
#undef BV8
#undef LOAD_B8
#undef B8_GET

/*------------------------------------------------------------------------------------
 * Packing B. Unit-stride rows of B are copied with vector loads and stores (widened to
 * i16 for int8). Other layouts (a transposed B) are gathered by scalar code, which runs
 * on the scalar pipe beside the tiles' vector work instead of paying strided vector
 * accesses element by element; when B's columns are contiguous it moves 4 x 4 blocks so
 * that every access has an immediate offset. Padding columns are left unwritten: these
 * tiles never read them.
 *----------------------------------------------------------------------------------*/
/* COPY_ROWS(out, b, s0, k, w, nr) copies k rows of w unit-stride elements of B into a
 * panel of width nr; TRANSPOSE(out, b,
 * s1, k, w, nr) packs the leading columns of a B whose columns are unit-stride and returns
 * how many it packed (the gather takes the rest). */
#define MIPS_RVV_PACK_B(NAME, IN_T, OUT_T, GATHER, COPY_ROWS, TRANSPOSE)                  \
  static void NAME(void *dst, const void *src, ptrdiff_t s0, ptrdiff_t s1, int64_t k,   \
                   int64_t cols, int64_t nr) {                                          \
    OUT_T *out = dst;                                                                   \
    const IN_T *b = src;                                                                \
    for (int64_t j0 = 0; j0 < cols; j0 += nr, out += k * nr) {                          \
      const int64_t w = cols - j0 < nr ? cols - j0 : nr;                                \
      if (s1 != 1) {                                                                    \
        const int64_t done = s0 == 1 ? TRANSPOSE(out, b + j0 * s1, s1, k, w, nr) : 0;   \
        if (done < w) GATHER(out + done, b + (j0 + done) * s1, s0, s1, k, w - done, nr); \
        continue;                                                                       \
      }                                                                                 \
      COPY_ROWS(out, b + j0, s0, k, w, nr);                                            \
    }                                                                                   \
  }

static MIPS_ALWAYS_INLINE void copy_row_f32(float *out, const float *row, int64_t w) {
  for (int64_t j = 0; j < w;) {
    const size_t vl = __riscv_vsetvl_e32m2((size_t)(w - j));
    __riscv_vse32_v_f32m2(out + j, __riscv_vle32_v_f32m2(row + j, vl), vl);
    j += (int64_t)vl;
  }
}

static MIPS_ALWAYS_INLINE void copy_row_i8_to_i16(int16_t *out, const int8_t *row, int64_t w) {
  for (int64_t j = 0; j < w;) {
    const size_t vl = __riscv_vsetvl_e16m1((size_t)(w - j));
    __riscv_vse16_v_i16m1(out + j, __riscv_vsext_vf2_i16m1(__riscv_vle8_v_i8mf2(row + j, vl), vl),
                          vl);
    j += (int64_t)vl;
  }
}

/* k rows of w columns into a panel of width nr. A panel row that fits one register
 * group (the usual case: nr is the tile's width) is one load and one store, with the
 * vector length set once: a 32 x 32 B packs in a third of the instructions. */
static MIPS_ALWAYS_INLINE void copy_rows_f32(float *out, const float *b, ptrdiff_t s0,
                                             int64_t k, int64_t w, int64_t nr) {
  if (w <= (int64_t)__riscv_vsetvlmax_e32m2()) {
    const size_t vl = __riscv_vsetvl_e32m2((size_t)w);
    for (int64_t l = 0; l < k; ++l, out += nr, b += s0)
      __riscv_vse32_v_f32m2(out, __riscv_vle32_v_f32m2(b, vl), vl);
    return;
  }
  for (int64_t l = 0; l < k; ++l) copy_row_f32(out + l * nr, b + l * s0, w);
}

static MIPS_ALWAYS_INLINE void copy_rows_i8_to_i16(int16_t *out, const int8_t *b, ptrdiff_t s0,
                                                   int64_t k, int64_t w, int64_t nr) {
  if (w <= (int64_t)__riscv_vsetvlmax_e16m1()) {
    const size_t vl = __riscv_vsetvl_e16m1((size_t)w);
    for (int64_t l = 0; l < k; ++l, out += nr, b += s0)
      __riscv_vse16_v_i16m1(out, __riscv_vsext_vf2_i16m1(__riscv_vle8_v_i8mf2(b, vl), vl), vl);
    return;
  }
  for (int64_t l = 0; l < k; ++l) copy_row_i8_to_i16(out + l * nr, b + l * s0, w);
}

/* A transposed B (columns unit-stride), 8 columns at a time: each column's run of k is
 * one vector load, and a segment store of the 8 (field f of element l is column f at
 * row l) writes the 8 columns as rows: a transpose in the vector unit at one register
 * per field, where the scalar gather costs two instructions per element. The rows land
 * in the panel directly when it is 8 wide, else in a buffer and then in place, 8 floats
 * a row. Columns past the last multiple of 8 are left to the gather. */
enum { TRANSPOSE_RUN = 64 }; /* k per segment store into the buffer */

/* Moves `count` rows of `row_bytes` (at most 32: one register from VLEN 256), packed one
 * after another in `rows`, into the panel's rows, `panel_row_bytes` apart: one vector per
 * row, four rows per step, since the loop's scalar work is what bounds this at large VLEN. */
static void place_rows(void *panel, ptrdiff_t panel_row_bytes, const void *rows,
                       size_t row_bytes, size_t count) {
  char *to = panel;
  const char *from = rows;
  const size_t vl = __riscv_vsetvl_e8m1(row_bytes);
  size_t i = 0;
  for (; i + 4 <= count; i += 4, from += 4 * row_bytes, to += 4 * panel_row_bytes) {
    const vint8m1_t r0 = __riscv_vle8_v_i8m1((const int8_t *)from, vl);
    const vint8m1_t r1 = __riscv_vle8_v_i8m1((const int8_t *)(from + row_bytes), vl);
    const vint8m1_t r2 = __riscv_vle8_v_i8m1((const int8_t *)(from + 2 * row_bytes), vl);
    const vint8m1_t r3 = __riscv_vle8_v_i8m1((const int8_t *)(from + 3 * row_bytes), vl);
    __riscv_vse8_v_i8m1((int8_t *)to, r0, vl);
    __riscv_vse8_v_i8m1((int8_t *)(to + panel_row_bytes), r1, vl);
    __riscv_vse8_v_i8m1((int8_t *)(to + 2 * panel_row_bytes), r2, vl);
    __riscv_vse8_v_i8m1((int8_t *)(to + 3 * panel_row_bytes), r3, vl);
  }
  for (; i < count; ++i, from += row_bytes, to += panel_row_bytes)
    __riscv_vse8_v_i8m1((int8_t *)to, __riscv_vle8_v_i8m1((const int8_t *)from, vl), vl);
}

/* A whole panel 8·G columns wide (G = 4 or 8: 32 or 64 floats, e.g. the 15x2v tiles at
 * VLEN 512 and 1024, 15x1v at 1024, 7x4v from VLEN 256; int8 from G = 2) without moving
 * rows one by one: group r (columns r, r + G, ..., r + 7G) is transposed
 * by a segment store into its own buffer, whose element i (row l0 + i / 8, its column
 * r + G·(i % 8)) belongs at l0·nr + G·i + r of the panel; so a segment store of the G
 * buffers, each read as one long vector, writes G·vl consecutive panel elements at once.
 * Q·Kᵀ 64³ at VLEN 512 / 1024: 0.82 / 0.78 of the ideal with rows moved a vector op
 * each, 0.85 / 0.85 so. At G = 2 (16 floats) both cost the same vector work and this
 * more scalar work; for int8 (16 int16 at VLEN 256, where moving rows one by one bound
 * int8 256x4x256 turned round) this less: 71 664 -> 69 452 instructions. */
#define MIPS_RVV_TRANSPOSE_PANEL(NAME, IN_T, OUT_T, T, E, RUN, LOAD)                       \
  static void NAME(OUT_T *out, const IN_T *b, ptrdiff_t s1, int64_t k, int64_t g) {      \
    OUT_T rows[8 * 8 * RUN];                                                             \
    for (int64_t l0 = 0; l0 < k;) {                                                      \
      const size_t vl = __riscv_vsetvl_e##E##m1((size_t)(k - l0 < RUN ? k - l0 : RUN));  \
      for (int64_t r = 0; r < g; ++r) {                                                  \
        const IN_T *c = b + r * s1 + l0;                                               \
        const ptrdiff_t step = g * s1;                                                   \
        __riscv_vsseg8e##E##_v_##T##m1x8(                                                \
            rows + r * 8 * RUN,                                                          \
            __riscv_vcreate_v_##T##m1x8(LOAD(c, vl), LOAD(c + step, vl),                 \
                                        LOAD(c + 2 * step, vl), LOAD(c + 3 * step, vl),  \
                                        LOAD(c + 4 * step, vl), LOAD(c + 5 * step, vl),  \
                                        LOAD(c + 6 * step, vl), LOAD(c + 7 * step, vl)), \
            vl);                                                                         \
      }                                                                                  \
      OUT_T *panel = out + l0 * 8 * g;                                                   \
      const size_t count = 8 * vl;                                                       \
      /* Each store as wide as its fields allow (8 registers in all): fewer rounds. */   \
      for (size_t i = 0, vi; i < count; i += vi) {                                       \
        const OUT_T *from = rows + i;                                                    \
        if (g == 2) {                                                                    \
          vi = __riscv_vsetvl_e##E##m4(count - i);                                       \
          __riscv_vsseg2e##E##_v_##T##m4x2(                                              \
              panel + 2 * i,                                                             \
              __riscv_vcreate_v_##T##m4x2(__riscv_vle##E##_v_##T##m4(from, vi),          \
                                          __riscv_vle##E##_v_##T##m4(from + 8 * RUN, vi)), \
              vi);                                                                       \
        } else if (g == 4) {                                                             \
          vi = __riscv_vsetvl_e##E##m2(count - i);                                       \
          __riscv_vsseg4e##E##_v_##T##m2x4(                                              \
              panel + 4 * i,                                                             \
              __riscv_vcreate_v_##T##m2x4(__riscv_vle##E##_v_##T##m2(from, vi),          \
                                          __riscv_vle##E##_v_##T##m2(from + 8 * RUN, vi), \
                                          __riscv_vle##E##_v_##T##m2(from + 16 * RUN, vi), \
                                          __riscv_vle##E##_v_##T##m2(from + 24 * RUN, vi)), \
              vi);                                                                       \
        } else {                                                                         \
          vi = __riscv_vsetvl_e##E##m1(count - i);                                       \
          __riscv_vsseg8e##E##_v_##T##m1x8(                                              \
              panel + 8 * i,                                                             \
              __riscv_vcreate_v_##T##m1x8(__riscv_vle##E##_v_##T##m1(from, vi),          \
                                          __riscv_vle##E##_v_##T##m1(from + 8 * RUN, vi), \
                                          __riscv_vle##E##_v_##T##m1(from + 16 * RUN, vi), \
                                          __riscv_vle##E##_v_##T##m1(from + 24 * RUN, vi), \
                                          __riscv_vle##E##_v_##T##m1(from + 32 * RUN, vi), \
                                          __riscv_vle##E##_v_##T##m1(from + 40 * RUN, vi), \
                                          __riscv_vle##E##_v_##T##m1(from + 48 * RUN, vi), \
                                          __riscv_vle##E##_v_##T##m1(from + 56 * RUN, vi)), \
              vi);                                                                       \
        }                                                                                \
      }                                                                                  \
      l0 += (int64_t)vl;                                                                 \
    }                                                                                    \
  }

/* k per round: one register at VLEN 1024; the buffer is 8 KiB either way. */
#define MIPS_LOAD_F32(p, vl) __riscv_vle32_v_f32m1(p, vl)
#define MIPS_LOAD_I8_AS_I16(p, vl) __riscv_vsext_vf2_i16m1(__riscv_vle8_v_i8mf2(p, vl), vl)
MIPS_RVV_TRANSPOSE_PANEL(transpose_panel_grouped_f32, float, float, f32, 32, 32, MIPS_LOAD_F32)
MIPS_RVV_TRANSPOSE_PANEL(transpose_panel_grouped_i8, int8_t, int16_t, i16, 16, 64,
                         MIPS_LOAD_I8_AS_I16)
#undef MIPS_LOAD_F32
#undef MIPS_LOAD_I8_AS_I16
#undef MIPS_RVV_TRANSPOSE_PANEL

static int64_t transpose_columns_f32(float *out, const float *b, ptrdiff_t s1, int64_t k,
                                     int64_t w, int64_t nr) {
  /* Too little to pay for the vector setup; and at VLEN 128 the gather, on the scalar
   * pipe, costs the tiles less than a transpose on their vector unit (measured). */
  if (k < 8 || w < 8 || __riscv_vsetvlmax_e32m1() < 8) return 0;
  if (w == nr && (nr == 32 || nr == 64)) {
    transpose_panel_grouped_f32(out, b, s1, k, nr / 8);
    return w;
  }
  float rows[8 * TRANSPOSE_RUN];
  const bool direct = nr == 8;
  int64_t j = 0;
  for (; j + 8 <= w; j += 8) {
    const float *c = b + j * s1;
    for (int64_t l0 = 0; l0 < k;) {
      const int64_t left = k - l0;
      const size_t vl = __riscv_vsetvl_e32m1((size_t)(direct || left < TRANSPOSE_RUN ? left : TRANSPOSE_RUN));
      vfloat32m1x8_t t = __riscv_vcreate_v_f32m1x8(
          __riscv_vle32_v_f32m1(c + l0, vl), __riscv_vle32_v_f32m1(c + s1 + l0, vl),
          __riscv_vle32_v_f32m1(c + 2 * s1 + l0, vl), __riscv_vle32_v_f32m1(c + 3 * s1 + l0, vl),
          __riscv_vle32_v_f32m1(c + 4 * s1 + l0, vl), __riscv_vle32_v_f32m1(c + 5 * s1 + l0, vl),
          __riscv_vle32_v_f32m1(c + 6 * s1 + l0, vl), __riscv_vle32_v_f32m1(c + 7 * s1 + l0, vl));
      float *panel = out + l0 * nr + j;
      if (direct) {
        __riscv_vsseg8e32_v_f32m1x8(panel, t, vl);
      } else {
        __riscv_vsseg8e32_v_f32m1x8(rows, t, vl);
        place_rows(panel, nr * (ptrdiff_t)sizeof(float), rows, 8 * sizeof(float), vl);
      }
      l0 += (int64_t)vl;
    }
  }
  return j;
}

/* The same for int8, widened to the packed int16 as it is loaded: rows of 8 int16. */
static int64_t transpose_columns_i8(int16_t *out, const int8_t *b, ptrdiff_t s1, int64_t k,
                                    int64_t w, int64_t nr) {
  if (k < 8 || w < 8 || __riscv_vsetvlmax_e32m1() < 8) return 0;
  if (w == nr && (nr == 16 || nr == 32 || nr == 64)) {
    transpose_panel_grouped_i8(out, b, s1, k, nr / 8);
    return w;
  }
  int16_t rows[8 * TRANSPOSE_RUN];
  const bool direct = nr == 8;
#define MIPS_LOAD_COLUMN_I8(f) __riscv_vsext_vf2_i16m1(__riscv_vle8_v_i8mf2(c + (f) * s1 + l0, vl), vl)
  int64_t j = 0;
  for (; j + 8 <= w; j += 8) {
    const int8_t *c = b + j * s1;
    for (int64_t l0 = 0; l0 < k;) {
      const int64_t left = k - l0;
      const size_t vl = __riscv_vsetvl_e16m1((size_t)(direct || left < TRANSPOSE_RUN ? left : TRANSPOSE_RUN));
      vint16m1x8_t t = __riscv_vcreate_v_i16m1x8(
          MIPS_LOAD_COLUMN_I8(0), MIPS_LOAD_COLUMN_I8(1), MIPS_LOAD_COLUMN_I8(2),
          MIPS_LOAD_COLUMN_I8(3), MIPS_LOAD_COLUMN_I8(4), MIPS_LOAD_COLUMN_I8(5),
          MIPS_LOAD_COLUMN_I8(6), MIPS_LOAD_COLUMN_I8(7));
      int16_t *panel = out + l0 * nr + j;
      if (direct) {
        __riscv_vsseg8e16_v_i16m1x8(panel, t, vl);
      } else {
        __riscv_vsseg8e16_v_i16m1x8(rows, t, vl);
        place_rows(panel, nr * (ptrdiff_t)sizeof(int16_t), rows, 8 * sizeof(int16_t), vl);
      }
      l0 += (int64_t)vl;
    }
  }
#undef MIPS_LOAD_COLUMN_I8
  return j;
}

MIPS_RVV_PACK_B(pack_b_f32_rvv, float, float, mips_gather_b_f32, copy_rows_f32, transpose_columns_f32)
MIPS_RVV_PACK_B(pack_b_i8_rvv, int8_t, int16_t, mips_gather_b_i8_to_i16, copy_rows_i8_to_i16,
                transpose_columns_i8)

/*------------------------------------------------------------------------------------
 * Dot products for one row of C (MIPS_MATMUL_ANY_ORDER): up to 8 columns of B at a time
 * run along k at LMUL 2, sharing each load of A's chunk, so per chunk a column costs one
 * load and one vfmacc: the matrix-vector bound, half the peak. Full chunks run at VLMAX;
 * the last one leaves the accumulators' other lanes as they were (tail undisturbed), and
 * one reduction per column ends it.
 *----------------------------------------------------------------------------------*/
#define DOT_COLS(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7)
#define DOT_DECL(j)                                                                    \
  const float *bp##j = b + (J > j ? j : 0) * bs;                                       \
  vfloat32m2_t acc##j = __riscv_vfmv_v_f_f32m2(0.0f, vlmax);
#define DOT_FULL(j) \
  if (J > j) acc##j = __riscv_vfmacc_vv_f32m2(acc##j, va, __riscv_vle32_v_f32m2(bp##j + l, vlmax), vlmax);
#define DOT_TAIL(j)                                                                    \
  if (J > j)                                                                           \
    acc##j = __riscv_vfmacc_vv_f32m2_tu(acc##j, va, __riscv_vle32_v_f32m2(bp##j + l, vl), vl);
#define DOT_STORE(j)                                                                   \
  if (J > j) {                                                                         \
    const float sum = __riscv_vfmv_f_s_f32m1_f32(                                      \
        __riscv_vfredusum_vs_f32m2_f32m1(acc##j, zero, vlmax));                        \
    c[j * cs] = accumulate ? c[j * cs] + sum : sum;                                    \
  }

static MIPS_ALWAYS_INLINE void row_dot_f32_cols(const float *a, const float *b, ptrdiff_t bs,
                                                float *c, ptrdiff_t cs, int64_t k,
                                                bool accumulate, const int J) {
  const size_t vlmax = __riscv_vsetvlmax_e32m2();
  DOT_COLS(DOT_DECL)
  int64_t l = 0;
  for (; l + (int64_t)vlmax <= k; l += (int64_t)vlmax) {
    const vfloat32m2_t va = __riscv_vle32_v_f32m2(a + l, vlmax);
    DOT_COLS(DOT_FULL)
  }
  if (l < k) {
    const size_t vl = __riscv_vsetvl_e32m2((size_t)(k - l));
    const vfloat32m2_t va = __riscv_vle32_v_f32m2(a + l, vl);
    DOT_COLS(DOT_TAIL)
  }
  const vfloat32m1_t zero = __riscv_vfmv_s_f_f32m1(0.0f, 1);
  DOT_COLS(DOT_STORE)
}

static void row_dot_f32_rvv(const mips_row_dot_args *t) {
  const float *a = t->a, *b = t->b;
  float *c = t->c;
  const ptrdiff_t bs = t->b_colstride, cs = t->c_stride;
  int64_t j = 0;
  for (; j + 8 <= t->cols; j += 8) row_dot_f32_cols(a, b + j * bs, bs, c + j * cs, cs, t->k, t->accumulate, 8);
  if (j + 4 <= t->cols) row_dot_f32_cols(a, b + j * bs, bs, c + j * cs, cs, t->k, t->accumulate, 4), j += 4;
  if (j + 2 <= t->cols) row_dot_f32_cols(a, b + j * bs, bs, c + j * cs, cs, t->k, t->accumulate, 2), j += 2;
  if (j < t->cols) row_dot_f32_cols(a, b + j * bs, bs, c + j * cs, cs, t->k, t->accumulate, 1);
}

/* Blocks of up to 4 x 4 dot products at LMUL 1 (MIPS_MATMUL_ANY_ORDER, a C with few
 * columns): per chunk of k, a load of each of the block's rows of A and columns of B and
 * one vfmacc per element of the block, 16 multiply-adds for 8 loads where a row at a time
 * (row_dot_f32_rvv) needs 5 loads for 4. 16 accumulators, 4 + 4 operands: 24 registers. */
#define DB_PAIRS(X)                                                                    \
  X(0, 0) X(0, 1) X(0, 2) X(0, 3) X(1, 0) X(1, 1) X(1, 2) X(1, 3)                      \
  X(2, 0) X(2, 1) X(2, 2) X(2, 3) X(3, 0) X(3, 1) X(3, 2) X(3, 3)
#define DB_FOUR(X) X(0) X(1) X(2) X(3)
#define DB_DECL_ACC(i, j) vfloat32m1_t acc##i##j = __riscv_vfmv_v_f_f32m1(0.0f, vlmax);
#define DB_LOAD_A(i, VL) \
  const vfloat32m1_t va##i = R > i ? __riscv_vle32_v_f32m1(a + i * as + l, VL) : __riscv_vundefined_f32m1();
#define DB_LOAD_B(j, VL) \
  const vfloat32m1_t vb##j = J > j ? __riscv_vle32_v_f32m1(b + j * bs + l, VL) : __riscv_vundefined_f32m1();
#define DB_FULL_A(i) DB_LOAD_A(i, vlmax)
#define DB_FULL_B(j) DB_LOAD_B(j, vlmax)
#define DB_TAIL_A(i) DB_LOAD_A(i, vl)
#define DB_TAIL_B(j) DB_LOAD_B(j, vl)
#define DB_FMA_FULL(i, j) \
  if (R > i && J > j) acc##i##j = __riscv_vfmacc_vv_f32m1(acc##i##j, va##i, vb##j, vlmax);
#define DB_FMA_TAIL(i, j) \
  if (R > i && J > j) acc##i##j = __riscv_vfmacc_vv_f32m1_tu(acc##i##j, va##i, vb##j, vl);
#define DB_STORE(i, j)                                                                 \
  if (R > i && J > j) {                                                                \
    const float sum = __riscv_vfmv_f_s_f32m1_f32(                                      \
        __riscv_vfredusum_vs_f32m1_f32m1(acc##i##j, zero, vlmax));                     \
    float *at = c + i * cs0 + j * cs1;                                                 \
    *at = accumulate ? *at + sum : sum;                                                \
  }

static MIPS_ALWAYS_INLINE void dot_block_f32_body(const mips_dot_block_args *t, const int R,
                                                  const int J) {
  const float *a = t->a, *b = t->b;
  float *c = t->c;
  const ptrdiff_t as = t->a_rowstride, bs = t->b_colstride;
  const ptrdiff_t cs0 = t->c_stride0, cs1 = t->c_stride1;
  const int64_t k = t->k;
  const bool accumulate = t->accumulate;
  const size_t vlmax = __riscv_vsetvlmax_e32m1();
  DB_PAIRS(DB_DECL_ACC)
  int64_t l = 0;
  for (; l + (int64_t)vlmax <= k; l += (int64_t)vlmax) {
    DB_FOUR(DB_FULL_A)
    DB_FOUR(DB_FULL_B)
    DB_PAIRS(DB_FMA_FULL)
  }
  if (l < k) {
    const size_t vl = __riscv_vsetvl_e32m1((size_t)(k - l));
    DB_FOUR(DB_TAIL_A)
    DB_FOUR(DB_TAIL_B)
    DB_PAIRS(DB_FMA_TAIL)
  }
  const vfloat32m1_t zero = __riscv_vfmv_s_f_f32m1(0.0f, 1);
  DB_PAIRS(DB_STORE)
}

/* B's columns for the dot blocks, when B's rows are dense and adjacent (a row-major k x n
 * B, n <= 8): a segment load of n fields splits a run of rows into n columns, where the
 * driver's scalar copy spent five instructions per element (256x4x256 at VLEN 1024: a
 * fifth of the call, eff 0.418 -> 0.522). Only for short k: a 4x4 dot block costs about
 * 110 scalar instructions (16 reductions and stores) plus 10 per chunk of k, against 24
 * vector cycles per chunk, so from 16 chunks it is bound by its vector work and the
 * scalar copy runs beside it for free (measured: the vector copy cost 0.003 eff at
 * 256x4x256, VLEN 256 and 512, and at 256x4x2304, VLEN 1024). */
#define SC_STORE(N, j)                                                                 \
  __riscv_vse32_v_f32m1(columns + (j) * k + l, __riscv_vget_v_f32m1x##N##_f32m1(t, j), vl);
#define SC_CASE(N, STORES)                                                             \
  case N:                                                                              \
    for (int64_t l = 0; l < k;) {                                                      \
      const size_t vl = __riscv_vsetvl_e32m1((size_t)(k - l));                         \
      const vfloat32m1x##N##_t t = __riscv_vlseg##N##e32_v_f32m1x##N(b + l * N, vl);   \
      STORES                                                                           \
      l += (int64_t)vl;                                                                \
    }                                                                                  \
    return true;
static bool split_columns_f32_rvv(float *columns, const float *b, ptrdiff_t s0, ptrdiff_t s1,
                                  int64_t k, int64_t n) {
  if (s1 != 1 || s0 != n || k >= 16 * (int64_t)__riscv_vsetvlmax_e32m1()) return false;
  switch (n) {
    SC_CASE(2, SC_STORE(2, 0) SC_STORE(2, 1))
    SC_CASE(3, SC_STORE(3, 0) SC_STORE(3, 1) SC_STORE(3, 2))
    SC_CASE(4, SC_STORE(4, 0) SC_STORE(4, 1) SC_STORE(4, 2) SC_STORE(4, 3))
    SC_CASE(5, SC_STORE(5, 0) SC_STORE(5, 1) SC_STORE(5, 2) SC_STORE(5, 3) SC_STORE(5, 4))
    SC_CASE(6, SC_STORE(6, 0) SC_STORE(6, 1) SC_STORE(6, 2) SC_STORE(6, 3) SC_STORE(6, 4)
               SC_STORE(6, 5))
    SC_CASE(7, SC_STORE(7, 0) SC_STORE(7, 1) SC_STORE(7, 2) SC_STORE(7, 3) SC_STORE(7, 4)
               SC_STORE(7, 5) SC_STORE(7, 6))
    SC_CASE(8, SC_STORE(8, 0) SC_STORE(8, 1) SC_STORE(8, 2) SC_STORE(8, 3) SC_STORE(8, 4)
               SC_STORE(8, 5) SC_STORE(8, 6) SC_STORE(8, 7))
    default: return false;
  }
}

#define DB_CASE(R, J) \
  case (R) * 8 + (J): dot_block_f32_body(t, R, J); break;
static void dot_block_f32_rvv(const mips_dot_block_args *t) {
  switch (t->rows * 8 + t->cols) {
    DB_CASE(1, 1) DB_CASE(1, 2) DB_CASE(1, 3) DB_CASE(1, 4)
    DB_CASE(2, 1) DB_CASE(2, 2) DB_CASE(2, 3) DB_CASE(2, 4)
    DB_CASE(3, 1) DB_CASE(3, 2) DB_CASE(3, 3) DB_CASE(3, 4)
    DB_CASE(4, 1) DB_CASE(4, 2) DB_CASE(4, 3) DB_CASE(4, 4)
    default: break;
  }
}

/* Column blocks: C with few columns and many rows (a CNN's last stages in NCHW: 256 x 4 x
 * 2304), summed in ascending k. The tiles would run vectors as wide as C's few columns
 * and load A one element at a time; here vectors run along C's rows instead. Each group
 * of 8 rows of A is transposed a run of k at a time (8 vector loads and one segment
 * store: [l][8 rows]), then every k costs one load per group and one multiply-add per
 * group and column, with B's few elements of that k as scalars shared by the groups.
 * Needs 8 floats per register (VLEN >= 256). */
enum { COLUMN_GROUP = 8, COLUMN_RUN = 64 };

#define CB_GROUPS(X) X(0) X(1) X(2) X(3)
#define CB_PAIRS(X)                                                                    \
  X(0, 0) X(0, 1) X(0, 2) X(0, 3) X(1, 0) X(1, 1) X(1, 2) X(1, 3)                      \
  X(2, 0) X(2, 1) X(2, 2) X(2, 3) X(3, 0) X(3, 1) X(3, 2) X(3, 3)
#define CB_DECL_ACC(g, j)                                                              \
  vfloat32m1_t acc##g##j = __riscv_vfmv_v_f_f32m1(0.0f, v8);                           \
  if (G > g && J > j && accumulate)                                                    \
    acc##g##j = __riscv_vlse32_v_f32m1(c + (g * COLUMN_GROUP) * cs0 + j * cs1,         \
                                       cs0 * (ptrdiff_t)sizeof(float), rows##g);
/* Rows of group g inside the block (at least 1), and its first row: a group past the
 * block's end (the wide kernel always transposes 4) reads the block's last row. */
#define CB_ROWS(g)                                                                     \
  const int64_t first##g = g * COLUMN_GROUP < t->rows ? g * COLUMN_GROUP : t->rows - 1;  \
  const size_t rows##g = (size_t)(t->rows - first##g < COLUMN_GROUP ? t->rows - first##g \
                                                                    : COLUMN_GROUP);
/* Group g's rows, a run of k from l0, into its [l][8] panel. Rows past the block's end
 * repeat its last row: their lanes are never stored. Each row's address is the last one's
 * plus a step, so a run costs one add per row and vector. */
static MIPS_ALWAYS_INLINE void transpose_group(float *panel, const float *first, ptrdiff_t as,
                                               size_t rows, int64_t run) {
  ptrdiff_t step[COLUMN_GROUP - 1];
  for (size_t r = 0; r + 1 < COLUMN_GROUP; ++r) step[r] = r + 1 < rows ? as : 0;
  for (int64_t l = 0; l < run;) {
    const size_t vl = __riscv_vsetvl_e32m1((size_t)(run - l));
    const float *p0 = first + l, *p1 = p0 + step[0], *p2 = p1 + step[1], *p3 = p2 + step[2];
    const float *p4 = p3 + step[3], *p5 = p4 + step[4], *p6 = p5 + step[5], *p7 = p6 + step[6];
    vfloat32m1x8_t t = __riscv_vcreate_v_f32m1x8(
        __riscv_vle32_v_f32m1(p0, vl), __riscv_vle32_v_f32m1(p1, vl),
        __riscv_vle32_v_f32m1(p2, vl), __riscv_vle32_v_f32m1(p3, vl),
        __riscv_vle32_v_f32m1(p4, vl), __riscv_vle32_v_f32m1(p5, vl),
        __riscv_vle32_v_f32m1(p6, vl), __riscv_vle32_v_f32m1(p7, vl));
    __riscv_vsseg8e32_v_f32m1x8(panel + l * COLUMN_GROUP, t, vl);
    l += (int64_t)vl;
  }
}
#define CB_TRANSPOSE(g)                                                                \
  if (G > g)                                                                           \
    transpose_group(panel + g * COLUMN_RUN * COLUMN_GROUP, a + first##g * as + l0, as,   \
                    rows##g, run);
#define CB_LOAD_B(j) const float b##j = J > j ? brow[j] : 0.0f;
#define CB_LOAD_A(g)                                                                   \
  const vfloat32m1_t va##g = G > g ? __riscv_vle32_v_f32m1(                            \
                                         panel + (g * COLUMN_RUN + l) * COLUMN_GROUP, v8) \
                                   : __riscv_vfmv_v_f_f32m1(0.0f, v8);
#define CB_FMA(g, j) if (G > g && J > j) acc##g##j = __riscv_vfmacc_vf_f32m1(acc##g##j, b##j, va##g, v8);
#define CB_STORE(g, j)                                                                 \
  if (G > g && J > j)                                                                  \
    __riscv_vsse32_v_f32m1(c + (g * COLUMN_GROUP) * cs0 + j * cs1,                     \
                           cs0 * (ptrdiff_t)sizeof(float), acc##g##j, rows##g);

static MIPS_ALWAYS_INLINE void column_block_f32_body(const mips_column_block_args *t,
                                                     const int G, const int J) {
  const float *a = t->a, *b = t->b;
  float *c = t->c;
  const ptrdiff_t as = t->a_rowstride, bs0 = t->b_stride0;
  const ptrdiff_t cs0 = t->c_stride0, cs1 = t->c_stride1;
  const int64_t k = t->k;
  const bool accumulate = t->accumulate;
  _Alignas(64) float panel[4 * COLUMN_RUN * COLUMN_GROUP];
  const size_t v8 = __riscv_vsetvl_e32m1(COLUMN_GROUP);
  CB_GROUPS(CB_ROWS)
  CB_PAIRS(CB_DECL_ACC)
  for (int64_t l0 = 0; l0 < k; l0 += COLUMN_RUN) {
    const int64_t run = k - l0 < COLUMN_RUN ? k - l0 : COLUMN_RUN;
    CB_GROUPS(CB_TRANSPOSE)
    /* Two k per iteration: the loop's own scalar work is what bounds this. */
#define CB_STEP(L)                                                                     \
  {                                                                                    \
    const int64_t l = (L);                                                             \
    const float *brow = b + (l0 + l) * bs0;                                            \
    CB_LOAD_B(0) CB_LOAD_B(1) CB_LOAD_B(2) CB_LOAD_B(3)                                \
    CB_GROUPS(CB_LOAD_A)                                                               \
    CB_PAIRS(CB_FMA)                                                                   \
  }
    for (int64_t l2 = 0; l2 + 1 < run; l2 += 2) {
      CB_STEP(l2)
      CB_STEP(l2 + 1)
    }
    if (run & 1) CB_STEP(run - 1)
#undef CB_STEP
  }
  CB_PAIRS(CB_STORE)
}

/* From VLEN 512 a register holds 16 or 32 floats, and 8-row groups would fill half or a
 * quarter of it. F = 2 or 4 groups are interleaved a second time, as 64-bit pairs of
 * rows: a segment store of F registers of the groups' [l][8] rows gives [l][32] (or
 * [l][16]) rows, so each k costs one full-width load per F groups. Lane x of a wide
 * row is row 8 * ((x / 2) % F) + 2 * (x / (2 * F)) + x % 2 of the block; C is read and
 * written through an index vector of those rows (once per element of C). */
/* Two floats moved as one 64-bit element: an alias of the float buffers. */
typedef uint64_t __attribute__((may_alias)) pair_bits;
#define CBW_WIDE(X) X(0) X(1)
#define CBW_ROW_OF(X, w) X(w, 0) X(w, 1) X(w, 2) X(w, 3) X(w, 4) X(w, 5) X(w, 6) X(w, 7) X(w, 8) X(w, 9) X(w, 10) X(w, 11) X(w, 12) X(w, 13) X(w, 14) X(w, 15)
#define CBW_PAIRS(X) CBW_ROW_OF(X, 0) CBW_ROW_OF(X, 1)
#define CB_COLS16(X)                                                                   \
  X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13) X(14) X(15)
#define CBW_DECL_ACC(w, j)                                                             \
  vfloat32m1_t acc##w##j = __riscv_vfmv_v_f_f32m1(0.0f, lanes);                        \
  if (W > w && J > j && accumulate && t->rows > w * (int64_t)lanes)                   \
    acc##w##j = __riscv_vloxei64_v_f32m1_m(valid##w, c + w * lanes * cs0 + j * cs1,    \
                                           offsets, lanes);
#define CBW_VALID(w)                                                                   \
  const vbool32_t valid##w = __riscv_vmsltu_vx_u64m2_b32(                              \
      block_rows, (uint64_t)(t->rows > w * (int64_t)lanes ? t->rows - w * (int64_t)lanes : 0), lanes);
/* Register groups as wide as the segment store allows (F fields x LMUL <= 8): the loop's
 * scalar work is per vector. */
#define CBW_INTERLEAVE(w)                                                              \
  if (W > w)                                                                           \
    for (int64_t l = 0; l < run;) {                                                    \
      const pair_bits *from = (const pair_bits *)(panel + (w * F * COLUMN_RUN + l) * COLUMN_GROUP); \
      const ptrdiff_t next = COLUMN_RUN * COLUMN_GROUP / 2; /* one group on, in pairs */ \
      pair_bits *to = (pair_bits *)(wide + (w * COLUMN_RUN + l) * lanes);              \
      size_t vl;                                                                       \
      if (F == 2) {                                                                    \
        vl = __riscv_vsetvl_e64m4((size_t)(run - l) * 4);                              \
        __riscv_vsseg2e64_v_u64m4x2(                                                   \
            to, __riscv_vcreate_v_u64m4x2(__riscv_vle64_v_u64m4(from, vl),             \
                                          __riscv_vle64_v_u64m4(from + next, vl)), vl); \
      } else {                                                                         \
        vl = __riscv_vsetvl_e64m2((size_t)(run - l) * 4);                              \
        __riscv_vsseg4e64_v_u64m2x4(                                                   \
            to, __riscv_vcreate_v_u64m2x4(__riscv_vle64_v_u64m2(from, vl),             \
                                          __riscv_vle64_v_u64m2(from + next, vl),      \
                                          __riscv_vle64_v_u64m2(from + 2 * next, vl),  \
                                          __riscv_vle64_v_u64m2(from + 3 * next, vl)), vl); \
      }                                                                                \
      l += (int64_t)vl / 4;                                                            \
    }
#define CBW_LOAD_A(w)                                                                  \
  const vfloat32m1_t va##w = W > w ? __riscv_vle32_v_f32m1(wide + (w * COLUMN_RUN + l) * lanes, lanes) \
                                   : __riscv_vfmv_v_f_f32m1(0.0f, lanes);
#define CBW_FMA(w, j) if (W > w && J > j) acc##w##j = __riscv_vfmacc_vf_f32m1(acc##w##j, b##j, va##w, lanes);
#define CBW_STORE(w, j)                                                                \
  if (W > w && J > j && t->rows > w * (int64_t)lanes) /* a wide group in the block */  \
    __riscv_vsoxei64_v_f32m1_m(valid##w, c + w * lanes * cs0 + j * cs1, offsets, acc##w##j, lanes);

static MIPS_ALWAYS_INLINE void column_block_wide_f32_body(const mips_column_block_args *t,
                                                          const int F, const int J) {
  const int W = 4 / F; /* wide groups of F * 8 rows */
  const float *a = t->a, *b = t->b;
  float *c = t->c;
  const ptrdiff_t as = t->a_rowstride, bs0 = t->b_stride0;
  const ptrdiff_t cs0 = t->c_stride0, cs1 = t->c_stride1;
  const int64_t k = t->k;
  const bool accumulate = t->accumulate;
  /* Aligned for the 64-bit accesses of the second interleave. */
  _Alignas(64) float panel[4 * COLUMN_RUN * COLUMN_GROUP];
  _Alignas(64) float wide[4 * COLUMN_RUN * COLUMN_GROUP];
  const size_t lanes = (size_t)F * COLUMN_GROUP;
  const int G = 4;
  /* The block row of each lane, and its byte offset in a column of C. */
  const vuint64m2_t x = __riscv_vid_v_u64m2(lanes);
  const vuint64m2_t block_rows = __riscv_vadd_vv_u64m2(
      __riscv_vadd_vv_u64m2(
          __riscv_vsll_vx_u64m2(__riscv_vand_vx_u64m2(__riscv_vsrl_vx_u64m2(x, 1, lanes), (uint64_t)F - 1, lanes), 3, lanes),
          __riscv_vsll_vx_u64m2(__riscv_vsrl_vx_u64m2(x, F == 2 ? 2 : 3, lanes), 1, lanes), lanes),
      __riscv_vand_vx_u64m2(x, 1, lanes), lanes);
  const vuint64m2_t offsets =
      __riscv_vmul_vx_u64m2(block_rows, (uint64_t)(cs0 * (ptrdiff_t)sizeof(float)), lanes);
  CBW_WIDE(CBW_VALID)
  CB_GROUPS(CB_ROWS)
  CBW_PAIRS(CBW_DECL_ACC)
  for (int64_t l0 = 0; l0 < k; l0 += COLUMN_RUN) {
    const int64_t run = k - l0 < COLUMN_RUN ? k - l0 : COLUMN_RUN;
    CB_GROUPS(CB_TRANSPOSE)
    CBW_WIDE(CBW_INTERLEAVE)
#define CBW_STEP(L)                                                                    \
  {                                                                                    \
    const int64_t l = (L);                                                             \
    const float *brow = b + (l0 + l) * bs0;                                            \
    CB_COLS16(CB_LOAD_B)                                                               \
    CBW_WIDE(CBW_LOAD_A)                                                               \
    CBW_PAIRS(CBW_FMA)                                                                 \
  }
    for (int64_t l2 = 0; l2 + 1 < run; l2 += 2) {
      CBW_STEP(l2)
      CBW_STEP(l2 + 1)
    }
    if (run & 1) CBW_STEP(run - 1)
#undef CBW_STEP
  }
  CBW_PAIRS(CBW_STORE)
}

#define CB_CASE(G, J) \
  case (G) * 8 + (J): column_block_f32_body(t, G, J); break;
#define CBW_CASE(F, J) \
  case (F) * 32 + (J): column_block_wide_f32_body(t, F, J); break;
/* VLEN / 64 columns: 4 at VLEN 256, 8 at 512, 16 from 1024 (16 accumulators); at VLEN
 * 128 the tiles are faster. */
static int64_t column_block_max_cols_rvv(void) {
  const int64_t lanes = (int64_t)__riscv_vsetvlmax_e32m1();
  return lanes < 8 ? 0 : lanes / 2 < MIPS_COLUMN_BLOCK_COLS ? lanes / 2 : MIPS_COLUMN_BLOCK_COLS;
}

static void column_block_f32_rvv(const mips_column_block_args *t) {
  const size_t lanes = __riscv_vsetvlmax_e32m1();
  if (lanes >= 16) {
    /* Up to 16 accumulators: 8 columns in two wide groups, 16 in one. */
    switch ((lanes >= 32 ? 4 : 2) * 32 + (int)t->cols) {
      CBW_CASE(2, 1) CBW_CASE(2, 2) CBW_CASE(2, 3) CBW_CASE(2, 4)
      CBW_CASE(2, 5) CBW_CASE(2, 6) CBW_CASE(2, 7) CBW_CASE(2, 8)
      CBW_CASE(4, 1) CBW_CASE(4, 2) CBW_CASE(4, 3) CBW_CASE(4, 4)
      CBW_CASE(4, 5) CBW_CASE(4, 6) CBW_CASE(4, 7) CBW_CASE(4, 8)
      CBW_CASE(4, 9) CBW_CASE(4, 10) CBW_CASE(4, 11) CBW_CASE(4, 12)
      CBW_CASE(4, 13) CBW_CASE(4, 14) CBW_CASE(4, 15) CBW_CASE(4, 16)
      default: break;
    }
    return;
  }
  const int groups = (int)((t->rows + COLUMN_GROUP - 1) / COLUMN_GROUP);
  switch (groups * 8 + (int)t->cols) {
    CB_CASE(1, 1) CB_CASE(1, 2) CB_CASE(1, 3) CB_CASE(1, 4)
    CB_CASE(2, 1) CB_CASE(2, 2) CB_CASE(2, 3) CB_CASE(2, 4)
    CB_CASE(3, 1) CB_CASE(3, 2) CB_CASE(3, 3) CB_CASE(3, 4)
    CB_CASE(4, 1) CB_CASE(4, 2) CB_CASE(4, 3) CB_CASE(4, 4)
    default: break;
  }
}

/* int8: per chunk of one register of bytes, a column costs a load, a widening multiply
 * to i16 and a widening add into i32 accumulators (four registers each), 4 of them at a
 * time; the sums wrap modulo 2^32 as the tiles' do, so their order does not matter. */
#define IDOT_COLS(X) X(0) X(1) X(2) X(3)
#define IDOT_DECL(j)                                                                   \
  const int8_t *bp##j = b + (J > j ? j : 0) * bs;                                      \
  vint32m4_t acc##j = __riscv_vmv_v_x_i32m4(0, vlmax);
/* All products of a chunk first, then all the sums: one vtype change each way per chunk
 * instead of per column. */
#define IDOT_MUL(j, VL) \
  const vint16m2_t prod##j = __riscv_vwmul_vv_i16m2(va, __riscv_vle8_v_i8m1(bp##j + l, VL), VL);
#define IDOT_MUL_FULL(j) IDOT_MUL(j, vlmax)
#define IDOT_MUL_TAIL(j) IDOT_MUL(j, vl)
#define IDOT_ADD_FULL(j) if (J > j) acc##j = __riscv_vwadd_wv_i32m4(acc##j, prod##j, vlmax);
#define IDOT_ADD_TAIL(j) if (J > j) acc##j = __riscv_vwadd_wv_i32m4_tu(acc##j, acc##j, prod##j, vl);
#define IDOT_STORE(j)                                                                  \
  if (J > j) {                                                                         \
    const uint32_t sum = (uint32_t)__riscv_vmv_x_s_i32m1_i32(                          \
        __riscv_vredsum_vs_i32m4_i32m1(acc##j, zero, vlmax));                          \
    c[j * cs] = (int32_t)(accumulate ? (uint32_t)c[j * cs] + sum : sum);               \
  }

static MIPS_ALWAYS_INLINE void row_dot_i8i32_cols(const int8_t *a, const int8_t *b, ptrdiff_t bs,
                                                  int32_t *c, ptrdiff_t cs, int64_t k,
                                                  bool accumulate, const int J) {
  const size_t vlmax = __riscv_vsetvlmax_e8m1();
  IDOT_COLS(IDOT_DECL)
  int64_t l = 0;
  for (; l + (int64_t)vlmax <= k; l += (int64_t)vlmax) {
    const vint8m1_t va = __riscv_vle8_v_i8m1(a + l, vlmax);
    IDOT_COLS(IDOT_MUL_FULL)
    IDOT_COLS(IDOT_ADD_FULL)
  }
  if (l < k) {
    const size_t vl = __riscv_vsetvl_e8m1((size_t)(k - l));
    const vint8m1_t va = __riscv_vle8_v_i8m1(a + l, vl);
    IDOT_COLS(IDOT_MUL_TAIL)
    IDOT_COLS(IDOT_ADD_TAIL)
  }
  const vint32m1_t zero = __riscv_vmv_s_x_i32m1(0, 1);
  IDOT_COLS(IDOT_STORE)
}

static void row_dot_i8i32_rvv(const mips_row_dot_args *t) {
  const int8_t *a = t->a, *b = t->b;
  int32_t *c = t->c;
  const ptrdiff_t bs = t->b_colstride, cs = t->c_stride;
  int64_t j = 0;
  for (; j + 4 <= t->cols; j += 4)
    row_dot_i8i32_cols(a, b + j * bs, bs, c + j * cs, cs, t->k, t->accumulate, 4);
  if (j + 2 <= t->cols) row_dot_i8i32_cols(a, b + j * bs, bs, c + j * cs, cs, t->k, t->accumulate, 2), j += 2;
  if (j < t->cols) row_dot_i8i32_cols(a, b + j * bs, bs, c + j * cs, cs, t->k, t->accumulate, 1);
}

/*------------------------------------------------------------------------------------
 * Packing a row-major int8 A. Read in place, each of a tile's rows has its own pointer,
 * stepped every two k: 15 rows cost 7.5 additions per k beside the 15 loads, which bounds
 * an LMUL 1 panel (i8 96^3 at VLEN 1024 was scalar-bound at eff 0.79). A panel of
 * (i, l) -> l * stride + i needs one pointer. Eight rows are interleaved by a segment
 * store; above eight, two such halves are interleaved again as 64-bit elements (8 bytes,
 * one k of a half). Rows past `rows` repeat the last row: read, never used.
 *----------------------------------------------------------------------------------*/
static void interleave_8_rows_i8(int8_t *dst, const int8_t *a, ptrdiff_t s0, int64_t rows,
                                 int64_t kc) {
  const int8_t *r[8];
  for (int i = 0; i < 8; ++i) r[i] = a + (i < rows ? i : rows - 1) * s0;
  for (int64_t l = 0; l < kc;) {
    const size_t vl = __riscv_vsetvl_e8m1((size_t)(kc - l));
    const vint8m1x8_t t = __riscv_vcreate_v_i8m1x8(
        __riscv_vle8_v_i8m1(r[0] + l, vl), __riscv_vle8_v_i8m1(r[1] + l, vl),
        __riscv_vle8_v_i8m1(r[2] + l, vl), __riscv_vle8_v_i8m1(r[3] + l, vl),
        __riscv_vle8_v_i8m1(r[4] + l, vl), __riscv_vle8_v_i8m1(r[5] + l, vl),
        __riscv_vle8_v_i8m1(r[6] + l, vl), __riscv_vle8_v_i8m1(r[7] + l, vl));
    __riscv_vsseg8e8_v_i8m1x8(dst + l * 8, t, vl);
    l += (int64_t)vl;
  }
}

static int64_t pack_a_rows_i8_rvv(void *dst, const void *a, ptrdiff_t s0, int64_t rows,
                                  int64_t kc) {
  int8_t *out = dst;
  if (rows <= 8) {
    interleave_8_rows_i8(out, a, s0, rows, kc);
    return 8;
  }
  /* Aligned for the 64-bit accesses; the driver's k blocks are at most MIPS_KC_MAX. */
  _Alignas(8) int8_t low[8 * MIPS_KC_MAX], high[8 * MIPS_KC_MAX];
  interleave_8_rows_i8(low, a, s0, 8, kc);
  interleave_8_rows_i8(high, (const int8_t *)a + 8 * s0, s0, rows - 8, kc);
  const pair_bits *lo = (const pair_bits *)(const void *)low;
  const pair_bits *hi = (const pair_bits *)(const void *)high;
  pair_bits *to = (pair_bits *)dst;
  for (int64_t l = 0; l < kc;) {
    const size_t vl = __riscv_vsetvl_e64m4((size_t)(kc - l));
    __riscv_vsseg2e64_v_u64m4x2(
        to + 2 * l,
        __riscv_vcreate_v_u64m4x2(__riscv_vle64_v_u64m4(lo + l, vl),
                                  __riscv_vle64_v_u64m4(hi + l, vl)), vl);
    l += (int64_t)vl;
  }
  return 16;
}

/*------------------------------------------------------------------------------------
 * The kernel set
 *----------------------------------------------------------------------------------*/
#define MIPS_RVV_TILE_DESC(NAME, MR, COST, PACKED_T, PACK, NARROW, WIDE, WIDE_ROWS,    \
                           PACK_A_ROWS, RUN_BLOCKS)                                    \
  static const mips_tile NAME##_tile = {                                               \
      .name = #NAME, .mr = MR, .nr = NAME##_nr, .cost_per_row = COST,                  \
      .needs_packing = false, .packed_b_size = sizeof(PACKED_T), .pack_b = PACK,       \
      .run = NAME, .by_rows = NAME##_by_rows, .available = NULL, .narrow = NARROW,     \
      .wide = WIDE, .wide_rows = WIDE_ROWS, .pack_a_rows = PACK_A_ROWS,                \
      .run_blocks = RUN_BLOCKS};

/* f32 at LMUL 1 is the scalar-bound tile (one load of A per register multiplied). */
MIPS_RVV_TILE_DESC(f32_15x1v_rvv, 15, 1, float, pack_b_f32_rvv, NULL, NULL, 0, NULL,
                   f32_15x1v_rvv_blocks)
MIPS_RVV_TILE_DESC(f32_7x4v_rvv, 7, 4, float, pack_b_f32_rvv, NULL, NULL, 0, NULL, NULL)
MIPS_RVV_TILE_DESC(f32_15x2v_rvv, 15, 2, float, pack_b_f32_rvv, &f32_15x1v_rvv_tile,
                   &f32_7x4v_rvv_tile, 7, NULL, NULL)
MIPS_RVV_TILE_DESC(i8i32_15x1v_rvv, 15, 1, int16_t, pack_b_i8_rvv, NULL, NULL, 0,
                   pack_a_rows_i8_rvv, NULL)
/* No row packer: at LMUL 4 its vector work always bounds it (scalar_bound_in_place). */
MIPS_RVV_TILE_DESC(i8i32_7x4v_rvv, 7, 4, int16_t, pack_b_i8_rvv, NULL, NULL, 0, NULL, NULL)
MIPS_RVV_TILE_DESC(i8i32_15x2v_rvv, 15, 2, int16_t, pack_b_i8_rvv, &i8i32_15x1v_rvv_tile,
                   &i8i32_7x4v_rvv_tile, 7, pack_a_rows_i8_rvv, NULL)

/* The first entry is the small-problem tile; the driver costs the others per call. */
static const mips_tile *const f32_tiles[] = {&f32_15x2v_rvv_tile, &f32_7x4v_rvv_tile,
                                             &f32_15x1v_rvv_tile};
static const mips_tile *const i8i32_tiles[] = {&i8i32_15x2v_rvv_tile, &i8i32_7x4v_rvv_tile,
                                               &i8i32_15x1v_rvv_tile};

static unsigned rvv_vector_bits(void) { return (unsigned)__riscv_vsetvlmax_e8m1() * 8; }

const mips_kernel_set mips_kernels_rvv = {
    .name = "rvv",
    .vector_bits = rvv_vector_bits,
    .tiles = {[MIPS_DTYPE_F32] = f32_tiles, [MIPS_DTYPE_I8I32] = i8i32_tiles},
    .tile_count = {[MIPS_DTYPE_F32] = sizeof f32_tiles / sizeof f32_tiles[0],
                   [MIPS_DTYPE_I8I32] = sizeof i8i32_tiles / sizeof i8i32_tiles[0]},
    .row_dot = {[MIPS_DTYPE_F32] = row_dot_f32_rvv, [MIPS_DTYPE_I8I32] = row_dot_i8i32_rvv},
    .row_dot_min_k = 16,
    /* f32 at 1024 x 1024, weights stored n x k, eff at VLEN 256 / 1024: 4 rows 0.45 / 0.43
     * as dot products, 0.41 / 0.44 in ascending order; 6 rows 0.45 / 0.43 and 0.53 / 0.54. */
    .row_dot_max_rows = {[MIPS_DTYPE_F32] = 4, [MIPS_DTYPE_I8I32] = 8},
    .f32_dot_block = dot_block_f32_rvv,
    .dot_block_max_cols = 8,
    .f32_split_columns = split_columns_f32_rvv,
    .f32_column_block = column_block_f32_rvv,
    .column_block_max_cols = column_block_max_cols_rvv,
    /* tiles[0]'s narrow variants; their widths at VLEN 128 (m1 of f32, mf2 of int16): 4. */
    .tiny_by_rows = {[MIPS_DTYPE_F32] = f32_15x1v_rvv_tiny_by_rows,
                     [MIPS_DTYPE_I8I32] = i8i32_15x1v_rvv_tiny_by_rows},
};
