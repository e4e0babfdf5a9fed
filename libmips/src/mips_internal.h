/* Internal contract between the API layer (api.c), the dispatcher (dispatch.c) and the
 * kernels (kernels/<isa>/). Nothing here is exported. */
#ifndef MIPS_SRC_MIPS_INTERNAL_H
#define MIPS_SRC_MIPS_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "mips/mips.h"

/* A validated, non-empty problem: m, n, k >= 1 and every element index in range.
 * a, b and c point at element (0, 0); strides are in elements. When flags lacks
 * MIPS_MATMUL_ACCUMULATE the kernel must not read C. */
typedef struct mips_matmul_problem {
  int64_t m, n, k;
  const void *a;
  ptrdiff_t a_stride0, a_stride1;
  const void *b;
  ptrdiff_t b_stride0, b_stride1;
  void *c;
  ptrdiff_t c_stride0, c_stride1;
  uint32_t flags;
} mips_matmul_problem;

/* Kernels are pure: no globals, no allocation, no feature detection. */
typedef void (*mips_matmul_fn)(const mips_matmul_problem *problem);

/* One implementation of every operation, selected as a whole. */
typedef struct mips_kernel_set {
  const char *name;
  mips_matmul_fn matmul_f32;
  mips_matmul_fn matmul_i8i32;
} mips_kernel_set;

extern const mips_kernel_set mips_kernels_scalar;
#if defined(MIPS_HAVE_RVV_KERNELS)
extern const mips_kernel_set mips_kernels_rvv;
#endif

/* The kernel set for this process, chosen once (thread-safe) on first call. */
const mips_kernel_set *mips_selected_kernels(void);

#endif /* MIPS_SRC_MIPS_INTERNAL_H */
