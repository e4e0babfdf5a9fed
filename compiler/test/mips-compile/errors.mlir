// Bad input gets file:line:col diagnostics and exit status 1, never a crash.
// RUN: not mips-compile %S/Inputs/syntax-error.mlir -o %t.o 2>&1 | FileCheck %s --check-prefix=SYNTAX
// RUN: not mips-compile %S/Inputs/verifier-error.mlir -o %t.o 2>&1 | FileCheck %s --check-prefix=VERIFY
// RUN: not mips-compile %S/Inputs/model.mlir --target=arm -o %t.o 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not mips-compile %S/Inputs/model.mlir --emit=exe -o %t.o 2>&1 | FileCheck %s --check-prefix=EMIT
// RUN: not mips-compile %t.does-not-exist.mlir -o %t.o 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not mips-compile %S/Inputs/unsupported-header.mlir --emit-header=%t.h -o %t.o 2>&1 | FileCheck %s --check-prefix=HEADER

// RUN: not mips-compile %S/Inputs/nested-module.mlir -o %t.o 2>&1 | FileCheck %s --check-prefix=NESTED
// RUN: not mips-compile %S/Inputs/bad-name.mlir --emit-header=%t.bad.h -o %t.o 2>&1 | FileCheck %s --check-prefix=NAME
// RUN: not mips-compile %S/Inputs/unstrided-layout.mlir -o %t.o 2>&1 | FileCheck %s --check-prefix=LAYOUT
// RUN: not mips-compile %S/Inputs/tosa-variable-zero-point.mlir -o %t.o 2>&1 | FileCheck %s --check-prefix=TOSA-ZP
// An empty product compiles (small static shapes run inline, but no vector has 0 lanes).
// RUN: mips-compile %S/Inputs/zero-width.mlir --static-embedding --emit=mlir -o - | FileCheck %s --check-prefix=EMPTY
// A failed compilation leaves no header behind.
// RUN: rm -f %t.late.h
// RUN: not mips-compile %S/Inputs/verifier-error.mlir --emit-header=%t.late.h -o %t.o
// RUN: not test -e %t.late.h

// SYNTAX: syntax-error.mlir:2:32: error: expected operation name in quotes
// VERIFY: verifier-error.mlir:2:8: error: 'mips.matmul' op has mismatched reduction sizes: lhs gives K = 8, rhs gives K = 9
// TARGET: mips-compile: error: unknown target 'arm'; valid targets: x86_64, riscv64
// EMIT:   mips-compile: error: unknown --emit kind 'exe'; valid: mlir, llvm, asm, obj
// MISSING: mips-compile: error: cannot open input file '{{.*}}does-not-exist.mlir'
// HEADER: unsupported-header.mlir:1:1: error: the C header supports at most one result, @two has 2
// NESTED: nested-module.mlir:2:3: error: nested modules are not supported; put the functions in the top-level module
// NAME:   bad-name.mlir:1:1: error: @"my-model.v2" is not a C identifier, so the C header cannot declare its wrapper; rename the function
// LAYOUT: unstrided-layout.mlir:2:1: error: 'memref<8x16xf32, affine_map<(d0, d1) -> (d1, d0)>>' has a layout map without strides; mips-compile lowers memrefs with strided layouts only
// EMPTY:  llvm.call @mips_matmul_f32(
// TOSA-ZP: tosa-variable-zero-point.mlir:2:8: error: tosa.matmul's A zero point is not a constant, which MLIR 22's TOSA lowering needs
