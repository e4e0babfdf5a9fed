/* SPDX-License-Identifier: Apache-2.0 */
/* Pre-packed B (1.2): packing once, then calls that read the handle's panels. */
#include "api/entry.h"

static int pack_b(mips_dtype type, int64_t k, int64_t n, const void *b, int64_t b_offset,
                  int64_t b_stride0, int64_t b_stride1, mips_packed_b **packed) {
  if (packed == NULL) return MIPS_ERROR_NULL_POINTER;
  *packed = NULL;
  if (k < 0 || n < 0) return MIPS_ERROR_INVALID_ARGUMENT;
  const bool reads_b = k > 0 && n > 0;
  if (reads_b && b == NULL) return MIPS_ERROR_NULL_POINTER;
  mips_operand bo = {b, b_offset, b_stride0, b_stride1, k, n, 1, 0};
  const size_t size = mips_dtypes[type].input_size;
  if (reads_b && !mips_operand_indices_fit(&bo, size)) return MIPS_ERROR_OVERFLOW;
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
                      mips_call_flags flags, size_t ab_size, size_t c_size, mips_dtype type) {
  if (b == NULL) return MIPS_ERROR_NULL_POINTER;
  if (m < 0 || !mips_flags_known(flags) || !mips_packed_b_is_live(b, type)) return MIPS_ERROR_INVALID_ARGUMENT;
  const int64_t n = b->n, k = b->k;
  a.rows = m, c.rows = m, c.cols = n, a.cols = k;
  /* B's panels, as an operand that always passes: no strides, no offset. */
  const mips_operand bo = {b->panels != NULL ? b->panels : (const void *)b, 0, 0, 0, k, n, 1, 0};
  const int status = validate(m, n, k, &a, &bo, &c, flags, ab_size, c_size);
  char *c00;
  if (status != MIPS_OK ||
      mips_finish_if_empty(m, n, k, flags, &c, c_size, type, &c00))
    return status;
  drop_unit_extent_strides(&a);
  const mips_matmul_problem p = {
      .m = m, .n = n, .k = k,
      .a = (const char *)a.base + (ptrdiff_t)a.offset * (ptrdiff_t)ab_size,
      .a_stride0 = a.stride0, .a_stride1 = a.stride1,
      .b = b->panels, .b_panel_stride = b->panel_stride,
      .c = c00, .c_stride0 = c.stride0, .c_stride1 = c.stride1,
      .accumulate = mips_flags_accumulate(flags), .any_order = mips_flags_any_order(flags),
  };
  const mips_plan plan = mips_plan_packed(b->tile, mips_call_threads(m, n, k, flags));
  mips_run_plan(&plan, &p, type);
  return MIPS_OK;
}

int mips_matmul_packed_f32(int64_t m, const float *a, int64_t a_offset, int64_t a_stride0,
                           int64_t a_stride1, const mips_packed_b *b, float *c, int64_t c_offset,
                           int64_t c_stride0, int64_t c_stride1, uint32_t flags) {
  return run_packed(m, (mips_operand){a, a_offset, a_stride0, a_stride1, 0, 0, 1, 0}, b,
                    (mips_operand){c, c_offset, c_stride0, c_stride1, 0, 0, 1, 0}, flags,
                    sizeof(float), sizeof(float), MIPS_DTYPE_F32);
}

int mips_matmul_packed_i8i32(int64_t m, const int8_t *a, int64_t a_offset, int64_t a_stride0,
                             int64_t a_stride1, const mips_packed_b *b, int32_t *c,
                             int64_t c_offset, int64_t c_stride0, int64_t c_stride1,
                             uint32_t flags) {
  return run_packed(m, (mips_operand){a, a_offset, a_stride0, a_stride1, 0, 0, 1, 0}, b,
                    (mips_operand){c, c_offset, c_stride0, c_stride1, 0, 0, 1, 0}, flags,
                    sizeof(int8_t), sizeof(int32_t), MIPS_DTYPE_I8I32);
}
