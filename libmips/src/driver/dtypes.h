/* SPDX-License-Identifier: Apache-2.0 */
/* The element types of a call, and what every layer needs to know of each. */
#ifndef MIPS_SRC_DRIVER_DTYPES_H
#define MIPS_SRC_DRIVER_DTYPES_H

#include <stddef.h>
#include <stdint.h>

/* The element types of a call: f32 x f32 -> f32 and int8 x int8 -> int32. Kernel sets
 * and the per-type descriptor are indexed by it. */
typedef enum mips_dtype { MIPS_DTYPE_F32, MIPS_DTYPE_I8I32, MIPS_DTYPE_COUNT } mips_dtype;

/* What the layers need to know of an element type, in one place (driver/dtypes.c). */
typedef struct mips_dtype_info {
  size_t input_size;  /* bytes of an element of A and B */
  size_t output_size; /* bytes of an element of C */
  /* The default A panel packer: A(i, l) -> panel[l * mr + i], rows past `rows` zero. */
  void (*pack_a)(void *dst, const void *a, ptrdiff_t s0, ptrdiff_t s1, int64_t rows,
                 int64_t kc, int mr);
  /* Writes zero to every element of an m x n C (k = 0 without accumulation). */
  void (*zero_fill)(void *c, ptrdiff_t s0, ptrdiff_t s1, int64_t m, int64_t n);
} mips_dtype_info;

void mips_pack_a_f32(void *dst, const void *a, ptrdiff_t s0, ptrdiff_t s1, int64_t rows,
                     int64_t kc, int mr);
void mips_pack_a_i8(void *dst, const void *a, ptrdiff_t s0, ptrdiff_t s1, int64_t rows,
                    int64_t kc, int mr);
void mips_zero_fill_f32(void *c, ptrdiff_t s0, ptrdiff_t s1, int64_t m, int64_t n);
void mips_zero_fill_i32(void *c, ptrdiff_t s0, ptrdiff_t s1, int64_t m, int64_t n);

/* In every translation unit, so that what a type known at compile time (the entry
 * points') needs is a constant, not a load. */
static const mips_dtype_info mips_dtypes[MIPS_DTYPE_COUNT] = {
    [MIPS_DTYPE_F32] = {.input_size = sizeof(float), .output_size = sizeof(float),
                        .pack_a = mips_pack_a_f32, .zero_fill = mips_zero_fill_f32},
    [MIPS_DTYPE_I8I32] = {.input_size = sizeof(int8_t), .output_size = sizeof(int32_t),
                          .pack_a = mips_pack_a_i8, .zero_fill = mips_zero_fill_i32},
};

/* The element sizes where the type is known only at run time (the driver): the table's,
 * as a select instead of an indexed load (measured: 8 instructions per 16^3 call). */
static inline size_t mips_input_size(mips_dtype type) {
  return type == MIPS_DTYPE_F32 ? mips_dtypes[MIPS_DTYPE_F32].input_size
                                : mips_dtypes[MIPS_DTYPE_I8I32].input_size;
}
static inline size_t mips_output_size(mips_dtype type) {
  return type == MIPS_DTYPE_F32 ? mips_dtypes[MIPS_DTYPE_F32].output_size
                                : mips_dtypes[MIPS_DTYPE_I8I32].output_size;
}

#endif /* MIPS_SRC_DRIVER_DTYPES_H */
