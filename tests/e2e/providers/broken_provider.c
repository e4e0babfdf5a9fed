/* SPDX-License-Identifier: Apache-2.0 */
/* Kernel providers that are wrong on purpose, one per BROKEN_* define, to test how
 * compiled programs fail: a newer ABI major, an older minor (1.1, without 1.2's
 * functions), a missing function, a function exported as data, or kernels that return
 * an error status. */
#if defined(BROKEN_DATA_SYMBOL)
#define mips_abi_version mips_abi_version_as_declared /* redefined below as data */
#endif
#include <mips/mips.h>

#if defined(BROKEN_DATA_SYMBOL)
#undef mips_abi_version
const uint32_t mips_abi_version = MIPS_ABI_VERSION;
#else
uint32_t mips_abi_version(void) {
#if defined(BROKEN_ABI_MAJOR)
  return (MIPS_VERSION_MAJOR + 1u) << 16;
#elif defined(BROKEN_OLD_MINOR)
  return 1u << 16 | 1u;
#else
  return MIPS_ABI_VERSION;
#endif
}
#endif
const char *mips_version_string(void) { return "0.0.0-broken"; }
const char *mips_kernel_name(void) { return "broken"; }
const char *mips_status_string(int status) {
  return status == MIPS_ERROR_OVERLAP ? "overlap reported by the broken provider" : "?";
}

int mips_matmul_f32(int64_t m, int64_t n, int64_t k, const float *a, int64_t ao, int64_t as0,
                    int64_t as1, const float *b, int64_t bo, int64_t bs0, int64_t bs1, float *c,
                    int64_t co, int64_t cs0, int64_t cs1, uint32_t flags) {
  (void)m, (void)n, (void)k, (void)a, (void)ao, (void)as0, (void)as1, (void)b, (void)bo;
  (void)bs0, (void)bs1, (void)c, (void)co, (void)cs0, (void)cs1, (void)flags;
  return MIPS_ERROR_OVERLAP;
}

#if !defined(BROKEN_MISSING_SYMBOL)
int mips_matmul_i8i32(int64_t m, int64_t n, int64_t k, const int8_t *a, int64_t ao, int64_t as0,
                      int64_t as1, const int8_t *b, int64_t bo, int64_t bs0, int64_t bs1,
                      int32_t *c, int64_t co, int64_t cs0, int64_t cs1, uint32_t flags) {
  (void)m, (void)n, (void)k, (void)a, (void)ao, (void)as0, (void)as1, (void)b, (void)bo;
  (void)bs0, (void)bs1, (void)c, (void)co, (void)cs0, (void)cs1, (void)flags;
  return MIPS_ERROR_OVERLAP;
}
#endif
