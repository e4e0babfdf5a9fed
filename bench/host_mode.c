/* SPDX-License-Identifier: Apache-2.0 */
/* The host mode: GFLOP/s of libmips and the baselines, timed side by side in one run
 * (OpenBLAS and oneDNN through dlopen, so that the benchmark builds without them). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mips/mips.h"
#include "mips_bench.h"

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

int run_host(bool quick, host_row *rows, size_t *row_count) {
  load_openblas();
  load_onednn();
  printf("host: %s kernel set, 1 thread; OpenBLAS: %s; oneDNN: %s\n", mips_kernel_name(),
         openblas.sgemm ? openblas.core : "not installed (apt-get install libopenblas0-serial)",
         onednn.sgemm ? onednn.version : "not installed (apt-get install libdnnl-dev)");
  printf("%-18s %-4s %-9s %8s %8s %8s %8s %8s %8s %8s\n", "shape", "type", "lay", "libmips",
         "naive", "openblas", "onednn", "x naive", "x oblas", "x dnnl");
  size_t count = 0;
  for (size_t ci = 0; ci < case_count; ++ci) {
    const bench_case *bc = &cases[ci];
    if (!bc->host || (quick && !bc->quick)) continue;
    for (int t = T_F32; t <= T_I8; ++t) {
      operands o = make_operands(bc, (bench_type)t);
      /* packed once, outside the timing (the data is seeded: every copy has this B) */
      if (!libmips_prepare(bc, (bench_type)t, &o.p)) return 1;
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
      libmips_finish();
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

/* Host wall time of one call with 1 and with 2 threads (median of samples, one run). */
void run_host_threads(bool quick, FILE *csv) {
  const int64_t size = quick ? 256 : 1024;
  const bench_case bc = {size, size, size, L_ROW, true, true, false, M_PLAIN};
  operands o = make_operands(&bc, T_F32);
  const double flop = 2.0 * (double)size * (double)size * (double)size;
  double gflops[3] = {0, 0, 0};
  for (int threads = 1; threads <= 2; ++threads) {
    libmips_set_threads(threads);
    gflops[threads] = flop / time_impl(run_libmips, &o.p, T_F32, quick ? 3 : 7) * 1e-9;
    if (csv)
      fprintf(csv, "host-threads,%lldx%lldx%lld,%lld,%lld,%lld,f32,row,,libmips,,,,,,,%.3f,%d,,%.3f\n",
              (long long)size, (long long)size, (long long)size, (long long)size, (long long)size,
              (long long)size, gflops[threads], threads, gflops[threads] / gflops[1]);
  }
  libmips_set_threads(1);
  free_operands(&o);
  printf("\nhost threads, f32 %lld^3: 1 thread %.2f GFLOP/s, 2 threads %.2f GFLOP/s: speedup %.2f "
         "(libmips's default here: %d threads)\n",
         (long long)size, gflops[1], gflops[2], gflops[2] / gflops[1], mips_default_threads());
}
