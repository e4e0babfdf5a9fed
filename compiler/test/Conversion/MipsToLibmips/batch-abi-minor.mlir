// RUN: mips-opt %s --convert-mips-to-libmips="any-order=true" | FileCheck %s

// A batch with a static 0 extent makes no call in the loop form: the module needs no
// later ABI than 1.0 for it, whatever the flags.
// CHECK-NOT:   mips.libmips_abi_minor
// CHECK-LABEL: func.func @empty_batch
// CHECK-NOT:     call @mips_matmul
func.func @empty_batch(%a: memref<0x4x8xf32>, %b: memref<0x8x5xf32>, %c: memref<0x4x5xf32>) {
  mips.batch_matmul ins(%a, %b : memref<0x4x8xf32>, memref<0x8x5xf32>) outs(%c : memref<0x4x5xf32>)
  return
}
