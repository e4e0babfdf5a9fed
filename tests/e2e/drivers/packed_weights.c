/* SPDX-License-Identifier: Apache-2.0 */
/* packed_weights.mlir, compiled with --mips-pack-constant-weights: exact results (small
 * integers) from the first call, which packs each weight matrix, and from later calls,
 * which reuse it; the first calls come from four threads at once, which race to pack. */
#include "packed_weights.h"
#include "e2e_driver.h"

#include <pthread.h>

static float w_at(int l, int j) { return (float)((l * 7 + j * 3) % 11 - 5); }
static float v_at(int j, int l) { return (float)((j * 5 + l * 9) % 13 - 6); }
static int8_t q_at(int l, int j) { return (int8_t)((l * 11 + j * 7) % 251 - 125); }

static int failures_seen;
static pthread_mutex_t failures_lock = PTHREAD_MUTEX_INITIALIZER;
#define CHECK(cond, ...)                        \
  do {                                          \
    if (!(cond)) {                              \
      pthread_mutex_lock(&failures_lock);       \
      if (failures_seen++ < 10) fprintf(stderr, __VA_ARGS__); \
      pthread_mutex_unlock(&failures_lock);     \
    }                                           \
  } while (0)

static void check_w(int seed) {
  float x[64];
  for (int l = 0; l < 64; ++l) x[l] = (float)e2e_value(l + seed, 6);
  mips_memref_f32_2d mx = E2E_ROW_MAJOR(mips_memref_f32_2d, x, 1, 64), r;
  _mlir_ciface_times_w(&r, &mx);
  for (int j = 0; j < 32; ++j) {
    float want = 0;
    for (int l = 0; l < 64; ++l) want += x[l] * w_at(l, j);
    CHECK(E2E_AT(r, 0, j) == want, "x W (%d) = %g, expected %g\n", j, E2E_AT(r, 0, j), want);
  }
  free(r.allocated);
}

static void check_v(int seed) {
  float x[3 * 64], acc[3 * 40];
  for (int e = 0; e < 3 * 64; ++e) x[e] = (float)e2e_value(e + seed, 5);
  for (int e = 0; e < 3 * 40; ++e) acc[e] = (float)(e % 9 - 4);
  mips_memref_f32_2d mx = E2E_ROW_MAJOR(mips_memref_f32_2d, x, 3, 64);
  mips_memref_f32_2d macc = E2E_ROW_MAJOR(mips_memref_f32_2d, acc, 3, 40), r;
  _mlir_ciface_times_v_transposed(&r, &mx, &macc);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 40; ++j) {
      float want = acc[i * 40 + j];
      for (int l = 0; l < 64; ++l) want += x[i * 64 + l] * v_at(j, l);
      CHECK(E2E_AT(r, i, j) == want, "acc + x V^T (%d,%d) = %g, expected %g\n", i, j,
            E2E_AT(r, i, j), want);
    }
  free(r.allocated);
}

static void check_q(int seed) {
  int8_t x[2 * 64];
  for (int e = 0; e < 2 * 64; ++e) x[e] = (int8_t)(e2e_value(e + seed, 100));
  mips_memref_i8_2d mx = E2E_ROW_MAJOR(mips_memref_i8_2d, x, 2, 64);
  mips_memref_i32_2d r;
  _mlir_ciface_times_q(&r, &mx);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 24; ++j) {
      int32_t want = 0;
      for (int l = 0; l < 64; ++l) want += x[i * 64 + l] * q_at(l, j);
      CHECK(E2E_AT(r, i, j) == want, "x Q (%d,%d) = %d, expected %d\n", i, j, E2E_AT(r, i, j), want);
    }
  free(r.allocated);
}

static void *first_calls(void *arg) {
  const int seed = (int)(intptr_t)arg;
  check_w(seed), check_v(seed), check_q(seed);
  return NULL;
}

int main(void) {
  pthread_t threads[4];
  for (int t = 0; t < 4; ++t) pthread_create(&threads[t], NULL, first_calls, (void *)(intptr_t)t);
  for (int t = 0; t < 4; ++t) pthread_join(threads[t], NULL);
  for (int seed = 10; seed < 13; ++seed) check_w(seed), check_v(seed), check_q(seed);
  if (failures_seen) {
    fprintf(stderr, "packed_weights: %d wrong results\n", failures_seen);
    return 1;
  }
  return e2e_finish("packed_weights");
}
