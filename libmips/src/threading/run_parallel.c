/* SPDX-License-Identifier: Apache-2.0 */
/* The one threading decorator, around the driver (BLIS splits its jc and ic loops the
 * same way): C is cut into blocks, one per thread, and each thread runs the planned
 * family, single-threaded, on its block (packing its own panels). Blocks of C are
 * disjoint, so the threads share nothing but A and B, which they read. Tiles take a
 * grid of blocks along tile boundaries; row dots ranges of C's columns; column blocks
 * ranges of whole blocks of C's rows (each row's sums stay on one thread). */
#include "threading/threading.h"

typedef struct parallel_job {
  mips_matmul_problem problem;
  mips_dtype type;
  mips_plan plan; /* as run on each block: one thread */
  int64_t row_unit, col_unit;
  int row_parts, col_parts;
} parallel_job;

static int64_t ceil_div64(int64_t a, int64_t b) { return (a + b - 1) / b; }
static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

/* Part `index` of `parts` of [0, extent), cut on multiples of `unit`, as even as can be. */
static void part_range(int64_t extent, int64_t unit, int parts, int index, int64_t *begin,
                       int64_t *end) {
  const int64_t units = ceil_div64(extent, unit);
  *begin = min64(units * index / parts * unit, extent);
  *end = min64(units * (index + 1) / parts * unit, extent);
}

static void run_block(void *ctx, int index, int count) {
  (void)count;
  const parallel_job *job = ctx;
  const mips_matmul_problem *p = &job->problem;
  int64_t r0, r1, c0, c1;
  part_range(p->m, job->row_unit, job->row_parts, index / job->col_parts, &r0, &r1);
  part_range(p->n, job->col_unit, job->col_parts, index % job->col_parts, &c0, &c1);
  if (r0 >= r1 || c0 >= c1) return;
  const ptrdiff_t in_size = (ptrdiff_t)mips_input_size(job->type);
  const ptrdiff_t out_size = (ptrdiff_t)mips_output_size(job->type);
  mips_matmul_problem block = *p;
  block.m = r1 - r0, block.n = c1 - c0;
  block.a = (const char *)p->a + r0 * p->a_stride0 * in_size;
  block.b = (const char *)p->b + c0 * p->b_stride1 * in_size;
  block.c = (char *)p->c + (r0 * p->c_stride0 + c0 * p->c_stride1) * out_size;
  if (p->b_panel_stride != 0) /* pre-packed: c0 is a multiple of nr, a panel's start */
    block.b = (const char *)p->b +
              (size_t)(c0 / job->col_unit * p->b_panel_stride) * job->plan.tile->packed_b_size;
  /* The driver's contract: a dimension of extent 1 has stride 0. */
  if (block.m == 1) block.a_stride0 = 0, block.c_stride0 = 0;
  if (block.n == 1) block.b_stride1 = 0, block.c_stride1 = 0;
  mips_run_serial(&job->plan, &block, job->type);
}

/* The grid of at most `threads` blocks whose largest block is smallest; on a tie, fewer
 * blocks, then fewer row cuts (each row block packs its own copy of B). */
static void choose_grid(int64_t m_units, int64_t n_units, int64_t mr, int64_t nr, int threads,
                        int *row_parts, int *col_parts) {
  int64_t best_area = -1;
  for (int r = 1; r <= threads && r <= m_units; ++r) {
    const int c = (int)min64(threads / r, n_units);
    const int64_t area = ceil_div64(m_units, r) * mr * ceil_div64(n_units, c) * nr;
    if (best_area < 0 || area < best_area ||
        (area == best_area && r * c < *row_parts * *col_parts)) {
      best_area = area, *row_parts = r, *col_parts = c;
    }
  }
}

void mips_run_parallel(mips_plan plan, const mips_matmul_problem *p, mips_dtype type) {
  parallel_job job = {.problem = *p, .type = type, .plan = plan, .row_parts = 1, .col_parts = 1};
  job.plan.threads = 1;
  const int threads = plan.threads;
  switch (plan.family) {
    case MIPS_RUN_TILES:
      job.row_unit = plan.tile->mr, job.col_unit = plan.tile->nr();
      choose_grid(ceil_div64(p->m, job.row_unit), ceil_div64(p->n, job.col_unit), job.row_unit,
                  job.col_unit, threads, &job.row_parts, &job.col_parts);
      break;
    case MIPS_RUN_ROW_DOTS: /* columns in runs of 8: every part but the last at full width */
      job.row_unit = p->m, job.col_unit = 8;
      job.col_parts = (int)min64(threads, ceil_div64(p->n, 8));
      break;
    case MIPS_RUN_COLUMN_BLOCKS:
      job.row_unit = MIPS_COLUMN_BLOCK_ROWS, job.col_unit = p->n;
      job.row_parts = (int)min64(threads, ceil_div64(p->m, MIPS_COLUMN_BLOCK_ROWS));
      break;
    case MIPS_RUN_DOT_BLOCKS: /* never planned on threads: they allocate per call */
      mips_run_serial(&job.plan, p, type);
      return;
  }
  mips_parallel_run(job.row_parts * job.col_parts, run_block, &job);
}
