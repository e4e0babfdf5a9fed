/* SPDX-License-Identifier: Apache-2.0 */
/* One fuzz case of the C API: bytes in, a call decoded from them, and every promise of
 * abi/ABI.md checked. Shared by the libFuzzer target and the seeded random program. */
#ifndef MIPS_TESTS_FUZZ_MATMUL_FUZZ_CASE_H
#define MIPS_TESTS_FUZZ_MATMUL_FUZZ_CASE_H

#include <stddef.h>
#include <stdint.h>

/* What happened to the cases run so far, so a driver can show it explored something. */
typedef struct fuzz_tally {
  uint64_t cases;
  uint64_t by_status[5];  /* indexed by -status: OK, INVALID, NULL, OVERFLOW, OVERLAP */
  uint64_t executed;      /* MIPS_OK cases whose product was run and checked */
  uint64_t skipped;       /* MIPS_OK cases too big to allocate or compute */
  uint64_t nonfinite;     /* executed f32 cases with NaN or Inf in the inputs or C */
  uint64_t i8;            /* executed int8 cases */
  uint64_t packed;        /* executed cases through a pre-packed B */
} fuzz_tally;

/* Runs the case the bytes describe. Returns 0 if libmips kept the contract; otherwise
 * prints the decoded call and what went wrong to stderr and returns 1. */
int fuzz_matmul_case(const uint8_t *data, size_t size, fuzz_tally *tally);

#endif /* MIPS_TESTS_FUZZ_MATMUL_FUZZ_CASE_H */
