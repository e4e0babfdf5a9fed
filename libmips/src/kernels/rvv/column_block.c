/* SPDX-License-Identifier: Apache-2.0 */
/* Column blocks: f32 in ascending k for a C with few columns and many rows. */
#include "kernels/rvv/rvv_kernels.h"

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
int64_t mips_column_block_max_cols_rvv(void) {
  const int64_t lanes = (int64_t)__riscv_vsetvlmax_e32m1();
  return lanes < 8 ? 0 : lanes / 2 < MIPS_COLUMN_BLOCK_COLS ? lanes / 2 : MIPS_COLUMN_BLOCK_COLS;
}

void mips_column_block_f32_rvv(const mips_column_block_args *t) {
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
