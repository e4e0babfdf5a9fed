// RUN: mips-opt %s --mips-lower-to-llvm="specialize-dense-arguments=false" | FileCheck %s --check-prefixes=CHECK,DYNAMIC
// RUN: mips-opt %s --mips-lower-to-llvm="static-embedding=true specialize-dense-arguments=false" | FileCheck %s --check-prefixes=CHECK,STATIC
// Forbidden text is grepped for over the whole output: FileCheck's -NOT lines do not
// look between the matches of a -DAG group, nor before the last match of one.
// RUN: mips-opt %s --mips-lower-to-llvm | not grep -e '@mips_matmul' -e 'mips\.matmul' -e 'linalg\.'
// RUN: mips-opt %s --mips-lower-to-llvm="static-embedding=true" \
// RUN:   | not grep -e 'dynamic_import_table' -e 'mips\.matmul' -e 'linalg\.'

// The whole lowering: the matmul reaches libmips through the import table by
// default, or by a direct call with static embedding; the bias + ReLU
// linalg.generic becomes loops; the public function gets its C wrapper.

// DYNAMIC-DAG:  llvm.mlir.global external @__mips_rt_v1_0_dynamic2_import_table() {{.*}} : !llvm.array<6 x ptr>
// DYNAMIC-DAG:  llvm.func @__mips_rt_v1_0_dynamic2_ensure_imports()
// STATIC-DAG:   llvm.func @mips_matmul_f32(i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, i32) -> i32
// CHECK-DAG:    llvm.func @__mips_rt_v1_0_common_call_failed(i32, i32, !llvm.ptr)
// CHECK-LABEL:  llvm.func @dense_relu
// The batch is dynamic, so the shapes are checked before the call.
// CHECK:          llvm.call @__mips_rt_v1_0_common_bad_shapes(
// DYNAMIC:        llvm.call @__mips_rt_v1_0_dynamic2_ensure_imports()
// DYNAMIC:        %[[FN:.*]] = llvm.load %{{.*}} : !llvm.ptr -> !llvm.ptr
// DYNAMIC:        %[[STATUS:.*]] = llvm.call %[[FN]](
// STATIC:         %[[STATUS:.*]] = llvm.call @mips_matmul_f32(
// CHECK:          llvm.icmp "ne" %[[STATUS]]
// DYNAMIC:        %[[TEXT:.*]] = llvm.call %{{.*}}(%[[STATUS]]) : !llvm.ptr, (i32) -> !llvm.ptr
// STATIC:         %[[TEXT:.*]] = llvm.call @mips_status_string(%[[STATUS]])
// CHECK:          llvm.call @__mips_rt_v1_0_common_call_failed(%{{.*}}, %[[STATUS]], %[[TEXT]])
// CHECK:          llvm.intr.maximum
// CHECK-LABEL:  llvm.func @_mlir_ciface_dense_relu(
// CHECK-SAME:     %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr)
// CHECK:          llvm.call @dense_relu(

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
func.func @dense_relu(%x: tensor<?x8xf32>, %w: tensor<8x16xf32>, %b: tensor<16xf32>) -> tensor<?x16xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %rows = tensor.dim %x, %c0 : tensor<?x8xf32>
  %e = tensor.empty(%rows) : tensor<?x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x16xf32>) -> tensor<?x16xf32>
  %h = linalg.matmul ins(%x, %w : tensor<?x8xf32>, tensor<8x16xf32>) outs(%f : tensor<?x16xf32>) -> tensor<?x16xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%h, %b : tensor<?x16xf32>, tensor<16xf32>) outs(%e : tensor<?x16xf32>) {
    ^bb0(%v: f32, %bias: f32, %out: f32):
      %s = arith.addf %v, %bias : f32
      %r = arith.maximumf %s, %zero : f32
      linalg.yield %r : f32
  } -> tensor<?x16xf32>
  return %y : tensor<?x16xf32>
}
