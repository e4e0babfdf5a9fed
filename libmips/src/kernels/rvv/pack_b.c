/* SPDX-License-Identifier: Apache-2.0 */
/* B packing for the RVV tiles. */
#include "driver/gemm_pack.h"
#include "kernels/rvv/rvv_kernels.h"

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
  void NAME(void *dst, const void *src, ptrdiff_t s0, ptrdiff_t s1, int64_t k,          \
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

MIPS_RVV_PACK_B(mips_pack_b_f32_rvv, float, float, mips_gather_b_f32, copy_rows_f32, transpose_columns_f32)
MIPS_RVV_PACK_B(mips_pack_b_i8_rvv, int8_t, int16_t, mips_gather_b_i8_to_i16, copy_rows_i8_to_i16,
                transpose_columns_i8)
