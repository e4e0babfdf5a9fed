/* SPDX-License-Identifier: Apache-2.0 */
/* Matmul cases checked against an independent reference computed in double (f32) or
 * int64 (i8), shared by the tests of every layer. Integer-valued inputs keep every f32
 * partial sum exact, so most comparisons are exact. Every case also checks that C's
 * storage outside the view was not written, and poisons C when it must not be read. */
#ifndef MIPS_TESTS_MATMUL_CASES_H
#define MIPS_TESTS_MATMUL_CASES_H

#include <float.h>
#include <math.h>

#include "matrix_views.h"
#include "mips/mips.h"
#include "test_harness.h"

#define MIPS_TEST_UNUSED __attribute__((unused))

typedef enum dtype { F32, I8I32 } dtype;

static MIPS_TEST_UNUSED size_t in_size(dtype t) { return t == F32 ? sizeof(float) : sizeof(int8_t); }
static MIPS_TEST_UNUSED size_t out_size(dtype t) { return t == F32 ? sizeof(float) : sizeof(int32_t); }

static MIPS_TEST_UNUSED double load_in(dtype t, const void *buf, int64_t idx) {
  return t == F32 ? (double)((const float *)buf)[idx] : (double)((const int8_t *)buf)[idx];
}
static MIPS_TEST_UNUSED void store_in(dtype t, void *buf, int64_t idx, double v) {
  if (t == F32) ((float *)buf)[idx] = (float)v;
  else ((int8_t *)buf)[idx] = (int8_t)v;
}
static MIPS_TEST_UNUSED double load_out(dtype t, const void *buf, int64_t idx) {
  return t == F32 ? (double)((const float *)buf)[idx] : (double)((const int32_t *)buf)[idx];
}
static MIPS_TEST_UNUSED void store_out(dtype t, void *buf, int64_t idx, double v) {
  if (t == F32) ((float *)buf)[idx] = (float)v;
  else ((int32_t *)buf)[idx] = (int32_t)v;
}

/* What C's storage holds before the call: values for accumulation, or poison. */
typedef enum c_fill { C_VALUES, C_POISON } c_fill;

typedef struct operand {
  layout layout;
  int64_t front, pad;
} operand;

typedef struct matmul_case {
  dtype type;
  int64_t m, n, k;
  operand a, b, c;
  uint32_t flags;
  int64_t in_lo, in_hi; /* input value range */
  double tolerance;     /* 0: exact; else a multiple of k * eps * sum |a||b| */
} matmul_case;

/* Runs one product: the public API by default; tests of internal layers pass their own. */
typedef int (*matmul_runner)(const matmul_case *tc, const void *a, const view *av,
                             const void *b, const view *bv, void *c, const view *cv);

static MIPS_TEST_UNUSED int call_matmul(const matmul_case *tc, const void *a, const view *av, const void *b,
                       const view *bv, void *c, const view *cv) {
  if (tc->type == F32)
    return mips_matmul_f32(tc->m, tc->n, tc->k, a, av->offset, av->stride0, av->stride1, b,
                           bv->offset, bv->stride0, bv->stride1, c, cv->offset, cv->stride0,
                           cv->stride1, tc->flags);
  return mips_matmul_i8i32(tc->m, tc->n, tc->k, a, av->offset, av->stride0, av->stride1, b,
                           bv->offset, bv->stride0, bv->stride1, c, cv->offset, cv->stride0,
                           cv->stride1, tc->flags);
}

/* Poison that a kernel must never let into a result: NaN for f32, a marker for i32. */
static MIPS_TEST_UNUSED void poison_out(dtype t, void *buf, int64_t idx) {
  if (t == F32) ((float *)buf)[idx] = NAN;
  else ((int32_t *)buf)[idx] = (int32_t)0x7EADBEEF;
}

/* Builds the operands, runs the call, and compares with the reference. m, n, k >= 1. */
static MIPS_TEST_UNUSED void run_case_with(const matmul_case *tc, const char *label, matmul_runner runner) {
  const view av = make_view(tc->a.layout, tc->m, tc->k, tc->a.front, tc->a.pad);
  const view bv = make_view(tc->b.layout, tc->k, tc->n, tc->b.front, tc->b.pad);
  const view cv = make_view(tc->c.layout, tc->m, tc->n, tc->c.front, tc->c.pad);
  void *a = malloc((size_t)av.size * in_size(tc->type));
  void *b = malloc((size_t)bv.size * in_size(tc->type));
  void *c = malloc((size_t)cv.size * out_size(tc->type));
  void *c_before = malloc((size_t)cv.size * out_size(tc->type));
  double *expected = malloc((size_t)(tc->m * tc->n) * sizeof(double));
  double *abs_sum = malloc((size_t)(tc->m * tc->n) * sizeof(double));
  assert_true(a && b && c && c_before && expected && abs_sum);

  const int accumulate = (tc->flags & MIPS_MATMUL_ACCUMULATE) != 0;
  for (int64_t x = 0; x < av.size; ++x) store_in(tc->type, a, x, (double)test_rng_int(tc->in_lo, tc->in_hi));
  for (int64_t x = 0; x < bv.size; ++x) store_in(tc->type, b, x, (double)test_rng_int(tc->in_lo, tc->in_hi));
  for (int64_t x = 0; x < cv.size; ++x) {
    if (accumulate) store_out(tc->type, c, x, (double)test_rng_int(-100, 100));
    else poison_out(tc->type, c, x);
  }
  if (tc->tolerance > 0) /* real-valued: scale integers into [-1, 1] */
    for (int64_t x = 0; x < av.size + bv.size; ++x) {
      void *buf = x < av.size ? a : b;
      const int64_t idx = x < av.size ? x : x - av.size;
      store_in(tc->type, buf, idx, load_in(tc->type, buf, idx) / (double)tc->in_hi);
    }
  memcpy(c_before, c, (size_t)cv.size * out_size(tc->type));

  for (int64_t i = 0; i < tc->m; ++i)
    for (int64_t j = 0; j < tc->n; ++j) {
      double sum = accumulate ? load_out(tc->type, c, view_index(&cv, i, j)) : 0.0, mag = 0.0;
      for (int64_t l = 0; l < tc->k; ++l) {
        const double p = load_in(tc->type, a, view_index(&av, i, l)) *
                         load_in(tc->type, b, view_index(&bv, l, j));
        sum += p;
        mag += fabs(p);
      }
      expected[i * tc->n + j] = sum;
      abs_sum[i * tc->n + j] = mag + fabs(sum);
    }

  const int status = runner(tc, a, &av, b, &bv, c, &cv);
  if (status != MIPS_OK) fail_msg("%s: status %d (%s)", label, status, mips_status_string(status));

  unsigned char *inside = calloc((size_t)cv.size, 1);
  assert_non_null(inside);
  for (int64_t i = 0; i < tc->m; ++i)
    for (int64_t j = 0; j < tc->n; ++j) {
      const int64_t idx = view_index(&cv, i, j);
      inside[idx] = 1;
      const double got = load_out(tc->type, c, idx), want = expected[i * tc->n + j];
      if (tc->type == I8I32) {
        /* Exact, wrapping modulo 2^32 as documented. */
        const int32_t want32 = (int32_t)(uint32_t)(uint64_t)(int64_t)want;
        if ((int32_t)got != want32)
          fail_msg("%s: C(%lld,%lld) = %d, expected %d", label, (long long)i, (long long)j,
                   (int)got, (int)want32);
      } else {
        const double bound = tc->tolerance * (double)tc->k * (double)FLT_EPSILON * abs_sum[i * tc->n + j];
        if (!(fabs(got - want) <= bound))
          fail_msg("%s: C(%lld,%lld) = %.9g, expected %.9g (bound %.3g)", label, (long long)i,
                   (long long)j, got, want, bound);
      }
    }
  const size_t es = out_size(tc->type);
  for (int64_t x = 0; x < cv.size; ++x)
    if (!inside[x] && memcmp((char *)c + x * (int64_t)es, (char *)c_before + x * (int64_t)es, es) != 0)
      fail_msg("%s: C storage element %lld outside the view was written", label, (long long)x);

  free(inside), free(a), free(b), free(c), free(c_before), free(expected), free(abs_sum);
}

static MIPS_TEST_UNUSED void run_case(const matmul_case *tc, const char *label) {
  run_case_with(tc, label, call_matmul);
}

/* Where a NaN/Inf case plants its values (f32 only), at A(i0, p0), B(p0, j0), C(i0, j0). */
typedef enum nonfinite_plant {
  NAN_IN_A,       /* row i0 of C becomes NaN, no other */
  NAN_IN_B,       /* column j0 of C becomes NaN, no other */
  INF_TIMES_ZERO, /* A(i0, p0) = Inf and B(p0, j) = 0 for even j: NaN there, +-Inf elsewhere */
  INF_MINUS_INF,  /* A(i0, p0) = Inf, A(i0, other p) = -Inf: row i0 NaN */
  NONFINITE_IN_C, /* accumulate onto Inf, -Inf and NaN */
  NONFINITE_PLANT_COUNT
} nonfinite_plant;

static MIPS_TEST_UNUSED const char *const nonfinite_plant_names[NONFINITE_PLANT_COUNT] = {
    "nan-in-a", "nan-in-b", "inf-times-zero", "inf-minus-inf", "nonfinite-in-c"};

/* IEEE propagation through the kernels: integer inputs make every finite sum exact, so
 * the double reference must match bit for bit where finite, and NaN must appear exactly
 * where the reference has NaN. tc is f32 with m, n, k >= 1. */
static MIPS_TEST_UNUSED void run_nonfinite_case_with(const matmul_case *tc, nonfinite_plant plant, int64_t i0,
                                                     int64_t p0, int64_t j0, const char *label,
                                                     matmul_runner runner) {
  const view av = make_view(tc->a.layout, tc->m, tc->k, tc->a.front, tc->a.pad);
  const view bv = make_view(tc->b.layout, tc->k, tc->n, tc->b.front, tc->b.pad);
  const view cv = make_view(tc->c.layout, tc->m, tc->n, tc->c.front, tc->c.pad);
  float *a = malloc((size_t)av.size * sizeof(float)), *b = malloc((size_t)bv.size * sizeof(float));
  float *c = malloc((size_t)cv.size * sizeof(float));
  double *expected = malloc((size_t)(tc->m * tc->n) * sizeof(double));
  assert_true(a && b && c && expected);
  const int accumulate = (tc->flags & MIPS_MATMUL_ACCUMULATE) != 0;
  for (int64_t x = 0; x < av.size; ++x) a[x] = (float)test_rng_int(-8, 8);
  for (int64_t x = 0; x < bv.size; ++x) b[x] = (float)test_rng_int(-8, 8);
  for (int64_t x = 0; x < cv.size; ++x) c[x] = accumulate ? (float)test_rng_int(-100, 100) : NAN;

  const int64_t p1 = p0 == 0 ? tc->k - 1 : 0;
  switch (plant) {
    case NAN_IN_A: a[view_index(&av, i0, p0)] = NAN; break;
    case NAN_IN_B: b[view_index(&bv, p0, j0)] = NAN; break;
    case INF_TIMES_ZERO:
      for (int64_t j = 0; j < tc->n; ++j) b[view_index(&bv, p0, j)] = j % 2 == 0 ? 0.0f : (j % 4 == 1 ? 3.0f : -2.0f);
      a[view_index(&av, i0, p0)] = INFINITY;
      break;
    case INF_MINUS_INF:
      for (int64_t j = 0; j < tc->n; ++j) b[view_index(&bv, p0, j)] = b[view_index(&bv, p1, j)] = 1.0f;
      a[view_index(&av, i0, p0)] = INFINITY;
      if (p1 != p0) a[view_index(&av, i0, p1)] = -INFINITY;
      break;
    case NONFINITE_IN_C:
      c[view_index(&cv, i0, j0)] = INFINITY;
      c[view_index(&cv, i0, 0)] = -INFINITY;
      c[view_index(&cv, 0, j0)] = NAN;
      break;
    default: abort();
  }

  for (int64_t i = 0; i < tc->m; ++i)
    for (int64_t j = 0; j < tc->n; ++j) {
      double sum = accumulate ? (double)c[view_index(&cv, i, j)] : 0.0;
      for (int64_t l = 0; l < tc->k; ++l)
        sum += (double)a[view_index(&av, i, l)] * (double)b[view_index(&bv, l, j)];
      expected[i * tc->n + j] = sum;
    }

  const int status = runner(tc, a, &av, b, &bv, c, &cv);
  if (status != MIPS_OK) fail_msg("%s: status %d (%s)", label, status, mips_status_string(status));
  for (int64_t i = 0; i < tc->m; ++i)
    for (int64_t j = 0; j < tc->n; ++j) {
      const double got = c[view_index(&cv, i, j)], want = expected[i * tc->n + j];
      if (isnan(want) ? !isnan(got) : got != want)
        fail_msg("%s: C(%lld,%lld) = %g, expected %g", label, (long long)i, (long long)j, got, want);
    }
  free(a), free(b), free(c), free(expected);
}

/* The positions a NaN/Inf case plants at: the first and the last row, k and column, so
 * the last (zero-padded) panel, the last k block and the last vector lanes are reached. */
static MIPS_TEST_UNUSED void run_nonfinite_cases_with(const matmul_case *tc, const char *label,
                                                      matmul_runner runner) {
  char name[256];
  for (int plant = 0; plant < NONFINITE_PLANT_COUNT; ++plant) {
    if (plant == NONFINITE_IN_C && !(tc->flags & MIPS_MATMUL_ACCUMULATE)) continue;
    for (int corner = 0; corner < 2; ++corner) {
      const int64_t i0 = corner ? tc->m - 1 : 0, p0 = corner ? tc->k - 1 : 0, j0 = corner ? tc->n - 1 : 0;
      snprintf(name, sizeof name, "%s %s at (%lld, %lld, %lld)", label, nonfinite_plant_names[plant],
               (long long)i0, (long long)p0, (long long)j0);
      run_nonfinite_case_with(tc, (nonfinite_plant)plant, i0, p0, j0, name, runner);
    }
  }
}

static MIPS_TEST_UNUSED const dtype all_types[] = {F32, I8I32};
static MIPS_TEST_UNUSED const char *const type_names[] = {"f32", "i8i32"};

static MIPS_TEST_UNUSED matmul_case plain_case(dtype t, int64_t m, int64_t n, int64_t k, layout la, layout lb,
                              layout lc, uint32_t flags) {
  return (matmul_case){t, m, n, k, {la, 0, 0}, {lb, 0, 0}, {lc, 0, 0}, flags, -8, 8, 0.0};
}

#endif /* MIPS_TESTS_MATMUL_CASES_H */
