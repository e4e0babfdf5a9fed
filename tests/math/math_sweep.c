/* SPDX-License-Identifier: Apache-2.0 */
/* Accuracy of the f32 math functions mips-compile generates, against libm in double
 * precision (the exact value, for f32 purposes), over a sweep of the whole float range:
 * every bit pattern at a stride, plus ±0, ±Inf, NaN, subnormals and the extremes.
 *
 *   math_sweep [--stride N] [--only NAME] [--check] [--unfused] [--needs-fma]
 *
 * For each function it prints the largest error in units of the last place of the
 * exact result (results of normal magnitude), the largest absolute error where the
 * exact result is subnormal or zero, and the inputs whose special value is wrong (a
 * NaN where the exact result is not, or the reverse; an infinity of the wrong sign, or
 * where the exact result is finite and not within an ulp of FLT_MAX). With --check it
 * exits 1 if any function is outside the bound stated for it (README.md); --unfused
 * takes the bounds for a CPU without fused multiply-add, --needs-fma exits 77 (skipped)
 * on an x86-64 CPU without FMA. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "math_functions.h"

typedef void (*compiled_fn)(mips_memref_f32_1d *, mips_memref_f32_1d *);

static double ref_sigmoid(double x) { return 1.0 / (1.0 + exp(-x)); }
static double ref_gelu(double x) { return 0.5 * x * (1.0 + erf(x / sqrt(2.0))); }
static double ref_rsqrt(double x) { return 1.0 / sqrt(x); }

/* bound: the largest ulp error allowed for a normal-magnitude result (the README's
 * figures: the worst seen over every 16th float, rounded up); abs_scaled: an absolute
 * allowance in units of 2^-24 * |x| that GELU's own rounding needs where 1 + erf
 * cancels, the bound then applying beyond it; floor: the absolute error allowed for a
 * subnormal result (exp's approximation flushes those towards zero); unfused: the
 * bound for polynomials compiled for a CPU without fused multiply-add (x86-64's generic
 * CPU), whose steps are a multiply and an add (--unfused). */
typedef struct function {
  const char *name;
  compiled_fn compiled;
  double (*reference)(double);
  double bound, abs_scaled, floor, unfused;
} function;

static const function functions[] = {
    {"exp", _mlir_ciface_f_exp, exp, 2, 0, 0x1p-126, 2},
    {"expm1", _mlir_ciface_f_expm1, expm1, 3, 0, 0x1p-126, 4},
    {"log", _mlir_ciface_f_log, log, 1, 0, 0x1p-126, 2},
    {"log1p", _mlir_ciface_f_log1p, log1p, 3, 0, 0x1p-126, 3},
    {"log2", _mlir_ciface_f_log2, log2, 2, 0, 0x1p-126, 2},
    {"tanh", _mlir_ciface_f_tanh, tanh, 5, 0, 0x1p-126, 7},
    {"erf", _mlir_ciface_f_erf, erf, 6, 0, 0x1p-126, 7},
    /* libm's, also by default */
    {"sin", _mlir_ciface_f_sin, sin, 1, 0, 0x1p-126, 1},
    {"cos", _mlir_ciface_f_cos, cos, 1, 0, 0x1p-126, 1},
    {"atan", _mlir_ciface_f_atan, atan, 1, 0, 0x1p-126, 1},
    /* a square root and a divide */
    {"rsqrt", _mlir_ciface_f_rsqrt, ref_rsqrt, 2, 0, 0x1p-126, 2},
    {"sigmoid", _mlir_ciface_f_sigmoid, ref_sigmoid, 3, 0, 0x1p-126, 3},
    {"gelu", _mlir_ciface_f_gelu, ref_gelu, 1, 8, 0x1p-126, 1},
};
enum { FUNCTION_COUNT = sizeof functions / sizeof functions[0] };

typedef struct stats {
  double max_ulp, max_ulp_at, max_abs_tiny, max_abs_tiny_at, max_over_bound;
  long special_wrong, points, outside;
  float special_wrong_at;
} stats;

static float from_bits(uint32_t b) {
  float f;
  memcpy(&f, &b, sizeof f);
  return f;
}

static double ulp_of(double exact) {
  const double a = fabs(exact);
  if (a < FLT_MIN) return 0x1p-149;
  int e;
  frexp(a, &e);
  return ldexp(1.0, e - 24);
}

static void account(const function *fn, stats *s, float x, float got) {
  const double exact = fn->reference((double)x);
  ++s->points;
  if (isnan(exact) || isnan(got)) {
    if (!(isnan(exact) && isnan(got)) && !s->special_wrong++) s->special_wrong_at = x;
    return;
  }
  /* Infinities: right when the exact value rounds to that infinity (beyond FLT_MAX by
   * more than half an ulp), or is within an ulp of FLT_MAX. */
  if (isinf(got) || isinf(exact) || fabs(exact) > FLT_MAX) {
    const int same_sign = !signbit(got) == !signbit(exact);
    const double over = isinf(exact) ? INFINITY : fabs(exact);
    const double got_mag = isinf(got) ? INFINITY : fabs((double)got);
    /* An exactly infinite result (log(0), exp(Inf)) must be infinite. */
    const int ok = same_sign && (isinf(got) ? over >= FLT_MAX * (1 - 0x1p-24)
                                            : !isinf(exact) && over >= FLT_MAX * (1 - 0x1p-23) &&
                                                  got_mag >= FLT_MAX * (1 - 0x1p-22));
    if (!ok && !s->special_wrong++) s->special_wrong_at = x;
    return;
  }
  const double err = fabs((double)got - exact);
  const double allowed_abs = fn->abs_scaled * 0x1p-24 * fabs((double)x);
  if (fabs(exact) < FLT_MIN) {
    if (err > s->max_abs_tiny) {
      s->max_abs_tiny = err;
      s->max_abs_tiny_at = x;
    }
    if (err > fn->floor + allowed_abs) ++s->outside;
    return;
  }
  /* Compositions that cancel are measured beyond their absolute allowance. */
  const double ulps = fn->abs_scaled > 0 ? fmax(0, err - allowed_abs) / ulp_of(exact) : err / ulp_of(exact);
  if (ulps > fn->bound) ++s->outside;
  if (ulps > s->max_ulp) {
    s->max_ulp = ulps;
    s->max_ulp_at = x;
  }
}

int main(int argc, char **argv) {
  uint64_t stride = 256;
  int check = 0, unfused = 0;
  const char *only = NULL; /* one function, e.g. for an exhaustive --stride 1 */
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "--stride") == 0 && i + 1 < argc)
      stride = strtoull(argv[++i], NULL, 0);
    else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc)
      only = argv[++i];
    else if (strcmp(argv[i], "--check") == 0)
      check = 1;
    else if (strcmp(argv[i], "--unfused") == 0)
      unfused = 1;
    else if (strcmp(argv[i], "--needs-fma") == 0) {
#if defined(__x86_64__)
      if (!__builtin_cpu_supports("fma")) {
        printf("this CPU has no FMA: the fused polynomials cannot run here\n");
        return 77;
      }
#endif
    }
    else {
      fprintf(stderr, "usage: %s [--stride N] [--only NAME] [--check] [--unfused] [--needs-fma]\n",
              argv[0]);
      return 2;
    }
  }
  if (stride == 0) stride = 1;
  enum { CHUNK = 1 << 20 };
  static const float specials[] = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, -NAN, FLT_MIN, -FLT_MIN,
                                   0x1p-149f, -0x1p-149f, 0x1p-140f, FLT_MAX, -FLT_MAX, 1.0f, -1.0f,
                                   88.72f, 88.73f, -87.33f, -103.9f, -104.0f, 1e-7f, -1e-7f};
  enum { SPECIAL_COUNT = sizeof specials / sizeof specials[0] };
  float *in = malloc(sizeof(float) * (CHUNK + SPECIAL_COUNT));
  if (!in) return 2;
  stats all[FUNCTION_COUNT];
  memset(all, 0, sizeof all);
  int failed = 0, swept = 0;
  for (int f = 0; f < FUNCTION_COUNT; ++f) {
    function checked = functions[f];
    if (unfused) checked.bound = checked.unfused;
    const function *fn = &checked;
    if (only && strcmp(only, fn->name) != 0) continue;
    ++swept;
    stats *s = &all[f];
    uint64_t next = 0;
    int first = 1;
    while (next < (1ull << 32)) {
      int64_t n = 0;
      if (first) {
        memcpy(in, specials, sizeof specials);
        n = SPECIAL_COUNT;
        first = 0;
      }
      for (; n < CHUNK && next < (1ull << 32); next += stride) in[n++] = from_bits((uint32_t)next);
      mips_memref_f32_1d arg = {in, in, 0, {n}, {1}}, out;
      fn->compiled(&out, &arg);
      for (int64_t i = 0; i < n; ++i) account(fn, s, in[i], out.aligned[out.offset + i * out.strides[0]]);
      free(out.allocated);
    }
    const int bad = s->outside > 0 || s->special_wrong > 0;
    failed |= bad;
    printf("%-8s max %5.2f ulp%s (at %-14.9g) subnormal results: max abs %-9.3g special values "
           "wrong: %ld; beyond the bound (%g ulp): %ld of %ld%s\n",
           fn->name, s->max_ulp, fn->abs_scaled > 0 ? " beyond 8u|x|" : "", s->max_ulp_at,
           s->max_abs_tiny, s->special_wrong, fn->bound, s->outside, s->points, bad ? "  FAIL" : "");
    if (s->special_wrong) printf("         first wrong special value at x = %g\n", (double)s->special_wrong_at);
  }
  free(in);
  if (swept == 0) {
    fprintf(stderr, "math_sweep: no function named '%s'\n", only);
    return 2;
  }
  return check && failed ? 1 : 0;
}
