// Inputs on which MLIR 22's parser crashes are refused, located, before it sees them,
// by both tools; if one still crashes, the tool reports it in one line, exits 1 and
// leaves no output file. Errors upstream leaves unlocated get the input's location.
// RUN: rm -f %t.o
// RUN: not mips-compile %S/Inputs/batch-matmul-index.mlir -o %t.o 2>&1 | FileCheck %s --check-prefix=INDEX
// RUN: not mips-opt %S/Inputs/batch-matmul-index.mlir 2>&1 | FileCheck %s --check-prefix=INDEX
// RUN: not mips-opt %S/Inputs/batch-matmul-mixed-complex.mlir 2>&1 | FileCheck %s --check-prefix=MIXED
// RUN: not mips-compile %S/Inputs/batch-matmul-index.mlir --mips-no-crash-precheck -o %t.o 2>&1 \
// RUN:   | FileCheck %s --check-prefix=RECOVERED-COMPILE
// RUN: test ! -e %t.o
// RUN: not mips-opt %S/Inputs/batch-matmul-index.mlir --mips-no-crash-precheck -o %t.o 2>&1 \
// RUN:   | FileCheck %s --check-prefix=RECOVERED-OPT
// RUN: test ! -e %t.o
// RUN: not mips-opt %S/../mips-compile/Inputs/unsigned-matmul.mlir 2>&1 | FileCheck %s --check-prefix=UNSIGNED
// RUN: not mips-opt %S/../mips-compile/Inputs/unsigned-matmul.mlir --mips-lower-to-llvm 2>&1 \
// RUN:   | FileCheck %s --check-prefix=UNSIGNED
// RUN: not mips-compile %S/Inputs/duplicate-block-label.mlir -o %t.o 2>&1 | FileCheck %s --check-prefix=LABEL
// RUN: not mips-opt %S/Inputs/duplicate-block-label.mlir 2>&1 | FileCheck %s --check-prefix=LABEL
// RUN: not mips-opt %S/Inputs/transform-without-entry.mlir --transform-interpreter 2>&1 \
// RUN:   | FileCheck %s --check-prefix=LINE-ZERO
// The check reads types, not names: this file's own well-typed batch_matmul passes.
// RUN: mips-opt %s | FileCheck %s --check-prefix=VALID

// INDEX: batch-matmul-index.mlir:3:8: error: 'linalg.batch_matmul' on 'index' elements: MLIR 22's parser crashes on this op
// INDEX-NOT: Stack dump
// MIXED: batch-matmul-mixed-complex.mlir:3:8: error: 'linalg.batch_matmul' on complex and real elements
// RECOVERED-COMPILE: batch-matmul-index.mlir: error: mips-compile crashed on this input; this is a bug in mips-compile or in MLIR
// RECOVERED-COMPILE-NOT: Stack dump
// RECOVERED-OPT: batch-matmul-index.mlir: error: mips-opt crashed on this input
// UNSIGNED: unsigned-matmul.mlir:1:1: error: {{.*}}must be signless{{.*}} (the mips tools lower signless integers only
// UNSIGNED-NOT: <unknown>
// LABEL: duplicate-block-label.mlir:22:3: error: redefinition of block '^bb0' in this region; rename one of them (MLIR 22's parser crashes on this input)
// LABEL-NOT: error:
// LINE-ZERO: transform-without-entry.mlir:1:1: error: could not find a nested named sequence with name: __transform_main
// LINE-ZERO-NOT: error

// VALID: linalg.batch_matmul
func.func @valid(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xi8>, %c: tensor<2x3x5xf32>) -> tensor<2x3x5xf32> {
  // A comment naming linalg.batch_matmul on index elements is not an op.
  %0 = linalg.batch_matmul ins(%a, %b : tensor<2x3x4xf32>, tensor<2x4x5xi8>) outs(%c : tensor<2x3x5xf32>) -> tensor<2x3x5xf32>
  return %0 : tensor<2x3x5xf32>
}
