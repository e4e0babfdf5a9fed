/* SPDX-License-Identifier: Apache-2.0 */
/* Threads around the driver, BLIS-style: the driver and the tiles stay single-threaded;
 * gemm_parallel.c splits C into blocks and runs the driver on each, on the threads of
 * one of three interchangeable backends (MIPS_THREADING at build time):
 *   pool_openmp.c    an OpenMP parallel region
 *   pool_pthreads.c  a persistent pool of its own, for toolchains without OpenMP
 *   pool_serial.c    everything on the calling thread */
#ifndef MIPS_SRC_THREADING_THREADING_H
#define MIPS_SRC_THREADING_THREADING_H

#include <stddef.h>
#include <stdint.h>

#include "driver/driver.h"
#include "mips/mips.h"

/* One of `count` parts of a parallel job. */
typedef void (*mips_task_fn)(void *ctx, int index, int count);

/* Runs fn(ctx, i, count) once for every i in [0, count) and returns when all are done.
 * The calling thread takes part. Inside another parallel job (a task of ours, or the
 * caller's OpenMP region, with either backend), and with the pthreads pool when it is
 * busy with another caller's job, every part runs on the calling thread: never a
 * deadlock, never more threads than asked for. */
void mips_parallel_run(int count, mips_task_fn fn, void *ctx);

/* The backend's name, for MIPS_VERBOSE: "openmp", "pthreads" or "off". */
extern const char mips_threading_backend[];

/* The process default: MIPS_NUM_THREADS if a positive integer (read once), else the
 * CPUs this process may run on; at least 1, at most MIPS_MAX_THREADS. */
int mips_threads_default(void);

/* The threads an m x n x k call runs on: 1 when it has too little work for two (the
 * small path never reads the default), else at most its MIPS_MATMUL_MAX_THREADS cap, or
 * the default without one, and at most one per MIPS_PARALLEL_MIN_WORK of work. */
int mips_threads_for_problem(int64_t m, int64_t n, int64_t k, uint32_t flags);

#define MIPS_MAX_THREADS 255
/* The thread cap's bits in a call's flags, from the public encoding alone
 * (MIPS_MATMUL_MAX_THREADS(n)), and the cap they hold (0: none). */
#define MIPS_THREAD_CAP_MASK MIPS_MATMUL_MAX_THREADS(MIPS_MAX_THREADS)
static inline int mips_thread_cap(uint32_t flags) {
  return (int)((flags & MIPS_THREAD_CAP_MASK) / MIPS_MATMUL_MAX_THREADS(1));
}

/* Multiply-adds each thread must get before a call is split. Measured on the x86-64
 * host (2 cores), f32 n^3 on 2 threads against 1: OpenMP breaks even near 96^3 (0.9 M),
 * the pthreads pool near 128^3 (2 M); both gain 1.3-1.5x from 160^3 (4 M). 2^20 per
 * thread starts 2 threads at 2 M. (Overridable only to measure it again.) */
#ifndef MIPS_PARALLEL_MIN_WORK
#define MIPS_PARALLEL_MIN_WORK ((int64_t)1 << 20)
#endif

/* Runs the problem with `tile` on `threads` >= 2 threads, or fewer when C has fewer
 * tiles. A pre-packed B must be in the tile's format. */
void mips_gemm_run_parallel(const mips_matmul_problem *p, mips_dtype type,
                            const mips_tile *tile, int threads);

/* mips_row_dots_run on `threads` >= 2 threads, each on a range of C's columns. */
void mips_row_dots_run_parallel(const mips_matmul_problem *p, mips_dtype type,
                                mips_row_dot_fn row_dot, int threads);

/* mips_column_blocks_run on `threads` >= 2 threads, each on a range of whole blocks of
 * C's rows (the blocks are independent: each row's sums stay on one thread). */
void mips_column_blocks_run_parallel(const mips_matmul_problem *p,
                                     mips_column_block_fn column_block, int threads);

#endif /* MIPS_SRC_THREADING_THREADING_H */
