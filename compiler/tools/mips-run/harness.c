/* SPDX-License-Identifier: Apache-2.0 */
/* mips-run's harness: reads a model function's inputs from files, calls it once, writes
 * its first result to a file. mips-run compiles it with the model's header (model.h, from
 * mips-compile) and model_call.h, which it writes for the function: run_model(argv), the
 * arguments and the call, between MIPS_REGION_OPEN() and MIPS_REGION_CLOSE().
 *
 * With MIPS_RUN_COUNT (mips-run --count) the call is the instruction-count plugin's region
 * and every libmips call the object makes through a function below adds its
 * multiply-adds (the object is linked with --wrap=<function> for those it calls). The
 * wrappers' prototypes are mips.h's own (__typeof__): one that disagreed with the ABI
 * would not compile. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"

#ifndef MIPS_RUN_MAX_RANK
#error "mips-run passes -DMIPS_RUN_MAX_RANK (the highest rank it accepts)"
#endif

static void *load(const char *path, size_t bytes) {
  void *data = malloc(bytes ? bytes : 1);
  FILE *f = fopen(path, "rb");
  if (!data || !f || fread(data, 1, bytes, f) != bytes) {
    fprintf(stderr, "mips-run harness: cannot read %s\n", path);
    exit(3);
  }
  fclose(f);
  return data;
}

/* The rank, the sizes, then the elements in row-major order. */
static void save(const char *path, const char *aligned, int64_t offset, int rank,
                 const int64_t *sizes, const int64_t *strides, size_t size) {
  FILE *f = fopen(path, "wb");
  int64_t header[1 + MIPS_RUN_MAX_RANK] = {rank}, index[MIPS_RUN_MAX_RANK] = {0}, count = 1;
  for (int d = 0; d < rank; ++d) header[1 + d] = sizes[d], count *= sizes[d];
  fwrite(header, sizeof(int64_t), (size_t)(1 + rank), f);
  for (int64_t e = 0; e < count; ++e) {
    int64_t at = offset;
    for (int d = 0; d < rank; ++d) at += index[d] * strides[d];
    fwrite(aligned + at * (int64_t)size, size, 1, f);
    for (int d = rank - 1; d >= 0 && ++index[d] == sizes[d]; --d) index[d] = 0;
  }
  if (fclose(f) != 0) {
    fprintf(stderr, "mips-run harness: cannot write %s\n", path);
    exit(3);
  }
}

#ifdef MIPS_RUN_COUNT
#include "mips/mips.h"
#include "region.h"

static int64_t macs;

/* A packed B's k x n, kept from the call that packed it. */
static struct {
  const mips_packed_b *handle;
  int64_t kn;
} packed_handles[4096];
static int packed_count;

static void remember_packed(mips_packed_b *const *packed, int64_t k, int64_t n, int status) {
  if (status == MIPS_OK && packed_count < 4096) {
    packed_handles[packed_count].handle = *packed;
    packed_handles[packed_count++].kn = k * n;
  }
}

static int64_t packed_kn(const mips_packed_b *handle) {
  for (int i = packed_count - 1; i >= 0; --i)
    if (packed_handles[i].handle == handle) return packed_handles[i].kn;
  return 0;
}

/* __real_<name> is weak: a wrapper the object does not call links without --wrap. */
#define MIPS_RUN_WRAPS(name)                                     \
  extern __typeof__(name) __real_##name __attribute__((weak)); \
  __typeof__(name) __wrap_##name

#define MIPS_RUN_VIEW(T, x) const T *x, int64_t x##o, int64_t x##s0, int64_t x##s1
#define MIPS_RUN_BATCH_VIEW(T, x) \
  const T *x, int64_t x##o, int64_t x##sb, int64_t x##s0, int64_t x##s1

/* The matmuls of one element type: plain, batched, and on a packed B. */
#define MIPS_RUN_COUNT_MATMULS(S, AB, C)                                                        \
  MIPS_RUN_WRAPS(mips_matmul_##S);                                                              \
  int __wrap_mips_matmul_##S(int64_t m, int64_t n, int64_t k, MIPS_RUN_VIEW(AB, a),             \
                             MIPS_RUN_VIEW(AB, b), C *c, int64_t co, int64_t cs0, int64_t cs1,  \
                             uint32_t flags) {                                                  \
    const int status = __real_mips_matmul_##S(m, n, k, a, ao, as0, as1, b, bo, bs0, bs1, c, co, \
                                              cs0, cs1, flags);                                 \
    macs += m * n * k;                                                                          \
    return status;                                                                              \
  }                                                                                             \
  MIPS_RUN_WRAPS(mips_matmul_batch_##S);                                                        \
  int __wrap_mips_matmul_batch_##S(int64_t batch, int64_t m, int64_t n, int64_t k,              \
                                   MIPS_RUN_BATCH_VIEW(AB, a), MIPS_RUN_BATCH_VIEW(AB, b),      \
                                   C *c, int64_t co, int64_t csb, int64_t cs0, int64_t cs1,     \
                                   uint32_t flags) {                                            \
    const int status = __real_mips_matmul_batch_##S(batch, m, n, k, a, ao, asb, as0, as1, b,    \
                                                    bo, bsb, bs0, bs1, c, co, csb, cs0, cs1,    \
                                                    flags);                                     \
    macs += batch * m * n * k;                                                                  \
    return status;                                                                              \
  }                                                                                             \
  MIPS_RUN_WRAPS(mips_matmul_packed_##S);                                                       \
  int __wrap_mips_matmul_packed_##S(int64_t m, MIPS_RUN_VIEW(AB, a), const mips_packed_b *b,    \
                                    C *c, int64_t co, int64_t cs0, int64_t cs1, uint32_t flags) { \
    const int status = __real_mips_matmul_packed_##S(m, a, ao, as0, as1, b, c, co, cs0, cs1,    \
                                                     flags);                                    \
    macs += m * packed_kn(b);                                                                   \
    return status;                                                                              \
  }

#define MIPS_RUN_COUNT_PACKING(S, T)                                                        \
  MIPS_RUN_WRAPS(mips_pack_b_##S);                                                          \
  int __wrap_mips_pack_b_##S(int64_t k, int64_t n, MIPS_RUN_VIEW(T, b),                     \
                             mips_packed_b **packed) {                                      \
    const int status = __real_mips_pack_b_##S(k, n, b, bo, bs0, bs1, packed);               \
    remember_packed(packed, k, n, status);                                                  \
    return status;                                                                          \
  }

MIPS_RUN_COUNT_MATMULS(f32, float, float)
MIPS_RUN_COUNT_MATMULS(i8i32, int8_t, int32_t)
MIPS_RUN_COUNT_PACKING(f32, float)
MIPS_RUN_COUNT_PACKING(i8, int8_t)
#else
#define MIPS_REGION_OPEN() (void)0
#define MIPS_REGION_CLOSE() (void)0
#endif

#include "model_call.h"

int main(int argc, char **argv) {
  (void)argc;
  run_model(argv);
#ifdef MIPS_RUN_COUNT
  printf("mips-run-macs %lld\n", (long long)macs);
#endif
  return 0;
}
