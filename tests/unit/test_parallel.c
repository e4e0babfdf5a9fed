/* SPDX-License-Identifier: Apache-2.0 */
/* Multi-threaded calls (1.1): for every thread cap the result is correct and bit for bit
 * the single-threaded one, whatever the shape or layout; user threads calling at once
 * while libmips runs its own all finish correctly; a forked child can still compute. */
#define _POSIX_C_SOURCE 200809L /* pthread barriers */
#include <pthread.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "matmul_cases.h"

static uint32_t current_cap;

static int call_with_cap(const matmul_case *tc, const void *a, const view *av, const void *b,
                         const view *bv, void *c, const view *cv) {
  matmul_case capped = *tc;
  capped.flags |= MIPS_MATMUL_MAX_THREADS(current_cap);
  return call_matmul(&capped, a, av, b, bv, c, cv);
}

/* Big enough to split (2 to 8 threads' work; test_tiles checks the grid on small ones),
 * with edges that are not multiples of any tile: square-ish, tall, wide, k over a block;
 * few columns or few rows (column blocks split by blocks of rows, where they run). */
static const int64_t shapes[][3] = {{150, 170, 330}, {1100, 17, 130}, {17, 1100, 130},
                                    {600, 4, 1000}, {3, 700, 1000}};
static const layout layouts[] = {ROW_MAJOR, COL_MAJOR, ROW_MAJOR_FLIPPED};
static const uint32_t caps[] = {1, 2, 3, 8};

static void test_every_cap_is_correct(void **state) {
  (void)state;
  char label[160];
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; ++s)
    for (size_t ci = 0; ci < sizeof caps / sizeof caps[0]; ++ci) {
      current_cap = caps[ci];
      const dtype t = all_types[(s + ci) % 2];
      matmul_case tc = plain_case(t, shapes[s][0], shapes[s][1], shapes[s][2], layouts[(s + ci) % 3],
                                  layouts[(s + 2 * ci) % 3], layouts[ci % 2], (uint32_t)(ci & 1));
      snprintf(label, sizeof label, "%s %lldx%lldx%lld cap %u", type_names[t], (long long)tc.m,
               (long long)tc.n, (long long)tc.k, current_cap);
      run_case_with(&tc, label, call_with_cap);
    }
}

/* f32 with fractions: any change of summation order would show in the bits. Square-ish
 * (tiles), few columns (column blocks where the kernel set has them) and few rows. */
static void check_bits_do_not_depend_on_threads(int64_t M, int64_t N, int64_t K) {
  float *a = malloc(sizeof(float) * M * K), *b = malloc(sizeof(float) * K * N);
  float *one = malloc(sizeof(float) * M * N), *many = malloc(sizeof(float) * M * N);
  assert_true(a && b && one && many);
  for (int64_t x = 0; x < M * K; ++x) a[x] = (float)test_rng_int(-1000, 1000) / 997.0f;
  for (int64_t x = 0; x < K * N; ++x) b[x] = (float)test_rng_int(-1000, 1000) / 991.0f;
  assert_int_equal(mips_matmul_f32(M, N, K, a, 0, K, 1, b, 0, N, 1, one, 0, N, 1,
                                   MIPS_MATMUL_MAX_THREADS(1)), MIPS_OK);
  for (size_t ci = 1; ci < sizeof caps / sizeof caps[0]; ++ci) {
    assert_int_equal(mips_matmul_f32(M, N, K, a, 0, K, 1, b, 0, N, 1, many, 0, N, 1,
                                     MIPS_MATMUL_MAX_THREADS(caps[ci])), MIPS_OK);
    if (memcmp(one, many, sizeof(float) * (size_t)(M * N)) != 0)
      fail_msg("%lldx%lldx%lld: cap %u changed the result's bits", (long long)M, (long long)N,
               (long long)K, caps[ci]);
  }
  /* And without a cap: the process default. */
  assert_int_equal(mips_matmul_f32(M, N, K, a, 0, K, 1, b, 0, N, 1, many, 0, N, 1, 0), MIPS_OK);
  assert_memory_equal(one, many, sizeof(float) * (size_t)(M * N));
  free(a), free(b), free(one), free(many);
}

static void test_result_does_not_depend_on_threads(void **state) {
  (void)state;
  check_bits_do_not_depend_on_threads(131, 157, 420);
  check_bits_do_not_depend_on_threads(700, 4, 900);
  check_bits_do_not_depend_on_threads(3, 800, 900);
}

/* Eight user threads call at once, each on its own C, with the default thread count:
 * libmips's own threads serve one of them at a time, the others run on their callers. */
enum { USERS = 8, UM = 120, UN = 130, UK = 150 };
static float ua[UM * UK], ub[UK * UN];

typedef struct user {
  pthread_barrier_t *start;
  int status;
  float c[UM * UN];
} user;

static void *user_main(void *arg) {
  user *u = arg;
  pthread_barrier_wait(u->start);
  for (int round = 0; round < 2 && u->status == MIPS_OK; ++round)
    u->status = mips_matmul_f32(UM, UN, UK, ua, 0, UK, 1, ub, 0, UN, 1, u->c, 0, UN, 1, 0);
  return NULL;
}

static void test_concurrent_callers_with_threads(void **state) {
  (void)state;
  for (int x = 0; x < UM * UK; ++x) ua[x] = (float)(x % 7 - 3);
  for (int x = 0; x < UK * UN; ++x) ub[x] = (float)(x % 5 - 2);
  pthread_barrier_t start;
  pthread_barrier_init(&start, NULL, USERS);
  static user users[USERS];
  pthread_t threads[USERS];
  for (int t = 0; t < USERS; ++t) {
    users[t].start = &start, users[t].status = MIPS_OK;
    assert_int_equal(pthread_create(&threads[t], NULL, user_main, &users[t]), 0);
  }
  for (int t = 0; t < USERS; ++t) assert_int_equal(pthread_join(threads[t], NULL), 0);
  pthread_barrier_destroy(&start);
  for (int t = 0; t < USERS; ++t) {
    assert_int_equal(users[t].status, MIPS_OK);
    for (int i = 0; i < UM; i += 7)
      for (int j = 0; j < UN; ++j) {
        float want = 0;
        for (int l = 0; l < UK; ++l) want += ua[i * UK + l] * ub[l * UN + j];
        if (users[t].c[i * UN + j] != want) fail_msg("user %d: C(%d,%d) wrong", t, i, j);
      }
  }
}

/* After fork() the child has none of the parent's threads; its calls must still run. */
static void test_fork_child_computes(void **state) {
  (void)state;
  /* qemu-user 7.2 itself aborts when a multi-threaded guest forks. */
  if (getenv("MIPS_TEST_UNDER_QEMU")) {
    printf("test_fork_child_computes: skipped under qemu-user\n");
    return;
  }
  static float c[UM * UN];
  assert_int_equal(mips_matmul_f32(UM, UN, UK, ua, 0, UK, 1, ub, 0, UN, 1, c, 0, UN, 1,
                                   MIPS_MATMUL_MAX_THREADS(4)), MIPS_OK);
  const float corner = c[UM * UN - 1];
  const pid_t child = fork();
  assert_true(child >= 0);
  if (child == 0) {
    memset(c, 0, sizeof c);
    const int status = mips_matmul_f32(UM, UN, UK, ua, 0, UK, 1, ub, 0, UN, 1, c, 0, UN, 1,
                                       MIPS_MATMUL_MAX_THREADS(4));
    _exit(status == MIPS_OK && c[UM * UN - 1] == corner ? 0 : 1);
  }
  int status;
  assert_int_equal(waitpid(child, &status, 0), child);
  assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/* A caller cancelled while libmips's threads work for it: the call finishes first (the
 * pthreads pool defers the cancel), so the pool is free for the next caller. */
static void *cancelled_caller(void *arg) {
  float *c = arg;
  for (;;) {
    (void)mips_matmul_f32(UM, UN, UK, ua, 0, UK, 1, ub, 0, UN, 1, c, 0, UN, 1,
                          MIPS_MATMUL_MAX_THREADS(4));
    pthread_testcancel();
  }
  return NULL;
}

static void test_cancelled_caller_leaves_pool_usable(void **state) {
  (void)state;
#ifndef MIPS_TEST_THREADING_PTHREADS
  printf("test_cancelled_caller_leaves_pool_usable: only the pthreads pool defers cancels\n");
  return;
#endif
  for (int x = 0; x < UM * UK; ++x) ua[x] = (float)(x % 7 - 3);
  for (int x = 0; x < UK * UN; ++x) ub[x] = (float)(x % 5 - 2);
  static float scratch[UM * UN], c[UM * UN];
  for (int round = 0; round < 20; ++round) {
    pthread_t caller;
    assert_int_equal(pthread_create(&caller, NULL, cancelled_caller, scratch), 0);
    const struct timespec pause = {0, 2000000 + 100000 * round};
    nanosleep(&pause, NULL);
    assert_int_equal(pthread_cancel(caller), 0);
    void *result;
    assert_int_equal(pthread_join(caller, &result), 0);
    assert_true(result == PTHREAD_CANCELED);
    /* Hangs here if the cancel left the pool locked. */
    assert_int_equal(mips_matmul_f32(UM, UN, UK, ua, 0, UK, 1, ub, 0, UN, 1, c, 0, UN, 1,
                                     MIPS_MATMUL_MAX_THREADS(4)), MIPS_OK);
  }
  float want = 0;
  for (int l = 0; l < UK; ++l) want += ua[(UM - 1) * UK + l] * ub[l * UN + UN - 1];
  assert_true(c[UM * UN - 1] == want);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_every_cap_is_correct),
    cmocka_unit_test(test_result_does_not_depend_on_threads),
    cmocka_unit_test(test_concurrent_callers_with_threads),
    cmocka_unit_test(test_fork_child_computes),
    cmocka_unit_test(test_cancelled_caller_leaves_pool_usable),
};

MIPS_TEST_MAIN(tests)
