/* SPDX-License-Identifier: Apache-2.0 */
/* Calls one model function, `_mlir_ciface_<MODEL_FN>`, on dense f32 arguments of the
 * shapes given on the command line (e.g. 1x34x34x16 3x3x16x32), inside a region the
 * instruction-count plugin reports. Works with objects from mips-compile and from the
 * upstream-only pipeline alike (both export the C interface). */
#include "model_call.h"
#include "../plugin/region.h"

/* The upstream-only pipeline's copies call MLIR's runner library, which has no riscv64
 * build here; mips-compile objects bring their own (this one is weak, so theirs wins). */
typedef struct unranked_memref {
  int64_t rank;
  void *descriptor;
} unranked_memref;

static void copy_dim(int64_t elem_size, int64_t rank, int64_t d, const int64_t *sizes,
                     const int64_t *src_strides, const int64_t *dst_strides, const char *src,
                     char *dst) {
  for (int64_t i = 0; i < sizes[d]; ++i) {
    const char *s = src + i * src_strides[d] * elem_size;
    char *t = dst + i * dst_strides[d] * elem_size;
    if (d + 1 == rank) memcpy(t, s, (size_t)elem_size);
    else copy_dim(elem_size, rank, d + 1, sizes, src_strides, dst_strides, s, t);
  }
}

__attribute__((weak)) void memrefCopy(int64_t elem_size, unranked_memref *src,
                                      unranked_memref *dst) {
  /* descriptor: allocated, aligned, offset, sizes[rank], strides[rank] */
  const int64_t rank = src->rank;
  char **s = src->descriptor, **t = dst->descriptor;
  const int64_t *sm = (const int64_t *)(s + 2), *tm = (const int64_t *)(t + 2);
  const char *from = s[1] + sm[0] * elem_size;
  char *to = t[1] + tm[0] * elem_size;
  if (rank == 0) {
    memcpy(to, from, (size_t)elem_size);
    return;
  }
  copy_dim(elem_size, rank, 0, sm + 1, sm + 1 + rank, tm + 1 + rank, from, to);
}

#define REGION_OPEN() MIPS_REGION_OPEN()
#define REGION_CLOSE() MIPS_REGION_CLOSE()

int main(int argc, char **argv) {
  memref args[MAX_ARGS], result;
  const int count = model_arguments(argc, argv, args, 4.0f);
  if (count == 0) return 2;
  /* COUNT_MODEL_WARM_UP=1: one call before the counted one, for what a process does once
   * (binding libmips's symbols, filling its dispatch table, packing constant weights)
   * and then never again. */
  const char *warm_up = getenv("COUNT_MODEL_WARM_UP");
  for (int call = warm_up != NULL && strcmp(warm_up, "1") == 0 ? 0 : 1; call < 2; ++call) {
    if (call == 1) REGION_OPEN();
    call_model(count, &result, args);
    if (call == 1) REGION_CLOSE();
  }
  printf("result[0] = %g\n", (double)result.aligned[result.offset]);
  return 0;
}
