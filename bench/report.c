/* SPDX-License-Identifier: Apache-2.0 */
/* The report mode: the host mode, then the count mode under qemu at VLEN 128, 256, 512
 * and 1024 (the thread cases at THREADS_VLEN) and on a core without V, each run's "case"
 * lines paired with the plugin's region counts, then host thread scaling; merged into
 * tables (stdout), a CSV and PNG plots (gnuplot). */
#define _GNU_SOURCE /* popen */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "mips/mips.h"
#include "mips_bench.h"

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

int run_report(bool quick, const char *exe, const char *plugin, const char *qemu,
               const char *sysroot, const char *outdir) {
  host_row *hrows = calloc(case_count * 2, sizeof *hrows);
  size_t hcount = 0;
  if (hrows == NULL) return perror("mips-bench"), 1;
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
  free(hrows);
  return 0;
}
