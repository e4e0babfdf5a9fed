/* SPDX-License-Identifier: Apache-2.0 */
/* MIPS_THREADING=off: every part on the calling thread. */
#include "threading/threading.h"

const char mips_threading_backend[] = "off";

void mips_parallel_run(int count, mips_task_fn fn, void *ctx) {
  for (int i = 0; i < count; ++i) fn(ctx, i, count);
}
