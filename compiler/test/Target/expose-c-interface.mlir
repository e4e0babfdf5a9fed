// RUN: mips-opt %s --mips-expose-c-interface | FileCheck %s

// CHECK-LABEL: func.func @public_definition
// CHECK-SAME:    attributes {llvm.emit_c_interface}
func.func @public_definition(%a: tensor<2x2xf32>) -> tensor<2x2xf32> {
  return %a : tensor<2x2xf32>
}

// CHECK:       func.func private @private_definition() {{{$}}
func.func private @private_definition() {
  return
}

// CHECK:       func.func private @declaration(f32){{$}}
func.func private @declaration(f32)
