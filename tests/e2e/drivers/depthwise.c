/* SPDX-License-Identifier: Apache-2.0 */
#include "depthwise.h"
#include "e2e_driver.h"

/* Element (n, h, w, c) of a 4-D descriptor. */
#define AT4(d, n, h, w, c)                                                                \
  ((d).aligned[(d).offset + (int64_t)(n) * (d).strides[0] + (int64_t)(h) * (d).strides[1] + \
               (int64_t)(w) * (d).strides[2] + (int64_t)(c) * (d).strides[3]])

/* out(n, oh, ow, c) = init + sum over (kh, kw) of x(n, oh*s + kh*d, ow*s + kw*d, c) * w(kh, kw, c),
 * x read through `pad` zero rows and columns on each side. */
static float reference(const mips_memref_f32_4d *x, const float *w, int kh_size, int kw_size, int n,
                       int oh, int ow, int c, int channels, int stride_h, int stride_w, int dilation,
                       int pad, float init) {
  float sum = init;
  for (int kh = 0; kh < kh_size; ++kh)
    for (int kw = 0; kw < kw_size; ++kw) {
      const int h = oh * stride_h + kh * dilation - pad, v = ow * stride_w + kw * dilation - pad;
      if (h < 0 || h >= x->sizes[1] || v < 0 || v >= x->sizes[2]) continue;
      sum += AT4(*x, n, h, v, c) * w[(kh * kw_size + kw) * channels + c];
    }
  return sum;
}

static void check(const char *what, const mips_memref_f32_4d *got, const mips_memref_f32_4d *x,
                  const float *w, int stride_h, int stride_w, int dilation, int pad,
                  const mips_memref_f32_4d *init, const float *bias) {
  const int channels = (int)got->sizes[3];
  for (int n = 0; n < got->sizes[0]; ++n)
    for (int oh = 0; oh < got->sizes[1]; ++oh)
      for (int ow = 0; ow < got->sizes[2]; ++ow)
        for (int c = 0; c < channels; ++c) {
          const float start = init ? AT4(*init, n, oh, ow, c) : bias ? bias[c] : 0.0f;
          const float want =
              reference(x, w, 3, 3, n, oh, ow, c, channels, stride_h, stride_w, dilation, pad, start);
          EXPECT(AT4(*got, n, oh, ow, c) == want, "%s (%d,%d,%d,%d) = %g, expected %g", what, n, oh,
                 ow, c, AT4(*got, n, oh, ow, c), want);
        }
}

int main(void) {
  /* Small integers: every sum is exact, fused or not. */
  enum { H = 9, W = 11, C = 19, PADDED_C = 23 };
  static float x[H * W * C], xp[H * W * PADDED_C], w[9 * C];
  for (int i = 0; i < H * W * C; ++i) x[i] = (float)e2e_value(i, 4);
  for (int i = 0; i < 9 * C; ++i) w[i] = (float)e2e_value(i + 7, 3);
  mips_memref_f32_4d mx = {x, x, 0, {1, H, W, C}, {H * W * C, W * C, C, 1}};
  mips_memref_f32_3d mw = {w, w, 0, {3, 3, C}, {3 * C, C, 1}};
  mips_memref_f32_4d r;
  _mlir_ciface_depthwise(&r, &mx, &mw);
  check("depthwise", &r, &mx, w, 1, 1, 1, 0, NULL, NULL);
  free(r.allocated);

  /* The same input as a view with padded channels: the strided copy (loops). */
  for (int i = 0; i < H * W; ++i)
    for (int c = 0; c < PADDED_C; ++c) xp[i * PADDED_C + c] = c < C ? x[i * C + c] : 1e30f;
  mips_memref_f32_4d mxp = {xp, xp, 0, {1, H, W, C}, {H * W * PADDED_C, W * PADDED_C, PADDED_C, 1}};
  _mlir_ciface_depthwise(&r, &mxp, &mw);
  check("depthwise (padded view)", &r, &mx, w, 1, 1, 1, 0, NULL, NULL);
  free(r.allocated);

  enum { N2 = 2, H2 = 11, W2 = 12, C2 = 6 };
  static float x2[N2 * H2 * W2 * C2], w2[9 * C2], acc[N2 * 4 * 4 * C2];
  for (int i = 0; i < N2 * H2 * W2 * C2; ++i) x2[i] = (float)e2e_value(i + 3, 4);
  for (int i = 0; i < 9 * C2; ++i) w2[i] = (float)e2e_value(i + 11, 3);
  for (int i = 0; i < N2 * 4 * 4 * C2; ++i) acc[i] = (float)e2e_value(i + 5, 50);
  mips_memref_f32_4d mx2 = {x2, x2, 0, {N2, H2, W2, C2}, {H2 * W2 * C2, W2 * C2, C2, 1}};
  mips_memref_f32_3d mw2 = {w2, w2, 0, {3, 3, C2}, {3 * C2, C2, 1}};
  mips_memref_f32_4d macc = {acc, acc, 0, {N2, 4, 4, C2}, {4 * 4 * C2, 4 * C2, C2, 1}};
  _mlir_ciface_depthwise_strided(&r, &mx2, &mw2, &macc);
  check("depthwise_strided", &r, &mx2, w2, 2, 2, 2, 0, &macc, NULL);
  for (int i = 0; i < N2 * 4 * 4 * C2; ++i)
    EXPECT(acc[i] == (float)e2e_value(i + 5, 50), "depthwise_strided wrote its argument at %d", i);
  if (r.allocated != acc) free(r.allocated);

  enum { H3 = 9, W3 = 12 };
  static float x3[H3 * W3 * C], bias[C];
  for (int i = 0; i < H3 * W3 * C; ++i) x3[i] = (float)e2e_value(i + 1, 4);
  for (int c = 0; c < C; ++c) bias[c] = (float)(10 * c - 90);
  mips_memref_f32_4d mx3 = {x3, x3, 0, {1, H3, W3, C}, {H3 * W3 * C, W3 * C, C, 1}};
  mips_memref_f32_4d mw3 = {w, w, 0, {3, 3, C, 1}, {3 * C, C, 1, 1}};
  mips_memref_f32_1d mbias = {bias, bias, 0, {C}, {1}};
  _mlir_ciface_tosa_depthwise(&r, &mx3, &mw3, &mbias);
  check("tosa_depthwise", &r, &mx3, w, 2, 1, 1, 1, NULL, bias);
  free(r.allocated);
  return e2e_finish("depthwise");
}
