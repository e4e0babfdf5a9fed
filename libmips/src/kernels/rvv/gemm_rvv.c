/* RVV 1.0 tiles. This translation unit alone is compiled for +v; the dispatcher selects
 * the RVV kernel set only when AT_HWCAP reports V.
 *
 * A tile holds `rows` (<= mr) rows of C in vector registers, one register group per row,
 * vl = cols (<= nr = VLMAX) columns wide, and runs over k: per step one unit-stride load
 * of B's row and one vfmacc.vf per row with A(i, l) from a packed panel. Per k step the
 * vector unit spends LMUL on the load and rows * LMUL on the multiply-adds, so more rows
 * per tile is better, up to the 32 registers: 15 rows at LMUL 2 use all of them
 * (15 * 2 accumulators + 2 for B). vl is whatever vsetvl grants, so the code is correct
 * for every VLEN; padding columns are never computed.
 *
 * The row count is a compile-time constant in each instantiation (stamped out from one
 * body per tile shape), so unused accumulators vanish. */
#include <riscv_vector.h>

#include "mips_internal.h"

#define MIPS_ALWAYS_INLINE inline __attribute__((always_inline))

/* X(i, L) for each row i of the largest tile. */
#define MIPS_RVV_ROWS(X, L)                                                           \
  X(0, L) X(1, L) X(2, L) X(3, L) X(4, L) X(5, L) X(6, L) X(7, L) X(8, L) X(9, L)     \
  X(10, L) X(11, L) X(12, L) X(13, L) X(14, L)

/* Instantiates NAME##_rows(t, R) for R = 1..MR behind one switch. */
#define MIPS_RVV_ROW_SWITCH(NAME, MR)                                                  \
  static void NAME(const mips_tile_args *t) {                                          \
    _Static_assert((MR) >= 1 && (MR) <= 15, "rows per tile");                         \
    switch (t->rows) {                                                                 \
      case 1: NAME##_rows(t, 1); break;                                                \
      case 2: if ((MR) >= 2) NAME##_rows(t, 2); break;                                 \
      case 3: if ((MR) >= 3) NAME##_rows(t, 3); break;                                 \
      case 4: if ((MR) >= 4) NAME##_rows(t, 4); break;                                 \
      case 5: if ((MR) >= 5) NAME##_rows(t, 5); break;                                 \
      case 6: if ((MR) >= 6) NAME##_rows(t, 6); break;                                 \
      case 7: if ((MR) >= 7) NAME##_rows(t, 7); break;                                 \
      case 8: if ((MR) >= 8) NAME##_rows(t, 8); break;                                 \
      case 9: if ((MR) >= 9) NAME##_rows(t, 9); break;                                 \
      case 10: if ((MR) >= 10) NAME##_rows(t, 10); break;                              \
      case 11: if ((MR) >= 11) NAME##_rows(t, 11); break;                              \
      case 12: if ((MR) >= 12) NAME##_rows(t, 12); break;                              \
      case 13: if ((MR) >= 13) NAME##_rows(t, 13); break;                              \
      case 14: if ((MR) >= 14) NAME##_rows(t, 14); break;                              \
      case 15: if ((MR) >= 15) NAME##_rows(t, 15); break;                              \
      default: break;                                                                  \
    }                                                                                  \
  }

/*------------------------------------------------------------------------------------
 * A's elements. A tile reads A(i, l) either from a panel (one pointer, rows adjacent:
 * a packed panel or a column-major A) or from rows (a row-major A read in place: one
 * pointer per row, k adjacent). Either way each load is one instruction with an
 * immediate offset, and the loop over k is unrolled by two so pointer updates are
 * shared by two steps. `a_rows` is a compile-time constant at every use.
 *----------------------------------------------------------------------------------*/
#define A_PTR(i, L) const A_T *ap##i = a + (R > i ? i : 0) * a_rs;
#define A_STEP_ROWS(i, L) ap##i += 2;
#define A_AT(i, u) (a_rows ? ap##i[u] : a[(u) * a_ks + i])

/*------------------------------------------------------------------------------------
 * f32: accumulators and B rows at LMUL L.
 *----------------------------------------------------------------------------------*/
#define F32_DECL(i, L) vfloat32m##L##_t acc##i = zero;
#define F32_INIT(i, L)                                                                 \
  if (R > i && t->accumulate)                                                          \
    acc##i = cs1 == 1 ? __riscv_vle32_v_f32m##L(c + i * cs0, vl)                       \
                      : __riscv_vlse32_v_f32m##L(c + i * cs0, cs1 * (ptrdiff_t)sizeof(float), vl); \
  else if (R > i && i > 0)                                                             \
    acc##i = __riscv_vfmv_v_f_f32m##L(0.0f, vl);
#define F32_FMA0(i, L) if (R > i) acc##i = __riscv_vfmacc_vf_f32m##L(acc##i, A_AT(i, 0), bv, vl);
#define F32_FMA1(i, L) if (R > i) acc##i = __riscv_vfmacc_vf_f32m##L(acc##i, A_AT(i, 1), bv, vl);
#define F32_STORE(i, L)                                                                \
  if (R > i) {                                                                         \
    if (cs1 == 1) __riscv_vse32_v_f32m##L(c + i * cs0, acc##i, vl);                    \
    else __riscv_vsse32_v_f32m##L(c + i * cs0, cs1 * (ptrdiff_t)sizeof(float), acc##i, vl); \
  }

#define MIPS_RVV_F32_TILE(NAME, MR, L)                                                 \
  static MIPS_ALWAYS_INLINE void NAME##_body(const mips_tile_args *t, const int R,      \
                                             const bool a_rows) {                      \
    typedef float A_T;                                                                 \
    const size_t vl = __riscv_vsetvl_e32m##L((size_t)t->cols);                         \
    const float *a = t->a, *b = t->b;                                                  \
    float *c = t->c;                                                                   \
    const ptrdiff_t a_rs = t->a_rowstride, a_ks = t->a_kstride, bks = t->b_kstride;    \
    const ptrdiff_t cs0 = t->c_stride0, cs1 = t->c_stride1;                            \
    const vfloat32m##L##_t zero = __riscv_vfmv_v_f_f32m##L(0.0f, vl);                  \
    MIPS_RVV_ROWS(A_PTR, L)                                                            \
    MIPS_RVV_ROWS(F32_DECL, L)                                                         \
    MIPS_RVV_ROWS(F32_INIT, L)                                                         \
    int64_t l = 0;                                                                     \
    for (; l + 2 <= t->k; l += 2) {                                                    \
      vfloat32m##L##_t bv = __riscv_vle32_v_f32m##L(b, vl);                            \
      MIPS_RVV_ROWS(F32_FMA0, L)                                                       \
      bv = __riscv_vle32_v_f32m##L(b + bks, vl);                                       \
      MIPS_RVV_ROWS(F32_FMA1, L)                                                       \
      b += 2 * bks;                                                                    \
      if (a_rows) { MIPS_RVV_ROWS(A_STEP_ROWS, L) } else a += 2 * a_ks;                \
    }                                                                                  \
    if (l < t->k) {                                                                    \
      const vfloat32m##L##_t bv = __riscv_vle32_v_f32m##L(b, vl);                      \
      MIPS_RVV_ROWS(F32_FMA0, L)                                                       \
    }                                                                                  \
    MIPS_RVV_ROWS(F32_STORE, L)                                                        \
  }                                                                                    \
  static MIPS_ALWAYS_INLINE void NAME##_rows(const mips_tile_args *t, const int R) {   \
    if (R > 1 && t->a_kstride == 1) NAME##_body(t, R, true);                           \
    else NAME##_body(t, R, false);                                                     \
  }                                                                                    \
  MIPS_RVV_ROW_SWITCH(NAME, MR)                                                        \
  static int64_t NAME##_nr(void) { return (int64_t)__riscv_vsetvlmax_e32m##L(); }

MIPS_RVV_F32_TILE(f32_15x2v_rvv, 15, 2)
MIPS_RVV_F32_TILE(f32_7x4v_rvv, 7, 4)

/* Packs f32 B panels: rows of B that are unit-stride are copied with vector loads and
 * stores; other layouts (a transposed B) go through scalar code, which runs on the
 * scalar pipe beside the tiles' vector work instead of paying strided vector accesses
 * element by element. Padding columns are left unwritten: these tiles never read them. */
static void pack_b_f32_rvv(void *dst, const void *src, ptrdiff_t s0, ptrdiff_t s1, int64_t k,
                           int64_t cols, int64_t nr) {
  float *out = dst;
  const float *b = src;
  for (int64_t j0 = 0; j0 < cols; j0 += nr, out += k * nr) {
    const int64_t w = cols - j0 < nr ? cols - j0 : nr;
    if (s1 == 1) {
      for (int64_t l = 0; l < k; ++l) {
        const float *row = b + l * s0 + j0;
        for (int64_t j = 0; j < w;) {
          const size_t vl = __riscv_vsetvl_e32m2((size_t)(w - j));
          __riscv_vse32_v_f32m2(out + l * nr + j, __riscv_vle32_v_f32m2(row + j, vl), vl);
          j += (int64_t)vl;
        }
      }
    } else {
      for (int64_t j = 0; j < w; ++j) {
        const float *col = b + (j0 + j) * s1;
        for (int64_t l = 0; l < k; ++l) out[l * nr + j] = col[l * s0];
      }
    }
  }
}

/*------------------------------------------------------------------------------------
 * i8 x i8 -> i32: B widened to i16 (LMUL 1), i32 accumulators (LMUL 2), vwmacc.vx with
 * A as a sign-extended scalar. e16m1 and e32m2 share VLMAX, so the inner loop never
 * changes vtype. vwmacc wraps modulo 2^32 like the scalar kernels. Unpacked B (small
 * problems) is loaded as i8 and sign-extended in the loop.
 *----------------------------------------------------------------------------------*/
#define I8_DECL(i, L) vint32m2_t acc##i = zero;
#define I8_INIT(i, L)                                                                  \
  if (R > i && t->accumulate)                                                          \
    acc##i = cs1 == 1 ? __riscv_vle32_v_i32m2(c + i * cs0, vl)                         \
                      : __riscv_vlse32_v_i32m2(c + i * cs0, cs1 * (ptrdiff_t)sizeof(int32_t), vl); \
  else if (R > i && i > 0)                                                             \
    acc##i = __riscv_vmv_v_x_i32m2(0, vl);
#define I8_FMA0(i, L) if (R > i) acc##i = __riscv_vwmacc_vx_i32m2(acc##i, A_AT(i, 0), bv, vl);
#define I8_FMA1(i, L) if (R > i) acc##i = __riscv_vwmacc_vx_i32m2(acc##i, A_AT(i, 1), bv, vl);
#define I8_STORE(i, L)                                                                 \
  if (R > i) {                                                                         \
    if (cs1 == 1) __riscv_vse32_v_i32m2(c + i * cs0, acc##i, vl);                      \
    else __riscv_vsse32_v_i32m2(c + i * cs0, cs1 * (ptrdiff_t)sizeof(int32_t), acc##i, vl); \
  }

static MIPS_ALWAYS_INLINE vint16m1_t i8_load_b(const void *b, bool packed, size_t vl) {
  return packed ? __riscv_vle16_v_i16m1(b, vl)
                : __riscv_vsext_vf2_i16m1(__riscv_vle8_v_i8mf2(b, vl), vl);
}

#define MIPS_RVV_I8_TILE(NAME, MR)                                                     \
  static MIPS_ALWAYS_INLINE void NAME##_body(const mips_tile_args *t, const int R,     \
                                             const bool packed, const bool a_rows) {   \
    typedef int8_t A_T;                                                                \
    const size_t vl = __riscv_vsetvl_e16m1((size_t)t->cols);                           \
    const int8_t *a = t->a;                                                            \
    const char *b = t->b;                                                              \
    int32_t *c = t->c;                                                                 \
    const ptrdiff_t a_rs = t->a_rowstride, a_ks = t->a_kstride;                        \
    const ptrdiff_t b_step = t->b_kstride * (packed ? 2 : 1);                          \
    const ptrdiff_t cs0 = t->c_stride0, cs1 = t->c_stride1;                            \
    const vint32m2_t zero = __riscv_vmv_v_x_i32m2(0, vl);                              \
    MIPS_RVV_ROWS(A_PTR, 0)                                                            \
    MIPS_RVV_ROWS(I8_DECL, 0)                                                          \
    MIPS_RVV_ROWS(I8_INIT, 0)                                                          \
    int64_t l = 0;                                                                     \
    for (; l + 2 <= t->k; l += 2) {                                                    \
      vint16m1_t bv = i8_load_b(b, packed, vl);                                        \
      MIPS_RVV_ROWS(I8_FMA0, 0)                                                        \
      bv = i8_load_b(b + b_step, packed, vl);                                          \
      MIPS_RVV_ROWS(I8_FMA1, 0)                                                        \
      b += 2 * b_step;                                                                 \
      if (a_rows) { MIPS_RVV_ROWS(A_STEP_ROWS, 0) } else a += 2 * a_ks;                \
    }                                                                                  \
    if (l < t->k) {                                                                    \
      const vint16m1_t bv = i8_load_b(b, packed, vl);                                  \
      MIPS_RVV_ROWS(I8_FMA0, 0)                                                        \
    }                                                                                  \
    MIPS_RVV_ROWS(I8_STORE, 0)                                                         \
  }                                                                                    \
  static MIPS_ALWAYS_INLINE void NAME##_rows(const mips_tile_args *t, const int R) {   \
    const bool a_rows = R > 1 && t->a_kstride == 1;                                    \
    if (t->b_packed) {                                                                 \
      if (a_rows) NAME##_body(t, R, true, true);                                       \
      else NAME##_body(t, R, true, false);                                             \
    } else {                                                                           \
      if (a_rows) NAME##_body(t, R, false, true);                                      \
      else NAME##_body(t, R, false, false);                                            \
    }                                                                                  \
  }                                                                                    \
  MIPS_RVV_ROW_SWITCH(NAME, MR)                                                        \
  static int64_t NAME##_nr(void) { return (int64_t)__riscv_vsetvlmax_e16m1(); }

MIPS_RVV_I8_TILE(i8i32_15x2v_rvv, 15)

/* Packs i8 B panels widened to i16, with vector code for unit-stride rows and scalar
 * code otherwise (see pack_b_f32_rvv). */
static void pack_b_i8_rvv(void *dst, const void *src, ptrdiff_t s0, ptrdiff_t s1, int64_t k,
                          int64_t cols, int64_t nr) {
  int16_t *out = dst;
  const int8_t *b = src;
  for (int64_t j0 = 0; j0 < cols; j0 += nr, out += k * nr) {
    const int64_t w = cols - j0 < nr ? cols - j0 : nr;
    if (s1 == 1) {
      for (int64_t l = 0; l < k; ++l) {
        const int8_t *row = b + l * s0 + j0;
        for (int64_t j = 0; j < w;) {
          const size_t vl = __riscv_vsetvl_e16m1((size_t)(w - j));
          __riscv_vse16_v_i16m1(out + l * nr + j,
                                __riscv_vsext_vf2_i16m1(__riscv_vle8_v_i8mf2(row + j, vl), vl), vl);
          j += (int64_t)vl;
        }
      }
    } else {
      for (int64_t j = 0; j < w; ++j) {
        const int8_t *col = b + (j0 + j) * s1;
        for (int64_t l = 0; l < k; ++l) out[l * nr + j] = col[l * s0];
      }
    }
  }
}

/*------------------------------------------------------------------------------------
 * The kernel set
 *----------------------------------------------------------------------------------*/
#define MIPS_RVV_TILE_DESC(NAME, MR, COST, PACKED_T, PACK)                             \
  static const mips_tile NAME##_tile = {                                               \
      .name = #NAME, .mr = MR, .nr = NAME##_nr, .cost_per_row = COST,                  \
      .needs_packing = false, .packed_b_size = sizeof(PACKED_T), .pack_b = PACK,       \
      .run = NAME, .available = NULL};

MIPS_RVV_TILE_DESC(f32_15x2v_rvv, 15, 2, float, pack_b_f32_rvv)
MIPS_RVV_TILE_DESC(f32_7x4v_rvv, 7, 4, float, pack_b_f32_rvv)
MIPS_RVV_TILE_DESC(i8i32_15x2v_rvv, 15, 2, int16_t, pack_b_i8_rvv)

static const mips_tile *const f32_tiles[] = {&f32_15x2v_rvv_tile, &f32_7x4v_rvv_tile};
static const mips_tile *const i8i32_tiles[] = {&i8i32_15x2v_rvv_tile};

const mips_kernel_set mips_kernels_rvv = {
    .name = "rvv",
    .f32_tiles = f32_tiles,
    .f32_tile_count = sizeof f32_tiles / sizeof f32_tiles[0],
    .i8i32_tiles = i8i32_tiles,
    .i8i32_tile_count = sizeof i8i32_tiles / sizeof i8i32_tiles[0],
};
