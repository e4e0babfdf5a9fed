/* SPDX-License-Identifier: Apache-2.0 */
/* Times one model function, `_mlir_ciface_<MODEL_FN>`, on the host: dense f32 arguments
 * of the shapes given on the command line (as count_model.c takes them), one warm-up
 * call, then REPEATS calls (environment, default 50) timed one by one; prints the
 * median and the fastest call in microseconds. bench/vs_pytorch.py runs it. */
#define _POSIX_C_SOURCE 199309L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_RANK 6
typedef struct memref {
  float *allocated, *aligned;
  int64_t offset, dims[2 * MAX_RANK];
} memref;

#define CONCAT_(a, b) a##b
#define CONCAT(a, b) CONCAT_(a, b)
#define ENTRY CONCAT(_mlir_ciface_, MODEL_FN)
void ENTRY();

static double now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

static int by_value(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  enum { MAX_ARGS = 4 };
  memref args[MAX_ARGS], result;
  const int count = argc - 1;
  if (count < 1 || count > MAX_ARGS) {
    fprintf(stderr, "usage: %s SHAPE... (e.g. 64x256 256x1024)\n", argv[0]);
    return 2;
  }
  for (int a = 0; a < count; ++a) {
    int64_t sizes[MAX_RANK], rank = 0, elems = 1;
    for (char *p = argv[a + 1]; *p && rank < MAX_RANK; ++rank) {
      sizes[rank] = strtoll(p, &p, 10);
      elems *= sizes[rank];
      if (*p == 'x') ++p;
    }
    float *data = malloc(sizeof(float) * (size_t)elems);
    if (!data) return 2;
    /* Small values, so that no model overflows whatever its depth. */
    for (int64_t i = 0; i < elems; ++i) data[i] = (float)((i * 7 + a) % 11 - 5) / 64.0f;
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
  const char *repeats_text = getenv("REPEATS");
  const int repeats = repeats_text ? atoi(repeats_text) : 50;
  if (repeats < 1) return 2;
  double *times = malloc(sizeof(double) * (size_t)repeats);
  if (!times) return 2;
  for (int call = -1; call < repeats; ++call) {
    const double start = now_us();
    switch (count) {
    case 1: ((void (*)(memref *, memref *))ENTRY)(&result, &args[0]); break;
    case 2: ((void (*)(memref *, memref *, memref *))ENTRY)(&result, &args[0], &args[1]); break;
    case 3: ((void (*)(memref *, memref *, memref *, memref *))ENTRY)(&result, &args[0], &args[1], &args[2]); break;
    default: ((void (*)(memref *, memref *, memref *, memref *, memref *))ENTRY)(&result, &args[0], &args[1], &args[2], &args[3]);
    }
    const double elapsed = now_us() - start;
    if (call >= 0) times[call] = elapsed;
    free(result.allocated);
  }
  qsort(times, (size_t)repeats, sizeof *times, by_value);
  printf("median_us %.1f fastest_us %.1f\n", times[repeats / 2], times[0]);
  free(times);
  return 0;
}
