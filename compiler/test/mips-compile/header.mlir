// RUN: mips-compile %S/Inputs/model.mlir --emit-header=%t.h -o %t.o
// RUN: FileCheck %s < %t.h
// The header is valid C and C++.
// RUN: clang-22 -fsyntax-only -Wall -Werror -x c %t.h
// RUN: clang-22 -fsyntax-only -Wall -Werror -x c++ %t.h

// CHECK:      #ifndef {{.*}}_H
// CHECK:      typedef struct mips_memref_f32_2d {
// CHECK-NEXT:   float *allocated;
// CHECK-NEXT:   float *aligned;
// CHECK-NEXT:   int64_t offset;
// CHECK-NEXT:   int64_t sizes[2];
// CHECK-NEXT:   int64_t strides[2];
// CHECK-NEXT: } mips_memref_f32_2d;
// CHECK:      typedef struct mips_memref_i8_2d {
// CHECK:      typedef struct mips_memref_i32_2d {
// CHECK:      void _mlir_ciface_matmul(mips_memref_f32_2d *result, mips_memref_f32_2d *arg0, mips_memref_f32_2d *arg1);
// CHECK:      float _mlir_ciface_scale(mips_memref_i8_2d *arg0, mips_memref_i8_2d *arg1, mips_memref_i32_2d *arg2, float arg3);
// CHECK:      int mipsrt_bind(void);
// CHECK:      const char *mipsrt_error_message(void);
