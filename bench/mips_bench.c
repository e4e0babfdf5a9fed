/* SPDX-License-Identifier: Apache-2.0 */
/* mips-bench: how fast libmips is, side by side with baselines in one run.
 *
 * Three modes, one program:
 *   mips-bench [--quick] [--threads]
 *                                 host: GFLOP/s (GOP/s for i8) per shape and layout,
 *                                 median of timed runs after warm-up, one thread, for
 *                                 libmips, the naive i-k-j loop and, when Debian's
 *                                 libopenblas0-serial is installed, OpenBLAS cblas_sgemm;
 *                                 when libdnnl is installed, oneDNN's dnnl_sgemm and
 *                                 dnnl_gemm_s8s8s32 (on one OpenMP thread);
 *                                 --threads adds libmips f32 1024^3 on 1 and 2 threads.
 *   mips-bench --count [--quick] [--threads] [--shape=MxNxK]
 *                                 riscv64 under qemu with the mips-insn-count plugin:
 *                                 runs each case once between region markers, for
 *                                 libmips and the unpacked RVV baseline; prints one
 *                                 "case" line per region to stdout; --threads adds the
 *                                 thread-scaling cases ("tcase" lines).
 *   mips-bench --riscv-bench=EXE --plugin=SO [--qemu=CMD] [--sysroot=DIR] [--out=DIR]
 *                                 the whole report: the host mode, then EXE --count under
 *                                 qemu at VLEN 128, 256, 512 and 1024 (threads at 256)
 *                                 and on a core without V, then host thread scaling,
 *                                 merged into tables, a CSV and PNG plots.
 *
 * Figures (see bench/plugin/insn_count.c for the cost model), for C[MxN] = A[MxK] B[KxN]:
 *   ideal     = M*N*K / (VLEN/32)   LMUL-1 multiply-add groups of 32-bit lanes
 *   eff       = ideal / max(vcost, scalar)     modelled fraction of peak (<= 1)
 *   ins/ideal = executed instructions / ideal
 * On a core without V: FMA/insn = M*N*K / executed instructions.
 * With T threads: par_eff = ideal / (T * busiest), busiest = the max over guest threads
 * of max(vcost, scalar); speedup = busiest with 1 thread / busiest with T. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <errno.h>
#include <sys/stat.h>

#include "bench_baselines.h"
#include "plugin/region.h"
#include "mips/mips.h"

#if defined(__riscv)
#include <sys/auxv.h>
#endif

/*------------------------------------------------------------------------------------
 * Cases
 *----------------------------------------------------------------------------------*/
typedef enum bench_type { T_F32, T_I8 } bench_type;
typedef enum bench_layout { L_ROW, L_AT, L_BT, L_CCOL, L_COUNT } bench_layout;
static const char *const layout_names[L_COUNT] = {"row", "At", "Bt", "Ccol"};
static const char *const type_names[] = {"f32", "i8"};

/* How libmips is called (1.2): plainly, with B packed once before the counted call,
 * with MIPS_MATMUL_ANY_ORDER, turned round with A packed once (C^T = B^T A^T, A^T the
 * packed B of a call with n rows: what a caller does whose wide operand is the reused
 * one, as IREE packs it at compile time), or as one batched call of BENCH_BATCH
 * products (attention's heads; eff counts all of them). Shown after the layout:
 * "Bt:pack", "Bt:any", "row:Apack", "Bt:b4". */
typedef enum bench_mode { M_PLAIN, M_ANY_ORDER, M_PACKED, M_PACKED_A, M_BATCH } bench_mode;
static const char *const mode_suffixes[] = {"", ":any", ":pack", ":Apack", ":b4"};
enum { BENCH_BATCH = 4 };
static int64_t batch_of(bench_mode mode) { return mode == M_BATCH ? BENCH_BATCH : 1; }

typedef struct bench_case {
  int64_t m, n, k;
  bench_layout layout;
  bool quick;  /* part of --quick (a smoke run) */
  bool host;   /* timed on the host */
  bool count;  /* counted under qemu */
  bench_mode mode;
} bench_case;

static const bench_case cases[] = {
    {4, 4, 4, L_ROW, true, false, true, M_PLAIN},
    {16, 16, 16, L_ROW, true, true, true, M_PLAIN},
    {64, 64, 64, L_ROW, true, true, true, M_PLAIN},
    {96, 96, 96, L_ROW, false, false, true, M_PLAIN},
    {128, 128, 128, L_ROW, false, true, false, M_PLAIN},
    {256, 256, 256, L_ROW, false, true, true, M_PLAIN},
    {256, 256, 256, L_AT, false, true, true, M_PLAIN},
    {256, 256, 256, L_BT, false, true, true, M_PLAIN},
    {256, 256, 256, L_CCOL, false, true, true, M_PLAIN},
    {255, 257, 129, L_ROW, false, true, true, M_PLAIN},
    {7, 513, 33, L_ROW, true, true, true, M_PLAIN},
    {1, 512, 512, L_ROW, false, true, true, M_PLAIN},
    {1, 512, 512, L_ROW, false, true, false, M_ANY_ORDER},
    {512, 1, 512, L_ROW, false, true, true, M_PLAIN},
    {512, 1, 512, L_ROW, false, true, false, M_ANY_ORDER},
    {512, 512, 512, L_ROW, false, true, false, M_PLAIN},
    {1024, 1024, 1024, L_ROW, false, true, false, M_PLAIN},
    /* Inference shapes: decode (one token, then eight) against weights stored n x k,
     * a matrix-vector product, attention's Q K^T, a narrow head. */
    {1, 1024, 1024, L_BT, false, true, true, M_PLAIN},
    {1, 1024, 1024, L_BT, false, true, true, M_PACKED},
    {1, 1024, 1024, L_BT, false, true, true, M_ANY_ORDER},
    {8, 1024, 1024, L_BT, false, true, true, M_PLAIN},
    {8, 1024, 1024, L_BT, false, true, true, M_PACKED},
    {8, 1024, 1024, L_BT, false, true, true, M_ANY_ORDER},
    {1024, 1, 1024, L_ROW, false, false, true, M_PLAIN},
    {1024, 1, 1024, L_ROW, false, false, true, M_ANY_ORDER},
    {64, 64, 64, L_BT, false, false, true, M_PLAIN},
    {64, 64, 64, L_BT, true, false, true, M_BATCH},
    {256, 4, 256, L_ROW, false, false, true, M_PLAIN},
    {256, 4, 256, L_ROW, false, false, true, M_ANY_ORDER},
    {256, 4, 256, L_ROW, true, true, true, M_PACKED_A},
    {256, 4, 2304, L_ROW, false, false, true, M_ANY_ORDER},
};
#define CASE_COUNT (sizeof cases / sizeof cases[0])

/* Thread scaling, f32 row-major: counted under qemu at one VLEN (each guest thread is
 * a vCPU to the plugin), timed on the host. */
typedef struct thread_case {
  int64_t m, n, k;
  int threads[4]; /* 0 ends the list */
  bool quick;
} thread_case;

static const thread_case thread_cases[] = {
    {512, 512, 512, {1, 2, 4, 8}, false},
    {256, 256, 256, {1, 2, 4, 8}, true},
    {16, 16, 16, {1, 8, 0, 0}, true},
    {4, 4, 4, {1, 8, 0, 0}, true},
};
#define THREAD_CASE_COUNT (sizeof thread_cases / sizeof thread_cases[0])
enum { THREADS_VLEN = 256 }; /* the VLEN of the thread-scaling counts */

/* Operands laid out as the case says, filled with small integers (exact sums). */
typedef struct operands {
  bench_problem p;
  void *a, *b, *c;
} operands;

static void *checked_malloc(size_t size) {
  void *p = malloc(size ? size : 1);
  if (p == NULL) {
    fprintf(stderr, "mips-bench: out of memory (%zu bytes)\n", size);
    exit(1);
  }
  return p;
}

static operands make_operands(const bench_case *bc, bench_type t) {
  const int64_t m = bc->m, n = bc->n, k = bc->k, batch = batch_of(bc->mode);
  const size_t in = t == T_F32 ? 4 : 1, out = 4;
  operands o = {{m, n, k, NULL, k, 1, NULL, n, 1, NULL, n, 1}, NULL, NULL, NULL};
  if (bc->layout == L_AT) o.p.as0 = 1, o.p.as1 = m;       /* A stored k x m */
  if (bc->layout == L_BT) o.p.bs0 = 1, o.p.bs1 = k;       /* B stored n x k */
  if (bc->layout == L_CCOL) o.p.cs0 = 1, o.p.cs1 = m;     /* C column-major */
  /* a batch's entries one after another: batch strides m*k, k*n and m*n */
  o.a = checked_malloc((size_t)(batch * m * k) * in);
  o.b = checked_malloc((size_t)(batch * k * n) * in);
  o.c = checked_malloc((size_t)(batch * m * n) * out);
  unsigned seed = 12345;
  for (int64_t x = 0; x < batch * (m * k + k * n); ++x) {
    seed = seed * 1103515245u + 12345u;
    const int v = (int)((seed >> 16) % 7) - 3;
    void *buf = x < batch * m * k ? o.a : o.b;
    const int64_t i = x < batch * m * k ? x : x - batch * m * k;
    if (t == T_F32) ((float *)buf)[i] = (float)v;
    else ((int8_t *)buf)[i] = (int8_t)v;
  }
  memset(o.c, 0, (size_t)(batch * m * n) * out);
  o.p.a = o.a, o.p.b = o.b, o.p.c = o.c;
  return o;
}

static void free_operands(operands *o) { free(o->a), free(o->b), free(o->c); }

/*------------------------------------------------------------------------------------
 * Implementations
 *----------------------------------------------------------------------------------*/
typedef void (*impl_fn)(const bench_problem *p, bench_type t);

/* How many threads libmips may use: one, except in the thread-scaling runs. */
static int libmips_threads = 1;
/* The call's mode, and B (A^T for M_PACKED_A) packed for M_PACKED. */
static bench_mode libmips_mode = M_PLAIN;
static mips_packed_b *libmips_packed_b;

/* Packs the case's B (M_PACKED) or A^T (M_PACKED_A) into libmips_packed_b; false (said)
 * if it cannot; true for the other modes. */
static bool pack_libmips_b(const bench_case *bc, bench_type t, const bench_problem *p) {
  if (bc->mode != M_PACKED && bc->mode != M_PACKED_A) return true;
  const bool a = bc->mode == M_PACKED_A;
  const int64_t k = bc->k, n = a ? bc->m : bc->n, s0 = a ? p->as1 : p->bs0,
                s1 = a ? p->as0 : p->bs1;
  const void *b = a ? p->a : p->b;
  const int status = t == T_F32 ? mips_pack_b_f32(k, n, b, 0, s0, s1, &libmips_packed_b)
                                : mips_pack_b_i8(k, n, b, 0, s0, s1, &libmips_packed_b);
  if (status != MIPS_OK)
    fprintf(stderr, "mips-bench: packing %s failed: %s\n", a ? "A^T" : "B",
            mips_status_string(status));
  return status == MIPS_OK;
}

static void run_libmips(const bench_problem *p, bench_type t) {
  const uint32_t flags = MIPS_MATMUL_MAX_THREADS(libmips_threads) |
                         (libmips_mode == M_ANY_ORDER ? MIPS_MATMUL_ANY_ORDER : 0);
  int status;
  /* The plain call first, behind one comparison: the region counts this function too
   * (f32 4x4x4 counts 241 instructions in all). */
  if (libmips_mode <= M_ANY_ORDER)
    status =
      t == T_F32 ? mips_matmul_f32(p->m, p->n, p->k, p->a, 0, p->as0, p->as1, p->b, 0, p->bs0,
                                   p->bs1, p->c, 0, p->cs0, p->cs1, flags)
                 : mips_matmul_i8i32(p->m, p->n, p->k, p->a, 0, p->as0, p->as1, p->b, 0,
                                     p->bs0, p->bs1, p->c, 0, p->cs0, p->cs1, flags);
  else if (libmips_mode == M_PACKED)
    status = t == T_F32 ? mips_matmul_packed_f32(p->m, p->a, 0, p->as0, p->as1, libmips_packed_b,
                                                 p->c, 0, p->cs0, p->cs1, flags)
                        : mips_matmul_packed_i8i32(p->m, p->a, 0, p->as0, p->as1,
                                                   libmips_packed_b, p->c, 0, p->cs0, p->cs1,
                                                   flags);
  else if (libmips_mode == M_PACKED_A) /* C^T (n x m) = B^T (n x k) times the packed A^T */
    status = t == T_F32 ? mips_matmul_packed_f32(p->n, p->b, 0, p->bs1, p->bs0, libmips_packed_b,
                                                 p->c, 0, p->cs1, p->cs0, flags)
                        : mips_matmul_packed_i8i32(p->n, p->b, 0, p->bs1, p->bs0,
                                                   libmips_packed_b, p->c, 0, p->cs1, p->cs0,
                                                   flags);
  else
    status = t == T_F32
                 ? mips_matmul_batch_f32(BENCH_BATCH, p->m, p->n, p->k, p->a, 0, p->m * p->k,
                                         p->as0, p->as1, p->b, 0, p->k * p->n, p->bs0, p->bs1,
                                         p->c, 0, p->m * p->n, p->cs0, p->cs1, flags)
                 : mips_matmul_batch_i8i32(BENCH_BATCH, p->m, p->n, p->k, p->a, 0, p->m * p->k,
                                           p->as0, p->as1, p->b, 0, p->k * p->n, p->bs0,
                                           p->bs1, p->c, 0, p->m * p->n, p->cs0, p->cs1, flags);
  if (status != MIPS_OK) {
    fprintf(stderr, "mips-bench: libmips failed: %s\n", mips_status_string(status));
    exit(1);
  }
}

static void run_naive(const bench_problem *p, bench_type t) {
  if (t == T_F32) baseline_naive_f32(p);
  else baseline_naive_i8i32(p);
}

#if defined(__riscv)
static void run_rvv_baseline(const bench_problem *p, bench_type t) {
  if (t == T_F32) baseline_rvv_f32(p);
  else baseline_rvv_i8i32(p);
}
#endif

/* OpenBLAS through dlopen, so that the benchmark builds without it. */
typedef void (*cblas_sgemm_fn)(int, int, int, int, int, int, float, const float *, int,
                               const float *, int, float, float *, int);
static struct {
  cblas_sgemm_fn sgemm;
  char core[64];
} openblas;

static void load_openblas(void) {
  void *h = dlopen("libopenblas.so.0", RTLD_NOW | RTLD_LOCAL);
  if (h == NULL) return;
  openblas.sgemm = (cblas_sgemm_fn)dlsym(h, "cblas_sgemm");
  void (*set_threads)(int) = (void (*)(int))dlsym(h, "openblas_set_num_threads");
  char *(*corename)(void) = (char *(*)(void))dlsym(h, "openblas_get_corename");
  if (set_threads) set_threads(1);
  snprintf(openblas.core, sizeof openblas.core, "%s", corename ? corename() : "unknown");
}

/* Row-major cblas with the operands' transposes. */
static void run_openblas(const bench_problem *p, bench_type t) {
  (void)t;
  enum { ROW_MAJOR = 101, NO_TRANS = 111, TRANS = 112, COL_MAJOR = 102 };
  const bool c_col = p->cs0 == 1 && p->cs1 != 1;
  if (!c_col) {
    openblas.sgemm(ROW_MAJOR, p->as1 == 1 ? NO_TRANS : TRANS, p->bs1 == 1 ? NO_TRANS : TRANS,
                   (int)p->m, (int)p->n, (int)p->k, 1.0f, p->a,
                   (int)(p->as1 == 1 ? p->as0 : p->as1), p->b,
                   (int)(p->bs1 == 1 ? p->bs0 : p->bs1), 0.0f, p->c, (int)p->cs0);
  } else {
    openblas.sgemm(COL_MAJOR, p->as0 == 1 ? NO_TRANS : TRANS, p->bs0 == 1 ? NO_TRANS : TRANS,
                   (int)p->m, (int)p->n, (int)p->k, 1.0f, p->a,
                   (int)(p->as0 == 1 ? p->as1 : p->as0), p->b,
                   (int)(p->bs0 == 1 ? p->bs1 : p->bs0), 0.0f, p->c, (int)p->cs1);
  }
}

/* oneDNN through dlopen too: row-major dnnl_sgemm and dnnl_gemm_s8s8s32. */
typedef int (*dnnl_sgemm_fn)(char, char, int64_t, int64_t, int64_t, float, const float *,
                             int64_t, const float *, int64_t, float, float *, int64_t);
typedef int (*dnnl_gemm_s8s8s32_fn)(char, char, char, int64_t, int64_t, int64_t, float,
                                    const int8_t *, int64_t, int8_t, const int8_t *, int64_t,
                                    int8_t, float, int32_t *, int64_t, const int32_t *);
typedef struct dnnl_version_info {
  int major, minor, patch;
  const char *hash;
  unsigned cpu_runtime, gpu_runtime;
} dnnl_version_info;
static struct {
  dnnl_sgemm_fn sgemm;
  dnnl_gemm_s8s8s32_fn s8s8s32;
  char version[32];
} onednn;

static void load_onednn(void) {
  void *h = dlopen("libdnnl.so.3", RTLD_NOW | RTLD_LOCAL);
  if (h == NULL) h = dlopen("libdnnl.so.2", RTLD_NOW | RTLD_LOCAL);
  if (h == NULL) return;
  onednn.sgemm = (dnnl_sgemm_fn)dlsym(h, "dnnl_sgemm");
  onednn.s8s8s32 = (dnnl_gemm_s8s8s32_fn)dlsym(h, "dnnl_gemm_s8s8s32");
  const dnnl_version_info *(*version)(void) =
      (const dnnl_version_info *(*)(void))dlsym(h, "dnnl_version");
  if (version != NULL)
    snprintf(onednn.version, sizeof onednn.version, "%d.%d.%d", version()->major,
             version()->minor, version()->patch);
  /* One thread, as for the others: oneDNN's OpenMP runtime takes the calling thread's
   * thread count (libmips asks for its own counts explicitly). */
  void (*set_threads)(int) = (void (*)(int))dlsym(RTLD_DEFAULT, "omp_set_num_threads");
  if (set_threads == NULL) set_threads = (void (*)(int))dlsym(h, "omp_set_num_threads");
  if (set_threads != NULL) set_threads(1);
}

/* Row-major, with the operands' transposes; a column-major C as C^T = B^T A^T. */
static void run_onednn(const bench_problem *p, bench_type t) {
  const bool c_col = p->cs0 == 1 && p->cs1 != 1;
  const void *x = c_col ? p->b : p->a, *y = c_col ? p->a : p->b;
  /* X (rows x k) and Y (k x cols), row-major, each 'N' or 'T' with its leading dimension. */
  const int64_t xs0 = c_col ? p->bs1 : p->as0, xs1 = c_col ? p->bs0 : p->as1;
  const int64_t ys0 = c_col ? p->as1 : p->bs0, ys1 = c_col ? p->as0 : p->bs1;
  const int64_t rows = c_col ? p->n : p->m, cols = c_col ? p->m : p->n;
  const char tx = xs1 == 1 ? 'N' : 'T', ty = ys1 == 1 ? 'N' : 'T';
  const int64_t ldx = xs1 == 1 ? xs0 : xs1, ldy = ys1 == 1 ? ys0 : ys1;
  const int64_t ldc = c_col ? p->cs1 : p->cs0;
  /* A leading dimension must be at least the row length, even for a single row. */
  const int64_t ldx_ok = ldx < (tx == 'N' ? p->k : rows) ? (tx == 'N' ? p->k : rows) : ldx;
  const int64_t ldy_ok = ldy < (ty == 'N' ? cols : p->k) ? (ty == 'N' ? cols : p->k) : ldy;
  const int64_t ldc_ok = ldc < cols ? cols : ldc;
  int status;
  if (t == T_F32) {
    status = onednn.sgemm(tx, ty, rows, cols, p->k, 1.0f, x, ldx_ok, y, ldy_ok, 0.0f, p->c, ldc_ok);
  } else {
    static const int32_t no_offset = 0;
    status = onednn.s8s8s32(tx, ty, 'F', rows, cols, p->k, 1.0f, x, ldx_ok, 0, y, ldy_ok, 0, 0.0f,
                            p->c, ldc_ok, &no_offset);
  }
  if (status != 0) {
    fprintf(stderr, "mips-bench: oneDNN failed (status %d)\n", status);
    exit(1);
  }
}

/*------------------------------------------------------------------------------------
 * Host mode: timing
 *----------------------------------------------------------------------------------*/
static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int compare_doubles(const void *x, const void *y) {
  const double a = *(const double *)x, b = *(const double *)y;
  return (a > b) - (a < b);
}

/* Median seconds per call over `samples` samples, each long enough to time. */
static double time_impl(impl_fn fn, const bench_problem *p, bench_type t, int samples) {
  fn(p, t); /* warm-up: first-use dispatch, page faults, caches */
  double once = now_seconds();
  fn(p, t);
  once = now_seconds() - once;
  const int reps = once > 0.02 ? 1 : (int)(0.02 / (once > 1e-7 ? once : 1e-7)) + 1;
  double secs[16];
  if (samples > 16) samples = 16;
  for (int s = 0; s < samples; ++s) {
    const double t0 = now_seconds();
    for (int r = 0; r < reps; ++r) fn(p, t);
    secs[s] = (now_seconds() - t0) / reps;
  }
  qsort(secs, (size_t)samples, sizeof secs[0], compare_doubles);
  return secs[samples / 2];
}

/* Checks an implementation's result against the naive loop's, exactly (small integer
 * data keeps every sum exact in any order). */
static bool same_result(impl_fn fn, const bench_case *bc, bench_type t) {
  operands x = make_operands(bc, t), y = make_operands(bc, t);
  fn(&x.p, t);
  run_naive(&y.p, t);
  const bool same = memcmp(x.c, y.c, (size_t)(bc->m * bc->n) * 4) == 0;
  free_operands(&x), free_operands(&y);
  return same;
}

/* A batched case's C (in `o`, after libmips ran) against the naive loop, entry by entry.
 * The count mode checks only these: the host mode checks every case it times, and a
 * batch is not timed there (the baselines run one product). */
static bool batch_matches_naive(const operands *o, const bench_case *bc, bench_type t) {
  const int64_t m = bc->m, n = bc->n, k = bc->k, batch = batch_of(bc->mode);
  const size_t in = t == T_F32 ? 4 : 1;
  operands y = make_operands(bc, t);
  for (int64_t e = 0; e < batch; ++e) {
    bench_problem q = y.p;
    q.a = (const char *)y.p.a + (size_t)(e * m * k) * in;
    q.b = (const char *)y.p.b + (size_t)(e * k * n) * in;
    q.c = (char *)y.p.c + (size_t)(e * m * n) * 4;
    run_naive(&q, t);
  }
  const bool same = memcmp(o->c, y.c, (size_t)(batch * m * n) * 4) == 0;
  free_operands(&y);
  return same;
}

typedef struct host_row {
  const bench_case *bc;
  bench_type t;
  double libmips, naive, openblas, onednn; /* GFLOP/s; 0 = not measured */
} host_row;

/* GFLOP/s of `fn` on the case, or 0 (with a note) if its result is wrong. */
static double host_rate(impl_fn fn, const char *name, const bench_case *bc, bench_type t,
                        const bench_problem *p, int samples) {
  if (!same_result(fn, bc, t)) {
    fprintf(stderr, "mips-bench: %s computes a wrong result for %lldx%lldx%lld %s; left out\n",
            name, (long long)bc->m, (long long)bc->n, (long long)bc->k, layout_names[bc->layout]);
    return 0;
  }
  const double flop = 2.0 * (double)bc->m * (double)bc->n * (double)bc->k;
  return flop / time_impl(fn, p, t, samples) * 1e-9;
}

static void format_rate(char *out, size_t size, double rate, const char *format) {
  if (rate > 0) snprintf(out, size, format, rate);
  else snprintf(out, size, "-");
}

static int run_host(bool quick, host_row *rows, size_t *row_count) {
  load_openblas();
  load_onednn();
  printf("host: %s kernel set, 1 thread; OpenBLAS: %s; oneDNN: %s\n", mips_kernel_name(),
         openblas.sgemm ? openblas.core : "not installed (apt-get install libopenblas0-serial)",
         onednn.sgemm ? onednn.version : "not installed (apt-get install libdnnl-dev)");
  printf("%-18s %-4s %-9s %8s %8s %8s %8s %8s %8s %8s\n", "shape", "type", "lay", "libmips",
         "naive", "openblas", "onednn", "x naive", "x oblas", "x dnnl");
  size_t count = 0;
  for (size_t ci = 0; ci < CASE_COUNT; ++ci) {
    const bench_case *bc = &cases[ci];
    if (!bc->host || (quick && !bc->quick)) continue;
    for (int t = T_F32; t <= T_I8; ++t) {
      operands o = make_operands(bc, (bench_type)t);
      libmips_mode = bc->mode;
      /* packed once, outside the timing (the data is seeded: every copy has this B) */
      if (!pack_libmips_b(bc, (bench_type)t, &o.p)) return 1;
      if (!same_result(run_libmips, bc, (bench_type)t)) {
        fprintf(stderr, "mips-bench: libmips and the naive loop disagree on %lldx%lldx%lld\n",
                (long long)bc->m, (long long)bc->n, (long long)bc->k);
        return 1;
      }
      const int samples = quick ? 3 : 7;
      host_row r = {bc, (bench_type)t, 0, 0, 0, 0};
      r.libmips = host_rate(run_libmips, "libmips", bc, (bench_type)t, &o.p, samples);
      r.naive = host_rate(run_naive, "the naive loop", bc, (bench_type)t, &o.p, samples);
      if (openblas.sgemm && t == T_F32)
        r.openblas = host_rate(run_openblas, openblas.core, bc, (bench_type)t, &o.p, samples);
      if (onednn.sgemm && onednn.s8s8s32)
        r.onednn = host_rate(run_onednn, "oneDNN", bc, (bench_type)t, &o.p, samples);
      mips_packed_b_free(libmips_packed_b);
      libmips_packed_b = NULL, libmips_mode = M_PLAIN;
      free_operands(&o);
      char shape[32], lay[16], ob[16], dn[16], xob[16], xdn[16];
      snprintf(shape, sizeof shape, "%lldx%lldx%lld", (long long)bc->m, (long long)bc->n,
               (long long)bc->k);
      snprintf(lay, sizeof lay, "%s%s", layout_names[bc->layout], mode_suffixes[bc->mode]);
      format_rate(ob, sizeof ob, r.openblas, "%.2f");
      format_rate(dn, sizeof dn, r.onednn, "%.2f");
      format_rate(xob, sizeof xob, r.openblas > 0 ? r.libmips / r.openblas : 0, "%.3f");
      format_rate(xdn, sizeof xdn, r.onednn > 0 ? r.libmips / r.onednn : 0, "%.3f");
      printf("%-18s %-4s %-9s %8.2f %8.2f %8s %8s %8.2f %8s %8s\n", shape, type_names[t], lay,
             r.libmips, r.naive, ob, dn, r.libmips / r.naive, xob, xdn);
      fflush(stdout);
      if (rows) rows[count++] = r;
    }
  }
  printf("(GFLOP/s for f32, GOP/s for i8; 'x naive', 'x oblas' and 'x dnnl' are libmips's "
         "ratios)\n");
  if (row_count) *row_count = count;
  return 0;
}

/*------------------------------------------------------------------------------------
 * Count mode (riscv64 under qemu with the plugin)
 *----------------------------------------------------------------------------------*/
#if defined(__riscv)
#define REGION_OPEN() MIPS_REGION_OPEN_FENCED()
#define REGION_CLOSE() MIPS_REGION_CLOSE_FENCED()
static bool cpu_has_v(void) { return (getauxval(AT_HWCAP) & (1ul << ('V' - 'A'))) != 0; }
#else
#define REGION_OPEN() ((void)0)
#define REGION_CLOSE() ((void)0)
static bool cpu_has_v(void) { return false; }
#endif

/* The thread-scaling cases, one region per thread count, after a warm-up call that
 * starts libmips's threads outside the region. */
static void run_thread_count(bool quick) {
  for (size_t ci = 0; ci < THREAD_CASE_COUNT; ++ci) {
    const thread_case *tc = &thread_cases[ci];
    if (quick && !tc->quick) continue;
    const bench_case bc = {tc->m, tc->n, tc->k, L_ROW, true, false, true, M_PLAIN};
    for (int ti = 0; ti < 4 && tc->threads[ti]; ++ti) {
      operands o = make_operands(&bc, T_F32);
      libmips_threads = tc->threads[ti];
      run_libmips(&o.p, T_F32);
      REGION_OPEN();
      run_libmips(&o.p, T_F32);
      REGION_CLOSE();
      printf("tcase %lld %lld %lld %d\n", (long long)tc->m, (long long)tc->n, (long long)tc->k,
             tc->threads[ti]);
      fflush(stdout);
      free_operands(&o);
    }
  }
  libmips_threads = 1;
}

/* --shape=MxNxK: count only the cases of that shape (0: all). */
static long long only_shape[3];

static int run_count(bool quick, bool threads) {
  struct {
    const char *name;
    impl_fn fn;
    bool needs_v;
  } impls[] = {
      {"libmips", run_libmips, false},
#if defined(__riscv)
      {"baseline", run_rvv_baseline, true},
#endif
  };
  const bool has_v = cpu_has_v();
  for (size_t ci = 0; ci < CASE_COUNT; ++ci) {
    const bench_case *bc = &cases[ci];
    if (!bc->count || (quick && !bc->quick)) continue;
    if (only_shape[0] && (bc->m != only_shape[0] || bc->n != only_shape[1] || bc->k != only_shape[2]))
      continue;
    for (int t = T_F32; t <= T_I8; ++t)
      for (size_t ii = 0; ii < sizeof impls / sizeof impls[0]; ++ii) {
        if (impls[ii].needs_v && !has_v) continue;
        /* The baseline has no modes: it is counted with the plain call only. */
        if (bc->mode != M_PLAIN && impls[ii].fn != run_libmips) continue;
        operands o = make_operands(bc, (bench_type)t);
        libmips_mode = bc->mode;
        /* packed once, outside the region */
        if (!pack_libmips_b(bc, (bench_type)t, &o.p)) return 1;
        impls[ii].fn(&o.p, (bench_type)t); /* warm-up, outside the region */
        REGION_OPEN();
        impls[ii].fn(&o.p, (bench_type)t);
        REGION_CLOSE();
        if (bc->mode == M_BATCH && !batch_matches_naive(&o, bc, (bench_type)t)) {
          fprintf(stderr, "mips-bench: the batched call and the naive loop disagree on %lldx%lldx%lld\n",
                  (long long)bc->m, (long long)bc->n, (long long)bc->k);
          return 1;
        }
        printf("case %lld %lld %lld %s%s %s %s\n", (long long)bc->m, (long long)bc->n,
               (long long)bc->k, layout_names[bc->layout], mode_suffixes[bc->mode], type_names[t],
               impls[ii].name);
        fflush(stdout);
        mips_packed_b_free(libmips_packed_b);
        libmips_packed_b = NULL, libmips_mode = M_PLAIN;
        free_operands(&o);
      }
  }
  if (threads) run_thread_count(quick);
  printf("kernel %s\n", mips_kernel_name());
  return 0;
}

/*------------------------------------------------------------------------------------
 * Report mode: qemu runs at every VLEN, merged
 *----------------------------------------------------------------------------------*/
typedef struct count_row {
  long long m, n, k;
  char layout[16], type[4], impl[12];
  int vlen; /* 0: a core without V */
  int threads; /* 0: the single-thread cases; else a thread-scaling case */
  unsigned long long insns, scalar, vcost, vstrided;
  unsigned long long busiest; /* max over threads of max(vcost, scalar) */
} count_row;

enum { COUNT_ROWS_MAX = 512 };

/* Runs one qemu configuration; appends its rows. */
static int run_qemu(const char *qemu, const char *sysroot, const char *exe, const char *plugin,
                    const char *tmpdir, int vlen, bool quick, count_row *rows, size_t *count) {
  char cpu[96], log[512], cmd[2048];
  if (vlen) snprintf(cpu, sizeof cpu, "rv64,v=true,vext_spec=v1.0,vlen=%d", vlen);
  else snprintf(cpu, sizeof cpu, "rv64,v=false");
  snprintf(log, sizeof log, "%s/counts-%d.log", tmpdir, vlen);
  snprintf(cmd, sizeof cmd, "%s -L '%s' -cpu %s -d plugin -D '%s' -plugin '%s',vlen=%d '%s' --count%s%s",
           qemu, sysroot, cpu, log, plugin, vlen ? vlen : 128, exe, quick ? " --quick" : "",
           vlen == THREADS_VLEN ? " --threads" : "");
  FILE *out = popen(cmd, "r");
  if (out == NULL) return perror("popen"), 1;
  size_t first = *count;
  char line[512];
  while (fgets(line, sizeof line, out)) {
    count_row r = {0};
    if (sscanf(line, "case %lld %lld %lld %15s %3s %11s", &r.m, &r.n, &r.k, r.layout, r.type,
               r.impl) == 6 && *count < COUNT_ROWS_MAX) {
      r.vlen = vlen;
      rows[(*count)++] = r;
    } else if (sscanf(line, "tcase %lld %lld %lld %d", &r.m, &r.n, &r.k, &r.threads) == 4 &&
               *count < COUNT_ROWS_MAX) {
      r.vlen = vlen;
      strcpy(r.layout, "row"), strcpy(r.type, "f32"), strcpy(r.impl, "libmips");
      rows[(*count)++] = r;
    }
  }
  if (pclose(out) != 0) {
    fprintf(stderr, "mips-bench: failed: %s\n", cmd);
    return 1;
  }
  FILE *lf = fopen(log, "r");
  if (lf == NULL) return perror(log), 1;
  size_t next = first;
  while (fgets(line, sizeof line, lf)) {
    int region;
    unsigned long long insns, scalar, vector, vcost, vfma, vload, vstore, vstrided;
    if (strstr(line, "thread=")) continue;
    if (sscanf(line, "mips-count: region=%d insns=%llu scalar=%llu vector=%llu vcost=%llu "
                     "vfma=%llu vload=%llu vstore=%llu vstrided=%llu",
               &region, &insns, &scalar, &vector, &vcost, &vfma, &vload, &vstore, &vstrided) == 9 &&
        region > 0 && next < *count) {
      rows[next].insns = insns, rows[next].scalar = scalar, rows[next].vcost = vcost;
      rows[next].vstrided = vstrided;
      const char *busiest = strstr(line, "busiest=");
      rows[next].busiest = busiest ? strtoull(busiest + 8, NULL, 10) : 0;
      ++next;
    }
  }
  fclose(lf);
  if (next != *count) {
    fprintf(stderr, "mips-bench: %s: %zu regions for %zu cases\n", log, next - first,
            *count - first);
    return 1;
  }
  return 0;
}

/* Multiply-adds of a row: a batched case's count all of its entries. */
static double macs_of(const count_row *r) {
  const double batch = strstr(r->layout, mode_suffixes[M_BATCH]) ? BENCH_BATCH : 1;
  return batch * (double)r->m * (double)r->n * (double)r->k;
}
static double ideal_of(const count_row *r) {
  return macs_of(r) / (r->vlen / 32.0);
}
static double eff_of(const count_row *r) {
  const double bound = (double)(r->vcost > r->scalar ? r->vcost : r->scalar);
  return ideal_of(r) / bound;
}

static const count_row *find_row(const count_row *rows, size_t count, const count_row *like,
                                 const char *impl, int vlen) {
  for (size_t i = 0; i < count; ++i)
    if (rows[i].threads == like->threads && rows[i].m == like->m && rows[i].n == like->n && rows[i].k == like->k &&
        strcmp(rows[i].layout, like->layout) == 0 && strcmp(rows[i].type, like->type) == 0 &&
        strcmp(rows[i].impl, impl) == 0 && rows[i].vlen == vlen)
      return &rows[i];
  return NULL;
}

static const int vlens[] = {128, 256, 512, 1024};

static void print_count_tables(const count_row *rows, size_t count, FILE *csv) {
  printf("\nriscv64 under qemu, instruction counts (mips-insn-count), one call each\n");
  printf("%-14s %-4s %-9s %-5s | %-21s | %-21s | %9s %9s %9s\n", "shape", "type", "lay", "VLEN",
         "libmips eff  ins/idl", "baseline eff ins/idl", "vcost", "scalar", "insns");
  fprintf(csv, "mode,shape,m,n,k,type,layout,vlen,impl,insns,scalar,vcost,vstrided,ideal,eff,"
               "ins_per_ideal,gflops,threads,busiest,speedup\n");
  for (size_t i = 0; i < count; ++i) {
    const count_row *r = &rows[i];
    if (r->vlen == 0 || r->threads) continue;
    char shape[32];
    snprintf(shape, sizeof shape, "%lldx%lldx%lld", r->m, r->n, r->k);
    fprintf(csv, "qemu,%s,%lld,%lld,%lld,%s,%s,%d,%s,%llu,%llu,%llu,%llu,%.0f,%.4f,%.4f,\n",
            shape, r->m, r->n, r->k, r->type, r->layout, r->vlen, r->impl, r->insns, r->scalar,
            r->vcost, r->vstrided, ideal_of(r), eff_of(r), (double)r->insns / ideal_of(r));
    if (strcmp(r->impl, "libmips") != 0) continue;
    const count_row *base = find_row(rows, count, r, "baseline", r->vlen);
    char b[32] = "-";
    if (base) snprintf(b, sizeof b, "%5.3f  %6.3f", eff_of(base), (double)base->insns / ideal_of(base));
    printf("%-14s %-4s %-9s %-5d |  %5.3f  %6.3f       | %-20s | %9llu %9llu %9llu\n", shape,
           r->type, r->layout, r->vlen, eff_of(r), (double)r->insns / ideal_of(r), b, r->vcost,
           r->scalar, r->insns);
  }
  printf("\nrv64gc without V (qemu v=false): the portable kernel set\n");
  printf("%-14s %-4s %-9s %12s %10s\n", "shape", "type", "lay", "insns", "FMA/insn");
  for (size_t i = 0; i < count; ++i) {
    const count_row *r = &rows[i];
    if (r->vlen != 0) continue;
    const double macs = macs_of(r);
    char shape[32];
    snprintf(shape, sizeof shape, "%lldx%lldx%lld", r->m, r->n, r->k);
    printf("%-14s %-4s %-9s %12llu %10.3f\n", shape, r->type, r->layout, r->insns,
           macs / (double)r->insns);
    fprintf(csv, "qemu-novector,%lldx%lldx%lld,%lld,%lld,%lld,%s,%s,0,%s,%llu,%llu,%llu,%llu,,,%.4f,\n",
            r->m, r->n, r->k, r->m, r->n, r->k, r->type, r->layout, r->impl, r->insns, r->scalar,
            r->vcost, r->vstrided, macs / (double)r->insns);
  }
}

/* Thread scaling under qemu: par_eff = ideal / (T * busiest thread's max(vcost, scalar)),
 * speedup = the 1-thread run's busiest / this run's. */
static void print_thread_table(const count_row *rows, size_t count, FILE *csv) {
  printf("\nriscv64 under qemu, VLEN %d, f32 row-major, threads (one vCPU per guest thread)\n",
         THREADS_VLEN);
  printf("%-14s %7s | %12s %8s %8s | %12s %9s\n", "shape", "threads", "busiest", "par_eff",
         "speedup", "insns", "ins vs 1");
  for (size_t i = 0; i < count; ++i) {
    const count_row *r = &rows[i];
    if (!r->threads || !r->busiest) continue;
    count_row like = *r;
    like.threads = 1;
    const count_row *one = find_row(rows, count, &like, "libmips", r->vlen);
    const double par_eff = ideal_of(r) / ((double)r->threads * (double)r->busiest);
    const double speedup = one && one->busiest ? (double)one->busiest / (double)r->busiest : 0;
    const double insns_ratio = one && one->insns ? (double)r->insns / (double)one->insns : 0;
    printf("%lldx%lldx%-8lld %7d | %12llu %8.3f %8.2f | %12llu %9.3f\n", r->m, r->n, r->k,
           r->threads, r->busiest, par_eff, speedup, r->insns, insns_ratio);
    fprintf(csv, "qemu-threads,%lldx%lldx%lld,%lld,%lld,%lld,f32,row,%d,libmips,%llu,%llu,%llu,%llu,"
                 "%.0f,%.4f,,,%d,%llu,%.3f\n",
            r->m, r->n, r->k, r->m, r->n, r->k, r->vlen, r->insns, r->scalar, r->vcost,
            r->vstrided, ideal_of(r), par_eff, r->threads, r->busiest, speedup);
  }
}

/* Host wall time of one call with 1 and with 2 threads (median of samples, one run). */
static void run_host_threads(bool quick, FILE *csv) {
  const int64_t size = quick ? 256 : 1024;
  const bench_case bc = {size, size, size, L_ROW, true, true, false, M_PLAIN};
  operands o = make_operands(&bc, T_F32);
  const double flop = 2.0 * (double)size * (double)size * (double)size;
  double gflops[3] = {0, 0, 0};
  for (int threads = 1; threads <= 2; ++threads) {
    libmips_threads = threads;
    gflops[threads] = flop / time_impl(run_libmips, &o.p, T_F32, quick ? 3 : 7) * 1e-9;
    if (csv)
      fprintf(csv, "host-threads,%lldx%lldx%lld,%lld,%lld,%lld,f32,row,,libmips,,,,,,,%.3f,%d,,%.3f\n",
              (long long)size, (long long)size, (long long)size, (long long)size, (long long)size,
              (long long)size, gflops[threads], threads, gflops[threads] / gflops[1]);
  }
  libmips_threads = 1;
  free_operands(&o);
  printf("\nhost threads, f32 %lld^3: 1 thread %.2f GFLOP/s, 2 threads %.2f GFLOP/s: speedup %.2f "
         "(libmips's default here: %d threads)\n",
         (long long)size, gflops[1], gflops[2], gflops[2] / gflops[1], mips_default_threads());
}

/* eff per case for each VLEN (one gnuplot data block per VLEN), and host GFLOP/s. */
static void write_plots(const char *outdir, const count_row *rows, size_t count,
                        const host_row *hrows, size_t hcount) {
  char path[512], cmd[1024];
  snprintf(path, sizeof path, "%s/eff.dat", outdir);
  FILE *f = fopen(path, "w");
  if (f == NULL) return;
  for (size_t v = 0; v < sizeof vlens / sizeof vlens[0]; ++v) {
    fprintf(f, "# VLEN %d\n", vlens[v]);
    for (size_t i = 0; i < count; ++i) {
      const count_row *r = &rows[i];
      if (r->vlen != vlens[v] || r->threads || strcmp(r->impl, "libmips") != 0) continue;
      const count_row *base = find_row(rows, count, r, "baseline", r->vlen);
      fprintf(f, "\"%lldx%lldx%lld %s %s\" %.4f %.4f\n", r->m, r->n, r->k, r->type, r->layout,
              eff_of(r), base ? eff_of(base) : 0.0);
    }
    fprintf(f, "\n\n");
  }
  fclose(f);
  snprintf(path, sizeof path, "%s/host.dat", outdir);
  f = fopen(path, "w");
  if (f == NULL) return;
  for (size_t i = 0; i < hcount; ++i) {
    const host_row *h = &hrows[i];
    if (h->t != T_F32 || h->bc->layout != L_ROW || h->bc->m != h->bc->n || h->bc->n != h->bc->k)
      continue;
    fprintf(f, "%lld %.3f %.3f %.3f\n", (long long)h->bc->m, h->libmips, h->naive, h->openblas);
  }
  fclose(f);
  snprintf(path, sizeof path, "%s/plots.gp", outdir);
  f = fopen(path, "w");
  if (f == NULL) return;
  fprintf(f,
          "set terminal pngcairo size 1400,700 noenhanced\n"
          "set output '%s/eff.png'\n"
          "set title 'libmips RVV kernels: modelled efficiency per case (1 = ideal)'\n"
          "set style data histograms\nset style fill solid 0.8\nset yrange [0:1.05]\n"
          "set xtics rotate by -40\nset key outside\nset grid y\n"
          "plot for [v=0:3] '%s/eff.dat' index v using 2:xtic(1) title sprintf('VLEN %%d', 128*2**v)\n"
          "set output '%s/host.png'\n"
          "set title 'x86-64 host, f32 square matmul, 1 thread'\n"
          "set style data linespoints\nunset xtics\nset xtics\nset logscale x 2\nset autoscale y\n"
          "set xlabel 'M = N = K'\nset ylabel 'GFLOP/s'\n"
          "plot '%s/host.dat' using 1:2 title 'libmips', '' using 1:3 title 'naive ikj', "
          "'' using 1:($4 > 0 ? $4 : 1/0) title 'OpenBLAS'\n",
          outdir, outdir, outdir, outdir);
  fclose(f);
  snprintf(cmd, sizeof cmd, "gnuplot '%s/plots.gp' 2>&1", outdir);
  if (system("command -v gnuplot >/dev/null 2>&1") != 0) {
    printf("(gnuplot not installed: no PNG plots; apt-get install gnuplot-nox)\n");
    return;
  }
  if (system(cmd) == 0) printf("plots: %s/eff.png %s/host.png\n", outdir, outdir);
}

static int run_report(bool quick, const char *exe, const char *plugin, const char *qemu,
                      const char *sysroot, const char *outdir) {
  static host_row hrows[CASE_COUNT * 2];
  size_t hcount = 0;
  /* The counts, data and plots go there: made if missing, before the long runs. */
  if (mkdir(outdir, 0777) != 0 && errno != EEXIST) {
    fprintf(stderr, "mips-bench: cannot make --out=%s: %s\n", outdir, strerror(errno));
    return 1;
  }
  if (run_host(quick, hrows, &hcount) != 0) return 1;
  static count_row rows[COUNT_ROWS_MAX];
  size_t count = 0;
  for (size_t v = 0; v < sizeof vlens / sizeof vlens[0]; ++v)
    if (run_qemu(qemu, sysroot, exe, plugin, outdir, vlens[v], quick, rows, &count) != 0) return 1;
  if (run_qemu(qemu, sysroot, exe, plugin, outdir, 0, quick, rows, &count) != 0) return 1;

  char path[512];
  snprintf(path, sizeof path, "%s/mips-bench.csv", outdir);
  FILE *csv = fopen(path, "w");
  if (csv == NULL) return perror(path), 1;
  print_count_tables(rows, count, csv);
  print_thread_table(rows, count, csv);
  run_host_threads(quick, csv);
  for (size_t i = 0; i < hcount; ++i) {
    const host_row *h = &hrows[i];
    const struct { const char *name; double v; } impls[] = {
        {"libmips", h->libmips}, {"naive", h->naive}, {"openblas", h->openblas},
        {"onednn", h->onednn}};
    for (size_t x = 0; x < 4; ++x)
      if (impls[x].v > 0)
        fprintf(csv, "host,%lldx%lldx%lld,%lld,%lld,%lld,%s,%s%s,,%s,,,,,,,%.3f\n",
                (long long)h->bc->m, (long long)h->bc->n, (long long)h->bc->k,
                (long long)h->bc->m, (long long)h->bc->n, (long long)h->bc->k,
                type_names[h->t], layout_names[h->bc->layout], mode_suffixes[h->bc->mode],
                impls[x].name, impls[x].v);
  }
  fclose(csv);
  printf("\ncsv: %s\n", path);
  write_plots(outdir, rows, count, hrows, hcount);
  return 0;
}

/*------------------------------------------------------------------------------------
 * main
 *----------------------------------------------------------------------------------*/
static const char *option_value(const char *arg, const char *name) {
  const size_t len = strlen(name);
  return strncmp(arg, name, len) == 0 && arg[len] == '=' ? arg + len + 1 : NULL;
}

int main(int argc, char **argv) {
  bool quick = false, count = false, threads = false;
  const char *exe = NULL, *plugin = NULL, *qemu = "qemu-riscv64",
             *sysroot = "/usr/riscv64-linux-gnu", *outdir = ".";
  for (int i = 1; i < argc; ++i) {
    const char *v;
    if (strcmp(argv[i], "--quick") == 0) quick = true;
    else if (strcmp(argv[i], "--count") == 0) count = true;
    else if (strcmp(argv[i], "--threads") == 0) threads = true;
    else if ((v = option_value(argv[i], "--riscv-bench"))) exe = v;
    else if ((v = option_value(argv[i], "--plugin"))) plugin = v;
    else if ((v = option_value(argv[i], "--qemu"))) qemu = v;
    else if ((v = option_value(argv[i], "--sysroot"))) sysroot = v;
    else if ((v = option_value(argv[i], "--out"))) outdir = v;
    else if ((v = option_value(argv[i], "--shape"))) {
      long long m, n, k;
      if (sscanf(v, "%lldx%lldx%lld", &m, &n, &k) != 3) {
        fprintf(stderr, "mips-bench: --shape=%s is not MxNxK\n", v);
        return 2;
      }
      only_shape[0] = m, only_shape[1] = n, only_shape[2] = k;
    } else {
      fprintf(stderr,
              "usage: mips-bench [--quick] [--threads]\n"
              "       mips-bench --count [--quick] [--threads] [--shape=MxNxK]\n"
              "       mips-bench [--quick] --riscv-bench=EXE --plugin=SO [--qemu=CMD] "
              "[--sysroot=DIR] [--out=DIR]\n"
              "unknown argument: %s\n",
              argv[i]);
      return 2;
    }
  }
  if (count) return run_count(quick, threads);
  if (exe || plugin) {
    if (!exe || !plugin) {
      fprintf(stderr, "mips-bench: --riscv-bench and --plugin go together\n");
      return 2;
    }
    return run_report(quick, exe, plugin, qemu, sysroot, outdir);
  }
  if (run_host(quick, NULL, NULL) != 0) return 1;
  if (threads) run_host_threads(quick, NULL);
  return 0;
}
