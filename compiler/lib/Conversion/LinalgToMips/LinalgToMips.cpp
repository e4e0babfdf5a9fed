// SPDX-License-Identifier: Apache-2.0
//===- LinalgToMips.cpp - linalg matmuls to mips.matmul ---------*- C++ -*-===//
//
// Rewrites the named linalg matmuls that libmips can run into mips.matmul, on
// tensors or memrefs. Every form ends as 2-D views of its operands: a
// transpose (indexing_maps) becomes a flag, a batch entry a rank-reducing
// slice, a vector an N = 1 or M = 1 matrix, never a copy. A zero fill of the
// init becomes the overwrite flag. Generics and contractions reach it as named
// ops (mips-raise-contractions), quantized matmuls as plain int8 products
// (mips-decompose-quantized-matmuls).
//
//===----------------------------------------------------------------------===//

#include "mips-compiler/Conversion/LinalgToMips/LinalgToMips.h"

#include "mips-compiler/Dialect/Mips/BatchMatmulLoop.h"
#include "mips-compiler/Dialect/Mips/Contractions.h"
#include "mips-compiler/Dialect/Mips/MipsOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace mips {
#define GEN_PASS_DEF_CONVERTLINALGTOMIPS
#include "mips-compiler/Conversion/Passes.h.inc"
} // namespace mips
} // namespace mlir

using namespace mlir;

namespace {

//===----------------------------------------------------------------------===//
// Operand views
//===----------------------------------------------------------------------===//

/// A vector as a one-column (`asRow` = false) or one-row matrix view.
static Value vectorAsMatrix(OpBuilder &b, Location loc, Value vector, bool asRow) {
  auto type = cast<ShapedType>(vector.getType());
  OpFoldResult length = mips::getMixedExtent(b, loc, vector, 0), one = b.getIndexAttr(1);
  SmallVector<OpFoldResult> outputShape =
      asRow ? SmallVector<OpFoldResult>{one, length} : SmallVector<OpFoldResult>{length, one};
  SmallVector<int64_t> shape = asRow ? SmallVector<int64_t>{1, type.getDimSize(0)}
                                     : SmallVector<int64_t>{type.getDimSize(0), 1};
  SmallVector<ReassociationIndices> reassociation = {{0, 1}};
  if (isa<RankedTensorType>(type))
    return tensor::ExpandShapeOp::create(b, loc,
                                         RankedTensorType::get(shape, type.getElementType()),
                                         vector, reassociation, outputShape);
  return memref::ExpandShapeOp::create(b, loc, shape, vector, reassociation, outputShape);
}

/// Returns the value an init holds if it is a tensor linalg.fill of +0, or the
/// linalg.generic form of one (+0 is the only fill for which `init + A*B` equals
/// `A*B` bit for bit), else null.
static Value getZeroFilledDestination(Value init) {
  auto fill = init.getDefiningOp<linalg::LinalgOp>();
  if (!fill || !fill.hasPureTensorSemantics() || fill.getNumDpsInits() != 1)
    return {};
  // linalg.fill, or the linalg.generic that --linalg-generalize-named-ops makes of it.
  Value value;
  if (auto named = dyn_cast<linalg::FillOp>(fill.getOperation()))
    value = named.getInputs()[0];
  else if (auto generic = dyn_cast<linalg::GenericOp>(fill.getOperation()))
    value = linalg::isaFillOpInterface(generic).value_or(Value());
  if (!value || (!matchPattern(value, m_PosZeroFloat()) && !matchPattern(value, m_Zero())))
    return {};
  return fill.getDpsInits()[0];
}

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

/// A `linalg.transpose` of the last two dimensions feeding a matmul operand is
/// the operand's transpose flag, flipped: libmips reads the transposed view
/// through its strides instead of a copy (PyTorch's Linear layers arrive as
/// transpose + matmul).
static void foldTransposeProducer(Value &operand, bool &transposed) {
  auto transpose = operand.getDefiningOp<linalg::TransposeOp>();
  if (!transpose || !transpose.hasPureTensorSemantics())
    return;
  ArrayRef<int64_t> permutation = transpose.getPermutation();
  size_t rank = permutation.size();
  if (rank < 2 || permutation[rank - 2] != int64_t(rank - 1) ||
      permutation[rank - 1] != int64_t(rank - 2))
    return;
  for (size_t d = 0; d + 2 < rank; ++d)
    if (permutation[d] != int64_t(d))
      return;
  operand = transpose.getInput();
  transposed = !transposed;
}

/// The product into `init`: a new tensor on tensors, nothing on memrefs.
static Value createMipsMatmul(OpBuilder &b, Location loc, Value lhs, Value rhs, Value init,
                              bool transposeLhs, bool transposeRhs, bool overwrite) {
  Type resultType = isa<RankedTensorType>(init.getType()) ? init.getType() : Type();
  auto matmul = mips::MatmulOp::create(b, loc, resultType, lhs, rhs, init, transposeLhs,
                                       transposeRhs, overwrite);
  return matmul.getResult();
}

struct MatmulToMips : OpRewritePattern<linalg::MatmulOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::MatmulOp op,
                                PatternRewriter &rewriter) const override {
    if (failed(mips::checkLibmipsContraction(rewriter, op, op.getCast() == linalg::TypeFn::cast_signed)))
      return failure();
    FailureOr<mips::MatmulLayout> layout =
        mips::matchMatmulLayout(op.getIndexingMapsArray(), /*batched=*/false, op.getContext());
    if (failed(layout))
      return rewriter.notifyMatchFailure(op, "indexing maps are not a (transposed) matmul");
    Value init = op.getDpsInits()[0];
    bool overwrite = false;
    if (Value destination = getZeroFilledDestination(init)) {
      init = destination;
      overwrite = true;
    }
    Value lhs = op.getDpsInputs()[0], rhs = op.getDpsInputs()[1];
    foldTransposeProducer(lhs, layout->transposeLhs);
    foldTransposeProducer(rhs, layout->transposeRhs);
    Value result = createMipsMatmul(rewriter, op.getLoc(), lhs, rhs, init, layout->transposeLhs,
                                    layout->transposeRhs, overwrite);
    if (result)
      rewriter.replaceOp(op, result);
    else
      rewriter.eraseOp(op);
    return success();
  }
};

/// mips.batch_matmul; an operand without a batch dimension (broadcast) stays
/// rank 2. A static unit batch in every operand (what TOSA's 3-D matmul often is)
/// is a single mips.matmul on 2-D slices straight away.
struct BatchMatmulToMips : OpRewritePattern<linalg::BatchMatmulOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::BatchMatmulOp op,
                                PatternRewriter &rewriter) const override {
    if (failed(mips::checkLibmipsContraction(rewriter, op, op.getCast() == linalg::TypeFn::cast_signed)))
      return failure();
    FailureOr<mips::MatmulLayout> layout =
        mips::matchMatmulLayout(op.getIndexingMapsArray(), /*batched=*/true, op.getContext());
    if (failed(layout))
      return rewriter.notifyMatchFailure(op, "indexing maps are not a (transposed) batch matmul");
    Location loc = op.getLoc();
    Value lhs = op.getDpsInputs()[0], rhs = op.getDpsInputs()[1];
    Value init = op.getDpsInits()[0];
    // A statically empty product adds nothing to C (a zero-filled init stays the fill).
    if (llvm::any_of(ValueRange{lhs, rhs, init}, [](Value v) {
          return llvm::is_contained(cast<ShapedType>(v.getType()).getShape(), 0);
        })) {
      if (isa<RankedTensorType>(init.getType()))
        rewriter.replaceOp(op, init);
      else
        rewriter.eraseOp(op);
      return success();
    }
    bool overwrite = false;
    if (Value destination = getZeroFilledDestination(init)) {
      init = destination;
      overwrite = true;
    }
    foldTransposeProducer(lhs, layout->transposeLhs);
    foldTransposeProducer(rhs, layout->transposeRhs);
    Type resultType = isa<RankedTensorType>(init.getType()) ? init.getType() : Type();
    auto batch = mips::BatchMatmulOp::create(rewriter, loc, resultType, lhs, rhs, init,
                                             layout->transposeLhs, layout->transposeRhs,
                                             overwrite);
    if (resultType)
      rewriter.replaceOp(op, batch.getResult());
    else
      rewriter.eraseOp(op);
    // A unit batch throughout is one matmul now; a dynamic operand batch is left to
    // convert-mips-to-libmips, which checks it against init's 1 at run time.
    auto unitBatch = [](Value v) {
      auto type = cast<ShapedType>(v.getType());
      return type.getRank() == 2 || type.getDimSize(0) == 1;
    };
    if (unitBatch(lhs) && unitBatch(rhs) && unitBatch(init))
      mips::expandBatchMatmul(rewriter, batch);
    return success();
  }
};

/// y = M x as (rows x K) * (K x 1) when `vectorIsLhs` is false, or y = x M as
/// (1 x K) * (K x cols): the vector as a one-column or one-row matrix view.
static void rewriteVectorProduct(PatternRewriter &rewriter, linalg::LinalgOp op,
                                 Value matrix, Value vector, bool vectorIsLhs) {
  Location loc = op.getLoc();
  Value init = op.getDpsInits()[0];
  bool overwrite = false;
  if (Value destination = getZeroFilledDestination(init)) {
    init = destination;
    overwrite = true;
  }
  Value vectorView = vectorAsMatrix(rewriter, loc, vector, /*asRow=*/vectorIsLhs);
  Value lhs = vectorIsLhs ? vectorView : matrix, rhs = vectorIsLhs ? matrix : vectorView;
  Value matrixInit = vectorAsMatrix(rewriter, loc, init, /*asRow=*/vectorIsLhs);
  Value product = createMipsMatmul(rewriter, loc, lhs, rhs, matrixInit, false, false,
                                   overwrite);
  if (!product) {
    rewriter.eraseOp(op);
    return;
  }
  SmallVector<ReassociationIndices> reassociation = {{0, 1}};
  rewriter.replaceOpWithNewOp<tensor::CollapseShapeOp>(op, op->getResult(0).getType(),
                                                       product, reassociation);
}

/// linalg.matvec (y = A x) and linalg.vecmat (y = x B).
template <typename OpTy, bool kVectorIsLhs>
struct VectorProductToMips : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op, PatternRewriter &rewriter) const override {
    // Named matvec/vecmat have fixed maps and always extend integers as signed.
    if (failed(mips::checkLibmipsContraction(rewriter, op, /*signedCast=*/true)))
      return failure();
    Value lhs = op.getDpsInputs()[0], rhs = op.getDpsInputs()[1];
    rewriteVectorProduct(rewriter, op, /*matrix=*/kVectorIsLhs ? rhs : lhs,
                         /*vector=*/kVectorIsLhs ? lhs : rhs, kVectorIsLhs);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

struct ConvertLinalgToMipsPass
    : mips::impl::ConvertLinalgToMipsBase<ConvertLinalgToMipsPass> {
  using Base::Base;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    mips::populateLinalgToMipsPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

void mlir::mips::populateLinalgToMipsPatterns(RewritePatternSet &patterns) {
  patterns.add<MatmulToMips, BatchMatmulToMips,
               VectorProductToMips<linalg::MatvecOp, /*kVectorIsLhs=*/false>,
               VectorProductToMips<linalg::VecmatOp, /*kVectorIsLhs=*/true>>(
      patterns.getContext());
}
