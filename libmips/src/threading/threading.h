/* SPDX-License-Identifier: Apache-2.0 */
/* Threads around the driver, BLIS-style: the driver and the kernels stay single-threaded;
 * run_parallel.c splits C into blocks and runs the planned family on each, on the threads
 * of one of three interchangeable backends (MIPS_THREADING at build time):
 *   pool_openmp.c    an OpenMP parallel region
 *   pool_pthreads.c  a persistent pool of its own, for toolchains without OpenMP
 *   pool_serial.c    everything on the calling thread
 * How many threads a call gets is thread_count.h's and the plan's. */
#ifndef MIPS_SRC_THREADING_THREADING_H
#define MIPS_SRC_THREADING_THREADING_H

#include "driver/plan.h"
#include "threading/thread_count.h"

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

/* Runs a plan of `threads` >= 2 on that many threads, or fewer when C has fewer blocks.
 * A pre-packed B must be in the plan's tile's format. The plan by value: a pointer to the
 * caller's would keep it in memory on every path (f32 16x16x16: 17 instructions). */
void mips_run_parallel(mips_plan plan, const mips_matmul_problem *p, mips_dtype type);

#endif /* MIPS_SRC_THREADING_THREADING_H */
