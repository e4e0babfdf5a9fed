// RUN: mips-opt %s --mips-import-table -verify-diagnostics

// A call of a function that libmips 1.2 added, in a module that records no need for
// 1.2, has no slot in the 1.0 table: refused, not indexed past the table's end.
llvm.func @mips_matmul_batch_f32(i64) -> i32
llvm.func @caller(%n: i64) -> i32 {
  // expected-error @+1 {{calls 'mips_matmul_batch_f32', which libmips 1.2 added, but the module needs only ABI 1.0 ('mips.libmips_abi_minor')}}
  %s = llvm.call @mips_matmul_batch_f32(%n) : (i64) -> i32
  llvm.return %s : i32
}
