/* SPDX-License-Identifier: Apache-2.0 */
/* The scalar B gathers every kernel set's packers fall back on (driver/gemm_pack.c). */
#ifndef MIPS_SRC_DRIVER_GEMM_PACK_H
#define MIPS_SRC_DRIVER_GEMM_PACK_H

#include <stddef.h>
#include <stdint.h>

/* Scalar gathers of a B panel of w <= nr columns (driver/gemm_pack.c):
 * (l, j) at b[l * s0 + j * s1] goes to out[l * nr + j]. */
void mips_gather_b_f32(float *restrict out, const float *b, ptrdiff_t s0, ptrdiff_t s1,
                       int64_t k, int64_t w, int64_t nr);
void mips_gather_b_i8_to_i16(int16_t *restrict out, const int8_t *b, ptrdiff_t s0,
                             ptrdiff_t s1, int64_t k, int64_t w, int64_t nr);

#endif /* MIPS_SRC_DRIVER_GEMM_PACK_H */
