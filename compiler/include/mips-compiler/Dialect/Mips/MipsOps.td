// SPDX-License-Identifier: Apache-2.0
//===- MipsOps.td - mips dialect operations ----------------*- tablegen -*-===//

#ifndef MIPS_DIALECT_MIPS_MIPSOPS_TD
#define MIPS_DIALECT_MIPS_MIPSOPS_TD

include "mips-compiler/Dialect/Mips/MipsDialect.td"
include "mlir/Interfaces/DestinationStyleOpInterface.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Mips_MatmulOp : Mips_Op<"matmul", [
    Pure,
    DestinationStyleOpInterface,
    DeclareOpInterfaceMethods<ReifyRankedShapedTypeOpInterface, ["reifyResultShapes"]>]> {
  let summary = "Matrix multiplication on tensors, in destination-passing style";
  let description = [{
    Computes `result = init + A * B`, where A is `lhs` (or its transpose with
    `transpose_lhs`) of shape MxK and B is `rhs` (or its transpose with
    `transpose_rhs`) of shape KxN; `init` and `result` are MxN. With `overwrite`
    the contents of `init` are not read and `result = A * B`: this is what a
    zero-filled init becomes.

    Element types are f32 x f32 -> f32, or i8 x i8 -> i32 (exact, with sign
    extension). Transposes are views: bufferization swaps the strides passed to
    libmips instead of copying.

    Example:
    ```mlir
    %r = mips.matmul transpose_rhs overwrite
           ins(%a, %bt : tensor<4x8xf32>, tensor<16x8xf32>)
           outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
    ```
  }];

  let arguments = (ins
    AnyRankedTensor:$lhs,
    AnyRankedTensor:$rhs,
    AnyRankedTensor:$init,
    UnitAttr:$transpose_lhs,
    UnitAttr:$transpose_rhs,
    UnitAttr:$overwrite);
  let results = (outs AnyRankedTensor:$result);

  let assemblyFormat = [{
    (`transpose_lhs` $transpose_lhs^)? (`transpose_rhs` $transpose_rhs^)?
    (`overwrite` $overwrite^)?
    `ins` `(` $lhs `,` $rhs `:` type($lhs) `,` type($rhs) `)`
    `outs` `(` $init `:` type($init) `)` attr-dict `->` type($result)
  }];

  let hasVerifier = 1;

  let extraClassDeclaration = [{
    /// DestinationStyleOpInterface: `init` is the only init operand.
    ::mlir::MutableOperandRange getDpsInitsMutable() { return getInitMutable(); }

    /// Dimension indices of M and K in `lhs`, and of K and N in `rhs`, after
    /// accounting for the transpose flags.
    unsigned getLhsMDim() { return getTransposeLhs() ? 1 : 0; }
    unsigned getLhsKDim() { return getTransposeLhs() ? 0 : 1; }
    unsigned getRhsKDim() { return getTransposeRhs() ? 1 : 0; }
    unsigned getRhsNDim() { return getTransposeRhs() ? 0 : 1; }
  }];
}

#endif // MIPS_DIALECT_MIPS_MIPSOPS_TD
