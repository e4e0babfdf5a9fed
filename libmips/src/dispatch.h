/* SPDX-License-Identifier: Apache-2.0 */
/* What the CPU has and which kernel set runs: asked once per process, in dispatch.c. */
#ifndef MIPS_SRC_DISPATCH_H
#define MIPS_SRC_DISPATCH_H

#include <stdatomic.h>
#include <stdbool.h>

#include "kernels/kernel_set.h"

/* CPU features that tiles of a kernel set need beyond the set's own baseline. */
typedef enum mips_cpu_feature {
  MIPS_CPU_X86_AVX2_FMA = 1u << 0,
  MIPS_CPU_X86_AVX512F = 1u << 1,
  MIPS_CPU_X86_AVX512BW_VL = 1u << 2,
  MIPS_CPU_X86_AVX512_VNNI = 1u << 3,
} mips_cpu_feature;

/* Whether this CPU has every feature in `features` (a mips_cpu_feature mask). Features
 * are detected once per process, in dispatch.c, the only place that asks the CPU. */
bool mips_cpu_has(unsigned features);
/* For tests only: from now on report at most the features in `mask` (~0u: all), so that
 * the paths for older CPUs run on this one. */
void mips_cpu_features_limit(unsigned mask);

/* The kernel set for this process, chosen once (thread-safe) on first call. */
const mips_kernel_set *mips_selected_kernels(void);
/* The same once chosen, else NULL: read without a call on the smallest calls' path. */
extern _Atomic(const mips_kernel_set *) mips_selected_kernel_set;

#endif /* MIPS_SRC_DISPATCH_H */
