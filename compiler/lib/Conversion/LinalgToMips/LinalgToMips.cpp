// SPDX-License-Identifier: Apache-2.0
//===- LinalgToMips.cpp - linalg matmuls to mips.matmul ---------*- C++ -*-===//
//
// Rewrites the linalg contractions that libmips can run into mips.matmul, on
// tensors or memrefs. Every form ends as 2-D views of its operands: a
// transpose (indexing_maps) becomes a flag, a batch entry a rank-reducing
// slice, a vector an N = 1 or M = 1 matrix, never a copy. A zero fill of the
// init becomes the overwrite flag. Quantized matmuls become the plain int8
// product plus zero-point corrections, which are linalg ops.
//
//===----------------------------------------------------------------------===//

#include "mips-compiler/Conversion/LinalgToMips/LinalgToMips.h"

#include "mips-compiler/Dialect/Mips/BatchMatmulLoop.h"
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

/// Checks what libmips needs of a contraction: its element types, and signed
/// extension of integers (libmips sign-extends int8).
static LogicalResult checkKernel(PatternRewriter &rewriter, linalg::LinalgOp op,
                                 bool signedCast) {
  Type lhs = getElementTypeOrSelf(op.getDpsInputs()[0].getType());
  Type rhs = getElementTypeOrSelf(op.getDpsInputs()[1].getType());
  Type acc = getElementTypeOrSelf(op.getDpsInits()[0].getType());
  if (!mips::isMatmulElementTypes(lhs, rhs, acc))
    return rewriter.notifyMatchFailure(op, "no libmips kernel for these element types");
  if (acc.isInteger() && !signedCast)
    return rewriter.notifyMatchFailure(op, "libmips extends int8 as signed");
  if (!op.hasPureTensorSemantics() && !op.hasPureBufferSemantics())
    return rewriter.notifyMatchFailure(op, "mixes tensors and memrefs");
  for (Value operand : op->getOperands())
    if (auto memref = dyn_cast<MemRefType>(operand.getType());
        memref && !mips::isPlainStridedMemRef(memref))
      return rewriter.notifyMatchFailure(op, "a memref that is not strided or not in the "
                                             "default memory space");
  return success();
}

//===----------------------------------------------------------------------===//
// Indexing maps
//===----------------------------------------------------------------------===//

/// How a (batch) matmul's operands are laid out.
struct MatmulLayout {
  bool transposeLhs = false, transposeRhs = false;
  bool lhsBatched = false, rhsBatched = false; // batch_matmul: false = broadcast
};

/// Matches the indexing maps of a matmul (dims m, n, k) or batch matmul
/// (dims b, m, n, k): the output is (b?, m, n); each input is (b?, m, k) or
/// (b?, k, m) for the lhs and (b?, k, n) or (b?, n, k) for the rhs.
static FailureOr<MatmulLayout> matchLayout(ArrayRef<AffineMap> maps, bool batched,
                                           MLIRContext *ctx) {
  unsigned first = batched ? 1 : 0;
  AffineExpr bDim = getAffineDimExpr(0, ctx);
  AffineExpr m = getAffineDimExpr(first, ctx), n = getAffineDimExpr(first + 1, ctx),
             k = getAffineDimExpr(first + 2, ctx);
  auto map = [&](bool withBatch, AffineExpr x, AffineExpr y) {
    SmallVector<AffineExpr> results;
    if (withBatch)
      results.push_back(bDim);
    results.append({x, y});
    return AffineMap::get(first + 3, 0, results, ctx);
  };
  if (maps.size() != 3 || maps[2] != map(batched, m, n))
    return failure();
  MatmulLayout layout;
  auto matchOperand = [&](AffineMap actual, AffineExpr outer, AffineExpr inner,
                          bool &transposed, bool &hasBatch) {
    for (bool withBatch : {batched, false})
      for (bool swap : {false, true})
        if (actual == (swap ? map(withBatch, inner, outer) : map(withBatch, outer, inner))) {
          transposed = swap;
          hasBatch = withBatch;
          return true;
        }
    return false;
  };
  if (!matchOperand(maps[0], m, k, layout.transposeLhs, layout.lhsBatched) ||
      !matchOperand(maps[1], k, n, layout.transposeRhs, layout.rhsBatched))
    return failure();
  return layout;
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
    if (failed(checkKernel(rewriter, op, op.getCast() == linalg::TypeFn::cast_signed)))
      return failure();
    FailureOr<MatmulLayout> layout =
        matchLayout(op.getIndexingMapsArray(), /*batched=*/false, op.getContext());
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
    if (failed(checkKernel(rewriter, op, op.getCast() == linalg::TypeFn::cast_signed)))
      return failure();
    FailureOr<MatmulLayout> layout =
        matchLayout(op.getIndexingMapsArray(), /*batched=*/true, op.getContext());
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
    if (failed(checkKernel(rewriter, op, /*signedCast=*/true)))
      return failure();
    Value lhs = op.getDpsInputs()[0], rhs = op.getDpsInputs()[1];
    rewriteVectorProduct(rewriter, op, /*matrix=*/kVectorIsLhs ? rhs : lhs,
                         /*vector=*/kVectorIsLhs ? lhs : rhs, kVectorIsLhs);
    return success();
  }
};

/// True if the body of `op` computes acc + a * b (floats) or
/// acc + sext(a) * sext(b) (integers), with nothing else.
static bool isMultiplyAccumulateBody(linalg::GenericOp op, bool isInteger) {
  Block &body = op.getRegion().front();
  if (llvm::range_size(body.getOperations()) != (isInteger ? 5u : 3u))
    return false;
  Value a = body.getArgument(0), b = body.getArgument(1), acc = body.getArgument(2);
  Operation *add = body.getTerminator()->getOperand(0).getDefiningOp();
  if (!add || !(isInteger ? isa<arith::AddIOp>(add) : isa<arith::AddFOp>(add)))
    return false;
  Value product = add->getOperand(0) == acc   ? add->getOperand(1)
                  : add->getOperand(1) == acc ? add->getOperand(0)
                                              : Value();
  Operation *mul = product ? product.getDefiningOp() : nullptr;
  if (!mul || !(isInteger ? isa<arith::MulIOp>(mul) : isa<arith::MulFOp>(mul)))
    return false;
  auto source = [&](Value factor) -> Value {
    if (!isInteger)
      return factor;
    auto extend = factor.getDefiningOp<arith::ExtSIOp>();
    return extend ? extend.getIn() : Value();
  };
  Value x = source(mul->getOperand(0)), y = source(mul->getOperand(1));
  return (x == a && y == b) || (x == b && y == a);
}

/// The named (batch) matmul with `op`'s maps and operands, replacing `op`, if the
/// maps are a (transposed) matmul, or a batch matmul with at least one batched
/// operand.
static LogicalResult replaceWithNamedMatmul(PatternRewriter &rewriter, linalg::LinalgOp op,
                                            bool batched) {
  FailureOr<MatmulLayout> layout =
      matchLayout(op.getIndexingMapsArray(), batched, op.getContext());
  if (failed(layout) || (batched && !layout->lhsBatched && !layout->rhsBatched))
    return rewriter.notifyMatchFailure(op, "indexing maps are not a (transposed) matmul");
  NamedAttribute maps = rewriter.getNamedAttr("indexing_maps", op.getIndexingMaps());
  SmallVector<Type> results(op->getResultTypes());
  SmallVector<Value> inputs(op.getDpsInputs()), inits(op.getDpsInits());
  Operation *named =
      batched ? linalg::BatchMatmulOp::create(rewriter, op.getLoc(), results, inputs, inits,
                                              ArrayRef<NamedAttribute>{maps})
                    .getOperation()
              : linalg::MatmulOp::create(rewriter, op.getLoc(), results, inputs, inits,
                                         ArrayRef<NamedAttribute>{maps})
                    .getOperation();
  rewriter.replaceOp(op, named->getResults());
  return success();
}

/// A linalg.generic that is a (batch) matmul, a matvec or a vecmat, as frontends
/// and --linalg-generalize-named-ops write them: a (batch) matmul becomes the
/// named op, which the patterns above convert; a vector product becomes
/// mips.matmul directly. Upstream's linalg-specialize-generic-ops is not used:
/// in LLVM 22 it turns a transposed matmul into a plain linalg.matmul that fails
/// verification.
struct GenericMatmulToMips : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1)
      return rewriter.notifyMatchFailure(op, "not two inputs and one init");
    unsigned loops = op.getNumLoops();
    if (loops < 2 || loops > 4)
      return rewriter.notifyMatchFailure(op, "not a matmul-like iteration space");
    SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
    for (unsigned d = 0; d < loops; ++d)
      if (iterators[d] != (d + 1 == loops ? utils::IteratorType::reduction
                                          : utils::IteratorType::parallel))
        return rewriter.notifyMatchFailure(op, "iterators are not parallel then one reduction");
    if (failed(checkKernel(rewriter, op, /*signedCast=*/true)))
      return failure();
    bool isInteger = getElementTypeOrSelf(op.getDpsInits()[0].getType()).isInteger();
    if (!isMultiplyAccumulateBody(op, isInteger))
      return rewriter.notifyMatchFailure(op, "body is not a multiply-accumulate");
    if (loops == 2)
      return rewriteGenericVectorProduct(rewriter, op);
    return replaceWithNamedMatmul(rewriter, op, /*batched=*/loops == 4);
  }

private:
  /// Iterating (i, k) into y(i): a matrix indexed (i, k) is y = M x, one indexed
  /// (k, i) is y = x M; the vector is indexed (k). Either operand may come first.
  static LogicalResult rewriteGenericVectorProduct(PatternRewriter &rewriter,
                                                   linalg::GenericOp op) {
    MLIRContext *ctx = op.getContext();
    AffineExpr i = getAffineDimExpr(0, ctx), k = getAffineDimExpr(1, ctx);
    auto map = [&](ArrayRef<AffineExpr> results) { return AffineMap::get(2, 0, results, ctx); };
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    if (maps[2] != map({i}))
      return rewriter.notifyMatchFailure(op, "output is not indexed by the parallel dimension");
    for (unsigned vectorIndex : {0u, 1u}) {
      AffineMap matrixMap = maps[1 - vectorIndex];
      if (maps[vectorIndex] != map({k}) || (matrixMap != map({i, k}) && matrixMap != map({k, i})))
        continue;
      rewriteVectorProduct(rewriter, op, op.getDpsInputs()[1 - vectorIndex],
                           op.getDpsInputs()[vectorIndex],
                           /*vectorIsLhs=*/matrixMap == map({k, i}));
      return success();
    }
    return rewriter.notifyMatchFailure(op, "indexing maps are not a matvec or vecmat");
  }
};

/// linalg.contract in a (batch) matmul's dimension order, (b?, m, n, k), with
/// signed extension: the named op. Other dimension orders stay loops.
struct ContractMatmulToNamed : OpRewritePattern<linalg::ContractOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::ContractOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1)
      return rewriter.notifyMatchFailure(op, "not two inputs and one init");
    unsigned loops = op.getNumLoops();
    if (loops != 3 && loops != 4)
      return rewriter.notifyMatchFailure(op, "not a (batch) matmul iteration space");
    if (failed(checkKernel(rewriter, op, op.getCast() == linalg::TypeFn::cast_signed)))
      return failure();
    return replaceWithNamedMatmul(rewriter, op, /*batched=*/loops == 4);
  }
};

/// A zero point as the i32 the op's semantics cast it to, or null.
static Value castZeroPoint(OpBuilder &b, Location loc, Value zeroPoint) {
  auto type = dyn_cast<IntegerType>(zeroPoint.getType());
  if (!type)
    return {};
  Type i32 = b.getI32Type();
  if (type.getWidth() < 32)
    return arith::ExtSIOp::create(b, loc, i32, zeroPoint);
  if (type.getWidth() > 32)
    return arith::TruncIOp::create(b, loc, i32, zeroPoint);
  return zeroPoint;
}

/// sum over K of the int8 `operand` (lhs: per row; rhs: per column), in i32:
/// a zero-filled (b?, rows) tensor reduced by a linalg.generic.
static Value sumOverK(OpBuilder &b, Location loc, Value operand, bool isLhs, bool batched) {
  MLIRContext *ctx = b.getContext();
  auto type = cast<RankedTensorType>(operand.getType());
  unsigned rank = type.getRank();
  // Iterate (b?, kept, k); the operand is (b?, kept, k) for the lhs, (b?, k, kept)
  // for the rhs.
  unsigned kept = rank - 2 + (isLhs ? 0 : 1);
  SmallVector<AffineExpr> iterDims, operandDims, sumDims;
  for (unsigned d = 0; d < rank; ++d)
    iterDims.push_back(getAffineDimExpr(d, ctx));
  SmallVector<OpFoldResult> sumSizes;
  SmallVector<int64_t> sumShape;
  if (batched) {
    sumSizes.push_back(mips::getMixedExtent(b, loc, operand, 0));
    sumShape.push_back(type.getDimSize(0));
    sumDims.push_back(iterDims[0]);
  }
  sumSizes.push_back(mips::getMixedExtent(b, loc, operand, kept));
  sumShape.push_back(type.getDimSize(kept));
  sumDims.push_back(iterDims[rank - 2]);
  if (batched)
    operandDims.push_back(iterDims[0]);
  AffineExpr keptExpr = iterDims[rank - 2], kExpr = iterDims[rank - 1];
  if (isLhs)
    operandDims.append({keptExpr, kExpr});
  else
    operandDims.append({kExpr, keptExpr});

  Type i32 = b.getI32Type();
  Value empty = tensor::EmptyOp::create(b, loc, sumSizes, i32);
  Value zero = arith::ConstantIntOp::create(b, loc, i32, 0);
  Value init = linalg::FillOp::create(b, loc, zero, empty).getResult(0);
  SmallVector<AffineMap> maps = {AffineMap::get(rank, 0, operandDims, ctx),
                                 AffineMap::get(rank, 0, sumDims, ctx)};
  SmallVector<utils::IteratorType> iterators(rank, utils::IteratorType::parallel);
  iterators.back() = utils::IteratorType::reduction;
  auto generic = linalg::GenericOp::create(
      b, loc, init.getType(), ValueRange{operand}, ValueRange{init}, maps, iterators,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value wide = arith::ExtSIOp::create(nb, nloc, i32, args[0]);
        linalg::YieldOp::create(nb, nloc,
                                ValueRange{arith::AddIOp::create(nb, nloc, args[1], wide)});
      });
  return generic.getResult(0);
}

/// sum over [0, n) of `term(index)` in i32.
static Value sumOver(OpBuilder &b, Location loc, Value n,
                     function_ref<Value(OpBuilder &, Value)> term) {
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value none = arith::ConstantIntOp::create(b, loc, b.getI32Type(), 0);
  auto loop = scf::ForOp::create(
      b, loc, zero, n, one, ValueRange{none},
      [&](OpBuilder &nb, Location nloc, Value index, ValueRange acc) {
        scf::YieldOp::create(nb, nloc,
                             ValueRange{arith::AddIOp::create(nb, nloc, acc[0], term(nb, index))});
      });
  return loop.getResult(0);
}

/// for outer in [0, outerCount): t = term(outer); for inner: c[at(outer, inner)] -= t.
static void subtractAlong(OpBuilder &b, Location loc, Value c, Value outerCount,
                          Value innerCount, bool outerIsRow,
                          function_ref<Value(OpBuilder &, Value)> term) {
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  scf::ForOp::create(
      b, loc, zero, outerCount, one, ValueRange{},
      [&](OpBuilder &ob, Location oloc, Value outer, ValueRange) {
        Value t = term(ob, outer);
        scf::ForOp::create(
            ob, oloc, zero, innerCount, one, ValueRange{},
            [&](OpBuilder &ib, Location iloc, Value inner, ValueRange) {
              SmallVector<Value> at = outerIsRow ? SmallVector<Value>{outer, inner}
                                                 : SmallVector<Value>{inner, outer};
              Value old = memref::LoadOp::create(ib, iloc, c, at);
              memref::StoreOp::create(ib, iloc, arith::SubIOp::create(ib, iloc, old, t), c, at);
              scf::YieldOp::create(ib, iloc);
            });
        scf::YieldOp::create(ob, oloc);
      });
}

/// The zero-point corrections of a quantized matmul on buffers, in place on C
/// (which already holds C + A*B), with no temporary buffer: row i of C loses
/// zb * rowsum_i(A), column j loses za * colsum_j(B) - K za zb. A null zero
/// point is known to be 0. Batched operands loop over the batch.
static void correctBuffer(OpBuilder &b, Location loc, Value a, Value bm, Value c, Value za,
                          Value zb) {
  if (!za && !zb)
    return;
  if (cast<MemRefType>(c.getType()).getRank() == 3) {
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    Value batch = getValueOrCreateConstantIndexOp(b, loc, mips::getMixedExtent(b, loc, c, 0));
    scf::ForOp::create(b, loc, zero, batch, one, ValueRange{},
                       [&](OpBuilder &nb, Location nloc, Value index, ValueRange) {
                         correctBuffer(nb, nloc, mips::sliceBatchEntry(nb, nloc, a, index),
                                       mips::sliceBatchEntry(nb, nloc, bm, index),
                                       mips::sliceBatchEntry(nb, nloc, c, index), za, zb);
                         scf::YieldOp::create(nb, nloc);
                       });
    return;
  }
  auto extent = [&](Value v, int64_t d) {
    return getValueOrCreateConstantIndexOp(b, loc, mips::getMixedExtent(b, loc, v, d));
  };
  Value m = extent(a, 0), k = extent(a, 1), n = extent(bm, 1);
  Type i32 = b.getI32Type();
  auto widened = [&](OpBuilder &nb, Value source, ValueRange at) -> Value {
    return arith::ExtSIOp::create(nb, loc, i32, memref::LoadOp::create(nb, loc, source, at));
  };
  if (zb)
    subtractAlong(b, loc, c, m, n, /*outerIsRow=*/true, [&](OpBuilder &nb, Value i) -> Value {
      Value rowSum = sumOver(nb, loc, k, [&](OpBuilder &kb, Value l) {
        return widened(kb, a, ValueRange{i, l});
      });
      return arith::MulIOp::create(nb, loc, zb, rowSum);
    });
  if (za) {
    // K za zb is 0 unless both zero points may be nonzero.
    Value kzz = zb ? arith::MulIOp::create(
                         b, loc, arith::IndexCastOp::create(b, loc, i32, k),
                         arith::MulIOp::create(b, loc, za, zb))
                         .getResult()
                   : Value();
    subtractAlong(b, loc, c, n, m, /*outerIsRow=*/false, [&](OpBuilder &nb, Value j) -> Value {
      Value colSum = sumOver(nb, loc, k, [&](OpBuilder &kb, Value l) {
        return widened(kb, bm, ValueRange{l, j});
      });
      Value t = arith::MulIOp::create(nb, loc, za, colSum);
      return kzz ? arith::SubIOp::create(nb, loc, t, kzz).getResult() : t;
    });
  }
}

/// sum_k (a - za)(b - zb) = sum_k a b - zb rowsum(A) - za colsum(B) + K za zb:
/// the first term is a plain int8 matmul (which libmips runs), the others are
/// O(MK + KN + MN) linalg ops. i32 arithmetic wraps, so the identity is exact
/// modulo 2^32, like the op itself.
template <typename OpTy, bool kBatched>
struct QuantizedMatmulToMatmul : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op, PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics() && !op.hasPureBufferSemantics())
      return rewriter.notifyMatchFailure(op, "mixes tensors and memrefs");
    Value a = op.getDpsInputs()[0], bm = op.getDpsInputs()[1];
    Value init = op.getDpsInits()[0];
    if (!mips::isMatmulElementTypes(getElementTypeOrSelf(a), getElementTypeOrSelf(bm),
                                    getElementTypeOrSelf(init)))
      return rewriter.notifyMatchFailure(op, "no libmips kernel for these element types");
    Location loc = op.getLoc();
    Value za = castZeroPoint(rewriter, loc, op.getDpsInputs()[2]);
    Value zb = castZeroPoint(rewriter, loc, op.getDpsInputs()[3]);
    if (!za || !zb)
      return rewriter.notifyMatchFailure(op, "zero points are not integers");

    bool zaIsZero = matchPattern(za, m_Zero()), zbIsZero = matchPattern(zb, m_Zero());
    // The int8 product: on buffers it accumulates into C, on tensors it is a value.
    SmallVector<Type> productTypes;
    if (op.hasPureTensorSemantics())
      productTypes.push_back(init.getType());
    Operation *productOp;
    if constexpr (kBatched)
      productOp = linalg::BatchMatmulOp::create(rewriter, loc, productTypes, ValueRange{a, bm},
                                                ValueRange{init});
    else
      productOp = linalg::MatmulOp::create(rewriter, loc, productTypes, ValueRange{a, bm},
                                           ValueRange{init});
    if (op.hasPureBufferSemantics()) {
      correctBuffer(rewriter, loc, a, bm, init, zaIsZero ? Value() : za, zbIsZero ? Value() : zb);
      rewriter.eraseOp(op);
      return success();
    }

    Value product = productOp->getResult(0);
    if (zaIsZero && zbIsZero) {
      rewriter.replaceOp(op, product);
      return success();
    }
    MLIRContext *ctx = op.getContext();
    Type i32 = rewriter.getI32Type();
    unsigned rank = kBatched ? 3 : 2;
    Value rowSums = zbIsZero ? Value() : sumOverK(rewriter, loc, a, /*isLhs=*/true, kBatched);
    Value colSums = zaIsZero ? Value() : sumOverK(rewriter, loc, bm, /*isLhs=*/false, kBatched);
    Value k = arith::IndexCastOp::create(
        rewriter, loc, i32,
        getValueOrCreateConstantIndexOp(rewriter, loc, mips::getMixedExtent(rewriter, loc, a, rank - 1)));
    Value kzz = arith::MulIOp::create(rewriter, loc, k, arith::MulIOp::create(rewriter, loc, za, zb));

    // Iterate (b?, m, n).
    SmallVector<AffineExpr> dims;
    for (unsigned d = 0; d < rank; ++d)
      dims.push_back(getAffineDimExpr(d, ctx));
    auto project = [&](bool keepM) {
      SmallVector<AffineExpr> results;
      if (kBatched)
        results.push_back(dims[0]);
      results.push_back(keepM ? dims[rank - 2] : dims[rank - 1]);
      return AffineMap::get(rank, 0, results, ctx);
    };
    SmallVector<Value> inputs;
    SmallVector<AffineMap> maps;
    if (rowSums) {
      inputs.push_back(rowSums);
      maps.push_back(project(/*keepM=*/true));
    }
    if (colSums) {
      inputs.push_back(colSums);
      maps.push_back(project(/*keepM=*/false));
    }
    maps.push_back(AffineMap::getMultiDimIdentityMap(rank, ctx));
    SmallVector<utils::IteratorType> iterators(rank, utils::IteratorType::parallel);
    auto corrected = linalg::GenericOp::create(
        rewriter, loc, product.getType(), inputs, ValueRange{product}, maps, iterators,
        [&](OpBuilder &b, Location nloc, ValueRange args) {
          Value acc = args.back();
          unsigned next = 0;
          if (rowSums)
            acc = arith::SubIOp::create(b, nloc, acc,
                                        arith::MulIOp::create(b, nloc, zb, args[next++]));
          if (colSums)
            acc = arith::SubIOp::create(b, nloc, acc,
                                        arith::MulIOp::create(b, nloc, za, args[next++]));
          acc = arith::AddIOp::create(b, nloc, acc, kzz);
          linalg::YieldOp::create(b, nloc, ValueRange{acc});
        });
    rewriter.replaceOp(op, corrected.getResults());
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
  patterns.add<MatmulToMips, BatchMatmulToMips, GenericMatmulToMips, ContractMatmulToNamed,
               VectorProductToMips<linalg::MatvecOp, /*kVectorIsLhs=*/false>,
               VectorProductToMips<linalg::VecmatOp, /*kVectorIsLhs=*/true>,
               QuantizedMatmulToMatmul<linalg::QuantizedMatmulOp, /*kBatched=*/false>,
               QuantizedMatmulToMatmul<linalg::QuantizedBatchMatmulOp, /*kBatched=*/true>>(
      patterns.getContext());
}
