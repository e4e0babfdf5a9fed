/* SPDX-License-Identifier: Apache-2.0 */
/* Eight threads make their first libmips call at once with no usable provider: the
 * program must print the failure once and exit 127 once (expect_exit.sh counts). */
#define _POSIX_C_SOURCE 200809L /* pthread barriers */
#include <pthread.h>

#include "seed.h"
#include "e2e_driver.h"

enum { THREADS = 8 };
static pthread_barrier_t start;

static void *first_use(void *arg) {
  (void)arg;
  float a[16] = {1}, id[16] = {1};
  mips_memref_f32_2d ma = E2E_ROW_MAJOR(mips_memref_f32_2d, a, 4, 4);
  mips_memref_f32_2d mi = E2E_ROW_MAJOR(mips_memref_f32_2d, id, 4, 4);
  mips_memref_f32_2d r;
  pthread_barrier_wait(&start);
  _mlir_ciface_identity4(&r, &ma, &mi); /* never returns: the provider is missing */
  return NULL;
}

int main(void) {
  pthread_t threads[THREADS];
  pthread_barrier_init(&start, NULL, THREADS);
  for (int t = 0; t < THREADS; ++t) pthread_create(&threads[t], NULL, first_use, NULL);
  for (int t = 0; t < THREADS; ++t) pthread_join(threads[t], NULL);
  return 0; /* not reached */
}
