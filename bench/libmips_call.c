/* SPDX-License-Identifier: Apache-2.0 */
/* libmips as each case calls it: run_libmips is what the count mode's regions hold
 * besides libmips itself. */
#include <stdio.h>
#include <stdlib.h>

#include "mips/mips.h"
#include "mips_bench.h"

/* The calls' settings: file-level, so that the counted code reads them as it always has
 * (a pointer to them would change what the region counts). */
static int libmips_threads = 1;
/* The call's mode, and B (A^T for M_PACKED_A) packed for M_PACKED. */
static bench_mode libmips_mode = M_PLAIN;
static mips_packed_b *libmips_packed_b;

void libmips_set_threads(int threads) { libmips_threads = threads; }

bool libmips_prepare(const bench_case *bc, bench_type t, const bench_problem *p) {
  libmips_mode = bc->mode;
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

void libmips_finish(void) {
  mips_packed_b_free(libmips_packed_b);
  libmips_packed_b = NULL, libmips_mode = M_PLAIN;
}

void run_libmips(const bench_problem *p, bench_type t) {
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
