/* SPDX-License-Identifier: Apache-2.0 */
/* Kernel selection is thread-safe: many threads make their first call at once, and
 * all see one kernel set and correct results. */
#define _POSIX_C_SOURCE 200809L /* pthread barriers */
#include <pthread.h>

#include "mips/mips.h"
#include "test_harness.h"

enum { THREADS = 8, M = 19, N = 23, K = 11 };

typedef struct worker {
  pthread_barrier_t *start;
  const char *kernel;
  int status;
  float c[M * N];
} worker;

static float a[M * K], b[K * N];

static void *work(void *arg) {
  worker *w = arg;
  pthread_barrier_wait(w->start);
  w->status = mips_matmul_f32(M, N, K, a, 0, K, 1, b, 0, N, 1, w->c, 0, N, 1, 0);
  w->kernel = mips_kernel_name();
  return NULL;
}

static void test_concurrent_first_calls_agree(void **state) {
  (void)state;
  for (int x = 0; x < M * K; ++x) a[x] = (float)(x % 7 - 3);
  for (int x = 0; x < K * N; ++x) b[x] = (float)(x % 5 - 2);
  pthread_barrier_t start;
  pthread_barrier_init(&start, NULL, THREADS);
  static worker workers[THREADS];
  pthread_t threads[THREADS];
  for (int t = 0; t < THREADS; ++t) {
    workers[t].start = &start;
    assert_int_equal(pthread_create(&threads[t], NULL, work, &workers[t]), 0);
  }
  for (int t = 0; t < THREADS; ++t) assert_int_equal(pthread_join(threads[t], NULL), 0);
  pthread_barrier_destroy(&start);

  for (int t = 0; t < THREADS; ++t) {
    assert_int_equal(workers[t].status, MIPS_OK);
    assert_true(workers[t].kernel == workers[0].kernel);
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        float want = 0;
        for (int l = 0; l < K; ++l) want += a[i * K + l] * b[l * N + j];
        assert_true(workers[t].c[i * N + j] == want);
      }
  }
  const char *expected = getenv("MIPS_EXPECT_KERNEL");
  if (expected != NULL) assert_string_equal(workers[0].kernel, expected);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_concurrent_first_calls_agree),
};

MIPS_TEST_MAIN(tests)
