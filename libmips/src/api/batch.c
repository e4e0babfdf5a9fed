/* SPDX-License-Identifier: Apache-2.0 */
/* Batched calls (1.2): `batch` independent products, entry e at offset + e * batch_stride
 * of each operand, checked as one call (every entry's indices, and C's entries against
 * each other), then run entry by entry: each entry on its own threads when it is big
 * enough to split, else the entries spread over the threads. */
#include "api/entry.h"

/* all_small() over the batch dimension too: with the batch below 2^24 and its strides
 * in [-2^23, 2^23), no index exceeds 2^24 + 3 * 2^24 * 2^23 < 2^50 in magnitude and no
 * byte offset 2^53. */
static bool batch_all_small(int64_t batch, int64_t m, int64_t n, int64_t k, const mips_operand *a,
                            const mips_operand *b, const mips_operand *c) {
  const uint64_t bias = 1u << 23;
  return all_small(m, n, k, a, b, c) &&
         (((uint64_t)batch | ((uint64_t)a->batch_stride + bias) |
           ((uint64_t)b->batch_stride + bias) | ((uint64_t)c->batch_stride + bias)) >>
          24) == 0;
}

/* The usual C of a batch: each entry a plain row- or column-major block, and the entries
 * further apart than one entry spans, so no two (e, i, j) meet (the nested case of
 * mips_operand_batch_self_overlaps, without its general set-up). */
static bool batch_plainly_distinct(const mips_operand *c) {
  const uint64_t span = (uint64_t)(c->rows - 1) * mips_magnitude(c->stride0) +
                        (uint64_t)(c->cols - 1) * mips_magnitude(c->stride1);
  return plainly_distinct(c) && mips_magnitude(c->batch_stride) > span;
}

/* The checks of validate(), over three dimensions. */
static int validate_batch(int64_t batch, int64_t m, int64_t n, int64_t k, const mips_operand *a,
                          const mips_operand *b, const mips_operand *c, mips_call_flags flags,
                          size_t ab_size, size_t c_size) {
  if (batch < 0 || m < 0 || n < 0 || k < 0 || !mips_flags_known(flags)) return MIPS_ERROR_INVALID_ARGUMENT;
  const bool writes_c = batch > 0 && m > 0 && n > 0 && (k > 0 || !mips_flags_accumulate(flags));
  const bool reads_ab = batch > 0 && m > 0 && n > 0 && k > 0;
  if ((reads_ab && (a->base == NULL || b->base == NULL)) || (writes_c && c->base == NULL))
    return MIPS_ERROR_NULL_POINTER;
  if (!batch_all_small(batch, m, n, k, a, b, c) &&
      ((reads_ab && (!mips_operand_indices_fit(a, ab_size) || !mips_operand_indices_fit(b, ab_size))) ||
       (writes_c && !mips_operand_indices_fit(c, c_size))))
    return MIPS_ERROR_OVERFLOW;
  if (writes_c && !(batch == 1 ? plainly_distinct(c) : batch_plainly_distinct(c)) &&
      mips_operand_batch_self_overlaps(c))
    return MIPS_ERROR_OVERLAP;
  return MIPS_OK;
}

typedef struct batch_job {
  int64_t m, n, k;
  mips_operand a, b, c;
  mips_call_flags flags;
  size_t ab_size, c_size;
  mips_dtype type;
} batch_job;

/* Entry e's offset in `op`. It fits when `op` is read or written, since every index of
 * the batch does; an operand the call never touches (A and B when k = 0) was not
 * checked, and its offset may wrap, in unsigned arithmetic, harmlessly. */
static int64_t entry_offset(const mips_operand *op, int64_t e) {
  return (int64_t)((uint64_t)op->offset + (uint64_t)e * (uint64_t)op->batch_stride);
}

/* Entries [first, last) as plain calls, on this thread: one copy of the operands, whose
 * offsets step (a copy per entry cost more than an i8 64x64x64 entry's call at VLEN
 * 1024: 1.5 %). */
static void run_entry_range(int64_t m, int64_t n, int64_t k, const mips_operand *a,
                            const mips_operand *b, const mips_operand *c, mips_call_flags flags,
                            size_t ab_size, size_t c_size, mips_dtype type, int64_t first,
                            int64_t last) {
  mips_operand entry_a = *a, entry_b = *b, entry_c = *c;
  entry_a.batch_count = entry_b.batch_count = entry_c.batch_count = 1;
  for (int64_t e = first; e < last; ++e) {
    entry_a.offset = entry_offset(a, e), entry_b.offset = entry_offset(b, e);
    entry_c.offset = entry_offset(c, e);
    mips_matmul_run_checked(m, n, k, &entry_a, &entry_b, &entry_c, flags, ab_size, c_size, type);
  }
}

static void run_entries(void *ctx, int index, int count) {
  const batch_job *job = ctx;
  const int64_t batch = job->a.batch_count;
  /* One thread per part: the cap keeps each entry on the thread that runs it. */
  const mips_call_flags flags = mips_flags_with_thread_cap(job->flags, 1);
  run_entry_range(job->m, job->n, job->k, &job->a, &job->b, &job->c, flags, job->ab_size,
                  job->c_size, job->type, batch * index / count, batch * (index + 1) / count);
}

static int run_batch(int64_t batch, int64_t m, int64_t n, int64_t k, mips_operand a,
                     mips_operand b, mips_operand c, mips_call_flags flags, size_t ab_size,
                     size_t c_size, mips_dtype type) {
  a.batch_count = b.batch_count = c.batch_count = batch;
  a.rows = m, a.cols = k, b.rows = k, b.cols = n, c.rows = m, c.cols = n;
  const int status = validate_batch(batch, m, n, k, &a, &b, &c, flags, ab_size, c_size);
  /* Nothing to write: no entry runs (batch is then unchecked, and may be huge). */
  if (status != MIPS_OK || batch == 0 || m == 0 || n == 0 || (k == 0 && mips_flags_accumulate(flags)))
    return status;
  /* Entries too small to split, together big enough: spread over the threads. */
  int64_t rows = 0;
  const int threads = !mips_may_split(m, n, k) && !__builtin_mul_overflow(batch, m, &rows) &&
                              mips_may_split(rows, n, k)
                          ? mips_threads_for_problem(rows, n, k, mips_flags_thread_cap(flags))
                          : 1;
  if (threads > 1) {
    const batch_job job = {m, n, k, a, b, c, flags, ab_size, c_size, type};
    mips_parallel_run((int)(threads < batch ? threads : batch), run_entries, (void *)&job);
    return MIPS_OK;
  }
  run_entry_range(m, n, k, &a, &b, &c, flags, ab_size, c_size, type, 0, batch);
  return MIPS_OK;
}

/* One operand of a batched call, as it crosses the ABI. */
static mips_operand batch_operand(const void *base, int64_t offset, int64_t batch_stride,
                                  int64_t stride0, int64_t stride1) {
  return (mips_operand){.base = base, .offset = offset, .stride0 = stride0, .stride1 = stride1,
                        .batch_stride = batch_stride};
}

int mips_matmul_batch_f32(int64_t batch, int64_t m, int64_t n, int64_t k, const float *a,
                          int64_t a_offset, int64_t a_batch_stride, int64_t a_stride0,
                          int64_t a_stride1, const float *b, int64_t b_offset,
                          int64_t b_batch_stride, int64_t b_stride0, int64_t b_stride1,
                          float *c, int64_t c_offset, int64_t c_batch_stride, int64_t c_stride0,
                          int64_t c_stride1, uint32_t flags) {
  return run_batch(batch, m, n, k, batch_operand(a, a_offset, a_batch_stride, a_stride0, a_stride1),
                   batch_operand(b, b_offset, b_batch_stride, b_stride0, b_stride1),
                   batch_operand(c, c_offset, c_batch_stride, c_stride0, c_stride1), flags,
                   sizeof(float), sizeof(float), MIPS_DTYPE_F32);
}

int mips_matmul_batch_i8i32(int64_t batch, int64_t m, int64_t n, int64_t k, const int8_t *a,
                            int64_t a_offset, int64_t a_batch_stride, int64_t a_stride0,
                            int64_t a_stride1, const int8_t *b, int64_t b_offset,
                            int64_t b_batch_stride, int64_t b_stride0, int64_t b_stride1,
                            int32_t *c, int64_t c_offset, int64_t c_batch_stride,
                            int64_t c_stride0, int64_t c_stride1, uint32_t flags) {
  return run_batch(batch, m, n, k, batch_operand(a, a_offset, a_batch_stride, a_stride0, a_stride1),
                   batch_operand(b, b_offset, b_batch_stride, b_stride0, b_stride1),
                   batch_operand(c, c_offset, c_batch_stride, c_stride0, c_stride1), flags,
                   sizeof(int8_t), sizeof(int32_t), MIPS_DTYPE_I8I32);
}
