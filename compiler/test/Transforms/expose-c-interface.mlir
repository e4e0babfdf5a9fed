// RUN: mips-opt %s --mips-expose-c-interface | FileCheck %s

// Tensor arguments become read-only for bufferization; scalars are untouched.
// CHECK-LABEL: func.func @public_definition
// CHECK-SAME:    (%{{.*}}: tensor<2x2xf32> {bufferization.writable = false}, %{{.*}}: f32)
// CHECK-SAME:    attributes {llvm.emit_c_interface}
func.func @public_definition(%a: tensor<2x2xf32>, %s: f32) -> tensor<2x2xf32> {
  return %a : tensor<2x2xf32>
}

// CHECK:       func.func private @private_definition() {{{$}}
func.func private @private_definition() {
  return
}

// CHECK:       func.func private @declaration(f32){{$}}
func.func private @declaration(f32)
