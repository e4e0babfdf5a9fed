/* SPDX-License-Identifier: Apache-2.0 */
/* Picks the kernel set once per process. Candidates are listed from the portable
 * fallback to the best; the last one the CPU supports wins unless MIPS_KERNEL names
 * another. The only global state in the library is the result, set under
 * pthread_once and published with release order, so that every later call reads it
 * with one acquire load, the CPU features tiles need, also detected once, and a limit
 * on them that only tests set. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mips/mips.h"
#include "dispatch.h"
#include "threading/threading.h"

#if defined(MIPS_HAVE_RVV_KERNELS)
#include <sys/auxv.h>

static bool cpu_has_rvv(void) {
  /* Linux reports single-letter extensions as HWCAP bits, 'A' at bit 0. */
  return (getauxval(AT_HWCAP) & (1ul << ('V' - 'A'))) != 0;
}
#endif

static bool always_available(void) { return true; }

/* The features mips_cpu_has reports, detected once. */
static pthread_once_t features_once = PTHREAD_ONCE_INIT;
static unsigned cpu_features;
static atomic_uint feature_limit = ~0u; /* tests narrow it */

static void detect_features(void) {
  unsigned found = 0;
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
    found |= MIPS_CPU_X86_AVX2_FMA;
  if (__builtin_cpu_supports("avx512f")) found |= MIPS_CPU_X86_AVX512F;
  if (__builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl"))
    found |= MIPS_CPU_X86_AVX512BW_VL;
  if (__builtin_cpu_supports("avx512vnni")) found |= MIPS_CPU_X86_AVX512_VNNI;
#endif
  cpu_features = found;
}

bool mips_cpu_has(unsigned features) {
  pthread_once(&features_once, detect_features);
  const unsigned limit = atomic_load_explicit(&feature_limit, memory_order_relaxed);
  return (cpu_features & limit & features) == features;
}

void mips_cpu_features_limit(unsigned mask) {
  atomic_store_explicit(&feature_limit, mask, memory_order_relaxed);
}

typedef struct mips_kernel_candidate {
  const mips_kernel_set *set;
  bool (*available)(void);
} mips_kernel_candidate;

static const mips_kernel_candidate kernel_candidates[] = {
    {&mips_kernels_scalar, always_available},
#if defined(MIPS_HAVE_RVV_KERNELS)
    {&mips_kernels_rvv, cpu_has_rvv},
#endif
#if defined(MIPS_HAVE_X86_KERNELS)
    {&mips_kernels_x86, always_available}, /* SSE2 is x86-64's baseline */
#endif
};

#define MIPS_CANDIDATE_COUNT (sizeof kernel_candidates / sizeof kernel_candidates[0])

_Atomic(const mips_kernel_set *) mips_selected_kernel_set;
static pthread_once_t selection_once = PTHREAD_ONCE_INIT;

static const mips_kernel_set *best_available(void) {
  for (size_t i = MIPS_CANDIDATE_COUNT; i-- > 0;)
    if (kernel_candidates[i].available()) return kernel_candidates[i].set;
  return &mips_kernels_scalar;
}

/* Honours MIPS_KERNEL=<name>|auto. A name this build does not have, or whose CPU
 * feature is missing, is refused with one warning: running it could trap. */
/* MIPS_VERBOSE=1: one line on stderr saying what this process runs and why. */
static void report_choice(const mips_kernel_set *choice, const char *why) {
  const char *verbose = getenv("MIPS_VERBOSE");
  if (verbose == NULL || strcmp(verbose, "1") != 0) return;
  char vlen[48] = "";
  if (choice->vector_bits != NULL)
    snprintf(vlen, sizeof vlen, ", VLEN %u", choice->vector_bits());
  fprintf(stderr, "libmips %s: kernel set %s (%s)%s; up to %d threads (%s)\n",
          mips_version_string(), choice->name, why, vlen, mips_threads_default(),
          mips_threading_backend);
}

static void select_kernels(void) {
  const mips_kernel_set *choice = best_available();
#if defined(MIPS_HAVE_RVV_KERNELS)
  const char *why = choice == &mips_kernels_scalar
                        ? "the best this CPU supports: no vector extension in AT_HWCAP"
                        : "the best this CPU supports, from AT_HWCAP";
#elif defined(MIPS_HAVE_X86_KERNELS)
  const char *why = "the best of this build, its tiles picked by CPU features";
#else
  const char *why = "the only kernel set of this build";
#endif
  const char *request = getenv("MIPS_KERNEL");
  if (request != NULL && request[0] != '\0' && strcmp(request, "auto") != 0) {
    const mips_kernel_candidate *named = NULL;
    for (size_t i = 0; i < MIPS_CANDIDATE_COUNT; ++i)
      if (strcmp(kernel_candidates[i].set->name, request) == 0) named = &kernel_candidates[i];
    if (named == NULL) {
      fprintf(stderr,
              "libmips: MIPS_KERNEL=%s refused: this build has no such kernel; using %s\n",
              request, choice->name);
      why = "MIPS_KERNEL named no kernel set of this build";
    } else if (!named->available()) {
      fprintf(stderr,
              "libmips: MIPS_KERNEL=%s refused: this CPU lacks the required extension; "
              "using %s\n",
              request, choice->name);
      why = "MIPS_KERNEL asked for one this CPU cannot run";
    } else {
      choice = named->set;
      why = "MIPS_KERNEL";
    }
  }
  report_choice(choice, why);
  atomic_store_explicit(&mips_selected_kernel_set, choice, memory_order_release);
}

const mips_kernel_set *mips_selected_kernels(void) {
  const mips_kernel_set *set = atomic_load_explicit(&mips_selected_kernel_set, memory_order_acquire);
  if (set != NULL) return set;
  pthread_once(&selection_once, select_kernels);
  return atomic_load_explicit(&mips_selected_kernel_set, memory_order_acquire);
}
