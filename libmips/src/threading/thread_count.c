/* SPDX-License-Identifier: Apache-2.0 */
/* How many threads a call may use. MIPS_NUM_THREADS and the CPU affinity are read once
 * per process, under pthread_once; a later change of either is not seen. */
#define _GNU_SOURCE /* sched_getaffinity */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "threading/thread_count.h"

static pthread_once_t default_once = PTHREAD_ONCE_INIT;
static int default_threads = 1;

static int clamp_threads(long n) { return n < 1 ? 1 : n > MIPS_MAX_THREADS ? MIPS_MAX_THREADS : (int)n; }

static void read_default(void) {
  const char *env = getenv("MIPS_NUM_THREADS");
  if (env && *env) {
    char *end;
    errno = 0;
    const long n = strtol(env, &end, 10);
    if (errno == 0 && *end == '\0' && n >= 1) {
      default_threads = clamp_threads(n);
      return;
    }
    fprintf(stderr, "libmips: MIPS_NUM_THREADS=%s is not a positive integer; ignored\n", env);
  }
  /* A fixed cpu_set_t fails (EINVAL) on kernels with more than 1024 possible CPUs, and
   * sandboxes may refuse the call: then the online CPUs are the best guess. */
  cpu_set_t cpus;
  if (sched_getaffinity(0, sizeof cpus, &cpus) == 0)
    default_threads = clamp_threads(CPU_COUNT(&cpus));
  else
    default_threads = clamp_threads(sysconf(_SC_NPROCESSORS_ONLN));
}

int mips_threads_default(void) {
  pthread_once(&default_once, read_default);
  return default_threads;
}

int mips_threads_for_problem(int64_t m, int64_t n, int64_t k, int cap) {
  int64_t work;
  if (__builtin_mul_overflow(m, n, &work) || __builtin_mul_overflow(work, k, &work)) work = INT64_MAX;
  const int64_t most = work / MIPS_PARALLEL_MIN_WORK;
  if (most < 2) return 1;
  const int threads = cap > 0 ? cap : mips_threads_default();
  return most < threads ? (int)most : threads;
}
