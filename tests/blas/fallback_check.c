/* SPDX-License-Identifier: Apache-2.0 */
/* libmips-blas when libmips cannot run the product: with malloc failing for the copy of
 * alpha * op(B) (this program's malloc refuses large blocks), sgemm_ must still give the
 * reference's C (alpha != 1, beta 0, 1 and other, both transposes), through its
 * reference loop. Also: the calls that could use libmips did, and these did not. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

extern void *__libc_malloc(size_t size);
void *malloc(size_t size) { return size > (1u << 20) ? NULL : __libc_malloc(size); }

void sgemm_(const char *transa, const char *transb, const int *m, const int *n, const int *k,
            const float *alpha, const float *a, const int *lda, const float *b, const int *ldb,
            const float *beta, float *c, const int *ldc);
unsigned long long mips_blas_calls(void);

enum { M = 7, N = 600, K = 512 }; /* alpha * op(B) needs 1.2 MB: refused */

int main(void) {
  static float a[K * K], b[K * N], c[M * N], expected[M * N];
  for (int i = 0; i < K * K; ++i) a[i] = (float)(i % 7 - 3) / 4;
  for (int i = 0; i < K * N; ++i) b[i] = (float)(i % 5 - 2) / 2;
  const float betas[] = {0.0f, 1.0f, -0.5f};
  int wrong = 0;
  for (int t = 0; t < 4; ++t) {
    const char ta = t & 1 ? 'T' : 'N', tb = t & 2 ? 'T' : 'N';
    const int m = M, n = N, k = K, lda = ta == 'N' ? M : K, ldb = tb == 'N' ? K : N, ldc = M;
    for (int s = 0; s < 3; ++s) {
      const float alpha = 1.5f, beta = betas[s];
      for (int i = 0; i < M * N; ++i) c[i] = beta == 0.0f ? NAN : (float)(i % 3);
      for (int j = 0; j < N; ++j)
        for (int i = 0; i < M; ++i) {
          double sum = 0;
          for (int l = 0; l < K; ++l)
            sum += (double)(ta == 'N' ? a[i + l * lda] : a[l + i * lda]) *
                   (tb == 'N' ? b[l + j * ldb] : b[j + l * ldb]);
          expected[i + j * M] = (float)(alpha * sum + (beta == 0.0f ? 0.0 : beta * c[i + j * M]));
        }
      const unsigned long long before = mips_blas_calls();
      sgemm_(&ta, &tb, &m, &n, &k, &alpha, a, &lda, b, &ldb, &beta, c, &ldc);
      if (mips_blas_calls() != before) {
        printf("%c%c beta %g: counted as a libmips call, but malloc failed\n", ta, tb, beta);
        ++wrong;
      }
      for (int i = 0; i < M * N; ++i)
        if (!(fabsf(c[i] - expected[i]) <= 1e-3f * (1 + fabsf(expected[i])))) {
          printf("%c%c beta %g: C[%d] = %g, expected %g\n", ta, tb, beta, i, c[i], expected[i]);
          ++wrong;
          break;
        }
    }
  }
  printf("%s\n", wrong ? "FAILED" : "sgemm_ without memory for alpha * op(B): reference results");
  return wrong != 0;
}
