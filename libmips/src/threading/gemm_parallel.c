/* SPDX-License-Identifier: Apache-2.0 */
/* Threads as a decorator around the driver (BLIS splits its jc and ic loops the same
 * way): C is cut into a grid of blocks along tile boundaries, one block per thread,
 * and each thread runs the single-threaded driver on its block, packing its own panels.
 * Blocks of C are disjoint, so the threads share nothing but A and B, which they read. */
#include "threading/threading.h"

typedef struct parallel_job {
  mips_matmul_problem problem;
  mips_dtype type;
  const mips_tile *tile;
  int64_t mr, nr;
  int row_parts, col_parts;
} parallel_job;

static int64_t ceil_div64(int64_t a, int64_t b) { return (a + b - 1) / b; }
static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

/* Part `index` of `parts` of [0, extent), cut on multiples of `unit`, as even as can be. */
static void part_range(int64_t extent, int64_t unit, int parts, int index, int64_t *begin, int64_t *end) {
  const int64_t units = ceil_div64(extent, unit);
  *begin = min64(units * index / parts * unit, extent);
  *end = min64(units * (index + 1) / parts * unit, extent);
}

/* Rows r0..r1 and columns c0..c1 of the problem, B unpacked. */
static mips_matmul_problem part_of(const mips_matmul_problem *p, mips_dtype type, int64_t r0,
                                   int64_t r1, int64_t c0, int64_t c1) {
  const ptrdiff_t in_size = (ptrdiff_t)mips_input_size(type);
  const ptrdiff_t out_size = (ptrdiff_t)mips_output_size(type);
  mips_matmul_problem part = *p;
  part.m = r1 - r0, part.n = c1 - c0;
  part.a = (const char *)p->a + r0 * p->a_stride0 * in_size;
  part.b = (const char *)p->b + c0 * p->b_stride1 * in_size;
  part.c = (char *)p->c + (r0 * p->c_stride0 + c0 * p->c_stride1) * out_size;
  return part;
}

static void run_block(void *ctx, int index, int count) {
  (void)count;
  const parallel_job *job = ctx;
  const mips_matmul_problem *p = &job->problem;
  int64_t r0, r1, c0, c1;
  part_range(p->m, job->mr, job->row_parts, index / job->col_parts, &r0, &r1);
  part_range(p->n, job->nr, job->col_parts, index % job->col_parts, &c0, &c1);
  if (r0 >= r1 || c0 >= c1) return;
  mips_matmul_problem block = part_of(p, job->type, r0, r1, c0, c1);
  if (p->b_panel_stride != 0) /* pre-packed: c0 is a multiple of nr, a panel's start */
    block.b = (const char *)p->b +
              (size_t)(c0 / job->nr * p->b_panel_stride) * job->tile->packed_b_size;
  /* The driver's contract: a dimension of extent 1 has stride 0. */
  if (block.m == 1) block.a_stride0 = 0, block.c_stride0 = 0;
  if (block.n == 1) block.b_stride1 = 0, block.c_stride1 = 0;
  mips_gemm_run_with_tile(&block, job->type, job->tile);
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

void mips_gemm_run_parallel(const mips_matmul_problem *p, mips_dtype type,
                            const mips_tile *tile, int threads) {
  parallel_job job = {.problem = *p, .type = type, .tile = tile};
  job.mr = job.tile->mr, job.nr = job.tile->nr();
  choose_grid(ceil_div64(p->m, job.mr), ceil_div64(p->n, job.nr), job.mr, job.nr, threads,
              &job.row_parts, &job.col_parts);
  mips_parallel_run(job.row_parts * job.col_parts, run_block, &job);
}

typedef struct row_dots_job {
  const mips_matmul_problem *problem;
  mips_dtype type;
  mips_row_dot_fn row_dot;
} row_dots_job;

/* Columns in runs of 8, so that every part but the last keeps the kernel's full width. */
static void run_row_dots_part(void *ctx, int index, int count) {
  const row_dots_job *job = ctx;
  const mips_matmul_problem *p = job->problem;
  int64_t c0, c1;
  part_range(p->n, 8, count, index, &c0, &c1);
  if (c0 >= c1) return;
  const mips_matmul_problem part = part_of(p, job->type, 0, p->m, c0, c1);
  mips_row_dots_run(&part, job->type, job->row_dot);
}

typedef struct column_blocks_job {
  const mips_matmul_problem *problem;
  mips_column_block_fn column_block;
} column_blocks_job;

static void run_column_blocks_part(void *ctx, int index, int count) {
  const column_blocks_job *job = ctx;
  const mips_matmul_problem *p = job->problem;
  int64_t r0, r1;
  part_range(p->m, MIPS_COLUMN_BLOCK_ROWS, count, index, &r0, &r1);
  if (r0 >= r1) return;
  const mips_matmul_problem part = part_of(p, MIPS_DTYPE_F32, r0, r1, 0, p->n);
  mips_column_blocks_run(&part, job->column_block);
}

void mips_column_blocks_run_parallel(const mips_matmul_problem *p,
                                     mips_column_block_fn column_block, int threads) {
  column_blocks_job job = {p, column_block};
  const int64_t blocks = ceil_div64(p->m, MIPS_COLUMN_BLOCK_ROWS);
  mips_parallel_run((int)min64(threads, blocks), run_column_blocks_part, &job);
}

void mips_row_dots_run_parallel(const mips_matmul_problem *p, mips_dtype type,
                                mips_row_dot_fn row_dot, int threads) {
  row_dots_job job = {p, type, row_dot};
  const int64_t runs = ceil_div64(p->n, 8);
  mips_parallel_run((int)min64(threads, runs), run_row_dots_part, &job);
}
