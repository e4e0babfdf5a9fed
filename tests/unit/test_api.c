/* SPDX-License-Identifier: Apache-2.0 */
/* ABI facts and argument checking: versions, status strings, kernel selection, and
 * every error status with C left untouched. */
#include <math.h>

#include "mips/mips.h"
#include "test_harness.h"

static void test_version_macros_and_queries_agree(void **state) {
  (void)state;
  assert_int_equal(MIPS_VERSION_MAJOR, 1);
  assert_int_equal(MIPS_VERSION_MINOR, 3);
  assert_int_equal(MIPS_VERSION_PATCH, 0);
  assert_int_equal(MIPS_ABI_VERSION, 0x10003);
  assert_int_equal(mips_abi_version(), MIPS_ABI_VERSION);
  assert_string_equal(mips_version_string(), "1.3.0");
}

static void test_default_threads(void **state) {
  (void)state;
  const int threads = mips_default_threads();
  assert_true(threads >= 1 && threads <= 255);
  /* Read once: the environment's later changes are not seen. */
  assert_int_equal(mips_default_threads(), threads);
  const char *env = getenv("MIPS_NUM_THREADS");
  if (env && atoi(env) >= 1) assert_int_equal(threads, atoi(env) > 255 ? 255 : atoi(env));
}

static void test_status_codes_are_distinct_and_negative(void **state) {
  (void)state;
  const int errors[] = {MIPS_ERROR_INVALID_ARGUMENT, MIPS_ERROR_NULL_POINTER,
                        MIPS_ERROR_OVERFLOW, MIPS_ERROR_OVERLAP, MIPS_ERROR_OUT_OF_MEMORY};
  const size_t count = sizeof errors / sizeof errors[0];
  assert_int_equal(MIPS_OK, 0);
  for (size_t i = 0; i < count; ++i) {
    assert_true(errors[i] < 0);
    for (size_t j = i + 1; j < count; ++j) assert_int_not_equal(errors[i], errors[j]);
  }
}

static void test_status_strings_are_distinct_and_never_null(void **state) {
  (void)state;
  const int statuses[] = {MIPS_OK, MIPS_ERROR_INVALID_ARGUMENT, MIPS_ERROR_NULL_POINTER,
                          MIPS_ERROR_OVERFLOW, MIPS_ERROR_OVERLAP, MIPS_ERROR_OUT_OF_MEMORY};
  const size_t count = sizeof statuses / sizeof statuses[0];
  const char *unknown = mips_status_string(12345);
  assert_non_null(unknown);
  assert_string_equal(unknown, mips_status_string(-99));
  assert_string_equal(unknown, mips_status_string(INT32_MIN));
  assert_string_equal(mips_status_string(MIPS_OK), "success");
  for (size_t i = 0; i < count; ++i) {
    const char *text = mips_status_string(statuses[i]);
    assert_non_null(text);
    assert_true(strlen(text) > 0);
    assert_string_not_equal(text, unknown);
    for (size_t j = i + 1; j < count; ++j)
      assert_string_not_equal(text, mips_status_string(statuses[j]));
  }
}

/* The test driver states which kernel the CPU and MIPS_KERNEL must lead to. */
static void test_kernel_name_is_the_expected_one(void **state) {
  (void)state;
  const char *name = mips_kernel_name();
  assert_non_null(name);
  assert_true(strcmp(name, "scalar") == 0 || strcmp(name, "rvv") == 0 ||
              strcmp(name, "x86") == 0);
  const char *expected = getenv("MIPS_EXPECT_KERNEL");
  if (expected != NULL) assert_string_equal(name, expected);
  assert_true(mips_kernel_name() == name); /* chosen once */
}

/*------------------------------------------------------------------------------------
 * Errors leave C untouched
 *----------------------------------------------------------------------------------*/
enum { GUARD = 64 };

typedef struct call_f32 {
  int64_t m, n, k;
  const float *a;
  int64_t a_offset, a_stride0, a_stride1;
  const float *b;
  int64_t b_offset, b_stride0, b_stride1;
  float *c;
  int64_t c_offset, c_stride0, c_stride1;
  uint32_t flags;
} call_f32;

static float a_buf[GUARD], b_buf[GUARD], c_buf[GUARD];
static int8_t a8_buf[GUARD], b8_buf[GUARD];
static int32_t c32_buf[GUARD];

/* A valid 2x3x2 row-major call into the static buffers; tests break one thing. */
static call_f32 valid_call(void) {
  for (int i = 0; i < GUARD; ++i) {
    a_buf[i] = (float)(i % 5);
    b_buf[i] = (float)(i % 3);
    a8_buf[i] = (int8_t)(i % 5);
    b8_buf[i] = (int8_t)(i % 3);
  }
  return (call_f32){2, 3, 2, a_buf, 0, 2, 1, b_buf, 0, 3, 1, c_buf, 0, 3, 1, 0};
}

/* What a successful `call` must leave in C, computed naively from the buffers. */
static void expected_results(call_f32 call, float *want, int32_t *want32) {
  if (call.k == 0 && (call.flags & MIPS_MATMUL_ACCUMULATE)) return;
  for (int64_t i = 0; i < call.m; ++i)
    for (int64_t j = 0; j < call.n; ++j) {
      const int64_t at = call.c_offset + i * call.c_stride0 + j * call.c_stride1;
      const int accumulate = (call.flags & MIPS_MATMUL_ACCUMULATE) != 0;
      float sum = accumulate ? want[at] : 0.0f;
      int32_t sum32 = accumulate ? want32[at] : 0;
      for (int64_t l = 0; l < call.k; ++l) {
        const int64_t ai = call.a_offset + i * call.a_stride0 + l * call.a_stride1;
        const int64_t bi = call.b_offset + l * call.b_stride0 + j * call.b_stride1;
        sum += a_buf[ai] * b_buf[bi];
        sum32 += a8_buf[ai] * b8_buf[bi];
      }
      want[at] = sum, want32[at] = sum32;
    }
}

/* Runs `call` for f32 and the same shape and strides for i8 with poisoned C
 * buffers, and checks both statuses; on error no byte of C may change, on success
 * C must hold the product. */
static void expect_status(call_f32 call, int expected) {
  float c_before[GUARD];
  int32_t c32_before[GUARD];
  for (int i = 0; i < GUARD; ++i) {
    c_buf[i] = (float)(1000 + i);
    c32_buf[i] = 7000 + i;
  }
  memcpy(c_before, c_buf, sizeof c_buf);
  memcpy(c32_before, c32_buf, sizeof c32_buf);

  const int status_f32 = mips_matmul_f32(
      call.m, call.n, call.k, call.a, call.a_offset, call.a_stride0, call.a_stride1, call.b,
      call.b_offset, call.b_stride0, call.b_stride1, call.c, call.c_offset, call.c_stride0,
      call.c_stride1, call.flags);
  const int8_t *a8 = call.a ? a8_buf : NULL;
  const int8_t *b8 = call.b ? b8_buf : NULL;
  int32_t *c32 = call.c ? c32_buf : NULL;
  const int status_i8 = mips_matmul_i8i32(
      call.m, call.n, call.k, a8, call.a_offset, call.a_stride0, call.a_stride1, b8,
      call.b_offset, call.b_stride0, call.b_stride1, c32, call.c_offset, call.c_stride0,
      call.c_stride1, call.flags);

  assert_int_equal(status_f32, expected);
  assert_int_equal(status_i8, expected);
  if (expected == MIPS_OK) expected_results(call, c_before, c32_before);
  assert_memory_equal(c_buf, c_before, sizeof c_buf);
  assert_memory_equal(c32_buf, c32_before, sizeof c32_buf);
}

static void test_invalid_arguments(void **state) {
  (void)state;
  call_f32 call = valid_call();
  expect_status(call, MIPS_OK);
  call = valid_call(), call.m = -1, expect_status(call, MIPS_ERROR_INVALID_ARGUMENT);
  call = valid_call(), call.n = -1, expect_status(call, MIPS_ERROR_INVALID_ARGUMENT);
  call = valid_call(), call.k = -1, expect_status(call, MIPS_ERROR_INVALID_ARGUMENT);
  call = valid_call(), call.k = INT64_MIN, expect_status(call, MIPS_ERROR_INVALID_ARGUMENT);
  call = valid_call(), call.flags = 4u, expect_status(call, MIPS_ERROR_INVALID_ARGUMENT);
  call = valid_call(), call.flags = MIPS_MATMUL_ANY_ORDER, expect_status(call, MIPS_OK); /* 1.2 */
  call = valid_call(), call.flags = 0x80000001u, expect_status(call, MIPS_ERROR_INVALID_ARGUMENT);
  /* 1.1's thread cap: bits 8..15; bit 16 (a cap of 256) is not one. */
  call = valid_call(), call.flags = MIPS_MATMUL_MAX_THREADS(1), expect_status(call, MIPS_OK);
  call = valid_call(), call.flags = MIPS_MATMUL_MAX_THREADS(255) | MIPS_MATMUL_ACCUMULATE;
  expect_status(call, MIPS_OK);
  call = valid_call(), call.flags = MIPS_MATMUL_MAX_THREADS(256), expect_status(call, MIPS_ERROR_INVALID_ARGUMENT);
  call = valid_call(), call.flags = 0x80u, expect_status(call, MIPS_ERROR_INVALID_ARGUMENT);
  /* Dimension errors win over everything else, even on an empty problem. */
  call = valid_call(), call.m = 0, call.n = -5, call.c = NULL;
  expect_status(call, MIPS_ERROR_INVALID_ARGUMENT);
}

static void test_null_pointers(void **state) {
  (void)state;
  call_f32 call;
  call = valid_call(), call.a = NULL, expect_status(call, MIPS_ERROR_NULL_POINTER);
  call = valid_call(), call.b = NULL, expect_status(call, MIPS_ERROR_NULL_POINTER);
  call = valid_call(), call.c = NULL, expect_status(call, MIPS_ERROR_NULL_POINTER);
  call = valid_call(), call.c = NULL, call.flags = MIPS_MATMUL_ACCUMULATE;
  expect_status(call, MIPS_ERROR_NULL_POINTER);
  /* k = 0 without accumulate writes zeros to C, so C is touched but A and B are not. */
  call = valid_call(), call.k = 0, call.c = NULL, expect_status(call, MIPS_ERROR_NULL_POINTER);
  call = valid_call(), call.k = 0, call.a = NULL, call.b = NULL, expect_status(call, MIPS_OK);
  /* Nothing is touched at all. */
  call = valid_call(), call.k = 0, call.flags = MIPS_MATMUL_ACCUMULATE;
  call.a = NULL, call.b = NULL, call.c = NULL, expect_status(call, MIPS_OK);
  call = valid_call(), call.m = 0, call.a = NULL, call.b = NULL, call.c = NULL;
  expect_status(call, MIPS_OK);
  call = valid_call(), call.n = 0, call.a = NULL, call.b = NULL, call.c = NULL;
  expect_status(call, MIPS_OK);
  /* Untouched matrices may have any offset too, even with a NULL base. */
  call = valid_call(), call.k = 0, call.flags = MIPS_MATMUL_ACCUMULATE, call.c = NULL;
  call.c_offset = 5, expect_status(call, MIPS_OK);
  call = valid_call(), call.k = 0, call.flags = MIPS_MATMUL_ACCUMULATE, call.c_offset = INT64_MIN;
  expect_status(call, MIPS_OK);
  call = valid_call(), call.m = 0, call.a_offset = INT64_MAX, call.c_offset = INT64_MIN;
  expect_status(call, MIPS_OK);
  /* Null beats overflow and overlap. */
  call = valid_call(), call.a = NULL, call.b_offset = INT64_MAX, call.c_stride0 = 0;
  expect_status(call, MIPS_ERROR_NULL_POINTER);
}

static void test_index_overflow(void **state) {
  (void)state;
  call_f32 call;
  /* An element index beyond int64. */
  call = valid_call(), call.a_offset = INT64_MAX, expect_status(call, MIPS_ERROR_OVERFLOW);
  call = valid_call(), call.b_stride0 = INT64_MAX, expect_status(call, MIPS_ERROR_OVERFLOW);
  call = valid_call(), call.c_offset = INT64_MIN, call.c_stride1 = -1;
  expect_status(call, MIPS_ERROR_OVERFLOW);
  call = valid_call(), call.m = 3, call.a_stride0 = INT64_MIN / 2 - 1;
  expect_status(call, MIPS_ERROR_OVERFLOW);
  call = valid_call(), call.n = INT64_MAX, call.c_stride1 = 1, call.c_offset = 1;
  expect_status(call, MIPS_ERROR_OVERFLOW);
  /* An index that fits int64 but whose byte offset does not fit ptrdiff_t. */
  call = valid_call(), call.c_offset = INT64_MAX / 2, expect_status(call, MIPS_ERROR_OVERFLOW);
  call = valid_call(), call.c_offset = INT64_MIN / 2, expect_status(call, MIPS_ERROR_OVERFLOW);
  /* k = 0 writes C, so C's extent is still checked. */
  call = valid_call(), call.k = 0, call.c_stride0 = INT64_MAX, expect_status(call, MIPS_ERROR_OVERFLOW);
  /* Indices and byte offsets that fit, but a row span of -(2^62 - 1) * 4 bytes does not. */
  call = valid_call(), call.n = 1, call.k = 0, call.c_offset = ((int64_t)1 << 61) - 1;
  call.c_stride0 = -(((int64_t)1 << 62) - 1), expect_status(call, MIPS_ERROR_OVERFLOW);
  /* Overflow beats overlap. */
  call = valid_call(), call.a_offset = INT64_MAX, call.c_stride1 = 0;
  expect_status(call, MIPS_ERROR_OVERFLOW);
}

static void test_overlapping_output(void **state) {
  (void)state;
  call_f32 call;
  call = valid_call(), call.c_stride0 = 0, expect_status(call, MIPS_ERROR_OVERLAP);
  call = valid_call(), call.c_stride1 = 0, expect_status(call, MIPS_ERROR_OVERLAP);
  /* Row-major with a leading dimension smaller than n: (0, 2) and (1, 0) collide. */
  call = valid_call(), call.c_stride0 = 2, expect_status(call, MIPS_ERROR_OVERLAP);
  call = valid_call(), call.c_stride0 = 1, call.c_stride1 = 1, expect_status(call, MIPS_ERROR_OVERLAP);
  /* Strides of opposite sign: (i, j) = (2, 3) and (0, 0) with 3*2 - 2*3 = 0. */
  call = valid_call(), call.m = 3, call.n = 4, call.a_stride0 = 1, call.b_stride0 = 1;
  call.b_stride1 = 2, call.c_stride0 = 3, call.c_stride1 = -2, call.c_offset = 8;
  expect_status(call, MIPS_ERROR_OVERLAP);
  /* One row, both strides zero: every column lands on the same element. */
  call = valid_call(), call.m = 1, call.c_stride0 = 0, call.c_stride1 = 0;
  expect_status(call, MIPS_ERROR_OVERLAP);
  /* Also when k = 0 zero-fills C. */
  call = valid_call(), call.k = 0, call.c_stride1 = 0, expect_status(call, MIPS_ERROR_OVERLAP);
  /* Not overlaps: one row with a zero row stride; an interleaved but injective layout;
     broadcast (zero) strides on A and B. */
  call = valid_call(), call.m = 1, call.c_stride0 = 0, expect_status(call, MIPS_OK);
  call = valid_call(), call.c_stride0 = 3, call.c_stride1 = 2, expect_status(call, MIPS_OK);
  call = valid_call(), call.a_stride0 = 0, call.a_stride1 = 0, call.b_stride0 = 0;
  expect_status(call, MIPS_OK);
}

/* The stride of a dimension of extent 1 is never used, whatever its value. */
static void test_unit_extent_strides_are_ignored(void **state) {
  (void)state;
  call_f32 call = valid_call();
  call.m = 1, call.n = 1, call.k = 3;
  call.a_stride0 = INT64_MIN, call.a_stride1 = 2;
  call.b_stride0 = 1, call.b_stride1 = INT64_MAX;
  call.c_offset = 7, call.c_stride0 = INT64_MAX, call.c_stride1 = INT64_MIN;
  expect_status(call, MIPS_OK);
  call.flags = MIPS_MATMUL_ACCUMULATE, expect_status(call, MIPS_OK);
  /* A single column of C (n = 1) with a huge column stride, vectorised along m. */
  call = valid_call(), call.n = 1, call.c_stride0 = 3, call.c_stride1 = INT64_MIN;
  call.b_stride1 = INT64_MAX, expect_status(call, MIPS_OK);
  call.k = 0, expect_status(call, MIPS_OK);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_version_macros_and_queries_agree),
    cmocka_unit_test(test_default_threads),
    cmocka_unit_test(test_status_codes_are_distinct_and_negative),
    cmocka_unit_test(test_status_strings_are_distinct_and_never_null),
    cmocka_unit_test(test_kernel_name_is_the_expected_one),
    cmocka_unit_test(test_invalid_arguments),
    cmocka_unit_test(test_null_pointers),
    cmocka_unit_test(test_index_overflow),
    cmocka_unit_test(test_overlapping_output),
    cmocka_unit_test(test_unit_extent_strides_are_ignored),
};

MIPS_TEST_MAIN(tests)
