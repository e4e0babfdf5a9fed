// SPDX-License-Identifier: Apache-2.0
//===- TilingInterfaceImpl.cpp - tiling mips.matmul -------------*- C++ -*-===//
//
// The iteration space is (M, N, K): M and N parallel, K a reduction. A tile
// is a mips.matmul on slices (tensor.extract_slice, or memref.subview on
// buffers), with the transpose flags kept: a transposed operand is sliced in
// its stored order.
//
//===----------------------------------------------------------------------===//

#include "mips-compiler/Dialect/Mips/TilingInterfaceImpl.h"

#include "mips-compiler/Dialect/Mips/MipsOps.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Interfaces/TilingInterface.h"

using namespace mlir;

namespace {

/// Extent `dim` of a tensor or memref, as a constant when static.
static OpFoldResult getExtent(OpBuilder &b, Location loc, Value shaped, int64_t dim) {
  if (isa<RankedTensorType>(shaped.getType()))
    return tensor::getMixedSize(b, loc, shaped, dim);
  return memref::getMixedSize(b, loc, shaped, dim);
}

/// The (offsets, sizes) window of `shaped`, unit strides.
static Operation *makeSlice(OpBuilder &b, Location loc, Value shaped,
                            ArrayRef<OpFoldResult> offsets, ArrayRef<OpFoldResult> sizes) {
  SmallVector<OpFoldResult> strides(offsets.size(), b.getIndexAttr(1));
  if (isa<RankedTensorType>(shaped.getType()))
    return tensor::ExtractSliceOp::create(b, loc, shaped, offsets, sizes, strides);
  return memref::SubViewOp::create(b, loc, shaped, offsets, sizes, strides);
}

/// True if the tile [offset, offset + size) of K is all of K: a constant equal to
/// a static K, or a dim op of K's operand and dimension.
static bool coversWholeK(mips::MatmulOp op, OpFoldResult offset, OpFoldResult size) {
  if (!isZeroInteger(offset))
    return false;
  int64_t k = cast<ShapedType>(op.getLhs().getType()).getDimSize(op.getLhsKDim());
  if (std::optional<int64_t> constant = getConstantIntValue(size))
    return !ShapedType::isDynamic(k) && *constant == k;
  auto value = dyn_cast<Value>(size);
  if (!value)
    return false;
  auto isKDimOf = [&](Value source, std::optional<int64_t> dim) {
    return dim && ((source == op.getLhs() && *dim == op.getLhsKDim()) ||
                   (source == op.getRhs() && *dim == op.getRhsKDim()));
  };
  if (auto dimOp = value.getDefiningOp<tensor::DimOp>())
    return isKDimOf(dimOp.getSource(), dimOp.getConstantIndex());
  if (auto dimOp = value.getDefiningOp<memref::DimOp>())
    return isKDimOf(dimOp.getSource(), dimOp.getConstantIndex());
  return false;
}

struct MatmulTilingInterface
    : TilingInterface::ExternalModel<MatmulTilingInterface, mips::MatmulOp> {
  SmallVector<utils::IteratorType> getLoopIteratorTypes(Operation *) const {
    return {utils::IteratorType::parallel, utils::IteratorType::parallel,
            utils::IteratorType::reduction};
  }

  SmallVector<Range> getIterationDomain(Operation *op, OpBuilder &b) const {
    auto matmul = cast<mips::MatmulOp>(op);
    Location loc = op->getLoc();
    OpFoldResult zero = b.getIndexAttr(0), one = b.getIndexAttr(1);
    return {
        Range{zero, getExtent(b, loc, matmul.getLhs(), matmul.getLhsMDim()), one},
        Range{zero, getExtent(b, loc, matmul.getRhs(), matmul.getRhsNDim()), one},
        Range{zero, getExtent(b, loc, matmul.getLhs(), matmul.getLhsKDim()), one}};
  }

  FailureOr<TilingResult> getTiledImplementation(Operation *op, OpBuilder &b,
                                                 ArrayRef<OpFoldResult> offsets,
                                                 ArrayRef<OpFoldResult> sizes) const {
    auto matmul = cast<mips::MatmulOp>(op);
    Location loc = op->getLoc();
    // A K tile of an overwriting matmul would have to overwrite in the first
    // tile and accumulate in the others: not one op.
    if (matmul.getOverwrite() && !coversWholeK(matmul, offsets[2], sizes[2]))
      return op->emitOpError("with 'overwrite' cannot be tiled along K; "
                             "make the zero init explicit first");
    auto ordered = [](bool transposed, OpFoldResult first, OpFoldResult second) {
      return transposed ? SmallVector<OpFoldResult>{second, first}
                        : SmallVector<OpFoldResult>{first, second};
    };
    Operation *lhs =
        makeSlice(b, loc, matmul.getLhs(), ordered(matmul.getTransposeLhs(), offsets[0], offsets[2]),
                  ordered(matmul.getTransposeLhs(), sizes[0], sizes[2]));
    Operation *rhs =
        makeSlice(b, loc, matmul.getRhs(), ordered(matmul.getTransposeRhs(), offsets[2], offsets[1]),
                  ordered(matmul.getTransposeRhs(), sizes[2], sizes[1]));
    Operation *init = makeSlice(b, loc, matmul.getInit(), {offsets[0], offsets[1]},
                                {sizes[0], sizes[1]});
    Value initTile = init->getResult(0);
    Type resultType = matmul.getResult() ? initTile.getType() : Type();
    // Inline code needs static shapes; a tile of dynamic size calls libmips.
    bool inlined = matmul.getInlined() &&
                   llvm::all_of(ValueRange{lhs->getResult(0), rhs->getResult(0), initTile},
                                [](Value v) { return cast<ShapedType>(v.getType()).hasStaticShape(); });
    auto tiled = mips::MatmulOp::create(b, loc, resultType, lhs->getResult(0), rhs->getResult(0),
                                        initTile, matmul.getTransposeLhs(),
                                        matmul.getTransposeRhs(), matmul.getOverwrite(), inlined);
    TilingResult result;
    result.tiledOps.push_back(tiled);
    if (tiled.getResult())
      result.tiledValues.push_back(tiled.getResult());
    result.generatedSlices = {lhs, rhs, init};
    return result;
  }

  LogicalResult getResultTilePosition(Operation *, OpBuilder &, unsigned,
                                      ArrayRef<OpFoldResult> offsets,
                                      ArrayRef<OpFoldResult> sizes,
                                      SmallVector<OpFoldResult> &resultOffsets,
                                      SmallVector<OpFoldResult> &resultSizes) const {
    resultOffsets = {offsets[0], offsets[1]};
    resultSizes = {sizes[0], sizes[1]};
    return success();
  }

  /// A tile of the result is an (M, N) tile over the whole of K.
  FailureOr<TilingResult> generateResultTileValue(Operation *op, OpBuilder &b, unsigned,
                                                  ArrayRef<OpFoldResult> offsets,
                                                  ArrayRef<OpFoldResult> sizes) const {
    Range k = getIterationDomain(op, b)[2];
    return getTiledImplementation(op, b, {offsets[0], offsets[1], k.offset},
                                  {sizes[0], sizes[1], k.size});
  }

  LogicalResult getIterationDomainTileFromResultTile(
      Operation *op, OpBuilder &b, unsigned, ArrayRef<OpFoldResult> offsets,
      ArrayRef<OpFoldResult> sizes, SmallVectorImpl<OpFoldResult> &domainOffsets,
      SmallVectorImpl<OpFoldResult> &domainSizes) const {
    Range k = getIterationDomain(op, b)[2];
    domainOffsets.assign({offsets[0], offsets[1], k.offset});
    domainSizes.assign({sizes[0], sizes[1], k.size});
    return success();
  }
};

} // namespace

void mlir::mips::registerTilingInterfaceExternalModels(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, mips::MipsDialect *) {
    mips::MatmulOp::attachInterface<MatmulTilingInterface>(*ctx);
  });
}
