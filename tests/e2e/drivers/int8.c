/* SPDX-License-Identifier: Apache-2.0 */
#include "int8.h"
#include "e2e_driver.h"

int main(void) {
  /* Full int8 range, including -128 * -128. */
  enum { M = 7, N = 19, K = 257 };
  static int8_t a[M * K], b[K * N];
  for (int x = 0; x < M * K; ++x) a[x] = (int8_t)(x % 3 == 0 ? -128 : e2e_value(x, 127));
  for (int x = 0; x < K * N; ++x) b[x] = (int8_t)(x % 5 == 0 ? -128 : e2e_value(x + 1, 127));
  mips_memref_i8_2d ma = E2E_ROW_MAJOR(mips_memref_i8_2d, a, M, K);
  mips_memref_i8_2d mb = E2E_ROW_MAJOR(mips_memref_i8_2d, b, K, N);
  mips_memref_i32_2d r;
  _mlir_ciface_qmatmul(&r, &ma, &mb);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      int32_t want = 0;
      for (int l = 0; l < K; ++l) want += a[i * K + l] * b[l * N + j];
      EXPECT(E2E_AT(r, i, j) == want, "(%d,%d) = %d, expected %d", i, j, E2E_AT(r, i, j), want);
    }
  free(r.allocated);

  /* C + A * B with the extremes everywhere. */
  static int8_t qa[6 * 300], qb[300 * 5];
  int32_t qc[30];
  for (int x = 0; x < 6 * 300; ++x) qa[x] = (int8_t)(x % 2 ? 127 : -128);
  for (int x = 0; x < 300 * 5; ++x) qb[x] = (int8_t)(x % 3 ? -128 : 127);
  for (int x = 0; x < 30; ++x) qc[x] = 1000 * x - 15000;
  mips_memref_i8_2d mqa = E2E_ROW_MAJOR(mips_memref_i8_2d, qa, 6, 300);
  mips_memref_i8_2d mqb = E2E_ROW_MAJOR(mips_memref_i8_2d, qb, 300, 5);
  mips_memref_i32_2d mqc = E2E_ROW_MAJOR(mips_memref_i32_2d, qc, 6, 5);
  _mlir_ciface_qmatmul_accumulate(&r, &mqa, &mqb, &mqc);
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 5; ++j) {
      int32_t want = 1000 * (i * 5 + j) - 15000;
      for (int l = 0; l < 300; ++l) want += qa[i * 300 + l] * qb[l * 5 + j];
      EXPECT(E2E_AT(r, i, j) == want, "acc (%d,%d) = %d, expected %d", i, j, E2E_AT(r, i, j), want);
    }
  if (r.allocated != qc) free(r.allocated);

  /* TOSA's quantized conv2d against a direct C loop: padding reads the input's zero
   * point (so it contributes nothing), every tap is (x - izp) * (w - wzp). */
  enum { H = 7, W = 7, C = 8, F = 6, KH = 3, KW = 3, OH = 4, OW = 7, IZP = -3, WZP = 5 };
  static int8_t cx[H * W * C], cw[F * KH * KW * C];
  int32_t bias[F];
  for (int x = 0; x < H * W * C; ++x) cx[x] = (int8_t)(x % 7 == 0 ? -128 : e2e_value(x + 2, 127));
  for (int x = 0; x < F * KH * KW * C; ++x) cw[x] = (int8_t)(x % 11 == 0 ? 127 : e2e_value(x + 3, 127));
  for (int f = 0; f < F; ++f) bias[f] = 100 * f - 250;
  mips_memref_i8_4d mx = {cx, cx, 0, {1, H, W, C}, {H * W * C, W * C, C, 1}};
  mips_memref_i8_4d mw = {cw, cw, 0, {F, KH, KW, C}, {KH * KW * C, KW * C, C, 1}};
  mips_memref_i32_1d mbias = {bias, bias, 0, {F}, {1}};
  mips_memref_i32_4d conv;
  _mlir_ciface_tosa_qconv(&conv, &mx, &mw, &mbias);
  for (int oh = 0; oh < OH; ++oh)
    for (int ow = 0; ow < OW; ++ow)
      for (int f = 0; f < F; ++f) {
        int32_t want = bias[f];
        for (int kh = 0; kh < KH; ++kh)
          for (int kw = 0; kw < KW; ++kw) {
            const int h = oh * 2 + kh - 1, w = ow + kw - 1;
            if (h < 0 || h >= H || w < 0 || w >= W) continue;
            for (int c = 0; c < C; ++c)
              want += (cx[(h * W + w) * C + c] - IZP) * (cw[((f * KH + kh) * KW + kw) * C + c] - WZP);
          }
        const int32_t got = conv.aligned[conv.offset + oh * conv.strides[1] + ow * conv.strides[2] +
                                         f * conv.strides[3]];
        EXPECT(got == want, "conv (%d,%d,%d) = %d, expected %d", oh, ow, f, got, want);
      }
  free(conv.allocated);
  return e2e_finish("int8");
}
