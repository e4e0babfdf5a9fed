/* SPDX-License-Identifier: Apache-2.0 */
/* mips-bench's parts (mips_bench.c says what the program does):
 *   cases.c        the cases, their operands, and the naive loop's answer to check against
 *   libmips_call.c libmips as each case calls it (the code inside the counted region)
 *   host_mode.c    timing on the host, beside the baselines (bench_baselines.h)
 *   count_mode.c   one call per case between the plugin's region markers (riscv64)
 *   report.c       the count mode under qemu at every VLEN, merged into tables, CSV, plots */
#ifndef MIPS_BENCH_MIPS_BENCH_H
#define MIPS_BENCH_MIPS_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "bench_baselines.h"

/*------------------------------------------------------------------------------------
 * Cases (cases.c)
 *----------------------------------------------------------------------------------*/
typedef enum bench_type { T_F32, T_I8 } bench_type;
typedef enum bench_layout { L_ROW, L_AT, L_BT, L_CCOL, L_COUNT } bench_layout;
extern const char *const layout_names[L_COUNT];
extern const char *const type_names[];

/* How libmips is called (1.2): plainly, with B packed once before the counted call,
 * with MIPS_MATMUL_ANY_ORDER, turned round with A packed once (C^T = B^T A^T, A^T the
 * packed B of a call with n rows: what a caller does whose wide operand is the reused
 * one, as IREE packs it at compile time), or as one batched call of BENCH_BATCH
 * products (attention's heads; eff counts all of them). Shown after the layout:
 * "Bt:pack", "Bt:any", "row:Apack", "Bt:b4". */
typedef enum bench_mode { M_PLAIN, M_ANY_ORDER, M_PACKED, M_PACKED_A, M_BATCH } bench_mode;
extern const char *const mode_suffixes[];
enum { BENCH_BATCH = 4 };
static inline int64_t batch_of(bench_mode mode) { return mode == M_BATCH ? BENCH_BATCH : 1; }

typedef struct bench_case {
  int64_t m, n, k;
  bench_layout layout;
  bool quick;  /* part of --quick (a smoke run) */
  bool host;   /* timed on the host */
  bool count;  /* counted under qemu */
  bench_mode mode;
} bench_case;
extern const bench_case cases[];
extern const size_t case_count;

/* Thread scaling, f32 row-major: counted under qemu at one VLEN (each guest thread is
 * a vCPU to the plugin), timed on the host. */
typedef struct thread_case {
  int64_t m, n, k;
  int threads[4]; /* 0 ends the list */
  bool quick;
} thread_case;
extern const thread_case thread_cases[];
extern const size_t thread_case_count;
enum { THREADS_VLEN = 256 }; /* the VLEN of the thread-scaling counts */

/* Operands laid out as the case says, filled with small integers (exact sums). */
typedef struct operands {
  bench_problem p;
  void *a, *b, *c;
} operands;
operands make_operands(const bench_case *bc, bench_type t);
void free_operands(operands *o);

typedef void (*impl_fn)(const bench_problem *p, bench_type t);
void run_naive(const bench_problem *p, bench_type t);
/* An implementation's result against the naive loop's, exactly (small integer data keeps
 * every sum exact in any order). */
bool same_result(impl_fn fn, const bench_case *bc, bench_type t);
/* A batched case's C (in `o`, after libmips ran) against the naive loop, entry by entry. */
bool batch_matches_naive(const operands *o, const bench_case *bc, bench_type t);

/*------------------------------------------------------------------------------------
 * libmips as a case calls it (libmips_call.c)
 *----------------------------------------------------------------------------------*/
/* The threads libmips may use: one, except in the thread-scaling runs. */
void libmips_set_threads(int threads);
/* Calls from now on in the case's mode; B (A^T for M_PACKED_A) packed once for the
 * packed modes. False (said) if it cannot be packed. */
bool libmips_prepare(const bench_case *bc, bench_type t, const bench_problem *p);
/* Frees what libmips_prepare packed; the plain call again. */
void libmips_finish(void);
/* One call, as prepared; exits on a libmips error. */
void run_libmips(const bench_problem *p, bench_type t);

/*------------------------------------------------------------------------------------
 * The modes
 *----------------------------------------------------------------------------------*/
typedef struct host_row {
  const bench_case *bc;
  bench_type t;
  double libmips, naive, openblas, onednn; /* GFLOP/s; 0 = not measured */
} host_row;

/* Times every host case (rows, if not NULL, gets one row per case and type). */
int run_host(bool quick, host_row *rows, size_t *row_count);
/* Host wall time of one call with 1 and with 2 threads; a CSV row each if csv. */
void run_host_threads(bool quick, FILE *csv);
/* Counts every case (only_shape: m, n, k, or zeros for all), then the thread cases. */
int run_count(bool quick, bool threads, const long long only_shape[3]);
int run_report(bool quick, const char *exe, const char *plugin, const char *qemu,
               const char *sysroot, const char *outdir);

#endif /* MIPS_BENCH_MIPS_BENCH_H */
