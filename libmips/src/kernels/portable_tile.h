/* SPDX-License-Identifier: Apache-2.0 */
/* The C tile template shared by the portable (kernels/scalar) and x86 (kernels/x86) sets.
 *
 * Each tile keeps an MR x NR block of C in registers and runs over k reading packed,
 * zero-padded panels: per k step MR + NR loads feed MR * NR multiply-adds. The body is
 * plain C written once and stamped out per target with the shape that fits its
 * registers: VEC is a scalar (VW = 1) or a GCC/Clang vector of VW lanes of a row.
 * Accumulation starts from C (or +0) and adds the products in ascending k, as the
 * contract says. int8 products accumulate in uint32_t: wrapping, like the other kernels.
 * Each tile is static to the file that stamps it out; the B packers are defined once,
 * in portable_pack_b.c. */
#ifndef MIPS_SRC_KERNELS_PORTABLE_TILE_H
#define MIPS_SRC_KERNELS_PORTABLE_TILE_H

#include <string.h>

#include "kernels/contract.h"
#include "kernels/kernel_set.h"

/* Packs B panels widened to the accumulator type, zero-padded to nr columns. */
#define MIPS_PORTABLE_PACK_B(NAME, IN_T, OUT_T, CONVERT)                                   \
  void NAME(void *dst, const void *src, ptrdiff_t s0, ptrdiff_t s1, int64_t k,      \
                   int64_t cols, int64_t nr) {                                             \
    OUT_T *out = dst;                                                                      \
    const IN_T *b = src;                                                                   \
    for (int64_t j0 = 0; j0 < cols; j0 += nr, out += k * nr) {                             \
      const int64_t w = cols - j0 < nr ? cols - j0 : nr;                                   \
      for (int64_t l = 0; l < k; ++l) {                                                    \
        const IN_T *row = b + l * s0 + j0 * s1;                                            \
        if (s1 == 1) /* the common case, vectorised */                                     \
          for (int64_t j = 0; j < w; ++j) out[l * nr + j] = CONVERT(row[j]);               \
        else                                                                               \
          for (int64_t j = 0; j < w; ++j) out[l * nr + j] = CONVERT(row[j * s1]);          \
        for (int64_t j = w; j < nr; ++j) out[l * nr + j] = 0;                              \
      }                                                                                    \
    }                                                                                      \
  }
/* Elements of A and B as accumulator values: f32 as is; int8 sign-extended, then held
 * as uint32_t so that products and sums wrap instead of overflowing. */
#define MIPS_F32_FROM(x) (x)
#define MIPS_U32_FROM_I8(x) ((uint32_t)(int32_t)(x))
void mips_pack_b_f32_portable(void *dst, const void *src, ptrdiff_t s0, ptrdiff_t s1, int64_t k,
                              int64_t cols, int64_t nr);
void mips_pack_b_i8_portable(void *dst, const void *src, ptrdiff_t s0, ptrdiff_t s1, int64_t k,
                             int64_t cols, int64_t nr);

/* One tile body. VEC is the register type holding VW lanes of ACC_T (VW = 1: ACC_T
 * itself) and UVEC the same type aligned to one element, for loads and stores anywhere;
 * A_TO_ACC converts an element of A; C_T is C's element type. A full tile over a C
 * with unit column stride moves its rows as vectors; edges go through a block copy. */
#define MIPS_PORTABLE_TILE_ROWS(NAME, ATTR, A_T, ACC_T, C_T, A_TO_ACC, VEC, UVEC, VW, ROWS,  \
                                MR, NR)                                                    \
  ATTR static void NAME(const mips_tile_args *t) {                                         \
    enum { VPR = (NR) / (VW) }; /* vectors per row */                                      \
    VEC acc[ROWS][VPR];                                                                    \
    C_T *cc = t->c;                                                                        \
    const bool direct = t->rows == (ROWS) && t->cols == (NR) && t->c_stride1 == 1 &&       \
                        sizeof(C_T) == sizeof(ACC_T);                                      \
    if (!t->accumulate) {                                                                  \
      for (int i = 0; i < (ROWS); ++i)                                                     \
        for (int v = 0; v < VPR; ++v) acc[i][v] = (VEC){0};                                \
    } else if (direct) {                                                                   \
      for (int i = 0; i < (ROWS); ++i)                                                     \
        for (int v = 0; v < VPR; ++v)                                                      \
          acc[i][v] = *(const UVEC *)(const void *)(cc + i * t->c_stride0 + v * (VW));     \
    } else {                                                                               \
      ACC_T block[ROWS][NR];                                                               \
      for (int i = 0; i < (ROWS); ++i)                                                     \
        for (int j = 0; j < (NR); ++j)                                                     \
          block[i][j] = (i < t->rows && j < t->cols)                                       \
                            ? (ACC_T)cc[i * t->c_stride0 + j * t->c_stride1]               \
                            : (ACC_T)0;                                                    \
      memcpy(acc, block, sizeof acc);                                                      \
    }                                                                                      \
    const A_T *a = t->a;                                                                   \
    const ACC_T *b = t->b;                                                                 \
    for (int64_t l = 0; l < t->k; ++l) {                                                   \
      VEC bv[VPR];                                                                         \
      for (int v = 0; v < VPR; ++v) bv[v] = *(const UVEC *)(const void *)(b + v * (VW));   \
      for (int i = 0; i < (ROWS); ++i) {                                                   \
        /* x - (+0) is x for every x, -0 included: a broadcast, not an addition. */        \
        const VEC ai = A_TO_ACC(a[i]) - (VEC){0};                                          \
        for (int v = 0; v < VPR; ++v) acc[i][v] += ai * bv[v];                             \
      }                                                                                    \
      a += (MR);                                                                           \
      b += (NR);                                                                           \
    }                                                                                      \
    if (direct) {                                                                          \
      for (int i = 0; i < (ROWS); ++i)                                                     \
        for (int v = 0; v < VPR; ++v)                                                      \
          *(UVEC *)(void *)(cc + i * t->c_stride0 + v * (VW)) = acc[i][v];                 \
      return;                                                                              \
    }                                                                                      \
    ACC_T block[ROWS][NR];                                                                 \
    memcpy(block, acc, sizeof block);                                                      \
    for (int64_t i = 0; i < t->rows; ++i)                                                  \
      for (int64_t j = 0; j < t->cols; ++j)                                                \
        cc[i * t->c_stride0 + j * t->c_stride1] = (C_T)block[i][j];                        \
  }

/* A tile of MR rows. A single row (m = 1 against pre-packed B, whose panels are this
 * tile's) runs a one-row body over the same packed panels, instead of all MR rows. */
#define MIPS_PORTABLE_TILE(NAME, ATTR, A_T, ACC_T, C_T, A_TO_ACC, VEC, UVEC, VW, MR, NR)   \
  MIPS_PORTABLE_TILE_ROWS(NAME##_all_rows, ATTR, A_T, ACC_T, C_T, A_TO_ACC, VEC, UVEC, VW, \
                          MR, MR, NR)                                                      \
  MIPS_PORTABLE_TILE_ROWS(NAME##_one_row, ATTR, A_T, ACC_T, C_T, A_TO_ACC, VEC, UVEC, VW,  \
                          1, MR, NR)                                                       \
  static void NAME(const mips_tile_args *t) {                                              \
    if ((MR) > 1 && t->rows == 1) NAME##_one_row(t);                                       \
    else NAME##_all_rows(t);                                                               \
  }                                                                                        \
  static int64_t NAME##_nr(void) { return (NR); }

/* COST: relative cost of one row of one k step (the driver picks the cheapest tile). */
#define MIPS_PORTABLE_TILE_DESC(NAME, MR, PACKED_T, PACK, AVAILABLE, COST)                 \
  const mips_tile mips_##NAME##_tile = {                                                   \
      .name = #NAME, .mr = MR, .nr = NAME##_nr, .cost_per_row = COST,                      \
      .needs_packing = true, .packed_b_size = sizeof(PACKED_T), .pack_b = PACK,            \
      .run = NAME, .available = AVAILABLE};

#endif /* MIPS_SRC_KERNELS_PORTABLE_TILE_H */
