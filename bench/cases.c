/* SPDX-License-Identifier: Apache-2.0 */
/* mips-bench's cases, their operands, and the naive loop's answer to check against. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mips_bench.h"

const char *const layout_names[L_COUNT] = {"row", "At", "Bt", "Ccol"};
const char *const type_names[] = {"f32", "i8"};
const char *const mode_suffixes[] = {"", ":any", ":pack", ":Apack", ":b4"};

const bench_case cases[] = {
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
const size_t case_count = sizeof cases / sizeof cases[0];

const thread_case thread_cases[] = {
    {512, 512, 512, {1, 2, 4, 8}, false},
    {256, 256, 256, {1, 2, 4, 8}, true},
    {16, 16, 16, {1, 8, 0, 0}, true},
    {4, 4, 4, {1, 8, 0, 0}, true},
};
const size_t thread_case_count = sizeof thread_cases / sizeof thread_cases[0];

static void *checked_malloc(size_t size) {
  void *p = malloc(size ? size : 1);
  if (p == NULL) {
    fprintf(stderr, "mips-bench: out of memory (%zu bytes)\n", size);
    exit(1);
  }
  return p;
}

operands make_operands(const bench_case *bc, bench_type t) {
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

void free_operands(operands *o) { free(o->a), free(o->b), free(o->c); }

void run_naive(const bench_problem *p, bench_type t) {
  if (t == T_F32) baseline_naive_f32(p);
  else baseline_naive_i8i32(p);
}

bool same_result(impl_fn fn, const bench_case *bc, bench_type t) {
  operands x = make_operands(bc, t), y = make_operands(bc, t);
  fn(&x.p, t);
  run_naive(&y.p, t);
  const bool same = memcmp(x.c, y.c, (size_t)(bc->m * bc->n) * 4) == 0;
  free_operands(&x), free_operands(&y);
  return same;
}

/* The count mode checks only these: the host mode checks every case it times, and a
 * batch is not timed there (the baselines run one product). */
bool batch_matches_naive(const operands *o, const bench_case *bc, bench_type t) {
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
