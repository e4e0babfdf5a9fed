/* SPDX-License-Identifier: Apache-2.0 */
/* libmips-blas: the BLAS matrix product (Fortran sgemm_ and CBLAS cblas_sgemm) on libmips.
 * It is meant to be interposed ahead of the system's BLAS (LD_PRELOAD, or linked before
 * it), so every other BLAS routine still comes from there. Arguments are checked as the
 * reference BLAS checks them, and reported to its error handlers with its numbers. */
#include <mips/mips.h>

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define MIPS_BLAS_API __attribute__((visibility("default")))

/* The program's error handlers: the system BLAS's, or a tester's own. Weak, so that
 * libmips-blas also loads into a program without any other BLAS. */
extern void xerbla_(const char *routine, const int *info, size_t routine_len) __attribute__((weak));
extern void cblas_xerbla(int info, const char *routine, const char *form, ...) __attribute__((weak));

/* CBLAS's enumerations, by value (cblas.h differs between BLAS packages). */
enum { CBLAS_ROW_MAJOR = 101, CBLAS_COL_MAJOR = 102 };
enum { CBLAS_NO_TRANS = 111, CBLAS_TRANS = 112, CBLAS_CONJ_TRANS = 113 };

/* alpha * op(B) is built in column blocks of at most this many floats (4 MiB). */
#define SCALED_B_BLOCK_ELEMENTS (1 << 20)

static atomic_ullong calls_in_libmips;
static atomic_flag report_registered = ATOMIC_FLAG_INIT;

/* How many sgemm calls (of either interface) ran their product in libmips: lets tests
 * and users see that interposition worked. */
MIPS_BLAS_API unsigned long long mips_blas_calls(void) { return atomic_load(&calls_in_libmips); }

static void report_calls_at_exit(void) {
  fprintf(stderr, "libmips-blas: %llu sgemm calls ran in libmips %s (kernel %s)\n",
          mips_blas_calls(), mips_version_string(), mips_kernel_name());
}

static void count_call(void) {
  atomic_fetch_add(&calls_in_libmips, 1);
  if (!atomic_flag_test_and_set(&report_registered)) {
    const char *verbose = getenv("MIPS_VERBOSE");
    if (verbose && *verbose && *verbose != '0') atexit(report_calls_at_exit);
  }
}

static void report_fortran_error(int info) {
  if (xerbla_) {
    xerbla_("SGEMM ", &info, 6);
    return;
  }
  fprintf(stderr, " ** On entry to SGEMM parameter number %d had an illegal value\n", info);
}

/* `info` is the reference's number (for row-major, the swapped call's, which the
 * program's cblas_xerbla maps back as the reference CBLAS testers expect); `actual` is
 * the parameter's own position, for the message libmips-blas prints itself. */
static void report_cblas_error(int info, int actual, const char *what) {
  if (cblas_xerbla) {
    cblas_xerbla(info, "cblas_sgemm", "Illegal %s\n", what);
    return;
  }
  fprintf(stderr, "Parameter %d to routine cblas_sgemm was incorrect (%s)\n", actual, what);
}

/* The position in cblas_sgemm's own argument list of the parameter that the swapped
 * column-major call (row-major C = (B^T A^T)^T) numbers `info`. */
static int row_major_position(int info) {
  switch (info) {
  case 5: return 4;   /* n of the swapped call is m */
  case 4: return 5;
  case 9: return 11;  /* its lda is ldb */
  case 11: return 9;
  default: return info;
  }
}

/* 'N', 'T' or 'C' in either case; -1 otherwise. op = transposed? */
static int parse_trans(char c) {
  switch (c) {
  case 'N': case 'n': return 0;
  case 'T': case 't': case 'C': case 'c': return 1;
  default: return -1;
  }
}

/* The reference SGEMM's checks, in its order; 0 or the bad parameter's number. */
static int check_column_major(int trans_a, int trans_b, int m, int n, int k, int lda,
                              int ldb, int ldc) {
  int rows_a = trans_a ? k : m, rows_b = trans_b ? n : k;
  if (trans_a < 0) return 1;
  if (trans_b < 0) return 2;
  if (m < 0) return 3;
  if (n < 0) return 4;
  if (k < 0) return 5;
  if (lda < (rows_a > 1 ? rows_a : 1)) return 8;
  if (ldb < (rows_b > 1 ? rows_b : 1)) return 10;
  if (ldc < (m > 1 ? m : 1)) return 13;
  return 0;
}

static void scale_c(int m, int n, float beta, float *c, int ldc) {
  for (int64_t j = 0; j < n; ++j) {
    float *column = c + j * (int64_t)ldc;
    if (beta == 0.0f) { /* never reads C: NaN and Inf there are overwritten */
      for (int i = 0; i < m; ++i) column[i] = 0.0f;
    } else {
      for (int i = 0; i < m; ++i) column[i] *= beta;
    }
  }
}

static bool run_in_libmips(int status) {
  if (status == MIPS_OK) return true;
  /* Valid BLAS arguments give libmips nothing to refuse; say so loudly if it does. */
  fprintf(stderr, "libmips-blas: sgemm: libmips refused the product (%s); the reference "
          "loop computes it\n", mips_status_string(status));
  return false;
}

/* The reference algorithm from column j0 on, for a product libmips cannot run (no
 * memory for alpha * op(B), or a refusal: libmips then wrote nothing). C is already
 * scaled by beta; `overwrite` (beta = 0) sets it without reading it. */
static void gemm_reference(int trans_a, int trans_b, int64_t m, int64_t j0, int64_t n, int64_t k,
                           float alpha, const float *a, int64_t lda, const float *b, int64_t ldb,
                           bool overwrite, float *c, int64_t ldc) {
  for (int64_t j = j0; j < n; ++j) {
    float *column = c + j * ldc;
    if (overwrite)
      for (int64_t i = 0; i < m; ++i) column[i] = 0.0f;
    for (int64_t l = 0; l < k; ++l) {
      const float scaled = alpha * (trans_b ? b[j + l * ldb] : b[l + j * ldb]);
      for (int64_t i = 0; i < m; ++i)
        column[i] += scaled * (trans_a ? a[l + i * lda] : a[i + l * lda]);
    }
  }
}

/* Column-major C (m x n) = alpha op(A) op(B) + beta C, arguments already checked.
 * alpha = 1 with beta 0 or 1 is one libmips call on the caller's arrays; other alphas
 * scale a copy of op(B) (as the reference scales B's elements), other betas scale C
 * first. libmips's contract is unchanged: without ACCUMULATE it never reads C. */
static void gemm_column_major(int trans_a, int trans_b, int m, int n, int k, float alpha,
                              const float *a, int lda, const float *b, int ldb, float beta,
                              float *c, int ldc) {
  if (m == 0 || n == 0 || ((alpha == 0.0f || k == 0) && beta == 1.0f)) return;
  if (alpha == 0.0f || k == 0) {
    scale_c(m, n, beta, c, ldc);
    return;
  }
  if (beta != 0.0f && beta != 1.0f) scale_c(m, n, beta, c, ldc);
  uint32_t flags = beta == 0.0f ? 0u : MIPS_MATMUL_ACCUMULATE;
  int64_t a_stride0 = trans_a ? lda : 1, a_stride1 = trans_a ? 1 : lda;
  int64_t b_stride0 = trans_b ? ldb : 1, b_stride1 = trans_b ? 1 : ldb;

  const bool overwrite = flags == 0;
  if (alpha == 1.0f) {
    if (run_in_libmips(mips_matmul_f32(m, n, k, a, 0, a_stride0, a_stride1, b, 0, b_stride0,
                                       b_stride1, c, 0, 1, ldc, flags)))
      count_call();
    else
      gemm_reference(trans_a, trans_b, m, 0, n, k, alpha, a, lda, b, ldb, overwrite, c, ldc);
    return;
  }
  int64_t block = SCALED_B_BLOCK_ELEMENTS / k;
  if (block < 1) block = 1;
  if (block > n) block = n;
  float *scaled = malloc((size_t)block * (size_t)k * sizeof *scaled);
  if (!scaled) { /* still the right C, only slower */
    gemm_reference(trans_a, trans_b, m, 0, n, k, alpha, a, lda, b, ldb, overwrite, c, ldc);
    return;
  }
  for (int64_t j0 = 0; j0 < n; j0 += block) {
    int64_t width = n - j0 < block ? n - j0 : block;
    for (int64_t j = 0; j < width; ++j)
      for (int64_t l = 0; l < k; ++l)
        scaled[j * k + l] = alpha * b[l * b_stride0 + (j0 + j) * b_stride1];
    if (!run_in_libmips(mips_matmul_f32(m, width, k, a, 0, a_stride0, a_stride1, scaled, 0, 1,
                                        k, c, j0 * (int64_t)ldc, 1, ldc, flags))) {
      free(scaled);
      gemm_reference(trans_a, trans_b, m, j0, n, k, alpha, a, lda, b, ldb, overwrite, c, ldc);
      return;
    }
  }
  free(scaled);
  count_call();
}

MIPS_BLAS_API void sgemm_(const char *transa, const char *transb, const int *m, const int *n,
                          const int *k, const float *alpha, const float *a, const int *lda,
                          const float *b, const int *ldb, const float *beta, float *c,
                          const int *ldc) {
  int trans_a = parse_trans(*transa), trans_b = parse_trans(*transb);
  int info = check_column_major(trans_a, trans_b, *m, *n, *k, *lda, *ldb, *ldc);
  if (info) {
    report_fortran_error(info);
    return;
  }
  gemm_column_major(trans_a, trans_b, *m, *n, *k, *alpha, a, *lda, b, *ldb, *beta, c, *ldc);
}

static int cblas_trans(int t) {
  return t == CBLAS_NO_TRANS ? 0 : (t == CBLAS_TRANS || t == CBLAS_CONJ_TRANS) ? 1 : -1;
}

/* Row-major C is column-major C^T = op(B)^T op(A)^T: the reference swaps the operands
 * and reports the swapped call's parameter numbers, shifted by one for the layout
 * argument; testers expect exactly that, so it is kept. */
MIPS_BLAS_API void cblas_sgemm(int layout, int transa, int transb, int m, int n, int k,
                               float alpha, const float *a, int lda, const float *b, int ldb,
                               float beta, float *c, int ldc) {
  int trans_a = cblas_trans(transa), trans_b = cblas_trans(transb), info;
  if (layout != CBLAS_ROW_MAJOR && layout != CBLAS_COL_MAJOR) {
    report_cblas_error(1, 1, "Order setting");
    return;
  }
  if (trans_a < 0) {
    report_cblas_error(2, 2, "TransA setting");
    return;
  }
  if (trans_b < 0) {
    report_cblas_error(3, 3, "TransB setting");
    return;
  }
  if (layout == CBLAS_COL_MAJOR) {
    info = check_column_major(trans_a, trans_b, m, n, k, lda, ldb, ldc);
    if (info) report_cblas_error(info + 1, info + 1, "dimension or leading dimension");
    else gemm_column_major(trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
  } else {
    info = check_column_major(trans_b, trans_a, n, m, k, ldb, lda, ldc);
    if (info)
      report_cblas_error(info + 1, row_major_position(info + 1), "dimension or leading dimension");
    else gemm_column_major(trans_b, trans_a, n, m, k, alpha, b, ldb, a, lda, beta, c, ldc);
  }
}
