/* SPDX-License-Identifier: Apache-2.0 */
#include <stdbool.h>

#include "conv.h"
#include "e2e_driver.h"

/* Element (n, h, w, c) of a 4-D descriptor. */
#define AT4(d, n, h, w, c)                                                                \
  ((d).aligned[(d).offset + (int64_t)(n) * (d).strides[0] + (int64_t)(h) * (d).strides[1] + \
               (int64_t)(w) * (d).strides[2] + (int64_t)(c) * (d).strides[3]])

/* got(n, oh, ow, f) == init + sum over (kh, kw, c) of x(n, oh*sh + kh, ow*sw + kw, c) *
 * filter(kh, kw, c, f), with the filter as HWCF (fhwc false) or FHWC. Small integers:
 * every sum is exact in any order. */
static void check(const char *what, const mips_memref_f32_4d *got, const mips_memref_f32_4d *x,
                  const mips_memref_f32_4d *w, bool fhwc, int sh, int sw,
                  const mips_memref_f32_4d *init) {
  const int channels = (int)x->sizes[3], filters = (int)got->sizes[3];
  for (int n = 0; n < got->sizes[0]; ++n)
    for (int oh = 0; oh < got->sizes[1]; ++oh)
      for (int ow = 0; ow < got->sizes[2]; ++ow)
        for (int f = 0; f < filters; ++f) {
          float want = init ? AT4(*init, n, oh, ow, f) : 0.0f;
          for (int kh = 0; kh < 3; ++kh)
            for (int kw = 0; kw < 3; ++kw)
              for (int c = 0; c < channels; ++c)
                want += AT4(*x, n, oh * sh + kh, ow * sw + kw, c) *
                        (fhwc ? AT4(*w, f, kh, kw, c) : AT4(*w, kh, kw, c, f));
          EXPECT(AT4(*got, n, oh, ow, f) == want, "%s (%d,%d,%d,%d) = %g, expected %g", what, n,
                 oh, ow, f, AT4(*got, n, oh, ow, f), want);
        }
}

/* NCHW: got(n, f, oh, ow) == sum over (c, kh, kw) of x(n, c, oh*sh + kh*d, ow + kw*d) *
 * w(f, c, kh, kw) (unit column stride). */
static void check_nchw(const char *what, const mips_memref_f32_4d *got,
                       const mips_memref_f32_4d *x, const mips_memref_f32_4d *w, int sh, int d) {
  for (int n = 0; n < got->sizes[0]; ++n)
    for (int f = 0; f < got->sizes[1]; ++f)
      for (int oh = 0; oh < got->sizes[2]; ++oh)
        for (int ow = 0; ow < got->sizes[3]; ++ow) {
          float want = 0.0f;
          for (int c = 0; c < x->sizes[1]; ++c)
            for (int kh = 0; kh < 3; ++kh)
              for (int kw = 0; kw < 3; ++kw)
                want += AT4(*x, n, c, oh * sh + kh * d, ow + kw * d) * AT4(*w, f, c, kh, kw);
          EXPECT(AT4(*got, n, f, oh, ow) == want, "%s (%d,%d,%d,%d) = %g, expected %g", what, n, f,
                 oh, ow, AT4(*got, n, f, oh, ow), want);
        }
}

/* A dense NHWC (or FHWC, HWCF) descriptor of `data`, filled with small integers. */
static mips_memref_f32_4d filled(float *data, int64_t d0, int64_t d1, int64_t d2, int64_t d3,
                                 int seed, int range) {
  for (int64_t i = 0; i < d0 * d1 * d2 * d3; ++i) data[i] = (float)e2e_value((int)i + seed, range);
  return (mips_memref_f32_4d){data, data, 0, {d0, d1, d2, d3}, {d1 * d2 * d3, d2 * d3, d3, 1}};
}

int main(void) {
  static float x1[10 * 9 * 16], w1[9 * 16 * 32];
  mips_memref_f32_4d mx1 = filled(x1, 1, 10, 9, 16, 1, 4), mw1 = filled(w1, 3, 3, 16, 32, 5, 3);
  mips_memref_f32_4d r;
  _mlir_ciface_conv3x3(&r, &mx1, &mw1);
  check("conv3x3", &r, &mx1, &mw1, false, 1, 1, NULL);
  free(r.allocated);

  static float x2[11 * 11 * 3], w2[9 * 3 * 8];
  mips_memref_f32_4d mx2 = filled(x2, 1, 11, 11, 3, 2, 4), mw2 = filled(w2, 3, 3, 3, 8, 7, 3);
  _mlir_ciface_conv3x3s2(&r, &mx2, &mw2);
  check("conv3x3s2", &r, &mx2, &mw2, false, 2, 2, NULL);
  free(r.allocated);

  static float x3[2 * 9 * 8 * 5], w3[6 * 9 * 5], acc[2 * 4 * 6 * 6], before[2 * 4 * 6 * 6];
  mips_memref_f32_4d mx3 = filled(x3, 2, 9, 8, 5, 3, 4), mw3 = filled(w3, 6, 3, 3, 5, 11, 3);
  mips_memref_f32_4d macc = filled(acc, 2, 4, 6, 6, 13, 50);
  memcpy(before, acc, sizeof acc);
  mips_memref_f32_4d mbefore = macc;
  mbefore.allocated = mbefore.aligned = before;
  _mlir_ciface_conv_fhwc(&r, &mx3, &mw3, &macc);
  check("conv_fhwc", &r, &mx3, &mw3, true, 2, 1, &mbefore);
  EXPECT(memcmp(acc, before, sizeof acc) == 0, "conv_fhwc wrote its argument");
  if (r.allocated != acc) free(r.allocated);

  static float x4[2 * 4 * 7 * 12], w4[6 * 4 * 9];
  mips_memref_f32_4d mx4 = filled(x4, 2, 4, 7, 12, 17, 4), mw4 = filled(w4, 6, 4, 3, 3, 19, 3);
  _mlir_ciface_conv_nchw(&r, &mx4, &mw4);
  check_nchw("conv_nchw", &r, &mx4, &mw4, 1, 1);
  free(r.allocated);

  static float x5[3 * 11 * 14], w5[4 * 3 * 9];
  mips_memref_f32_4d mx5 = filled(x5, 1, 3, 11, 14, 23, 4), mw5 = filled(w5, 4, 3, 3, 3, 29, 3);
  _mlir_ciface_conv_nchw_dilated(&r, &mx5, &mw5);
  check_nchw("conv_nchw_dilated", &r, &mx5, &mw5, 2, 2);
  free(r.allocated);
  static float x6[7 * 9 * 8], w6[9 * 8 * 4];
  mips_memref_f32_4d mx6 = filled(x6, 1, 7, 9, 8, 31, 4), mw6 = filled(w6, 3, 3, 8, 4, 37, 3);
  _mlir_ciface_conv3x3_c8(&r, &mx6, &mw6);
  check("conv3x3_c8", &r, &mx6, &mw6, false, 1, 1, NULL);
  free(r.allocated);

  static float x7[6 * 8 * 2], w7[9 * 2 * 3];
  mips_memref_f32_4d mx7 = filled(x7, 1, 6, 8, 2, 41, 4), mw7 = filled(w7, 3, 3, 2, 3, 43, 3);
  _mlir_ciface_conv3x3_c2(&r, &mx7, &mw7);
  check("conv3x3_c2", &r, &mx7, &mw7, false, 1, 1, NULL);
  free(r.allocated);
  return e2e_finish("conv");
}
