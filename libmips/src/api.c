/* SPDX-License-Identifier: Apache-2.0 */
/* The public entry points: argument checks, empty-problem handling, orientation, then
 * one call into the driver with the selected kernel set's tiles. The driver and the
 * tiles see only validated, non-empty problems. */
#include <stdbool.h>
#include <string.h>

#include "mips_internal.h"
#include "threading/threading.h"

#define MIPS_STRINGIFY_(x) #x
#define MIPS_STRINGIFY(x) MIPS_STRINGIFY_(x)

uint32_t mips_abi_version(void) { return MIPS_ABI_VERSION; }

const char *mips_version_string(void) {
  return MIPS_STRINGIFY(MIPS_VERSION_MAJOR) "." MIPS_STRINGIFY(MIPS_VERSION_MINOR) "." MIPS_STRINGIFY(
      MIPS_VERSION_PATCH);
}

const char *mips_kernel_name(void) { return mips_selected_kernels()->name; }

int mips_default_threads(void) { return mips_threads_default(); }

const char *mips_status_string(int status) {
  switch (status) {
#define MIPS_STATUS_CASE_(name, value, text) \
  case MIPS_##name:                          \
    return text;
    MIPS_STATUS_MAP(MIPS_STATUS_CASE_)
#undef MIPS_STATUS_CASE_
    default:
      return "unknown status";
  }
}

/*------------------------------------------------------------------------------------
 * Validation
 *----------------------------------------------------------------------------------*/

/* One matrix operand as passed across the ABI. */
typedef struct mips_operand {
  const void *base;
  int64_t offset, stride0, stride1;
  int64_t rows, cols; /* extent along stride0 and stride1 */
} mips_operand;

/* Checks that every element index of `op` (rows, cols >= 1), its byte offset, and the
 * byte distance each dimension spans fit in int64_t and ptrdiff_t. The extreme indices
 * are offset plus the negative, respectively the positive, parts of the spans
 * (rows-1)*stride0 and (cols-1)*stride1. Kernels step from element (0, 0) by at most
 * one span per dimension, so none of their address arithmetic can overflow. */
__attribute__((noinline)) static bool operand_indices_fit(const mips_operand *op,
                                                        size_t elem_size) {
  const ptrdiff_t size = (ptrdiff_t)elem_size;
  int64_t lowest = op->offset, highest = op->offset;
  const int64_t extents[2] = {op->rows - 1, op->cols - 1};
  const int64_t strides[2] = {op->stride0, op->stride1};
  for (int d = 0; d < 2; ++d) {
    int64_t span;
    ptrdiff_t span_index, span_bytes;
    if (__builtin_mul_overflow(extents[d], strides[d], &span) ||
        __builtin_add_overflow(span, 0, &span_index) ||
        __builtin_mul_overflow(span_index, size, &span_bytes))
      return false;
    if (__builtin_add_overflow(span < 0 ? lowest : highest, span, span < 0 ? &lowest : &highest))
      return false;
  }
  ptrdiff_t lowest_index, highest_index, byte_offset;
  if (__builtin_add_overflow(lowest, 0, &lowest_index) ||
      __builtin_add_overflow(highest, 0, &highest_index))
    return false;
  return !__builtin_mul_overflow(lowest_index, size, &byte_offset) &&
         !__builtin_mul_overflow(highest_index, size, &byte_offset);
}

/* A dimension of extent 1 never steps, so its stride can be anything the caller
 * liked; make it 0 so that kernels never scale it. */
static void drop_unit_extent_strides(mips_operand *op) {
  if (op->rows == 1) op->stride0 = 0;
  if (op->cols == 1) op->stride1 = 0;
}

static uint64_t magnitude(int64_t v) { return v < 0 ? 0 - (uint64_t)v : (uint64_t)v; }

static uint64_t gcd_u64(uint64_t x, uint64_t y) {
  while (y != 0) {
    const uint64_t t = x % y;
    x = y;
    y = t;
  }
  return x;
}

/* True if two distinct (i, j) in [0,rows) x [0,cols) reach the same element, i.e. if
 * di*stride0 + dj*stride1 = 0 for some (di, dj) != 0 with |di| < rows, |dj| < cols.
 * With both strides nonzero, the smallest such pair is (|s1|/g, |s0|/g), g = gcd. */
__attribute__((noinline)) static bool operand_self_overlaps(const mips_operand *op) {
  const uint64_t s0 = magnitude(op->stride0), s1 = magnitude(op->stride1);
  const uint64_t max_di = (uint64_t)op->rows - 1, max_dj = (uint64_t)op->cols - 1;
  if ((s0 == 0 && max_di > 0) || (s1 == 0 && max_dj > 0)) return true;
  if (s0 == 0 || s1 == 0) return false; /* the zero stride's dimension has extent 1 */
  const uint64_t g = gcd_u64(s0, s1);
  return s1 / g <= max_di && s0 / g <= max_dj;
}

/* The common case, cheaply: when every extent is below 2^24 and every offset and stride
 * in [-2^23, 2^23), no index exceeds 2^24 + 2 * 2^24 * 2^23 < 2^49 in magnitude and no
 * byte offset 2^52, so nothing can overflow and the exact checks can be skipped.
 * x + 2^23 maps [-2^23, 2^23) onto [0, 2^24): one add per value. */
static bool all_small(int64_t m, int64_t n, int64_t k, const mips_operand *a,
                      const mips_operand *b, const mips_operand *c) {
  if (sizeof(ptrdiff_t) < sizeof(int64_t)) return false; /* the bound needs 64-bit bytes */
  const uint64_t bias = 1u << 23;
#define MIPS_BIASED(x) ((uint64_t)(x) + bias)
  const uint64_t bits = (uint64_t)m | (uint64_t)n | (uint64_t)k | MIPS_BIASED(a->offset) |
                        MIPS_BIASED(a->stride0) | MIPS_BIASED(a->stride1) |
                        MIPS_BIASED(b->offset) | MIPS_BIASED(b->stride0) |
                        MIPS_BIASED(b->stride1) | MIPS_BIASED(c->offset) |
                        MIPS_BIASED(c->stride0) | MIPS_BIASED(c->stride1);
#undef MIPS_BIASED
  return bits >> 24 == 0;
}

/* The common case of distinct C elements: one stride is +-1 and the other at least the
 * extent of that dimension (a row- or column-major block). */
static bool plainly_distinct(const mips_operand *op) {
  const uint64_t s0 = magnitude(op->stride0), s1 = magnitude(op->stride1);
  return (s1 == 1 && s0 >= (uint64_t)op->cols) || (s0 == 1 && s1 >= (uint64_t)op->rows);
}

#define MIPS_KNOWN_FLAGS (MIPS_MATMUL_ACCUMULATE | MIPS_MATMUL_ANY_ORDER | MIPS_THREAD_CAP_MASK)

/* Checks, in the documented order, everything about a call except the work itself.
 * `a` and `b` are checked only when read, `c` only when written. */
static inline __attribute__((always_inline)) int validate(
    int64_t m, int64_t n, int64_t k, const mips_operand *a, const mips_operand *b,
                    const mips_operand *c, uint32_t flags, size_t ab_size, size_t c_size) {
  if (m < 0 || n < 0 || k < 0 || (flags & ~MIPS_KNOWN_FLAGS) != 0)
    return MIPS_ERROR_INVALID_ARGUMENT;
  const bool writes_c = m > 0 && n > 0 && (k > 0 || !(flags & MIPS_MATMUL_ACCUMULATE));
  const bool reads_ab = m > 0 && n > 0 && k > 0;
  if ((reads_ab && (a->base == NULL || b->base == NULL)) || (writes_c && c->base == NULL))
    return MIPS_ERROR_NULL_POINTER;
  if (!all_small(m, n, k, a, b, c) &&
      ((reads_ab && (!operand_indices_fit(a, ab_size) || !operand_indices_fit(b, ab_size))) ||
       (writes_c && !operand_indices_fit(c, c_size))))
    return MIPS_ERROR_OVERFLOW;
  if (writes_c && !plainly_distinct(c) && operand_self_overlaps(c)) return MIPS_ERROR_OVERLAP;
  return MIPS_OK;
}

/*------------------------------------------------------------------------------------
 * Entry points
 *----------------------------------------------------------------------------------*/

/* Writes zero to every element of C: the result of k = 0 without accumulation. Steps
 * one dimension at a time, as the kernels do, to stay within the validated spans. */
#define MIPS_ZERO_FILL(NAME, T)                                                 \
  static void NAME(T *c, ptrdiff_t s0, ptrdiff_t s1, int64_t m, int64_t n) {    \
    for (int64_t i = 0; i < m; ++i) {                                           \
      T *row = c + i * s0;                                                      \
      for (int64_t j = 0; j < n; ++j) row[j * s1] = 0;                          \
    }                                                                           \
  }
MIPS_ZERO_FILL(zero_fill_f32, float)
MIPS_ZERO_FILL(zero_fill_i32, int32_t)

/* Kernels vectorise along C's columns. Vectorise along the rows instead (by running
 * C^T = B^T A^T, which swaps the roles and strides of A and B) when C is a single
 * column, or when its rows have the smaller stride and there is more than one row. */
static bool prefer_transposed(int64_t m, int64_t n, ptrdiff_t c_stride0, ptrdiff_t c_stride1) {
  if (m == 1) return false;
  if (n == 1) return true;
  return magnitude(c_stride0) < magnitude(c_stride1);
}

/* Whether the problem has work for two threads: small calls stop here, inline, and
 * never pay for the thread-count lookup. */
static inline bool may_split(int64_t m, int64_t n, int64_t k) {
  /* All three under 128: the work is under 128^3, too little. One OR decides. */
  _Static_assert(2 * MIPS_PARALLEL_MIN_WORK >= (int64_t)128 * 128 * 128, "128^3 must not split");
  if (((uint64_t)m | (uint64_t)n | (uint64_t)k) < 128) return false;
  int64_t work;
  return __builtin_mul_overflow(m, n, &work) || __builtin_mul_overflow(work, k, &work) ||
         work >= 2 * MIPS_PARALLEL_MIN_WORK;
}

/* The dot-product kernel for a few rows of C whose B columns run along k, unit-stride
 * like A's rows (a decode step against weights stored n x k, or a matrix-vector product
 * after orientation), or NULL. The tiles would read B across its columns, one element at
 * a time, or pack it on every call. f32 needs MIPS_MATMUL_ANY_ORDER: a dot product does
 * not sum in ascending order. */
static mips_row_dot_fn row_dot_for(const mips_matmul_problem *p, mips_dtype type,
                                   const mips_kernel_set *set) {
  const mips_row_dot_fn fn = type == MIPS_DTYPE_I8I32                ? set->i8i32_row_dot
                             : (p->flags & MIPS_MATMUL_ANY_ORDER) != 0 ? set->f32_row_dot
                                                                       : NULL;
  const bool fits = p->m <= set->row_dot_max_rows && p->k >= set->row_dot_min_k &&
                    p->a_stride1 == 1 && p->b_stride0 == 1;
  return fits ? fn : NULL;
}

/* Validates, handles empty problems, and runs the picked kernel on the rest. */
static inline __attribute__((always_inline)) int run_matmul(
    int64_t m, int64_t n, int64_t k, mips_operand a, mips_operand b,
                      mips_operand c, uint32_t flags, size_t ab_size, size_t c_size,
                      mips_dtype type) {
  const int status = validate(m, n, k, &a, &b, &c, flags, ab_size, c_size);
  if (status != MIPS_OK || m == 0 || n == 0 || (k == 0 && (flags & MIPS_MATMUL_ACCUMULATE)))
    return status; /* nothing to read or write */
  drop_unit_extent_strides(&c);
  char *c00 = (char *)c.base + (ptrdiff_t)c.offset * (ptrdiff_t)c_size;
  if (k == 0) {
    if (type == MIPS_DTYPE_F32) zero_fill_f32((float *)(void *)c00, c.stride0, c.stride1, m, n);
    else zero_fill_i32((int32_t *)(void *)c00, c.stride0, c.stride1, m, n);
    return MIPS_OK;
  }
  drop_unit_extent_strides(&a);
  drop_unit_extent_strides(&b);
  mips_matmul_problem p = {
      .m = m, .n = n, .k = k,
      .a = (const char *)a.base + (ptrdiff_t)a.offset * (ptrdiff_t)ab_size,
      .a_stride0 = a.stride0, .a_stride1 = a.stride1,
      .b = (const char *)b.base + (ptrdiff_t)b.offset * (ptrdiff_t)ab_size,
      .b_stride0 = b.stride0, .b_stride1 = b.stride1,
      .c = c00, .c_stride0 = c.stride0, .c_stride1 = c.stride1,
      .flags = flags,
  };
  if (prefer_transposed(m, n, p.c_stride0, p.c_stride1)) {
    const mips_matmul_problem t = {
        .m = n, .n = m, .k = k,
        .a = p.b, .a_stride0 = p.b_stride1, .a_stride1 = p.b_stride0,
        .b = p.a, .b_stride0 = p.a_stride1, .b_stride1 = p.a_stride0,
        .c = p.c, .c_stride0 = p.c_stride1, .c_stride1 = p.c_stride0,
        .flags = flags,
    };
    p = t;
  }
  const mips_kernel_set *set = mips_selected_kernels();
  const int threads = may_split(m, n, k) ? mips_threads_for_problem(m, n, k, flags) : 1;
  const mips_row_dot_fn row_dot = row_dot_for(&p, type, set);
  if (row_dot != NULL) {
    if (threads > 1) mips_row_dots_run_parallel(&p, type, row_dot, threads);
    else mips_row_dots_run(&p, type, row_dot);
    return MIPS_OK;
  }
  const mips_tile *const *tiles = type == MIPS_DTYPE_F32 ? set->f32_tiles : set->i8i32_tiles;
  const size_t tile_count = type == MIPS_DTYPE_F32 ? set->f32_tile_count : set->i8i32_tile_count;
  if (threads > 1)
    mips_gemm_run_parallel(&p, type, mips_gemm_choose_tile(tiles, tile_count, p.m, p.n), threads);
  else mips_gemm_run(&p, type, tiles, tile_count);
  return MIPS_OK;
}

int mips_matmul_f32(int64_t m, int64_t n, int64_t k,
                    const float *a, int64_t a_offset, int64_t a_stride0, int64_t a_stride1,
                    const float *b, int64_t b_offset, int64_t b_stride0, int64_t b_stride1,
                    float *c, int64_t c_offset, int64_t c_stride0, int64_t c_stride1,
                    uint32_t flags) {
  return run_matmul(m, n, k, (mips_operand){a, a_offset, a_stride0, a_stride1, m, k},
                    (mips_operand){b, b_offset, b_stride0, b_stride1, k, n},
                    (mips_operand){c, c_offset, c_stride0, c_stride1, m, n}, flags,
                    sizeof(float), sizeof(float), MIPS_DTYPE_F32);
}

int mips_matmul_i8i32(int64_t m, int64_t n, int64_t k,
                      const int8_t *a, int64_t a_offset, int64_t a_stride0, int64_t a_stride1,
                      const int8_t *b, int64_t b_offset, int64_t b_stride0, int64_t b_stride1,
                      int32_t *c, int64_t c_offset, int64_t c_stride0, int64_t c_stride1,
                      uint32_t flags) {
  return run_matmul(m, n, k, (mips_operand){a, a_offset, a_stride0, a_stride1, m, k},
                    (mips_operand){b, b_offset, b_stride0, b_stride1, k, n},
                    (mips_operand){c, c_offset, c_stride0, c_stride1, m, n}, flags,
                    sizeof(int8_t), sizeof(int32_t), MIPS_DTYPE_I8I32);
}

/*------------------------------------------------------------------------------------
 * Pre-packed B (1.2)
 *----------------------------------------------------------------------------------*/

static int pack_b(mips_dtype type, int64_t k, int64_t n, const void *b, int64_t b_offset,
                  int64_t b_stride0, int64_t b_stride1, mips_packed_b **packed) {
  if (packed == NULL) return MIPS_ERROR_NULL_POINTER;
  *packed = NULL;
  if (k < 0 || n < 0) return MIPS_ERROR_INVALID_ARGUMENT;
  const bool reads_b = k > 0 && n > 0;
  if (reads_b && b == NULL) return MIPS_ERROR_NULL_POINTER;
  mips_operand bo = {b, b_offset, b_stride0, b_stride1, k, n};
  const size_t size = type == MIPS_DTYPE_F32 ? sizeof(float) : sizeof(int8_t);
  if (reads_b && !operand_indices_fit(&bo, size)) return MIPS_ERROR_OVERFLOW;
  drop_unit_extent_strides(&bo);
  const void *b00 = reads_b ? (const char *)b + (ptrdiff_t)b_offset * (ptrdiff_t)size : NULL;
  return mips_packed_b_make(type, k, n, b00, bo.stride0, bo.stride1, packed);
}

int mips_pack_b_f32(int64_t k, int64_t n, const float *b, int64_t b_offset, int64_t b_stride0,
                    int64_t b_stride1, mips_packed_b **packed) {
  return pack_b(MIPS_DTYPE_F32, k, n, b, b_offset, b_stride0, b_stride1, packed);
}

int mips_pack_b_i8(int64_t k, int64_t n, const int8_t *b, int64_t b_offset, int64_t b_stride0,
                   int64_t b_stride1, mips_packed_b **packed) {
  return pack_b(MIPS_DTYPE_I8I32, k, n, b, b_offset, b_stride0, b_stride1, packed);
}

void mips_packed_b_free(mips_packed_b *packed) { mips_packed_b_release(packed); }

/* As run_matmul, with B from the handle: the handle's tile runs, and C is never
 * transposed (B's panels run along C's columns). */
static int run_packed(int64_t m, mips_operand a, const mips_packed_b *b, mips_operand c,
                      uint32_t flags, size_t ab_size, size_t c_size, mips_dtype type) {
  if (b == NULL) return MIPS_ERROR_NULL_POINTER;
  if (m < 0 || (flags & ~MIPS_KNOWN_FLAGS) != 0 || !mips_packed_b_is_live(b, type))
    return MIPS_ERROR_INVALID_ARGUMENT;
  const int64_t n = b->n, k = b->k;
  a.rows = m, c.rows = m, c.cols = n, a.cols = k;
  /* B's panels, as an operand that always passes: no strides, no offset. */
  const mips_operand bo = {b->panels != NULL ? b->panels : (const void *)b, 0, 0, 0, k, n};
  const int status = validate(m, n, k, &a, &bo, &c, flags, ab_size, c_size);
  if (status != MIPS_OK || m == 0 || n == 0 || (k == 0 && (flags & MIPS_MATMUL_ACCUMULATE)))
    return status;
  drop_unit_extent_strides(&c);
  char *c00 = (char *)c.base + (ptrdiff_t)c.offset * (ptrdiff_t)c_size;
  if (k == 0) {
    if (type == MIPS_DTYPE_F32) zero_fill_f32((float *)(void *)c00, c.stride0, c.stride1, m, n);
    else zero_fill_i32((int32_t *)(void *)c00, c.stride0, c.stride1, m, n);
    return MIPS_OK;
  }
  drop_unit_extent_strides(&a);
  const mips_matmul_problem p = {
      .m = m, .n = n, .k = k,
      .a = (const char *)a.base + (ptrdiff_t)a.offset * (ptrdiff_t)ab_size,
      .a_stride0 = a.stride0, .a_stride1 = a.stride1,
      .b = b->panels, .b_panel_stride = b->panel_stride,
      .c = c00, .c_stride0 = c.stride0, .c_stride1 = c.stride1,
      .flags = flags,
  };
  const int threads = may_split(m, n, k) ? mips_threads_for_problem(m, n, k, flags) : 1;
  if (threads > 1) mips_gemm_run_parallel(&p, type, b->tile, threads);
  else mips_gemm_run_with_tile(&p, type, b->tile);
  return MIPS_OK;
}

int mips_matmul_packed_f32(int64_t m, const float *a, int64_t a_offset, int64_t a_stride0,
                           int64_t a_stride1, const mips_packed_b *b, float *c, int64_t c_offset,
                           int64_t c_stride0, int64_t c_stride1, uint32_t flags) {
  return run_packed(m, (mips_operand){a, a_offset, a_stride0, a_stride1, 0, 0}, b,
                    (mips_operand){c, c_offset, c_stride0, c_stride1, 0, 0}, flags,
                    sizeof(float), sizeof(float), MIPS_DTYPE_F32);
}

int mips_matmul_packed_i8i32(int64_t m, const int8_t *a, int64_t a_offset, int64_t a_stride0,
                             int64_t a_stride1, const mips_packed_b *b, int32_t *c,
                             int64_t c_offset, int64_t c_stride0, int64_t c_stride1,
                             uint32_t flags) {
  return run_packed(m, (mips_operand){a, a_offset, a_stride0, a_stride1, 0, 0}, b,
                    (mips_operand){c, c_offset, c_stride0, c_stride1, 0, 0}, flags,
                    sizeof(int8_t), sizeof(int32_t), MIPS_DTYPE_I8I32);
}
