/* SPDX-License-Identifier: Apache-2.0 */
/* libmips: matrix-multiply kernels for RISC-V behind a stable, versioned C ABI.
 *
 * ABI promise: a program built against MIPS_VERSION_MAJOR N runs with any libmips
 * whose mips_abi_version() has the same major and an equal or greater minor.
 * Released symbols never change; additions arrive in new minor versions.
 * The full contract is abi/ABI.md in the source tree.
 *
 * Every call is self-contained (no global state visible to the caller; the only handle
 * is a pre-packed B, since 1.2, which the caller owns) and every function is safe to
 * call from any number of threads at once. */
#ifndef MIPS_MIPS_H
#define MIPS_MIPS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* MIPS_API marks the exported functions. Override it before including this header
 * to change how they are declared (e.g. to nothing for a custom static build). */
#ifndef MIPS_API
#  if defined(_WIN32)
#    if defined(BUILDING_MIPS_SHARED)
#      define MIPS_API __declspec(dllexport)
#    elif defined(USING_MIPS_SHARED)
#      define MIPS_API __declspec(dllimport)
#    else
#      define MIPS_API
#    endif
#  elif defined(__GNUC__) || defined(__clang__)
#    define MIPS_API __attribute__((visibility("default")))
#  else
#    define MIPS_API
#  endif
#endif

/*------------------------------------------------------------------------------------
 * Versions
 *----------------------------------------------------------------------------------*/
#define MIPS_VERSION_MAJOR 1
#define MIPS_VERSION_MINOR 2
#define MIPS_VERSION_PATCH 0
#define MIPS_ABI_VERSION ((MIPS_VERSION_MAJOR << 16) | MIPS_VERSION_MINOR)

/*! mips_abi_version():
 * @return MIPS_ABI_VERSION of the loaded library, (major << 16) | minor. Compare it
 *         with the MIPS_ABI_VERSION a program was compiled against: the majors must
 *         match and the loaded minor must not be smaller. */
MIPS_API uint32_t mips_abi_version(void);

/*! mips_version_string():
 * @return the library's full version, "MAJOR.MINOR.PATCH" (e.g. "1.0.0"); static storage. */
MIPS_API const char *mips_version_string(void);

/*! mips_kernel_name():
 * Names the kernel set that this process uses: "rvv" (RISC-V Vector 1.0), "x86"
 * (x86-64: SSE2 to AVX-512 tiles, picked by CPU features) or "scalar" (portable C).
 * It is chosen once, on first use, from the CPU's features (AT_HWCAP bit 'V' on
 * riscv64) and the environment variable MIPS_KERNEL (scalar | rvv | x86 | auto). A
 * set this build lacks, or MIPS_KERNEL=rvv on a CPU without V, is refused with a
 * warning on stderr and the automatic choice runs instead.
 * @return a static string, never NULL. */
MIPS_API const char *mips_kernel_name(void);

/*------------------------------------------------------------------------------------
 * Status codes: MIPS_OK is 0; every error is distinct and negative.
 *----------------------------------------------------------------------------------*/
#define MIPS_STATUS_MAP(XX)                                                              \
  XX(OK, 0, "success")                                                                   \
  XX(ERROR_INVALID_ARGUMENT, -1, "invalid argument (negative dimension or unknown flag)") \
  XX(ERROR_NULL_POINTER, -2, "null pointer for a matrix that would be accessed")       \
  XX(ERROR_OVERFLOW, -3, "element index or byte offset overflows int64_t/ptrdiff_t")    \
  XX(ERROR_OVERLAP, -4, "output strides map two elements of C to one address")          \
  XX(ERROR_OUT_OF_MEMORY, -5, "out of memory for a packed matrix")

typedef enum mips_status {
#define MIPS_STATUS_ENUM_(name, value, text) MIPS_##name = (value),
  MIPS_STATUS_MAP(MIPS_STATUS_ENUM_)
#undef MIPS_STATUS_ENUM_
} mips_status;

/*! mips_status_string():
 * @return a static description of `status`; for an unknown value, a generic
 *         "unknown status" text. Never NULL. */
MIPS_API const char *mips_status_string(int status);

/*------------------------------------------------------------------------------------
 * Matrix multiplication
 *
 * C[m x n] = A[m x k] * B[k x n], or C += A * B with MIPS_MATMUL_ACCUMULATE.
 *
 * Each matrix is (base pointer, offset, stride0, stride1), all in elements:
 * element (i, j) of A is a[a_offset + i*a_stride0 + j*a_stride1]; likewise B and C.
 *   row-major A (lda):        a_stride0 = lda, a_stride1 = 1
 *   column-major A (lda):     a_stride0 = 1,   a_stride1 = lda
 *   A^T of a row-major X:     swap X's strides
 * Offsets and strides may be any int64_t, including negative. Strides of A and B may
 * be zero (a broadcast row or column). C's strides must map every (i, j) to its own
 * element. C must not share memory with A or B (not detected).
 *
 * Checks, in this order; on any error nothing is written:
 *   MIPS_ERROR_INVALID_ARGUMENT  m, n or k negative, or a flag bit not defined below
 *   MIPS_ERROR_NULL_POINTER      a NULL base pointer for a matrix that would be accessed
 *   MIPS_ERROR_OVERFLOW          an accessed element's index or byte offset, or the bytes
 *                                a dimension spans, do not fit int64_t/ptrdiff_t
 *   MIPS_ERROR_OVERLAP           two distinct (i, j) of C map to the same element
 * Empty problems are valid: m = 0 or n = 0 does nothing; k = 0 does nothing with
 * MIPS_MATMUL_ACCUMULATE and sets C to zero without it. A and B are accessed only
 * when m, n and k are all positive; C only when m and n are positive and there is
 * something to write.
 *
 * Without MIPS_MATMUL_ACCUMULATE, C is only written, never read (it may hold NaN).
 *
 * Threads (since 1.1): a call may run on up to MIPS_MATMUL_MAX_THREADS(n) threads, or
 * without that flag on up to mips_default_threads(), the calling thread included; small
 * problems run on the calling thread alone. Results do not depend on the thread count.
 * @return MIPS_OK or a negative status code.
 * Thread-safety: safe to call concurrently on disjoint C, from any thread, also from
 * inside a parallel region of the caller's (the call then runs on that thread). */
#define MIPS_MATMUL_ACCUMULATE 1u /* C += A*B; without it C = A*B and C is never read */

/* Since 1.1: use at most n threads for this call, n in 1..255 (0: no cap, the default
 * applies). A program that runs its own threads passes MIPS_MATMUL_MAX_THREADS(1).
 * A 1.0 library rejects these bits with MIPS_ERROR_INVALID_ARGUMENT: check
 * mips_abi_version() >= (1 << 16 | 1) before passing them. */
#define MIPS_MATMUL_MAX_THREADS(n) ((uint32_t)(n) << 8)

/* Since 1.2 (mips_matmul_f32 only; the integer functions accept it and ignore it, their
 * sums are exact in any order): the caller allows any summation order over k (dot
 * products, split sums), which matrix-vector products need to run at full speed. Results
 * may then differ from the ascending order in the last bits, and from call to call when
 * the thread count differs. A 1.1 library rejects it with MIPS_ERROR_INVALID_ARGUMENT. */
#define MIPS_MATMUL_ANY_ORDER 2u

/*! mips_default_threads(): since 1.1. The number of threads a call without
 * MIPS_MATMUL_MAX_THREADS may use: MIPS_NUM_THREADS from the environment if it is a
 * positive integer (read once, on first use; at most 255), else the number of CPUs this
 * process may run on. Always >= 1. */
MIPS_API int mips_default_threads(void);

/*! mips_matmul_f32(): f32 x f32 -> f32. Each C element is accumulated over k in
 * ascending order in f32; kernels may fuse multiply-add, so results can differ
 * between kernels in the last bits (they are exact whenever every partial sum is). */
MIPS_API int mips_matmul_f32(int64_t m, int64_t n, int64_t k,
                             const float *a, int64_t a_offset, int64_t a_stride0, int64_t a_stride1,
                             const float *b, int64_t b_offset, int64_t b_stride0, int64_t b_stride1,
                             float *c, int64_t c_offset, int64_t c_stride0, int64_t c_stride1,
                             uint32_t flags);

/*! mips_matmul_i8i32(): int8 x int8 -> int32, exact. Accumulation is in 32-bit
 * two's complement: a sum beyond the int32 range wraps modulo 2^32, identically in
 * every kernel (without accumulation this needs k >= 131072). */
MIPS_API int mips_matmul_i8i32(int64_t m, int64_t n, int64_t k,
                               const int8_t *a, int64_t a_offset, int64_t a_stride0, int64_t a_stride1,
                               const int8_t *b, int64_t b_offset, int64_t b_stride0, int64_t b_stride1,
                               int32_t *c, int64_t c_offset, int64_t c_stride0, int64_t c_stride1,
                               uint32_t flags);

/*------------------------------------------------------------------------------------
 * Batched calls (since 1.2)
 *
 * `batch` independent products C_e (+)= A_e * B_e, e in [0, batch), entry e of each
 * operand at base[offset + e*batch_stride + i*stride0 + j*stride1]: attention's heads,
 * grouped weights. A zero batch stride broadcasts A or B to every entry. Small entries
 * run side by side on the threads; big ones each use them in turn.
 *
 * Checks, in this order, over the whole batch: batch, m, n or k negative, or an unknown
 * flag (MIPS_ERROR_INVALID_ARGUMENT); a NULL matrix that would be accessed
 * (NULL_POINTER); an index of any entry overflows (OVERFLOW); two distinct (e, i, j) of
 * C reach one element (OVERLAP: C's entries must not overlap each other either). On any
 * error nothing is written. batch = 0 does nothing. Numerics and flags as the plain calls.
 *------------------------------------------------------------------------------------*/
MIPS_API int mips_matmul_batch_f32(int64_t batch, int64_t m, int64_t n, int64_t k,
                                   const float *a, int64_t a_offset, int64_t a_batch_stride,
                                   int64_t a_stride0, int64_t a_stride1,
                                   const float *b, int64_t b_offset, int64_t b_batch_stride,
                                   int64_t b_stride0, int64_t b_stride1,
                                   float *c, int64_t c_offset, int64_t c_batch_stride,
                                   int64_t c_stride0, int64_t c_stride1, uint32_t flags);
MIPS_API int mips_matmul_batch_i8i32(int64_t batch, int64_t m, int64_t n, int64_t k,
                                     const int8_t *a, int64_t a_offset, int64_t a_batch_stride,
                                     int64_t a_stride0, int64_t a_stride1,
                                     const int8_t *b, int64_t b_offset, int64_t b_batch_stride,
                                     int64_t b_stride0, int64_t b_stride1,
                                     int32_t *c, int64_t c_offset, int64_t c_batch_stride,
                                     int64_t c_stride0, int64_t c_stride1, uint32_t flags);

/*------------------------------------------------------------------------------------
 * Pre-packed B (since 1.2)
 *
 * A weight matrix that many calls multiply by (a layer's weights) can be packed once
 * into the layout the kernels read, so that calls skip packing it: the fastest way to
 * run a layer with any m, from one token (m = 1) upwards.
 *
 * The packed layout is chosen for the CPU and kernel set of the process that packs
 * (for RVV, by its VLEN) and never leaves it: a handle is valid only in the process
 * that made it, is read-only after packing, and may be used by any number of threads at
 * once. It holds a copy: B may change or be freed after packing.
 *------------------------------------------------------------------------------------*/
typedef struct mips_packed_b mips_packed_b;

/*! mips_pack_b_f32(), mips_pack_b_i8(): packs B[k x n] (element (l, j) at
 * b[b_offset + l*b_stride0 + j*b_stride1]) into a new handle stored at *packed.
 * Checks, in this order: packed NULL (MIPS_ERROR_NULL_POINTER, nothing stored); k or n
 * negative (MIPS_ERROR_INVALID_ARGUMENT); b NULL while k, n > 0 (NULL_POINTER);
 * indices or the packed size overflow (OVERFLOW); the memory cannot be had
 * (MIPS_ERROR_OUT_OF_MEMORY). On any error *packed is set to NULL. k = 0 or n = 0
 * gives a valid handle of that shape. */
MIPS_API int mips_pack_b_f32(int64_t k, int64_t n, const float *b, int64_t b_offset,
                             int64_t b_stride0, int64_t b_stride1, mips_packed_b **packed);
MIPS_API int mips_pack_b_i8(int64_t k, int64_t n, const int8_t *b, int64_t b_offset,
                            int64_t b_stride0, int64_t b_stride1, mips_packed_b **packed);

/*! mips_packed_b_free(): releases a handle; NULL does nothing. The handle must not be in
 * use by another thread. A freed handle passed to a call is refused while its memory
 * has not been reused (a cleared magic word), but that cannot be guaranteed. */
MIPS_API void mips_packed_b_free(mips_packed_b *packed);

/*! mips_matmul_packed_f32(), mips_matmul_packed_i8i32(): C[m x n] (+)= A[m x k] * B,
 * with k and n those of the packed B. Same views, flags, numerics (ascending k for f32;
 * MIPS_MATMUL_ANY_ORDER is accepted) and threads as mips_matmul_f32 / mips_matmul_i8i32.
 * Checks, in this order: b NULL (MIPS_ERROR_NULL_POINTER); m negative, an unknown flag
 * bit, or b not a live handle of this element type (MIPS_ERROR_INVALID_ARGUMENT); then
 * A and C as in mips_matmul_f32 (NULL_POINTER, OVERFLOW, OVERLAP). */
MIPS_API int mips_matmul_packed_f32(int64_t m, const float *a, int64_t a_offset,
                                    int64_t a_stride0, int64_t a_stride1,
                                    const mips_packed_b *b, float *c, int64_t c_offset,
                                    int64_t c_stride0, int64_t c_stride1, uint32_t flags);
MIPS_API int mips_matmul_packed_i8i32(int64_t m, const int8_t *a, int64_t a_offset,
                                      int64_t a_stride0, int64_t a_stride1,
                                      const mips_packed_b *b, int32_t *c, int64_t c_offset,
                                      int64_t c_stride0, int64_t c_stride1, uint32_t flags);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* MIPS_MIPS_H */
