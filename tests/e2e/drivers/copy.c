/* SPDX-License-Identifier: Apache-2.0 */
/* memrefCopy of the runtime against the obvious element loop, for 1-, 2-, 4- and 8-byte
 * elements and views that are dense, padded, transposed, strided, offset, with unit
 * and empty dimensions. Elements outside the destination view must stay untouched. */
#include "copy.h"
#include "e2e_driver.h"

#include <stdint.h>

enum { CAPACITY = 4096 };

typedef struct layout {
  const char *name;
  int64_t sizes[3];
  int64_t src_offset, src_strides[3];
  int64_t dst_offset, dst_strides[3];
} layout;

static const layout layouts[] = {
    {"dense", {3, 5, 7}, 0, {35, 7, 1}, 0, {35, 7, 1}},
    {"padded source rows", {3, 5, 7}, 2, {60, 10, 1}, 1, {35, 7, 1}},
    {"padded destination rows", {3, 5, 7}, 0, {35, 7, 1}, 4, {60, 10, 1}},
    {"padded planes", {3, 5, 7}, 0, {40, 7, 1}, 0, {40, 7, 1}},
    {"transposed source", {3, 5, 7}, 0, {1, 3, 15}, 0, {35, 7, 1}},
    {"strided last dimension", {4, 3, 6}, 5, {40, 13, 2}, 3, {72, 24, 3}},
    {"unit dimensions", {1, 9, 1}, 4, {100, 1, 50}, 0, {9, 1, 1}},
    {"empty", {3, 0, 7}, 0, {35, 7, 1}, 0, {35, 7, 1}},
};

#define CHECK_COPY(T, FN, DESC)                                                              \
  static void check_##FN(void) {                                                             \
    static T src[CAPACITY], dst[CAPACITY], want[CAPACITY];                                  \
    for (size_t c = 0; c < sizeof layouts / sizeof layouts[0]; ++c) {                        \
      const layout *l = &layouts[c];                                                         \
      for (int x = 0; x < CAPACITY; ++x) {                                                   \
        src[x] = (T)(x * 7 + 3);                                                              \
        dst[x] = want[x] = (T)-1;                                                             \
      }                                                                                      \
      for (int64_t i = 0; i < l->sizes[0]; ++i)                                              \
        for (int64_t j = 0; j < l->sizes[1]; ++j)                                            \
          for (int64_t k = 0; k < l->sizes[2]; ++k)                                          \
            want[l->dst_offset + i * l->dst_strides[0] + j * l->dst_strides[1] +             \
                 k * l->dst_strides[2]] = src[l->src_offset + i * l->src_strides[0] +        \
                                              j * l->src_strides[1] + k * l->src_strides[2]]; \
      DESC ms = {src, src, l->src_offset, {l->sizes[0], l->sizes[1], l->sizes[2]},          \
                 {l->src_strides[0], l->src_strides[1], l->src_strides[2]}};                 \
      DESC md = {dst, dst, l->dst_offset, {l->sizes[0], l->sizes[1], l->sizes[2]},          \
                 {l->dst_strides[0], l->dst_strides[1], l->dst_strides[2]}};                 \
      _mlir_ciface_##FN(&ms, &md);                                                           \
      for (int x = 0; x < CAPACITY; ++x)                                                     \
        if (dst[x] != want[x]) {                                                             \
          EXPECT(0, "%s, %s: element %d is %lld, expected %lld", #FN, l->name, x,            \
                 (long long)dst[x], (long long)want[x]);                                     \
          break;                                                                             \
        }                                                                                    \
    }                                                                                        \
  }
CHECK_COPY(int8_t, copy_i8, mips_memref_i8_3d)
CHECK_COPY(int16_t, copy_i16, mips_memref_i16_3d)
CHECK_COPY(float, copy_f32, mips_memref_f32_3d)
CHECK_COPY(double, copy_f64, mips_memref_f64_3d)

int main(void) {
  check_copy_i8();
  check_copy_i16();
  check_copy_f32();
  check_copy_f64();
  return e2e_finish("copy");
}
