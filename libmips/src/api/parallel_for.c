/* SPDX-License-Identifier: Apache-2.0 */
/* A caller's loop on libmips's threads (1.3): the pool the matmul calls use, split into
 * ranges of whole grains. */
#include "api/flags.h"
#include "threading/threading.h"

typedef struct loop_job {
  int64_t count, grain;
  int64_t grains; /* ceil(count / grain), worked out once by the caller */
  mips_range_fn fn;
  void *context;
} loop_job;

/* Grain `g`'s first iteration, for g up to the number of grains (then: count). */
static int64_t start_of_grain(const loop_job *job, int64_t g) {
  return g == job->grains ? job->count : g * job->grain;
}

/* Part `index` of `parts`: whole grains, the first (grains % parts) parts one more; only
 * the last range may end inside a grain. No product overflows, whatever count is. */
static void run_part(void *ctx, int index, int parts) {
  const loop_job *job = ctx;
  const int64_t grains = job->grains;
  const int64_t per_part = grains / parts, extra = grains % parts;
  const int64_t first = index * per_part + (index < extra ? index : extra);
  const int64_t last = first + per_part + (index < extra);
  job->fn(job->context, start_of_grain(job, first), start_of_grain(job, last));
}

int mips_parallel_for(int64_t count, int64_t grain, mips_range_fn fn, void *context,
                      uint32_t flags) {
  /* Of the flags, only a thread cap means anything to a loop. */
  if (count < 0 || grain < 1 || !mips_flags_only_thread_cap(flags))
    return MIPS_ERROR_INVALID_ARGUMENT;
  if (fn == NULL) return MIPS_ERROR_NULL_POINTER;
  if (count == 0) return MIPS_OK;
  const int cap = mips_flags_thread_cap(flags);
  const int64_t grains = count / grain + (count % grain != 0);
  const int64_t threads = cap > 0 ? cap : mips_threads_default();
  const int parts = (int)(grains < threads ? grains : threads);
  if (parts == 1) {
    fn(context, 0, count);
    return MIPS_OK;
  }
  loop_job job = {count, grain, grains, fn, context};
  mips_parallel_run(parts, run_part, &job);
  return MIPS_OK;
}
