/* SPDX-License-Identifier: Apache-2.0 */
/* The count mode (riscv64, under qemu with the instruction-count plugin): each case run
 * once between the plugin's region markers, after a warm-up call outside them, for
 * libmips and the unpacked RVV baseline; a "case" line per region on stdout (report.c
 * pairs them with the plugin's counts), then the thread-scaling cases ("tcase"). */
#include <stdio.h>

#include "mips/mips.h"
#include "mips_bench.h"
#include "plugin/region.h"

#if defined(__riscv)
#include <sys/auxv.h>
#endif

#if defined(__riscv)
static void run_rvv_baseline(const bench_problem *p, bench_type t) {
  if (t == T_F32) baseline_rvv_f32(p);
  else baseline_rvv_i8i32(p);
}
#endif

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
  for (size_t ci = 0; ci < thread_case_count; ++ci) {
    const thread_case *tc = &thread_cases[ci];
    if (quick && !tc->quick) continue;
    const bench_case bc = {tc->m, tc->n, tc->k, L_ROW, true, false, true, M_PLAIN};
    for (int ti = 0; ti < 4 && tc->threads[ti]; ++ti) {
      operands o = make_operands(&bc, T_F32);
      libmips_set_threads(tc->threads[ti]);
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
  libmips_set_threads(1);
}

int run_count(bool quick, bool threads, const long long only_shape[3]) {
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
  for (size_t ci = 0; ci < case_count; ++ci) {
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
        /* packed once, outside the region */
        if (!libmips_prepare(bc, (bench_type)t, &o.p)) return 1;
        /* Called through the pointer, opaque to the compiler: a direct call would take the
         * baseline's dispatch on the type out of the region (3 instructions fewer). */
        impl_fn fn = impls[ii].fn;
        __asm__("" : "+r"(fn));
        fn(&o.p, (bench_type)t); /* warm-up, outside the region */
        REGION_OPEN();
        fn(&o.p, (bench_type)t);
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
        libmips_finish();
        free_operands(&o);
      }
  }
  if (threads) run_thread_count(quick);
  printf("kernel %s\n", mips_kernel_name());
  return 0;
}
