/* SPDX-License-Identifier: Apache-2.0 */
/* Times one model function, `_mlir_ciface_<MODEL_FN>`, on the host: dense f32 arguments
 * of the shapes given on the command line (as count_model.c takes them), one warm-up
 * call, then REPEATS calls (environment, default 50) timed one by one; prints the
 * median and the fastest call in microseconds. bench/vs_pytorch.py runs it. */
#define _POSIX_C_SOURCE 199309L
#include <time.h>

#include "model_call.h"

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
  memref args[MAX_ARGS], result;
  /* Small values, so that no model overflows whatever its depth. */
  const int count = model_arguments(argc, argv, args, 64.0f);
  if (count == 0) return 2;
  const char *repeats_text = getenv("REPEATS");
  const int repeats = repeats_text ? atoi(repeats_text) : 50;
  if (repeats < 1) return 2;
  double *times = malloc(sizeof(double) * (size_t)repeats);
  if (!times) return 2;
  for (int call = -1; call < repeats; ++call) {
    const double start = now_us();
    call_model(count, &result, args);
    const double elapsed = now_us() - start;
    if (call >= 0) times[call] = elapsed;
    free(result.allocated);
  }
  qsort(times, (size_t)repeats, sizeof *times, by_value);
  printf("median_us %.1f fastest_us %.1f\n", times[repeats / 2], times[0]);
  free(times);
  return 0;
}
