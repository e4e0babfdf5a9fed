/* SPDX-License-Identifier: Apache-2.0 */
/* A libmips that does no work (same soname and symbol versions): counting a model
 * against it leaves what runs outside libmips. Only what mips-compile objects call. */
#include <stdint.h>
uint32_t mips_abi_version(void) { return (1u << 16) | 2u; }
const char *mips_kernel_name(void) { return "null"; }
const char *mips_version_string(void) { return "1.2.0"; }
const char *mips_status_string(int s) { (void)s; return "ok"; }
int mips_matmul_f32(int64_t m, int64_t n, int64_t k, const float *a, int64_t ao, int64_t a0, int64_t a1,
                    const float *b, int64_t bo, int64_t b0, int64_t b1, float *c, int64_t co, int64_t c0,
                    int64_t c1, uint32_t flags) {
  (void)m; (void)n; (void)k; (void)a; (void)ao; (void)a0; (void)a1; (void)b; (void)bo; (void)b0; (void)b1;
  (void)c; (void)co; (void)c0; (void)c1; (void)flags; return 0;
}
/* 1.2's packed calls, for objects compiled with --mips-pack-constant-weights. */
typedef struct mips_packed_b mips_packed_b;
static char null_handle;
int mips_pack_b_f32(int64_t k, int64_t n, const float *b, int64_t o, int64_t s0, int64_t s1,
                    mips_packed_b **packed) {
  (void)k; (void)n; (void)b; (void)o; (void)s0; (void)s1;
  *packed = (mips_packed_b *)(void *)&null_handle;
  return 0;
}
void mips_packed_b_free(mips_packed_b *packed) { (void)packed; }
int mips_matmul_packed_f32(int64_t m, const float *a, int64_t ao, int64_t a0, int64_t a1,
                           const mips_packed_b *b, float *c, int64_t co, int64_t c0, int64_t c1,
                           uint32_t flags) {
  (void)m; (void)a; (void)ao; (void)a0; (void)a1; (void)b; (void)c; (void)co; (void)c0; (void)c1;
  (void)flags; return 0;
}
/* 1.2's batched calls, for objects compiled with --mips-batched-calls. */
int mips_matmul_batch_f32(int64_t batch, int64_t m, int64_t n, int64_t k, const float *a, int64_t ao,
                          int64_t ab, int64_t a0, int64_t a1, const float *b, int64_t bo, int64_t bb,
                          int64_t b0, int64_t b1, float *c, int64_t co, int64_t cb, int64_t c0,
                          int64_t c1, uint32_t flags) {
  (void)batch; (void)m; (void)n; (void)k; (void)a; (void)ao; (void)ab; (void)a0; (void)a1; (void)b;
  (void)bo; (void)bb; (void)b0; (void)b1; (void)c; (void)co; (void)cb; (void)c0; (void)c1;
  (void)flags; return 0;
}
