/* SPDX-License-Identifier: Apache-2.0 */
/* What count_model.c and time_model.c share: dense f32 arguments of the shapes given on
 * the command line (e.g. 1x34x34x16 3x3x16x32), and a call of `_mlir_ciface_<MODEL_FN>`
 * on them (objects from mips-compile and from the upstream-only pipeline both export
 * that C interface). */
#ifndef MIPS_BENCH_MODEL_CALL_H
#define MIPS_BENCH_MODEL_CALL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_RANK 6
#define MAX_ARGS 4
typedef struct memref {
  float *allocated, *aligned;
  int64_t offset, dims[2 * MAX_RANK];
} memref;

#define CONCAT_(a, b) a##b
#define CONCAT(a, b) CONCAT_(a, b)
#define ENTRY CONCAT(_mlir_ciface_, MODEL_FN)
void ENTRY();

/* Fills args[] from argv's shapes with values ((i * 7 + a) % 11 - 5) / divisor; returns
 * how many, or 0 after a usage message. */
static int model_arguments(int argc, char **argv, memref *args, float divisor) {
  const int count = argc - 1;
  if (count < 1 || count > MAX_ARGS) {
    fprintf(stderr, "usage: %s SHAPE... (e.g. 1x34x34x16 3x3x16x32)\n", argv[0]);
    return 0;
  }
  for (int a = 0; a < count; ++a) {
    int64_t sizes[MAX_RANK], rank = 0, elems = 1;
    for (char *p = argv[a + 1]; *p && rank < MAX_RANK; ++rank) {
      sizes[rank] = strtoll(p, &p, 10);
      elems *= sizes[rank];
      if (*p == 'x') ++p;
    }
    float *data = malloc(sizeof(float) * (size_t)elems);
    if (!data) {
      fprintf(stderr, "%s: out of memory for %s\n", argv[0], argv[a + 1]);
      return 0;
    }
    for (int64_t i = 0; i < elems; ++i) data[i] = (float)((i * 7 + a) % 11 - 5) / divisor;
    memref *m = &args[a];
    memset(m, 0, sizeof *m);
    m->allocated = m->aligned = data;
    int64_t stride = 1;
    for (int64_t d = rank - 1; d >= 0; --d) {
      m->dims[d] = sizes[d];
      m->dims[rank + d] = stride;
      stride *= sizes[d];
    }
  }
  return count;
}

static void call_model(int count, memref *result, memref *args) {
  switch (count) {
  case 1: ((void (*)(memref *, memref *))ENTRY)(result, &args[0]); break;
  case 2: ((void (*)(memref *, memref *, memref *))ENTRY)(result, &args[0], &args[1]); break;
  case 3: ((void (*)(memref *, memref *, memref *, memref *))ENTRY)(result, &args[0], &args[1], &args[2]); break;
  default:
    ((void (*)(memref *, memref *, memref *, memref *, memref *))ENTRY)(result, &args[0], &args[1],
                                                                        &args[2], &args[3]);
  }
}

#endif
