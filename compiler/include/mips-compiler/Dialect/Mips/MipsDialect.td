// SPDX-License-Identifier: Apache-2.0
//===- MipsDialect.td - mips dialect definition ------------*- tablegen -*-===//

#ifndef MIPS_DIALECT_MIPS_MIPSDIALECT_TD
#define MIPS_DIALECT_MIPS_MIPSDIALECT_TD

include "mlir/IR/OpBase.td"

def Mips_Dialect : Dialect {
  let name = "mips";
  let summary = "Matrix multiplication ops that lower to calls into libmips";
  let description = [{
    The `mips` dialect holds the operations that libmips implements. On tensors
    they let a compiler recognise, tile, fuse and pick a kernel variant (a
    libmips call, or inline code for small static shapes); bufferization only
    swaps their tensors for buffers, and `convert-mips-to-libmips` turns the
    buffer form into calls of the libmips C ABI.
  }];
  let cppNamespace = "::mlir::mips";
  let dependentDialects = [
    "::mlir::tensor::TensorDialect"
  ];
}

class Mips_Op<string mnemonic, list<Trait> traits = []>
    : Op<Mips_Dialect, mnemonic, traits>;

#endif // MIPS_DIALECT_MIPS_MIPSDIALECT_TD
