/* SPDX-License-Identifier: Apache-2.0 */
/* A row-major int8 A packed into one panel for the LMUL 1 tile. */
#include "kernels/rvv/rvv_kernels.h"

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

int64_t mips_pack_a_rows_i8_rvv(void *dst, const void *a, ptrdiff_t s0, int64_t rows,
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
