/* SPDX-License-Identifier: Apache-2.0 */
/* The matmul entry points: the flags read (flags.h), the arguments checked, empty
 * problems done, then the call planned (driver/plan.h) and run as planned. The driver and
 * the kernels see only validated, non-empty problems. */
#include "api/entry.h"

/* The plan again without dot blocks, which could not have their copy of B: out of line,
 * for a path that runs only when memory runs out. */
static __attribute__((noinline)) void run_without_dot_blocks(mips_matmul_problem *p,
                                                             mips_dtype type,
                                                             const mips_kernel_set *set,
                                                             int threads) {
  const mips_plan plan = mips_plan_matmul(p, type, set, threads, MIPS_PLAN_NO_DOT_BLOCKS);
  mips_run_plan(&plan, p, type);
}

/* Handles empty problems and runs the rest of a validated call as planned. */
static inline __attribute__((always_inline)) void run_checked(
    int64_t m, int64_t n, int64_t k, mips_operand a, mips_operand b, mips_operand c,
    mips_call_flags flags, size_t ab_size, size_t c_size, mips_dtype type) {
  char *c00;
  if (mips_finish_if_empty(m, n, k, flags, &c, c_size, type, &c00)) return;
  drop_unit_extent_strides(&a);
  drop_unit_extent_strides(&b);
  mips_matmul_problem p = {
      .m = m, .n = n, .k = k,
      .a = (const char *)a.base + (ptrdiff_t)a.offset * (ptrdiff_t)ab_size,
      .a_stride0 = a.stride0, .a_stride1 = a.stride1,
      .b = (const char *)b.base + (ptrdiff_t)b.offset * (ptrdiff_t)ab_size,
      .b_stride0 = b.stride0, .b_stride1 = b.stride1,
      .c = c00, .c_stride0 = c.stride0, .c_stride1 = c.stride1,
      .accumulate = mips_flags_accumulate(flags), .any_order = mips_flags_any_order(flags),
  };
  const mips_kernel_set *set = mips_selected_kernels();
  const int threads = mips_call_threads(m, n, k, flags);
  const mips_plan plan = mips_plan_matmul(&p, type, set, threads, 0);
  if (!mips_run_plan(&plan, &p, type)) run_without_dot_blocks(&p, type, set, threads);
}

/* Whether a call may be one of the smallest (below): m in [2, 15], n in [2, 4] (what every
 * kernel set's tiny tile has at its smallest VLEN), k in [1, 15]. */
static inline bool tiny_shape(int64_t m, int64_t n, int64_t k) {
  /* Unsigned: the sizes are not validated yet (INT64_MIN - 2 would overflow). */
  return (uint64_t)n - 2 <= MIPS_TINY_MAX_COLS - 2 && (uint64_t)m - 2 <= 13 &&
         (uint64_t)k - 1 <= 14;
}

/* The smallest calls: m in [2, 15], n in [2, 4], k in [1, 15] (too small to split across
 * threads, or for dot products, whatever the flags allow), small strides, C's rows apart
 * and not transposed, A and B read in place by one tile. These are checked and run as the
 * general path would run them (one tile on the operands, see mips_gemm_run), without
 * building its problem, whose set-up costs more than the product: the entry point jumps
 * to the tile with the operands in registers (f32 4x4x4 at VLEN 256, mips-bench: 492
 * instructions through the general path, 280 with a mips_tile_args built here, 239).
 * Returns the kernel set's tiny tiles for the call (by row count: the caller jumps to one,
 * see MIPS_DEFINE_MATMUL), or NULL for every other call. */
static inline __attribute__((always_inline)) const mips_tiny_fn *tiny_tiles(
    int64_t n, int64_t k, const void *a, int64_t a_offset, int64_t a_stride0,
    int64_t a_stride1, const void *b, int64_t b_offset, int64_t b_stride0, int64_t b_stride1,
    void *c, int64_t c_offset, int64_t c_stride0, int64_t c_stride1, mips_call_flags flags,
    mips_dtype type) {
  if (!mips_flags_known(flags) || a == NULL || b == NULL || c == NULL) return NULL;
  /* Offsets and strides below 2^23: no index overflows (as all_small). B's and C's
   * column strides must be 1 (below). */
  const uint64_t bias = 1u << 23;
  if ((((uint64_t)a_offset + bias) | ((uint64_t)a_stride0 + bias) | ((uint64_t)a_stride1 + bias) |
       ((uint64_t)b_offset + bias) | ((uint64_t)b_stride0 + bias) |
       ((uint64_t)c_offset + bias) | ((uint64_t)c_stride0 + bias)) >> 24 != 0)
    return NULL;
  /* C row-major and plainly without self-overlap (rows apart, in increasing address; the
   * rest is left to the general path); B's rows unit-stride; A either way. With k = 1 the
   * tile reads no k stride (the general path drops them), so they need not be 0. */
  if (c_stride1 != 1 || c_stride0 < n || b_stride1 != 1 || (a_stride0 != 1 && a_stride1 != 1))
    return NULL;
  const mips_kernel_set *set =
      atomic_load_explicit(&mips_selected_kernel_set, memory_order_acquire);
  if (set == NULL) return NULL;
  const mips_tiny_fn *by_rows = set->tiny_by_rows[type];
  return k < set->row_dot_min_k ? by_rows : NULL;
}

/* Small dense calls: m and n in [2, 127], k in [1, 127] (one thread), small offsets and
 * strides, C's rows apart and not transposed. They are checked as validate() checks them
 * and planned as run_checked() plans them (MIPS_PLAN_SMALL: the plan's choices in its
 * order, except that they keep their orientation, which the test for the other one would
 * cost i8 16x16x16 two instructions, its eff of 0.50 at VLEN 256; a few that would gain,
 * such as 120x9x120 with A column-major, lose that), without the general path's
 * operands, whose set-up costs a tenth of a 16x16x16 product (117 instructions). Only the
 * tiles run here: the calls planned for dot products go on to the general path, as they
 * always have. Returns false, having done nothing, for every call it does not run. */
static inline __attribute__((always_inline)) bool run_small(
    int64_t m, int64_t n, int64_t k, const void *a, int64_t a_offset, int64_t a_stride0,
    int64_t a_stride1, const void *b, int64_t b_offset, int64_t b_stride0, int64_t b_stride1,
    void *c, int64_t c_offset, int64_t c_stride0, int64_t c_stride1, mips_call_flags flags,
    size_t ab_size, size_t c_size, mips_dtype type) {
  /* Left to the general path first of all (whether column blocks do take them depends
   * on the kernel set, the VLEN and B's strides). */
  if (mips_column_blocks_might_take(type, m, n, k, a_stride1, b_stride0)) return false;
  if ((uint64_t)m - 2 > 125 || (uint64_t)n - 2 > 125 || (uint64_t)k - 1 > 126 ||
      !mips_flags_known(flags) || a == NULL || b == NULL || c == NULL)
    return false;
  /* Offsets and strides in [-2^23, 2^23): every index fits (validate's all_small, which
   * also needs 64-bit byte offsets). */
  const uint64_t bias = 1u << 23;
  if (sizeof(ptrdiff_t) < sizeof(int64_t) ||
      (((uint64_t)a_offset + bias) | ((uint64_t)a_stride0 + bias) | ((uint64_t)a_stride1 + bias) |
       ((uint64_t)b_offset + bias) | ((uint64_t)b_stride0 + bias) | ((uint64_t)b_stride1 + bias) |
       ((uint64_t)c_offset + bias) | ((uint64_t)c_stride0 + bias)) >> 24 != 0)
    return false;
  /* C's rows plainly apart (no self-overlap) and along its columns (no transposition). */
  if (c_stride1 != 1 || mips_magnitude(c_stride0) < (uint64_t)n) return false;
  const mips_kernel_set *set =
      atomic_load_explicit(&mips_selected_kernel_set, memory_order_acquire);
  if (set == NULL) return false;
  /* k = 1: the k strides are dropped, as drop_unit_extent_strides does. Field by field:
   * an initializer would also zero the padding (seven stores). */
  mips_matmul_problem p;
  p.m = m, p.n = n, p.k = k;
  p.a = (const char *)a + (ptrdiff_t)a_offset * (ptrdiff_t)ab_size;
  p.a_stride0 = a_stride0, p.a_stride1 = k > 1 ? a_stride1 : 0;
  p.b = (const char *)b + (ptrdiff_t)b_offset * (ptrdiff_t)ab_size;
  p.b_stride0 = k > 1 ? b_stride0 : 0, p.b_stride1 = b_stride1;
  p.c = (char *)c + (ptrdiff_t)c_offset * (ptrdiff_t)c_size;
  p.c_stride0 = c_stride0, p.c_stride1 = 1;
  p.accumulate = mips_flags_accumulate(flags), p.any_order = mips_flags_any_order(flags);
  p.b_panel_stride = 0;
  const mips_plan plan = mips_plan_matmul(&p, type, set, 1, MIPS_PLAN_SMALL);
  if (plan.family != MIPS_RUN_TILES) return false;
  return mips_run_serial(&plan, &p, type);
}

/* A batch's entry runs as the plain call of its views would, the smallest ones too
 * (4 heads of i8 64x64x64 in one call at VLEN 1024 cost 2.6 % more than 4 calls). */
void mips_matmul_run_checked(int64_t m, int64_t n, int64_t k, const mips_operand *a,
                             const mips_operand *b, const mips_operand *c, mips_call_flags flags,
                             size_t ab_size, size_t c_size, mips_dtype type) {
  if (run_small(m, n, k, a->base, a->offset, a->stride0, a->stride1, b->base, b->offset,
                b->stride0, b->stride1, (void *)c->base, c->offset, c->stride0, c->stride1,
                flags, ab_size, c_size, type))
    return;
  run_checked(m, n, k, *a, *b, *c, flags, ab_size, c_size, type);
}

/* Validates, then runs. */
static inline __attribute__((always_inline)) int run_matmul(
    int64_t m, int64_t n, int64_t k, mips_operand a, mips_operand b, mips_operand c,
    mips_call_flags flags, size_t ab_size, size_t c_size, mips_dtype type) {
  const int status = validate(m, n, k, &a, &b, &c, flags, ab_size, c_size);
  if (status == MIPS_OK) run_checked(m, n, k, a, b, c, flags, ab_size, c_size, type);
  return status;
}

/* The entry point of one element type, and every call but the smallest in a function of
 * its own (the same arguments), so that the entry point's short path saves no more
 * registers than it uses. The smallest calls run in the entry point itself, so that their
 * operands are read where the caller left them (the general path's call copies its
 * eight stack arguments). */
#define MIPS_DEFINE_MATMUL(TYPE, A_T, C_T, DTYPE)                                             \
  static __attribute__((noinline)) int matmul_##TYPE##_general(                               \
      int64_t m, int64_t n, int64_t k, const A_T *a, int64_t a_offset, int64_t a_stride0,     \
      int64_t a_stride1, const A_T *b, int64_t b_offset, int64_t b_stride0,                   \
      int64_t b_stride1, C_T *c, int64_t c_offset, int64_t c_stride0, int64_t c_stride1,      \
      mips_call_flags flags) {                                                                \
    if (run_small(m, n, k, a, a_offset, a_stride0, a_stride1, b, b_offset, b_stride0,         \
                  b_stride1, c, c_offset, c_stride0, c_stride1, flags, sizeof(A_T),           \
                  sizeof(C_T), DTYPE))                                                        \
      return MIPS_OK;                                                                         \
    return run_matmul(m, n, k, (mips_operand){a, a_offset, a_stride0, a_stride1, m, k, 1, 0}, \
                      (mips_operand){b, b_offset, b_stride0, b_stride1, k, n, 1, 0},          \
                      (mips_operand){c, c_offset, c_stride0, c_stride1, m, n, 1, 0}, flags,   \
                      sizeof(A_T), sizeof(C_T), DTYPE);                                       \
  }                                                                                           \
                                                                                              \
  int mips_matmul_##TYPE(int64_t m, int64_t n, int64_t k, const A_T *a, int64_t a_offset,     \
                         int64_t a_stride0, int64_t a_stride1, const A_T *b, int64_t b_offset, \
                         int64_t b_stride0, int64_t b_stride1, C_T *c, int64_t c_offset,      \
                         int64_t c_stride0, int64_t c_stride1, uint32_t flags) {              \
    const mips_tiny_fn *tiny =                                                                \
        tiny_shape(m, n, k) ? tiny_tiles(n, k, a, a_offset, a_stride0, a_stride1, b, b_offset, \
                                         b_stride0, b_stride1, c, c_offset, c_stride0,        \
                                         c_stride1, flags, DTYPE)                             \
                            : NULL;                                                           \
    if (tiny != NULL) /* a jump, with the operands in registers */                            \
      return tiny[m](a + a_offset, a_stride0, a_stride1, b + b_offset, b_stride0,             \
                     c + c_offset, c_stride0,                                                 \
                     (uint64_t)n | (uint64_t)k << 8 |                                         \
                         (uint64_t)mips_flags_accumulate(flags) << 16);                       \
    return matmul_##TYPE##_general(m, n, k, a, a_offset, a_stride0, a_stride1, b, b_offset,   \
                                   b_stride0, b_stride1, c, c_offset, c_stride0, c_stride1,   \
                                   flags);                                                    \
  }

MIPS_DEFINE_MATMUL(f32, float, float, MIPS_DTYPE_F32)
MIPS_DEFINE_MATMUL(i8i32, int8_t, int32_t, MIPS_DTYPE_I8I32)
#undef MIPS_DEFINE_MATMUL

