// SPDX-License-Identifier: Apache-2.0
//===- MipsDialect.td - mips dialect definition ------------*- tablegen -*-===//

#ifndef MIPS_DIALECT_MIPS_MIPSDIALECT_TD
#define MIPS_DIALECT_MIPS_MIPSDIALECT_TD

include "mlir/IR/OpBase.td"

def Mips_Dialect : Dialect {
  let name = "mips";
  let summary = "Matrix multiplication ops that lower to calls into libmips";
  let description = [{
    The `mips` dialect holds tensor-level operations that libmips implements. They
    exist so that a compiler can recognise, tile, fuse and pick kernel variants for
    them before bufferization turns each one directly into a call of the libmips
    C ABI (there is no memref form).
  }];
  let cppNamespace = "::mlir::mips";
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::func::FuncDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

class Mips_Op<string mnemonic, list<Trait> traits = []>
    : Op<Mips_Dialect, mnemonic, traits>;

#endif // MIPS_DIALECT_MIPS_MIPSDIALECT_TD
