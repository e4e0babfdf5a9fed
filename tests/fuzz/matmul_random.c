/* SPDX-License-Identifier: Apache-2.0 */
/* The fuzz decoder fed with seeded random bytes: a plain program, so it runs where
 * libFuzzer cannot (riscv64 under qemu, through the RVV kernels and packed paths).
 *
 *   matmul_random [--seed S] [--cases N] [file...]
 *
 * Files are run as single inputs (a libFuzzer crash file reproduces here). Exits 1 at
 * the first broken promise, printing the case's bytes; it also fails when a run of
 * many cases explored too little (no case of some status, or few products run). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "matmul_fuzz_case.h"

enum { CASE_BYTES = 96 };

static uint64_t next_random(uint64_t *state) {
  uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static int run_file(const char *path, fuzz_tally *tally) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    perror(path);
    return 1;
  }
  static uint8_t buf[1 << 16];
  const size_t size = fread(buf, 1, sizeof buf, f);
  fclose(f);
  return fuzz_matmul_case(buf, size, tally);
}

static void print_bytes(const uint8_t *bytes, size_t size) {
  for (size_t i = 0; i < size; i++) fprintf(stderr, "%02x", bytes[i]);
  fputc('\n', stderr);
}

int main(int argc, char **argv) {
  uint64_t seed = 1;
  long cases = 10000;
  fuzz_tally tally;
  memset(&tally, 0, sizeof tally);
  int files = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
      seed = strtoull(argv[++i], NULL, 0);
    } else if (!strcmp(argv[i], "--cases") && i + 1 < argc) {
      cases = strtol(argv[++i], NULL, 0);
    } else if (argv[i][0] == '-') {
      fprintf(stderr, "usage: %s [--seed S] [--cases N] [file...]\n", argv[0]);
      return 2;
    } else {
      files++;
      if (run_file(argv[i], &tally) != 0) {
        fprintf(stderr, "matmul_random: %s breaks the contract\n", argv[i]);
        return 1;
      }
    }
  }
  if (files > 0) {
    printf("%d inputs kept the contract\n", files);
    return 0;
  }

  uint64_t state = seed;
  for (long c = 0; c < cases; c++) {
    uint8_t bytes[CASE_BYTES];
    for (size_t i = 0; i < CASE_BYTES; i += 8) {
      const uint64_t r = next_random(&state);
      memcpy(bytes + i, &r, 8);
    }
    if (fuzz_matmul_case(bytes, CASE_BYTES, &tally) != 0) {
      fprintf(stderr, "matmul_random: case %ld of seed %" PRIu64 " breaks the contract; its bytes:\n", c, seed);
      print_bytes(bytes, CASE_BYTES);
      return 1;
    }
  }

  printf("seed %" PRIu64 ": %" PRIu64 " cases: %" PRIu64 " ok (%" PRIu64 " products checked, %" PRIu64
         " int8, %" PRIu64 " with NaN/Inf, %" PRIu64 " through a packed B; %" PRIu64
         " too big to run), %" PRIu64 " invalid, %" PRIu64 " null, %" PRIu64 " overflow, %" PRIu64
         " overlap\n",
         seed, tally.cases, tally.by_status[0], tally.executed, tally.i8, tally.nonfinite,
         tally.packed, tally.skipped,
         tally.by_status[1], tally.by_status[2], tally.by_status[3], tally.by_status[4]);
  /* A run that explored nothing proves nothing. */
  if (cases >= 1000) {
    int thin = tally.executed < (uint64_t)cases / 4 || tally.i8 == 0 || tally.nonfinite == 0 ||
               tally.packed == 0;
    for (int s = 1; s <= 4; s++) thin |= tally.by_status[s] == 0;
    if (thin) {
      fprintf(stderr, "matmul_random: too little explored (a status never expected, or few products)\n");
      return 1;
    }
  }
  return 0;
}
