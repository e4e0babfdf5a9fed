/* SPDX-License-Identifier: Apache-2.0 */
/* Shared by the end-to-end drivers: include after the model's generated header.
 * Each driver compares the compiled model against a plain C reference (integer-valued
 * data keeps every float sum exact), checks which kernel ran, and exits nonzero on
 * any mismatch. */
#ifndef MIPS_TESTS_E2E_DRIVER_H
#define MIPS_TESTS_E2E_DRIVER_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int e2e_failures;

#define EXPECT(cond, ...)                                          \
  do {                                                             \
    if (!(cond)) {                                                 \
      fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);         \
      fprintf(stderr, __VA_ARGS__);                                \
      fputc('\n', stderr);                                         \
      ++e2e_failures;                                              \
    }                                                              \
  } while (0)

/* A row-major rows x cols descriptor over `data` (any mips_memref_*_2d type). */
#define E2E_ROW_MAJOR(type, data, rows, cols) \
  ((type){(data), (data), 0, {(rows), (cols)}, {(cols), 1}})

/* Element (i, j) of a 2-D descriptor. */
#define E2E_AT(desc, i, j) \
  ((desc).aligned[(desc).offset + (int64_t)(i) * (desc).strides[0] + (int64_t)(j) * (desc).strides[1]])

/* Deterministic small integers in [-r, r]. */
static int e2e_value(int seed, int r) { return (int)((unsigned)(seed * 2654435761u) >> 7) % (2 * r + 1) - r; }

/* Reports, checks the kernel against MIPS_EXPECT_KERNEL, and returns the exit status. */
static int e2e_finish(const char *test) {
  const char *kernel = mipsrt_kernel_name();
  const char *expected = getenv("MIPS_EXPECT_KERNEL");
  if (expected != NULL)
    EXPECT(strstr(kernel, expected) != NULL, "kernel %s, expected %s", kernel, expected);
  printf("%s: kernel %s, libmips %s: %s\n", test, kernel, mipsrt_library_version(),
         e2e_failures == 0 ? "ok" : "FAILED");
  return e2e_failures == 0 ? 0 : 1;
}

#endif /* MIPS_TESTS_E2E_DRIVER_H */
