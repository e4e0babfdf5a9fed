/* SPDX-License-Identifier: Apache-2.0 */
/* mips_parallel_for (1.3): the ranges cover [0, count) once each, in whole grains but for
 * the last, no more of them than the cap and the grains allow; loops nest, call matmuls,
 * run from several user threads at once; the checks come in the documented order. */
#define _POSIX_C_SOURCE 200809L /* pthread barriers */
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <string.h>

#include "mips/mips.h"
#include "test_harness.h"

enum { MAX_RANGES = 512, MAX_COUNT = 4096 };

/* What one loop saw: every range, and how often each iteration ran. */
typedef struct loop_record {
  pthread_mutex_t lock;
  int ranges;
  int64_t begin[MAX_RANGES], end[MAX_RANGES];
  atomic_int hits[MAX_COUNT]; /* iterations below MAX_COUNT */
} loop_record;

static void record_range(void *context, int64_t begin, int64_t end) {
  loop_record *r = context;
  pthread_mutex_lock(&r->lock);
  if (r->ranges < MAX_RANGES) r->begin[r->ranges] = begin, r->end[r->ranges] = end;
  r->ranges++;
  pthread_mutex_unlock(&r->lock);
  for (int64_t i = begin; i < end && i < MAX_COUNT; ++i)
    atomic_fetch_add_explicit(&r->hits[i], 1, memory_order_relaxed);
}

static loop_record *new_record(void) {
  loop_record *r = calloc(1, sizeof *r);
  assert_non_null(r);
  pthread_mutex_init(&r->lock, NULL);
  return r;
}

static int compare_begin(const void *x, const void *y) {
  const int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
  return (a > b) - (a < b);
}

/* The ranges of r, sorted, tile [0, count): contiguous, non-empty, each a whole number
 * of grains but the last; at most `most` of them. */
static void check_ranges(loop_record *r, int64_t count, int64_t grain, int most) {
  assert_true(r->ranges >= 1 && r->ranges <= most && r->ranges <= MAX_RANGES);
  int64_t pairs[MAX_RANGES][2];
  for (int i = 0; i < r->ranges; ++i) pairs[i][0] = r->begin[i], pairs[i][1] = r->end[i];
  qsort(pairs, (size_t)r->ranges, sizeof pairs[0], compare_begin);
  int64_t next = 0;
  for (int i = 0; i < r->ranges; ++i) {
    assert_true(pairs[i][0] == next && pairs[i][1] > pairs[i][0]);
    if (pairs[i][1] != count) assert_true((pairs[i][1] - pairs[i][0]) % grain == 0);
    next = pairs[i][1];
  }
  assert_true(next == count);
}

static void test_ranges_cover_every_iteration_once(void **state) {
  (void)state;
  static const int64_t counts[] = {1, 2, 7, 64, 100, 1000, 4096};
  static const int64_t grains[] = {1, 3, 16, 64, 5000};
  static const int caps[] = {1, 2, 3, 5, 8, 0};
  for (size_t ci = 0; ci < sizeof counts / sizeof counts[0]; ++ci)
    for (size_t gi = 0; gi < sizeof grains / sizeof grains[0]; ++gi)
      for (size_t ki = 0; ki < sizeof caps / sizeof caps[0]; ++ki) {
        const int64_t count = counts[ci], grain = grains[gi];
        const int cap = caps[ki];
        loop_record *r = new_record();
        assert_int_equal(mips_parallel_for(count, grain, record_range, r,
                                           MIPS_MATMUL_MAX_THREADS(cap)), MIPS_OK);
        const int64_t whole = count / grain + (count % grain != 0);
        const int threads = cap > 0 ? cap : mips_default_threads();
        check_ranges(r, count, grain, (int)(whole < threads ? whole : threads));
        for (int64_t i = 0; i < count; ++i) assert_int_equal(atomic_load(&r->hits[i]), 1);
        free(r);
      }
}

/* Counts near INT64_MAX: the cut itself must not overflow (fn sees only the ranges). */
static void test_huge_counts_are_cut_exactly(void **state) {
  (void)state;
  static const int64_t grains[] = {1, 3, INT64_MAX / 3, INT64_MAX};
  for (size_t gi = 0; gi < sizeof grains / sizeof grains[0]; ++gi) {
    loop_record *r = new_record();
    assert_int_equal(mips_parallel_for(INT64_MAX, grains[gi], record_range, r,
                                       MIPS_MATMUL_MAX_THREADS(7)), MIPS_OK);
    check_ranges(r, INT64_MAX, grains[gi], 7);
    free(r);
  }
}

/* One grain, or a cap of one: a single call on the calling thread. */
typedef struct caller_check {
  pthread_t caller;
  int calls;
  bool on_caller;
} caller_check;

static void note_thread(void *context, int64_t begin, int64_t end) {
  caller_check *c = context;
  c->calls++;
  c->on_caller = pthread_equal(pthread_self(), c->caller) && begin == 0 && end == 100;
}

static void test_one_range_runs_on_the_caller(void **state) {
  (void)state;
  caller_check c = {pthread_self(), 0, false};
  assert_int_equal(mips_parallel_for(100, 100, note_thread, &c, 0), MIPS_OK);
  assert_true(c.calls == 1 && c.on_caller);
  c.calls = 0, c.on_caller = false;
  assert_int_equal(mips_parallel_for(100, 1, note_thread, &c, MIPS_MATMUL_MAX_THREADS(1)),
                   MIPS_OK);
  assert_true(c.calls == 1 && c.on_caller);
}

/* Inside a range: another loop, and a matmul on up to 4 threads, each correct. */
enum { NM = 40, NN = 30, NK = 20, OUTER = 8 };
static float na[NM * NK], nb[NK * NN], nc[OUTER][NM * NN];
static atomic_int inner_failures;

static void inner_loop(void *context, int64_t begin, int64_t end) {
  atomic_int *sum = context;
  for (int64_t i = begin; i < end; ++i) atomic_fetch_add(sum, (int)i);
}

static void outer_body(void *context, int64_t begin, int64_t end) {
  (void)context;
  for (int64_t o = begin; o < end; ++o) {
    atomic_int sum = 0;
    if (mips_parallel_for(1000, 10, inner_loop, &sum, 0) != MIPS_OK || sum != 999 * 1000 / 2)
      atomic_fetch_add(&inner_failures, 1);
    if (mips_matmul_f32(NM, NN, NK, na, 0, NK, 1, nb, 0, NN, 1, nc[o], 0, NN, 1,
                        MIPS_MATMUL_MAX_THREADS(4)) != MIPS_OK)
      atomic_fetch_add(&inner_failures, 1);
  }
}

static void test_loops_nest_and_call_matmuls(void **state) {
  (void)state;
  for (int x = 0; x < NM * NK; ++x) na[x] = (float)(x % 7 - 3);
  for (int x = 0; x < NK * NN; ++x) nb[x] = (float)(x % 5 - 2);
  memset(nc, 0, sizeof nc);
  atomic_store(&inner_failures, 0);
  assert_int_equal(mips_parallel_for(OUTER, 1, outer_body, NULL, 0), MIPS_OK);
  assert_int_equal(atomic_load(&inner_failures), 0);
  for (int o = 0; o < OUTER; ++o)
    for (int i = 0; i < NM; i += 3)
      for (int j = 0; j < NN; j += 5) {
        float want = 0;
        for (int l = 0; l < NK; ++l) want += na[i * NK + l] * nb[l * NN + j];
        assert_true(nc[o][i * NN + j] == want);
      }
}

/* Several user threads run loops at once (one gets the pool, the others run inline). */
enum { USERS = 6 };
typedef struct user_loop {
  pthread_barrier_t *start;
  loop_record *record;
  int status;
} user_loop;

static void *run_user_loop(void *arg) {
  user_loop *u = arg;
  pthread_barrier_wait(u->start);
  for (int round = 0; round < 20 && u->status == MIPS_OK; ++round) {
    memset(u->record->hits, 0, sizeof u->record->hits);
    u->record->ranges = 0;
    u->status = mips_parallel_for(MAX_COUNT, 7, record_range, u->record, 0);
    for (int i = 0; i < MAX_COUNT && u->status == MIPS_OK; ++i)
      if (atomic_load(&u->record->hits[i]) != 1) u->status = -100;
  }
  return NULL;
}

static void test_concurrent_loops(void **state) {
  (void)state;
  pthread_barrier_t start;
  pthread_barrier_init(&start, NULL, USERS);
  user_loop users[USERS];
  pthread_t threads[USERS];
  for (int t = 0; t < USERS; ++t) {
    users[t] = (user_loop){&start, new_record(), MIPS_OK};
    assert_int_equal(pthread_create(&threads[t], NULL, run_user_loop, &users[t]), 0);
  }
  for (int t = 0; t < USERS; ++t) {
    assert_int_equal(pthread_join(threads[t], NULL), 0);
    assert_int_equal(users[t].status, MIPS_OK);
    free(users[t].record);
  }
  pthread_barrier_destroy(&start);
}

static void never_called(void *context, int64_t begin, int64_t end) {
  (void)begin, (void)end;
  ++*(int *)context;
}

static void test_checks_in_order(void **state) {
  (void)state;
  int calls = 0;
  assert_int_equal(mips_parallel_for(-1, 1, never_called, &calls, 0), MIPS_ERROR_INVALID_ARGUMENT);
  assert_int_equal(mips_parallel_for(10, 0, never_called, &calls, 0), MIPS_ERROR_INVALID_ARGUMENT);
  assert_int_equal(mips_parallel_for(10, -4, never_called, &calls, 0), MIPS_ERROR_INVALID_ARGUMENT);
  assert_int_equal(mips_parallel_for(10, 1, never_called, &calls, MIPS_MATMUL_ACCUMULATE),
                   MIPS_ERROR_INVALID_ARGUMENT);
  assert_int_equal(mips_parallel_for(10, 1, never_called, &calls, MIPS_MATMUL_ANY_ORDER),
                   MIPS_ERROR_INVALID_ARGUMENT);
  assert_int_equal(mips_parallel_for(10, 1, never_called, &calls, 1u << 20),
                   MIPS_ERROR_INVALID_ARGUMENT);
  /* An invalid argument is reported before a NULL fn. */
  assert_int_equal(mips_parallel_for(-1, 1, NULL, NULL, 0), MIPS_ERROR_INVALID_ARGUMENT);
  assert_int_equal(mips_parallel_for(10, 1, NULL, NULL, 0), MIPS_ERROR_NULL_POINTER);
  assert_int_equal(mips_parallel_for(0, 1, NULL, NULL, 0), MIPS_ERROR_NULL_POINTER);
  assert_int_equal(mips_parallel_for(0, 1, never_called, &calls, 0), MIPS_OK);
  assert_int_equal(calls, 0);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_ranges_cover_every_iteration_once),
    cmocka_unit_test(test_huge_counts_are_cut_exactly),
    cmocka_unit_test(test_one_range_runs_on_the_caller),
    cmocka_unit_test(test_loops_nest_and_call_matmuls),
    cmocka_unit_test(test_concurrent_loops),
    cmocka_unit_test(test_checks_in_order),
};

MIPS_TEST_MAIN(tests)
