/* SPDX-License-Identifier: Apache-2.0 */
/* MIPS_THREADING=openmp: one parallel region per job. Inside a region already (the
 * caller's, or ours), OpenMP would nest or serialize; we run the parts inline. GNU
 * libgomp cannot start a team in a child after fork() if the parent had one (it
 * hangs), so a forked child runs its parts inline too. */
#include <omp.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "threading/threading.h"

const char mips_threading_backend[] = "openmp";

static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;
static atomic_bool in_forked_child;

static void after_fork_in_child(void) { atomic_store_explicit(&in_forked_child, true, memory_order_relaxed); }
static void register_fork_handler(void) { pthread_atfork(NULL, NULL, after_fork_in_child); }

void mips_parallel_run(int count, mips_task_fn fn, void *ctx) {
  pthread_once(&atfork_once, register_fork_handler);
  if (count <= 1 || omp_in_parallel() || atomic_load_explicit(&in_forked_child, memory_order_relaxed)) {
    for (int i = 0; i < count; ++i) fn(ctx, i, count);
    return;
  }
#pragma omp parallel num_threads(count)
  {
    /* The runtime may grant fewer threads than asked: the team shares the parts. */
    const int team = omp_get_num_threads();
    for (int i = omp_get_thread_num(); i < count; i += team) fn(ctx, i, count);
  }
}
