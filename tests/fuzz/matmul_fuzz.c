/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer target for the C API: build with clang -fsanitize=fuzzer,address,undefined
 * (tests/fuzz/README.md). A broken promise aborts, and libFuzzer keeps the input. */
#include <stdlib.h>

#include "matmul_fuzz_case.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static fuzz_tally tally;
  if (fuzz_matmul_case(data, size, &tally) != 0) abort();
  return 0;
}
