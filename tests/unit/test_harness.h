/* SPDX-License-Identifier: Apache-2.0 */
/* One source per test program, two runners:
 *  - host builds use CMocka (MIPS_TEST_WITH_CMOCKA);
 *  - cross builds (bookworm has no riscv64 CMocka) use the small runner below, which
 *    implements the subset of CMocka's assertions the tests use and ends with the line
 *    "N passed, N failed".
 * Tests are written as CMocka tests: void test_x(void **state). */
#ifndef MIPS_TESTS_TEST_HARNESS_H
#define MIPS_TESTS_TEST_HARNESS_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(MIPS_TEST_WITH_CMOCKA)
#include <cmocka.h>

#define MIPS_TEST_MAIN(tests) \
  int main(void) { return cmocka_run_group_tests(tests, NULL, NULL); }

#else /* plain runner */

typedef void (*mips_test_fn)(void **state);
struct CMUnitTest {
  const char *name;
  mips_test_fn test_func;
};
#define cmocka_unit_test(f) \
  { #f, f }

static jmp_buf mips_test_escape;
static char mips_test_message[1024];

static void mips_test_fail(const char *file, int line, const char *fmt, ...)
    __attribute__((noreturn, format(printf, 3, 4)));
static void mips_test_fail(const char *file, int line, const char *fmt, ...) {
  int used = snprintf(mips_test_message, sizeof mips_test_message, "%s:%d: ", file, line);
  va_list args;
  va_start(args, fmt);
  vsnprintf(mips_test_message + used, sizeof mips_test_message - (size_t)used, fmt, args);
  va_end(args);
  longjmp(mips_test_escape, 1);
}

#define fail_msg(...) mips_test_fail(__FILE__, __LINE__, __VA_ARGS__)
#define assert_true(c) \
  do { if (!(c)) fail_msg("%s is not true", #c); } while (0)
#define assert_false(c) \
  do { if (c) fail_msg("%s is not false", #c); } while (0)
#define assert_non_null(p) \
  do { if ((p) == NULL) fail_msg("%s is NULL", #p); } while (0)
#define assert_null(p) \
  do { if ((p) != NULL) fail_msg("%s is not NULL", #p); } while (0)
#define assert_int_equal(a, b)                                                          \
  do {                                                                                  \
    long long mips_a_ = (long long)(a), mips_b_ = (long long)(b);                       \
    if (mips_a_ != mips_b_) fail_msg("%lld != %lld (%s, %s)", mips_a_, mips_b_, #a, #b); \
  } while (0)
#define assert_int_not_equal(a, b)                                            \
  do {                                                                        \
    long long mips_a_ = (long long)(a), mips_b_ = (long long)(b);             \
    if (mips_a_ == mips_b_) fail_msg("%lld == %lld (%s, %s)", mips_a_, mips_b_, #a, #b); \
  } while (0)
#define assert_string_equal(a, b)                                           \
  do {                                                                      \
    const char *mips_a_ = (a), *mips_b_ = (b);                              \
    if (strcmp(mips_a_, mips_b_) != 0) fail_msg("\"%s\" != \"%s\"", mips_a_, mips_b_); \
  } while (0)
#define assert_string_not_equal(a, b)                                       \
  do {                                                                      \
    const char *mips_a_ = (a), *mips_b_ = (b);                              \
    if (strcmp(mips_a_, mips_b_) == 0) fail_msg("\"%s\" == \"%s\"", mips_a_, mips_b_); \
  } while (0)
#define assert_memory_equal(a, b, size)                                      \
  do {                                                                       \
    if (memcmp((a), (b), (size)) != 0) fail_msg("%s and %s differ", #a, #b); \
  } while (0)

static int mips_test_run_all(const struct CMUnitTest *tests, size_t count) {
  int passed = 0, failed = 0;
  for (size_t i = 0; i < count; ++i) {
    mips_test_message[0] = '\0';
    if (setjmp(mips_test_escape) == 0) {
      tests[i].test_func(NULL);
      printf("[       OK ] %s\n", tests[i].name);
      ++passed;
    } else {
      printf("[  FAILED  ] %s\n  %s\n", tests[i].name, mips_test_message);
      ++failed;
    }
  }
  printf("%d passed, %d failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}

#define MIPS_TEST_MAIN(tests) \
  int main(void) { return mips_test_run_all(tests, sizeof(tests) / sizeof((tests)[0])); }

#endif /* MIPS_TEST_WITH_CMOCKA */
#endif /* MIPS_TESTS_TEST_HARNESS_H */
