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

#include "mips_internal.h"

/* One of `count` parts of a parallel job. */
typedef void (*mips_task_fn)(void *ctx, int index, int count);

/* Runs fn(ctx, i, count) once for every i in [0, count) and returns when all are done.
 * The calling thread takes part. Inside another parallel job (a task of ours, or an
 * OpenMP region), or when the pool is busy with another caller's job, every part runs
 * on the calling thread: never a deadlock, never more threads than asked for. */
void mips_parallel_run(int count, mips_task_fn fn, void *ctx);

/* The backend's name, for MIPS_VERBOSE: "openmp", "pthreads" or "off". */
extern const char mips_threading_backend[];

/* The process default: MIPS_NUM_THREADS if a positive integer (read once), else the
 * CPUs this process may run on; at least 1, at most MIPS_MAX_THREADS. */
int mips_threads_default(void);

/* What a call may use: its MIPS_MATMUL_MAX_THREADS cap, or the default without one. */
int mips_threads_for_call(uint32_t flags);

#define MIPS_MAX_THREADS 255
#define MIPS_THREAD_CAP_SHIFT 8
#define MIPS_THREAD_CAP_MASK (0xFFu << MIPS_THREAD_CAP_SHIFT)

/* Multiply-adds a thread must have before a call is split: below it, starting and
 * joining threads costs more than it saves. (Overridable only to measure it.) */
#ifndef MIPS_PARALLEL_MIN_WORK
#define MIPS_PARALLEL_MIN_WORK ((int64_t)1 << 18)
#endif

/* Runs the problem on up to `threads` threads: one, when it is too small to gain. */
void mips_gemm_run_parallel(const mips_matmul_problem *p, mips_dtype type,
                            const mips_tile *const *tiles, size_t tile_count, int threads);

#endif /* MIPS_SRC_THREADING_THREADING_H */
