// SPDX-License-Identifier: Apache-2.0
//===- MipsOps.td - mips dialect operations ----------------*- tablegen -*-===//

#ifndef MIPS_DIALECT_MIPS_MIPSOPS_TD
#define MIPS_DIALECT_MIPS_MIPSOPS_TD

include "mips-compiler/Dialect/Mips/MipsDialect.td"
include "mlir/Interfaces/DestinationStyleOpInterface.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Mips_Matrix : AnyTypeOf<[AnyRankedTensor, AnyNon0RankedMemRef],
                            "ranked tensor or memref">;

def Mips_MatmulOp : Mips_Op<"matmul", [
    DestinationStyleOpInterface,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    DeclareOpInterfaceMethods<ReifyRankedShapedTypeOpInterface, ["reifyResultShapes"]>]> {
  let summary = "Matrix multiplication in destination-passing style, on tensors or buffers";
  let description = [{
    Computes `init + A * B`, where A is `lhs` (or its transpose with
    `transpose_lhs`) of shape MxK and B is `rhs` (or its transpose with
    `transpose_rhs`) of shape KxN; `init` is MxN. With `overwrite` the contents
    of `init` are not read and the product is `A * B`: this is what a
    zero-filled init becomes.

    On tensors the op returns the product as a new tensor of init's type. On
    memrefs (what bufferization makes of it) it has no result and writes into
    `init`; `convert-mips-to-libmips` turns that form into a libmips call.

    Element types are those libmips has kernels for: f32 x f32 -> f32, or
    i8 x i8 -> i32 (exact, with sign extension). Transposes are views: the
    conversion to libmips swaps the strides it passes instead of copying.

    With `inlined` (static shapes only), `convert-mips-to-vector` emits straight-line
    vector code instead of a libmips call: the kernel variant for matmuls too
    small to pay for a call. `mips-inline-small-matmuls` decides.

    Example:
    ```mlir
    %r = mips.matmul transpose_rhs overwrite
           ins(%a, %bt : tensor<4x8xf32>, tensor<16x8xf32>)
           outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
    mips.matmul ins(%a, %b : memref<4x8xf32>, memref<8x16xf32>)
                outs(%c : memref<4x16xf32>)
    ```
  }];

  let arguments = (ins
    Mips_Matrix:$lhs,
    Mips_Matrix:$rhs,
    Mips_Matrix:$init,
    UnitAttr:$transpose_lhs,
    UnitAttr:$transpose_rhs,
    UnitAttr:$overwrite,
    UnitAttr:$inlined);
  let results = (outs Optional<AnyRankedTensor>:$result);

  let assemblyFormat = [{
    (`transpose_lhs` $transpose_lhs^)? (`transpose_rhs` $transpose_rhs^)?
    (`overwrite` $overwrite^)? (`inlined` $inlined^)?
    `ins` `(` $lhs `,` $rhs `:` type($lhs) `,` type($rhs) `)`
    `outs` `(` $init `:` type($init) `)` attr-dict (`->` type($result)^)?
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

def Mips_BatchMatmulOp : Mips_Op<"batch_matmul", [
    DestinationStyleOpInterface,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    DeclareOpInterfaceMethods<ReifyRankedShapedTypeOpInterface, ["reifyResultShapes"]>]> {
  let summary = "A batch of matrix multiplications with the same shape, in destination-passing style";
  let description = [{
    For each entry `b` of the leading dimension of `init` (BxMxN), computes
    `init[b] + A[b] * B[b]` as `mips.matmul` does, with the same
    `transpose_lhs`, `transpose_rhs` and `overwrite`. `lhs` is BxMxK (KxM
    transposed) and `rhs` BxKxN (NxK transposed); either may instead be a
    rank-2 matrix that every entry shares (a broadcast, such as weights).

    `convert-mips-to-libmips` turns the op on memrefs into one
    `mips_matmul_batch_<type>` call (libmips 1.2, which threads across the
    batch when the entries are small) with `batched-calls`, and otherwise into
    a loop of `mips.matmul` on 2-D views, one call per entry (any 1.x library).
    `mips-inline-small-matmuls` turns a batch of small static entries into that
    loop too, with each entry inlined.

    Example:
    ```mlir
    %r = mips.batch_matmul transpose_rhs
           ins(%q, %k : tensor<4x64x32xf32>, tensor<4x64x32xf32>)
           outs(%s : tensor<4x64x64xf32>) -> tensor<4x64x64xf32>
    ```
  }];

  let arguments = (ins
    Mips_Matrix:$lhs,
    Mips_Matrix:$rhs,
    Mips_Matrix:$init,
    UnitAttr:$transpose_lhs,
    UnitAttr:$transpose_rhs,
    UnitAttr:$overwrite);
  let results = (outs Optional<AnyRankedTensor>:$result);

  let assemblyFormat = [{
    (`transpose_lhs` $transpose_lhs^)? (`transpose_rhs` $transpose_rhs^)?
    (`overwrite` $overwrite^)?
    `ins` `(` $lhs `,` $rhs `:` type($lhs) `,` type($rhs) `)`
    `outs` `(` $init `:` type($init) `)` attr-dict (`->` type($result)^)?
  }];

  let hasVerifier = 1;

  let extraClassDeclaration = [{
    ::mlir::MutableOperandRange getDpsInitsMutable() { return getInitMutable(); }

    /// Whether `lhs` (`rhs`) has a batch dimension; if not, every entry shares it.
    bool isLhsBatched() { return ::llvm::cast<::mlir::ShapedType>(getLhs().getType()).getRank() == 3; }
    bool isRhsBatched() { return ::llvm::cast<::mlir::ShapedType>(getRhs().getType()).getRank() == 3; }

    /// Dimension indices of M and K in `lhs`, and of K and N in `rhs`, counting
    /// the batch dimension where there is one.
    unsigned getLhsMDim() { return (isLhsBatched() ? 1 : 0) + (getTransposeLhs() ? 1 : 0); }
    unsigned getLhsKDim() { return (isLhsBatched() ? 1 : 0) + (getTransposeLhs() ? 0 : 1); }
    unsigned getRhsKDim() { return (isRhsBatched() ? 1 : 0) + (getTransposeRhs() ? 1 : 0); }
    unsigned getRhsNDim() { return (isRhsBatched() ? 1 : 0) + (getTransposeRhs() ? 0 : 1); }
  }];
}

#endif // MIPS_DIALECT_MIPS_MIPSOPS_TD
