/* SPDX-License-Identifier: Apache-2.0 */
/* A torchvision network as PyTorch exports it (bench/models/<NET>.mlir, written by
 * bench/models/torchvision_nets.py), compiled by mips-compile, against the same network
 * lowered by upstream MLIR alone (<NET>_reference): the 1000 logits must agree to float
 * rounding. Built once per network with -DNET=<function> -DPARAMS=<parameter count>
 * -DWEIGHT_RANGE=<width of the weights' uniform range> -DHEADER="<NET>.h"; or, for a
 * network whose weights are constants of the module (--weights constants, as a frozen
 * model exports them), with -DNET=<function> -DFROZEN -DHEADER="<NET>.h": then it is
 * called twice, since the first call may pack the weights and later calls reuse them. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include HEADER

#define CONCAT_(a, b) a##b
#define CONCAT(a, b) CONCAT_(a, b)
#define STRING_(x) #x
#define STRING(x) STRING_(x)
#define ENTRY CONCAT(_mlir_ciface_, NET)
#define REFERENCE CONCAT(CONCAT(_mlir_ciface_, NET), _reference)

enum { CLASSES = 1000 };

/* The reference's C interface: the same descriptors. */
#ifdef FROZEN
void REFERENCE(mips_memref_f32_2d *result, mips_memref_f32_4d *x);
#else
void REFERENCE(mips_memref_f32_2d *result, mips_memref_f32_4d *x, mips_memref_f32_1d *params);
#endif

/* The upstream object's copies call MLIR's runner library, which has no riscv64 build
 * here; mips-compile objects bring their own memrefCopy (this one is weak). */
typedef struct {
  int64_t rank;
  void *descriptor;
} unranked_memref;
static void copy_dim(int64_t size, int64_t rank, int64_t d, const int64_t *sizes,
                     const int64_t *from_strides, const int64_t *to_strides, const char *from,
                     char *to) {
  for (int64_t i = 0; i < sizes[d]; ++i) {
    const char *s = from + i * from_strides[d] * size;
    char *t = to + i * to_strides[d] * size;
    if (d + 1 == rank) memcpy(t, s, (size_t)size);
    else copy_dim(size, rank, d + 1, sizes, from_strides, to_strides, s, t);
  }
}
__attribute__((weak)) void memrefCopy(int64_t size, unranked_memref *src, unranked_memref *dst) {
  const int64_t rank = src->rank;
  char **s = src->descriptor, **t = dst->descriptor;
  const int64_t *sm = (const int64_t *)(s + 2), *tm = (const int64_t *)(t + 2);
  const char *from = s[1] + sm[0] * size;
  char *to = t[1] + tm[0] * size;
  if (rank == 0) memcpy(to, from, (size_t)size);
  else copy_dim(size, rank, 0, sm + 1, sm + 1 + rank, tm + 1 + rank, from, to);
}

/* The largest logit's magnitude. */
static double largest_logit(const mips_memref_f32_2d *x) {
  double largest = 0;
  for (int k = 0; k < CLASSES; ++k)
    largest = fmax(largest, fabs((double)x->aligned[x->offset + k * x->strides[1]]));
  return largest;
}

/* The largest difference between two results' logits. */
static double largest_difference(const mips_memref_f32_2d *x, const mips_memref_f32_2d *y) {
  double worst = 0;
  for (int k = 0; k < CLASSES; ++k)
    worst = fmax(worst, fabs((double)x->aligned[x->offset + k * x->strides[1]] -
                             y->aligned[y->offset + k * y->strides[1]]));
  return worst;
}

/* Whether `got`'s logits equal `want`'s to float rounding. */
static int compare(const char *call, const mips_memref_f32_2d *got, const mips_memref_f32_2d *want) {
  const double largest = largest_logit(want);
  double worst = 0;
  int worst_at = 0;
  for (int k = 0; k < CLASSES; ++k) {
    const double w = want->aligned[want->offset + k * want->strides[1]];
    const double g = got->aligned[got->offset + k * got->strides[1]];
    const double difference = isnan(g) || isnan(w) ? INFINITY : fabs(g - w);
    if (difference > worst) worst = difference, worst_at = k;
  }
  /* Sums of up to 4608 products per layer, in other orders and with fused
   * multiply-adds: a few ulps of the largest logit, far below any real difference. */
  const int ok = largest > 0 && worst <= 1e-4 * largest;
  printf("%s%s: kernel %s, largest logit %g, largest difference %g at %d: %s\n", STRING(NET),
         call, mipsrt_kernel_name(), largest, worst, worst_at, ok ? "ok" : "FAILED");
  return ok;
}

int main(void) {
  float *image = malloc(sizeof(float) * 3 * 32 * 32), *other = malloc(sizeof(float) * 3 * 32 * 32);
  if (!image || !other) return 2;
  for (int i = 0; i < 3 * 32 * 32; ++i) {
    image[i] = (float)((i * 7) % 11 - 5) / 4.0f;
    other[i] = (float)((i * 5) % 13 - 6) / 4.0f;
  }
  mips_memref_f32_4d x = {image, image, 0, {1, 3, 32, 32}, {3072, 1024, 32, 1}};
  mips_memref_f32_4d y = {other, other, 0, {1, 3, 32, 32}, {3072, 1024, 32, 1}};
  mips_memref_f32_2d got, want, want_other;
#ifdef FROZEN
  REFERENCE(&want, &x);
  REFERENCE(&want_other, &y);
  int ok = 1;
  for (int call = 1; call <= 2; ++call) {
    ENTRY(&got, &x);
    ok &= compare(call == 1 ? " (first call)" : " (second call)", &got, &want);
    free(got.allocated);
  }
#else
  float *params = malloc(sizeof(float) * PARAMS);
  if (!params) return 2;
  uint32_t state = 12345;
  for (int64_t i = 0; i < PARAMS; ++i) {
    state = state * 1664525u + 1013904223u;
    params[i] = ((float)(state >> 8) / 16777216.0f - 0.5f) * WEIGHT_RANGE;
  }
  mips_memref_f32_1d p = {params, params, 0, {PARAMS}, {1}};
  ENTRY(&got, &x, &p);
  REFERENCE(&want, &x, &p);
  REFERENCE(&want_other, &y, &p);
  int ok = compare("", &got, &want);
  free(got.allocated);
  free(params);
#endif
  /* The check can fail only if the image reaches the logits through every layer: a
   * different image must move them far more than the tolerance. */
  const double largest = largest_logit(&want);
  const double moved = largest_difference(&want, &want_other);
  printf("%s: another image moves the logits by %g (%.2g of the largest)\n", STRING(NET), moved,
         moved / largest);
  if (!(moved > 1e-2 * largest)) {
    printf("%s: FAILED: the image barely reaches the logits; the check could not fail\n",
           STRING(NET));
    ok = 0;
  }
  free(want.allocated);
  free(want_other.allocated);
  free(image);
  free(other);
  return ok ? 0 : 1;
}
