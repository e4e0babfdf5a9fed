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
 * of max(vcost, scalar); speedup = busiest with 1 thread / busiest with T.
 *
 * This file reads the options; mips_bench.h lists the parts. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "mips_bench.h"

static const char *option_value(const char *arg, const char *name) {
  const size_t len = strlen(name);
  return strncmp(arg, name, len) == 0 && arg[len] == '=' ? arg + len + 1 : NULL;
}

int main(int argc, char **argv) {
  bool quick = false, count = false, threads = false;
  long long only_shape[3] = {0, 0, 0}; /* --shape=MxNxK: count only that shape */
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
  if (count) return run_count(quick, threads, only_shape);
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
