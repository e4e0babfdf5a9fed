/* SPDX-License-Identifier: Apache-2.0 */
/* Randomized differential test of the public API against the reference: fixed seeds,
 * shapes from 1 to a few hundred (log-uniform, so small and odd sizes are common),
 * every layout including negative, broadcast and sliced strides, both element types,
 * with and without accumulation. The same seeds run on every CPU configuration. */
#include <stdbool.h>

#include "matmul_cases.h"

/* 1..320, log-uniform; or, for `large`, uniform in 64..320. */
static int64_t random_extent(bool large) {
  if (large) return test_rng_int(64, 320);
  const int64_t bits = test_rng_int(0, 8);
  return test_rng_int(1, (int64_t)(5 << bits) / 4 > 320 ? 320 : (5 << bits) / 4);
}

static void run_random_cases(uint64_t seed, int count, bool large) {
  test_rng_state = seed;
  for (int x = 0; x < count; ++x) {
    const dtype t = test_rng_int(0, 1) ? F32 : I8I32;
    matmul_case tc = plain_case(t, random_extent(large), random_extent(large), random_extent(large),
                                (layout)test_rng_int(0, LAYOUT_COUNT - 1),
                                (layout)test_rng_int(0, LAYOUT_COUNT - 1),
                                (layout)test_rng_int(0, BROADCAST_ROWS - 1),
                                (uint32_t)test_rng_int(0, 1));
    tc.a.front = test_rng_int(0, 3), tc.a.pad = test_rng_int(0, 2);
    tc.b.front = test_rng_int(0, 3), tc.b.pad = test_rng_int(0, 2);
    tc.c.front = test_rng_int(0, 3), tc.c.pad = test_rng_int(0, 2);
    if (t == I8I32 && test_rng_int(0, 3) == 0) tc.in_lo = -128, tc.in_hi = 127;
    char label[160];
    snprintf(label, sizeof label, "seed %llu case %d: %s %lldx%lldx%lld A=%s B=%s C=%s%s",
             (unsigned long long)seed, x, type_names[t], (long long)tc.m, (long long)tc.n,
             (long long)tc.k, layout_names[tc.a.layout], layout_names[tc.b.layout],
             layout_names[tc.c.layout], tc.flags ? " accumulate" : "");
    run_case(&tc, label);
  }
}

static void test_random_seed_1(void **state) { (void)state; run_random_cases(1, 60, false); }
static void test_random_seed_2(void **state) { (void)state; run_random_cases(2, 60, false); }
static void test_random_seed_3(void **state) { (void)state; run_random_cases(3, 60, false); }
static void test_random_large_seed_4(void **state) { (void)state; run_random_cases(4, 6, true); }

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_random_seed_1),
    cmocka_unit_test(test_random_seed_2),
    cmocka_unit_test(test_random_seed_3),
    cmocka_unit_test(test_random_large_seed_4),
};

MIPS_TEST_MAIN(tests)
