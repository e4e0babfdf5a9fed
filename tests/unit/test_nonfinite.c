/* SPDX-License-Identifier: Apache-2.0 */
/* NaN and Inf follow IEEE through every path of the public API: Inf * 0 is NaN, a NaN
 * in A reaches exactly its row of C and a NaN in B exactly its column, Inf - Inf is
 * NaN, and accumulation onto Inf or NaN keeps them. Shapes reach the unpacked small
 * path, packed panels with zero padding, several k blocks, and every layout pair. */
#include "matmul_cases.h"

static const int64_t shapes[][3] = {{1, 1, 1}, {5, 3, 2}, {37, 53, 19}, {17, 40, 300}, {31, 129, 7}};
static const layout layouts[] = {ROW_MAJOR, COL_MAJOR};

static void check_shapes(uint32_t flags) {
  char label[160];
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; ++s)
    for (int combo = 0; combo < 8; ++combo) {
      const layout la = layouts[combo & 1], lb = layouts[(combo >> 1) & 1], lc = layouts[(combo >> 2) & 1];
      const matmul_case tc = plain_case(F32, shapes[s][0], shapes[s][1], shapes[s][2], la, lb, lc, flags);
      snprintf(label, sizeof label, "%lldx%lldx%lld A %s B %s C %s%s", (long long)tc.m, (long long)tc.n,
               (long long)tc.k, layout_names[la], layout_names[lb], layout_names[lc],
               flags ? " accumulate" : "");
      run_nonfinite_cases_with(&tc, label, call_matmul);
    }
}

static void test_nonfinite_overwrite(void **state) {
  (void)state;
  check_shapes(0);
}

static void test_nonfinite_accumulate(void **state) {
  (void)state;
  check_shapes(MIPS_MATMUL_ACCUMULATE);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_nonfinite_overwrite),
    cmocka_unit_test(test_nonfinite_accumulate),
};

MIPS_TEST_MAIN(tests)
