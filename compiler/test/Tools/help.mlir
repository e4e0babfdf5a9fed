// mips-opt --help lists every mips pass and the pipeline with its options.
// RUN: mips-opt --help | FileCheck %s
// CHECK-DAG: --convert-linalg-to-mips
// CHECK-DAG: --mips-approximate-math
// CHECK-DAG: --mips-decompose-aggregates
// CHECK-DAG: --mips-decompose-quantized-matmuls
// CHECK-DAG: --mips-depthwise-multiplier-one
// CHECK-DAG: --mips-drop-padding-only-taps
// CHECK-DAG: --convert-mips-to-libmips
// CHECK-DAG: --convert-mips-to-vector
// CHECK-DAG: --mips-deallocate-buffers
// CHECK-DAG: --mips-expose-c-interface
// CHECK-DAG: --mips-import-table
// CHECK-DAG: --mips-inline-small-matmuls
// CHECK-DAG: --mips-lower-to-llvm
// CHECK-DAG: --mips-raise-contractions
// CHECK-DAG: --inline-threshold=
// CHECK-DAG: --static-embedding
// CHECK-DAG: --precise-math
// CHECK-DAG: --remarks
// CHECK-DAG: --mips-remarks
