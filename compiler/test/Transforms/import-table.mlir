// RUN: mips-opt %s -split-input-file --mips-import-table | FileCheck %s \
// RUN:   --implicit-check-not='llvm.func @mips_matmul_f32' --implicit-check-not='llvm.func @mips_status_string'

// Calls of libmips functions load their pointer from the table slot (in
// MipsImports.def order: mips_status_string is 3, mips_matmul_f32 is 4) after
// the runtime has bound the table; the external declarations disappear, so the
// object needs no libmips at link time.
// CHECK-DAG:   llvm.mlir.global external @__mips_rt_v1_0_dynamic2_import_table() {{.*}} : !llvm.array<6 x ptr>
// CHECK-DAG:   llvm.func @__mips_rt_v1_0_dynamic2_ensure_imports()
// The implicit NOTs miss the gap between a DAG group and a LABEL: say it here too.
// CHECK-NOT:   llvm.func @mips_matmul_f32
// CHECK-NOT:   llvm.func @mips_status_string
// CHECK-LABEL: llvm.func @model
// CHECK-SAME:    %[[P:.*]]: !llvm.ptr, %[[N:.*]]: i64
// CHECK:         llvm.call @__mips_rt_v1_0_dynamic2_ensure_imports() : () -> ()
// CHECK:         %[[TABLE:.*]] = llvm.mlir.addressof @__mips_rt_v1_0_dynamic2_import_table : !llvm.ptr
// CHECK:         %[[SLOT:.*]] = llvm.getelementptr %[[TABLE]][0, 4] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<6 x ptr>
// CHECK:         %[[FN:.*]] = llvm.load %[[SLOT]] : !llvm.ptr -> !llvm.ptr
// CHECK:         %[[STATUS:.*]] = llvm.call %[[FN]](%[[N]], %[[N]], %[[N]], %[[P]], %[[N]], %[[N]], %[[N]], %[[P]], %[[N]], %[[N]], %[[N]], %[[P]], %[[N]], %[[N]], %[[N]], %{{.*}}) : !llvm.ptr, (i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, i32) -> i32
// CHECK:         llvm.call @__mips_rt_v1_0_dynamic2_ensure_imports() : () -> ()
// CHECK:         llvm.getelementptr %{{.*}}[0, 3]
// CHECK:         llvm.call %{{.*}}(%[[STATUS]]) : !llvm.ptr, (i32) -> !llvm.ptr
// CHECK:         llvm.call @helper()
// CHECK-NOT:     llvm.call @mips_
llvm.func @mips_matmul_f32(i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, i32) -> i32 attributes {llvm.bareptr}
llvm.func @mips_status_string(i32) -> !llvm.ptr
llvm.func @helper()
llvm.func @model(%p: !llvm.ptr, %n: i64) -> !llvm.ptr {
  %flags = llvm.mlir.constant(0 : i32) : i32
  %s = llvm.call @mips_matmul_f32(%n, %n, %n, %p, %n, %n, %n, %p, %n, %n, %n, %p, %n, %n, %n, %flags) : (i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, i32) -> i32
  %t = llvm.call @mips_status_string(%s) : (i32) -> !llvm.ptr
  llvm.call @helper() : () -> ()
  llvm.return %t : !llvm.ptr
}

// -----

// A module that calls no libmips function is left exactly as it was.
// CHECK-LABEL: module
// CHECK-NOT:   __mips_rt
// CHECK:       llvm.func @plain
llvm.func @plain() {
  llvm.return
}

// -----

// A function the module defines itself is not libmips, whatever its name.
// CHECK-LABEL: llvm.func @mips_matmul_i8i32(%{{.*}}: i32) -> i32 {
// CHECK-LABEL: llvm.func @caller
// CHECK:         llvm.call @mips_matmul_i8i32(%{{.*}}) : (i32) -> i32
// CHECK-NOT:     __mips_rt
llvm.func @mips_matmul_i8i32(%x: i32) -> i32 {
  llvm.return %x : i32
}
llvm.func @caller(%x: i32) -> i32 {
  %r = llvm.call @mips_matmul_i8i32(%x) : (i32) -> i32
  llvm.return %r : i32
}

// -----

// A module that needs libmips ABI 1.2 uses the 1.2 runtime's table, which also
// holds the functions 1.2 added.
// CHECK:       module attributes {mips.libmips_abi_minor = 2 : i32}
// CHECK-DAG:   llvm.mlir.global external @__mips_rt_v1_2_dynamic2_import_table() {{.*}} : !llvm.array<13 x ptr>
// CHECK-DAG:   llvm.func @__mips_rt_v1_2_dynamic2_ensure_imports()
// CHECK-LABEL: llvm.func @needs_1_2
// CHECK:         llvm.call @__mips_rt_v1_2_dynamic2_ensure_imports() : () -> ()
// CHECK:         llvm.getelementptr %{{.*}}[0, 4] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<13 x ptr>
module attributes {mips.libmips_abi_minor = 2 : i32} {
  llvm.func @mips_matmul_f32(i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, i32) -> i32 attributes {llvm.bareptr}
  llvm.func @needs_1_2(%p: !llvm.ptr, %n: i64) -> i32 {
    %flags = llvm.mlir.constant(2 : i32) : i32
    %s = llvm.call @mips_matmul_f32(%n, %n, %n, %p, %n, %n, %n, %p, %n, %n, %n, %p, %n, %n, %n, %flags) : (i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, i32) -> i32
    llvm.return %s : i32
  }
}
