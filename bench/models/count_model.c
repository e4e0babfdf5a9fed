/* SPDX-License-Identifier: Apache-2.0 */
/* Calls one model function, `_mlir_ciface_<MODEL_FN>`, on dense f32 arguments of the
 * shapes given on the command line (e.g. 1x34x34x16 3x3x16x32), inside a region the
 * instruction-count plugin reports. Works with objects from mips-compile and from the
 * upstream-only pipeline alike (both export the C interface). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_RANK 6
typedef struct memref {
  float *allocated, *aligned;
  int64_t offset, dims[2 * MAX_RANK];
} memref;

#define CONCAT_(a, b) a##b
#define CONCAT(a, b) CONCAT_(a, b)
#define ENTRY CONCAT(_mlir_ciface_, MODEL_FN)
void ENTRY();

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

#define REGION_OPEN() __asm__ volatile("slti x0, x0, 0x6d0")
#define REGION_CLOSE() __asm__ volatile("slti x0, x0, 0x6d1")

int main(int argc, char **argv) {
  enum { MAX_ARGS = 4 };
  memref args[MAX_ARGS], result;
  const int count = argc - 1;
  if (count < 1 || count > MAX_ARGS) {
    fprintf(stderr, "usage: %s SHAPE... (e.g. 1x34x34x16 3x3x16x32)\n", argv[0]);
    return 2;
  }
  for (int a = 0; a < count; ++a) {
    int64_t sizes[MAX_RANK], rank = 0, elems = 1;
    for (char *p = argv[a + 1]; *p && rank < MAX_RANK; ++rank) {
      sizes[rank] = strtoll(p, &p, 10);
      elems *= sizes[rank];
      if (*p == 'x') ++p;
    }
    float *data = malloc(sizeof(float) * (size_t)elems);
    for (int64_t i = 0; i < elems; ++i) data[i] = (float)((i * 7 + a) % 11 - 5) / 4.0f;
    memref *m = &args[a];
    memset(m, 0, sizeof *m);
    m->allocated = m->aligned = data;
    int64_t stride = 1;
    for (int64_t d = rank - 1; d >= 0; --d) {
      m->dims[d] = sizes[d];
      m->dims[rank + d] = stride;
      stride *= sizes[d];
    }
  }
  /* COUNT_MODEL_WARM_UP=1: one call before the counted one, for what a model does once
   * (packing its constant weights) and then never again. */
  const char *warm_up = getenv("COUNT_MODEL_WARM_UP");
  for (int call = warm_up != NULL && strcmp(warm_up, "1") == 0 ? 0 : 1; call < 2; ++call) {
    if (call == 1) REGION_OPEN();
    switch (count) {
    case 1: ((void (*)(memref *, memref *))ENTRY)(&result, &args[0]); break;
    case 2: ((void (*)(memref *, memref *, memref *))ENTRY)(&result, &args[0], &args[1]); break;
    case 3: ((void (*)(memref *, memref *, memref *, memref *))ENTRY)(&result, &args[0], &args[1], &args[2]); break;
    default: ((void (*)(memref *, memref *, memref *, memref *, memref *))ENTRY)(&result, &args[0], &args[1], &args[2], &args[3]);
    }
    if (call == 1) REGION_CLOSE();
  }
  printf("result[0] = %g\n", (double)result.aligned[result.offset]);
  return 0;
}
