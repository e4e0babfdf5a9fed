// SPDX-License-Identifier: Apache-2.0
//===- ConvToMatmul.cpp - convolutions as matmuls ---------------*- C++ -*-===//
//
// A convolution is a matmul over its patches. 1x1 convolutions with unit
// strides need no patches: their input, viewed as rows of channels, is the
// matmul's operand as it stands. Larger kernels copy their patches into an
// im2col tensor first, which costs KH*KW times the input but lets libmips run
// the product. convert-linalg-to-mips then recognises the matmul-shaped ops
// produced here.
//
//===----------------------------------------------------------------------===//

#include "mips-compiler/Conversion/ConvToMatmul/ConvToMatmul.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <algorithm>
#include <type_traits>

namespace mlir {
namespace mips {
#define GEN_PASS_DEF_CONVERTCONVTOMATMUL
#include "mips-compiler/Conversion/Passes.h.inc"
} // namespace mips
} // namespace mlir

using namespace mlir;

namespace {

/// Whether `conv` is one this pass rewrites: tensors, static shapes, and element
/// types libmips multiplies (f32, or int8 into int32).
bool isLibmipsConv(linalg::LinalgOp conv) {
  if (!conv.hasPureTensorSemantics() || conv.hasDynamicShape())
    return false;
  Type a = getElementTypeOrSelf(conv.getDpsInputs()[0]);
  Type b = getElementTypeOrSelf(conv.getDpsInputs()[1]);
  Type c = getElementTypeOrSelf(conv.getDpsInits()[0]);
  if (a.isF32() && b.isF32() && c.isF32())
    return true;
  return a.isSignlessInteger(8) && b.isSignlessInteger(8) && c.isSignlessInteger(32);
}

/// The convolutions this pass rewrites (when isLibmipsConv holds).
bool isConvertedLayout(Operation *op) {
  return isa<linalg::Conv2DNhwcHwcfOp, linalg::Conv2DNhwcFhwcOp, linalg::Conv2DNchwFchwOp,
             linalg::Conv2DNhwcHwcfQOp, linalg::Conv2DNhwcFhwcQOp>(op);
}

bool allOnes(DenseIntElementsAttr values) {
  return llvm::all_of(values.getValues<int64_t>(), [](int64_t v) { return v == 1; });
}

/// The reassociation that merges dims [first, last] of a rank-`rank` shape.
SmallVector<ReassociationIndices> mergeRange(int64_t rank, int64_t first, int64_t last) {
  SmallVector<ReassociationIndices> groups;
  for (int64_t d = 0; d < first; ++d)
    groups.push_back({d});
  ReassociationIndices merged;
  for (int64_t d = first; d <= last; ++d)
    merged.push_back(d);
  groups.push_back(merged);
  for (int64_t d = last + 1; d < rank; ++d)
    groups.push_back({d});
  return groups;
}

Value collapse(PatternRewriter &rewriter, Location loc, Value tensor, int64_t first,
               int64_t last) {
  auto type = cast<RankedTensorType>(tensor.getType());
  return tensor::CollapseShapeOp::create(rewriter, loc, tensor,
                                         mergeRange(type.getRank(), first, last));
}

/// The multiply-add body of a contraction: `acc + a * b`, sign-extending int8.
void buildMultiplyAdd(OpBuilder &b, Location loc, ValueRange args) {
  Value x = args[0], y = args[1], acc = args[2];
  Value sum;
  if (isa<FloatType>(acc.getType())) {
    Value product = arith::MulFOp::create(b, loc, x, y);
    sum = arith::AddFOp::create(b, loc, acc, product);
  } else {
    Value xe = arith::ExtSIOp::create(b, loc, acc.getType(), x);
    Value ye = arith::ExtSIOp::create(b, loc, acc.getType(), y);
    Value product = arith::MulIOp::create(b, loc, xe, ye);
    sum = arith::AddIOp::create(b, loc, acc, product);
  }
  linalg::YieldOp::create(b, loc, sum);
}

/// NHWC: `rows` [N*OH*OW, K] times the filter viewed as [K, F] (HWCF) or [F, K]
/// (FHWC, read transposed), accumulated into `init` viewed as [N*OH*OW, F];
/// returned in init's own shape.
Value multiplyRowsByFilter(PatternRewriter &rewriter, Location loc, Value rows, Value filter,
                           Value init, bool filterFirst, ValueRange zeroPoints = {}) {
  Value weights = filterFirst ? collapse(rewriter, loc, filter, 1, 3)
                              : collapse(rewriter, loc, filter, 0, 2);
  Value acc = collapse(rewriter, loc, init, 0, 2);
  auto initType = cast<RankedTensorType>(init.getType());
  if (!zeroPoints.empty()) {
    // Zero points (a _q conv): linalg.quantized_matmul, whose B is [K, F], so an
    // FHWC filter is transposed first (a copy of the weights, not of the input).
    if (filterFirst) {
      auto type = cast<RankedTensorType>(weights.getType());
      Value empty = tensor::EmptyOp::create(rewriter, loc, {type.getDimSize(1), type.getDimSize(0)},
                                            type.getElementType());
      weights = linalg::TransposeOp::create(rewriter, loc, weights, empty, ArrayRef<int64_t>{1, 0})
                    .getResult()[0];
    }
    auto product = linalg::QuantizedMatmulOp::create(
        rewriter, loc, TypeRange{acc.getType()},
        ValueRange{rows, weights, zeroPoints[0], zeroPoints[1]}, ValueRange{acc});
    return tensor::ExpandShapeOp::create(rewriter, loc, initType, product.getResult(0),
                                         mergeRange(initType.getRank(), 0, 2));
  }
  MLIRContext *ctx = rewriter.getContext();
  AffineExpr m, n, k;
  bindDims(ctx, m, n, k);
  SmallVector<AffineMap> maps = {AffineMap::get(3, 0, {m, k}, ctx),
                                 filterFirst ? AffineMap::get(3, 0, {n, k}, ctx)
                                             : AffineMap::get(3, 0, {k, n}, ctx),
                                 AffineMap::get(3, 0, {m, n}, ctx)};
  auto product = linalg::GenericOp::create(
      rewriter, loc, acc.getType(), ValueRange{rows, weights}, ValueRange{acc}, maps,
      {utils::IteratorType::parallel, utils::IteratorType::parallel,
       utils::IteratorType::reduction},
      [](OpBuilder &b, Location l, ValueRange args) { buildMultiplyAdd(b, l, args); });
  return tensor::ExpandShapeOp::create(rewriter, loc, initType, product.getResult(0),
                                       mergeRange(initType.getRank(), 0, 2));
}

/// The zero points of a _q convolution (its inputs after input and filter); none
/// for the others.
SmallVector<Value> zeroPointsOf(linalg::LinalgOp conv) {
  SmallVector<Value> inputs = conv.getDpsInputs();
  return SmallVector<Value>(llvm::drop_begin(inputs, 2));
}

/// NCHW: the filter viewed as [F, K] times `columns` [N, K, OH*OW], a batch of
/// products sharing the filter, accumulated into `init` viewed as [N, F, OH*OW];
/// returned in init's own shape.
Value multiplyFilterByColumns(PatternRewriter &rewriter, Location loc, Value filter,
                              Value columns, Value init) {
  Value weights = collapse(rewriter, loc, filter, 1, 3);
  Value acc = collapse(rewriter, loc, init, 2, 3);
  MLIRContext *ctx = rewriter.getContext();
  AffineExpr b, m, n, k;
  bindDims(ctx, b, m, n, k);
  SmallVector<AffineMap> maps = {AffineMap::get(4, 0, {m, k}, ctx),
                                 AffineMap::get(4, 0, {b, k, n}, ctx),
                                 AffineMap::get(4, 0, {b, m, n}, ctx)};
  auto product = linalg::GenericOp::create(
      rewriter, loc, acc.getType(), ValueRange{weights, columns}, ValueRange{acc}, maps,
      {utils::IteratorType::parallel, utils::IteratorType::parallel,
       utils::IteratorType::parallel, utils::IteratorType::reduction},
      [](OpBuilder &bb, Location l, ValueRange args) { buildMultiplyAdd(bb, l, args); });
  auto initType = cast<RankedTensorType>(init.getType());
  return tensor::ExpandShapeOp::create(rewriter, loc, initType, product.getResult(0),
                                       mergeRange(initType.getRank(), 2, 3));
}

/// 1x1 NHWC convolution with unit strides: out[n,h,w,f] = sum_c in[n,h,w,c] *
/// filter[c,f] (HWCF) or filter[f,c] (FHWC), i.e. a matmul of the input as
/// N*H*W rows of C channels; the reshapes are views.
template <typename ConvOp, bool kFilterFirst>
struct PointwiseNhwcConvToMatmul : OpRewritePattern<ConvOp> {
  using OpRewritePattern<ConvOp>::OpRewritePattern;

  LogicalResult matchAndRewrite(ConvOp conv, PatternRewriter &rewriter) const override {
    if (!isLibmipsConv(conv) || !allOnes(conv.getStrides()))
      return rewriter.notifyMatchFailure(conv, "not a static unit-stride conv libmips runs");
    Value input = conv.getDpsInputs()[0], filter = conv.getDpsInputs()[1];
    Value init = conv.getDpsInits()[0];
    auto filterType = cast<RankedTensorType>(filter.getType());
    // HWCF: [1, 1, C, F]; FHWC: [F, 1, 1, C].
    int64_t kh = filterType.getDimSize(kFilterFirst ? 1 : 0);
    int64_t kw = filterType.getDimSize(kFilterFirst ? 2 : 1);
    if (kh != 1 || kw != 1)
      return rewriter.notifyMatchFailure(conv, "not a 1x1 kernel");
    // Input rows or columns past the output's are never read: then the input is
    // not the matmul's operand as it stands (im2col copies what is read).
    auto inputType = cast<RankedTensorType>(input.getType());
    auto initType = cast<RankedTensorType>(init.getType());
    if (inputType.getDimSize(1) != initType.getDimSize(1) ||
        inputType.getDimSize(2) != initType.getDimSize(2))
      return rewriter.notifyMatchFailure(conv, "input larger than the output");
    Location loc = conv.getLoc();
    Value rows = collapse(rewriter, loc, input, 0, 2);
    rewriter.replaceOp(conv, multiplyRowsByFilter(rewriter, loc, rows, filter, init, kFilterFirst,
                                                  zeroPointsOf(conv)));
    return success();
  }
};

/// 1x1 NCHW convolution with unit strides: out[n,f,hw] = sum_c filter[f,c] *
/// in[n,c,hw], a batch of (F x C) * (C x H*W) products sharing the filter.
struct PointwiseNchwConvToMatmul : OpRewritePattern<linalg::Conv2DNchwFchwOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::Conv2DNchwFchwOp conv,
                                PatternRewriter &rewriter) const override {
    if (!isLibmipsConv(conv) || !allOnes(conv.getStrides()))
      return rewriter.notifyMatchFailure(conv, "not a static unit-stride conv libmips runs");
    Value input = conv.getDpsInputs()[0], filter = conv.getDpsInputs()[1];
    Value init = conv.getDpsInits()[0];
    auto filterType = cast<RankedTensorType>(filter.getType());
    if (filterType.getDimSize(2) != 1 || filterType.getDimSize(3) != 1)
      return rewriter.notifyMatchFailure(conv, "not a 1x1 kernel");
    auto inputType = cast<RankedTensorType>(input.getType());
    auto outType = cast<RankedTensorType>(init.getType());
    if (inputType.getDimSize(2) != outType.getDimSize(2) ||
        inputType.getDimSize(3) != outType.getDimSize(3))
      return rewriter.notifyMatchFailure(conv, "input larger than the output");
    Location loc = conv.getLoc();
    Value pixels = collapse(rewriter, loc, input, 2, 3); // [N, C, H*W]
    rewriter.replaceOp(conv, multiplyFilterByColumns(rewriter, loc, filter, pixels, init));
    return success();
  }
};

/// Strides or dilations of a convolution as two integers.
std::pair<int64_t, int64_t> pairOf(DenseIntElementsAttr values) {
  auto v = llvm::to_vector(values.getValues<int64_t>());
  return {v[0], v[1]};
}

/// Output rows per im2col block of one image when the patches of the whole
/// output do not fit in `budgetBytes`: the largest divisor of `rows` whose block
/// does (at least one row), so the im2col buffer stays bounded.
int64_t rowsPerBlock(int64_t rows, int64_t bytesPerRow, int64_t budgetBytes) {
  for (int64_t r = rows; r > 1; --r)
    if (rows % r == 0 && r * bytesPerRow <= budgetBytes)
      return r;
  return 1;
}

/// Runs `block` for each image of the batch and each block of `rows` output rows,
/// threading the conv's output through: `block(image, firstRow, outputBlock)`
/// gets the output's [1, rows, ...] (NHWC) or [1, F, rows, ...] (NCHW) slice and
/// returns its new value, which goes back in place.
Value forEachRowBlock(PatternRewriter &rewriter, Location loc, Value init, int64_t rowDim,
                      int64_t rows,
                      function_ref<Value(Value image, Value firstRow, Value outputBlock)> block) {
  auto type = cast<RankedTensorType>(init.getType());
  int64_t rank = type.getRank();
  auto index = [&](int64_t v) -> Value { return arith::ConstantIndexOp::create(rewriter, loc, v); };
  // A filled output is filled block by block instead, so that each block's
  // product sees a fill (which libmips's overwrite replaces) and the whole
  // output is written once.
  Value fillValue;
  if (auto fill = init.getDefiningOp<linalg::FillOp>(); fill && fill.hasPureTensorSemantics()) {
    fillValue = fill.getDpsInputOperand(0)->get();
    init = fill.getDpsInitOperand(0)->get();
  }
  auto images = scf::ForOp::create(
      rewriter, loc, index(0), index(type.getDimSize(0)), index(1), ValueRange{init},
      [&](OpBuilder &, Location, Value image, ValueRange perImage) {
        auto blocks = scf::ForOp::create(
            rewriter, loc, index(0), index(type.getDimSize(rowDim)), index(rows),
            ValueRange{perImage[0]}, [&](OpBuilder &, Location, Value firstRow, ValueRange acc) {
              SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0));
              SmallVector<OpFoldResult> sizes, strides(rank, rewriter.getIndexAttr(1));
              for (int64_t d = 0; d < rank; ++d)
                sizes.push_back(rewriter.getIndexAttr(type.getDimSize(d)));
              offsets[0] = image;
              offsets[rowDim] = firstRow;
              sizes[0] = rewriter.getIndexAttr(1);
              sizes[rowDim] = rewriter.getIndexAttr(rows);
              Value slice =
                  tensor::ExtractSliceOp::create(rewriter, loc, acc[0], offsets, sizes, strides);
              if (fillValue)
                slice = linalg::FillOp::create(rewriter, loc, fillValue, slice).getResult(0);
              Value result = block(image, firstRow, slice);
              scf::YieldOp::create(rewriter, loc,
                                   tensor::InsertSliceOp::create(rewriter, loc, result, acc[0],
                                                                 offsets, sizes, strides)
                                       .getResult());
            });
        scf::YieldOp::create(rewriter, loc, blocks.getResult(0));
      });
  return images.getResult(0);
}

/// The input rows a block of `rows` output rows from `firstRow` reads, as a slice
/// of `input` (image `image`; rows along dim `rowDim`).
Value inputRowsOf(PatternRewriter &rewriter, Location loc, Value input, int64_t rowDim,
                  Value image, Value firstRow, int64_t rows, int64_t stride, int64_t kernel,
                  int64_t dilation) {
  auto type = cast<RankedTensorType>(input.getType());
  int64_t rank = type.getRank();
  SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0));
  SmallVector<OpFoldResult> sizes, strides(rank, rewriter.getIndexAttr(1));
  for (int64_t d = 0; d < rank; ++d)
    sizes.push_back(rewriter.getIndexAttr(type.getDimSize(d)));
  offsets[0] = image;
  offsets[rowDim] = arith::MulIOp::create(rewriter, loc, firstRow,
                                          arith::ConstantIndexOp::create(rewriter, loc, stride))
                        .getResult();
  sizes[0] = rewriter.getIndexAttr(1);
  sizes[rowDim] = rewriter.getIndexAttr((rows - 1) * stride + (kernel - 1) * dilation + 1);
  return tensor::ExtractSliceOp::create(rewriter, loc, input, offsets, sizes, strides);
}

/// Copies the `length` contiguous elements of `input` at `from` (the last index
/// runs along them) into `patches` at `to` as one fixed vector; returns the new
/// patches tensor. On buffers these are vector loads and stores; a scalar copy of
/// the same run, which LLVM unrolls for a static length, is never vectorized by
/// it. Targets with scalable vectors use copyRunsScalable instead, for the
/// runs long enough to pay for its loop.
Value copyRun(OpBuilder &b, Location loc, Value input, ValueRange from, Value patches,
              ValueRange to, int64_t length) {
  Type element = cast<RankedTensorType>(patches.getType()).getElementType();
  Value padding = arith::ConstantOp::create(b, loc, b.getZeroAttr(element));
  auto run = VectorType::get({length}, element);
  Value values =
      vector::TransferReadOp::create(b, loc, run, input, from, padding, ArrayRef<bool>{true});
  return vector::TransferWriteOp::create(b, loc, values, patches, to, ArrayRef<bool>{true})
      .getResult();
}

/// The index list of a run's first element, from the outer loops' indices, the
/// inner loop's and the run's offset.
using RunIndices =
    llvm::function_ref<SmallVector<Value>(OpBuilder &, Location, ValueRange, Value, Value)>;

/// Copies runs of `run` contiguous elements (along the last dim of `source` and of
/// `patches`), one for each point of a loop nest of `outerBounds` and an inner
/// loop of `innerBound`, with vectors of `scalableLanes` x vscale 32-bit lanes (a
/// "register" below; LMUL 1 with the pipeline's 2 lanes). Which of three loop nests
/// runs is chosen once, by VLEN:
///  - a run shorter than a register: one masked register;
///  - a run longer than one register and at most two: one masked group of two (at
///    VLEN 1024, an NHWC 3x3 conv's 48 floats with 16 channels): the same vector cost
///    as two registers, and half the loop's scalar work, which bounds the conv's count
///    at that VLEN;
///  - else (exactly one register, or more than two) whole registers, then, if some
///    remain, the run's last whole register (overlapping the one before: copied
///    twice, but with no mask).
/// Each vector of the run goes to every point of the inner loop in turn, so that the
/// innermost loop only steps two pointers. (A version's nest is its own: the masked
/// loops' addresses were multiplied, not stepped, when they sat beside the others.) One
/// object then moves a run in as few register groups as each VLEN allows, where a
/// fixed vector of the run is priced for the smallest VLEN (16 floats are LMUL 4 at
/// every VLEN: a third of a 3x3 conv's count at VLEN 1024). Returns the new patches.
Value copyRunsScalable(OpBuilder &rewriter, Location loc, Value source, Value patches,
                       ArrayRef<int64_t> outerBounds, int64_t innerBound, int64_t run,
                       int64_t scalableLanes, RunIndices from, RunIndices to) {
  auto index = [&](OpBuilder &b, int64_t value) -> Value {
    return arith::ConstantIndexOp::create(b, loc, value);
  };
  Type element = cast<RankedTensorType>(patches.getType()).getElementType();
  // Lanes count 32-bit elements: int8 patches move as many bytes.
  const int64_t lanes =
      std::max<int64_t>(1, scalableLanes * 32 / element.getIntOrFloatBitWidth());
  auto vectorType = VectorType::get({lanes}, element, /*scalableDims=*/{true});
  auto pairType = VectorType::get({2 * lanes}, element, /*scalableDims=*/{true});
  // Made once, outside every loop.
  Value padding = arith::ConstantOp::create(rewriter, loc, rewriter.getZeroAttr(element));
  Value step = arith::MulIOp::create(rewriter, loc, vector::VectorScaleOp::create(rewriter, loc),
                                     index(rewriter, lanes));
  Value runLength = index(rewriter, run);
  Value rest = arith::RemUIOp::create(rewriter, loc, runLength, step);
  Value whole = arith::SubIOp::create(rewriter, loc, runLength, rest);
  Value partial =
      arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ne, rest, index(rewriter, 0));
  auto maskOf = [&](VectorType type) -> Value {
    auto maskType = VectorType::get(type.getShape(), rewriter.getI1Type(), {true});
    return vector::CreateMaskOp::create(rewriter, loc, maskType, ValueRange{runLength});
  };
  Value overlapping =
      arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::uge, runLength, step);
  // One statement each: the order of the ops does not depend on the C++ compiler's
  // order of evaluating arguments.
  Value beyondOne =
      arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ugt, runLength, step);
  Value twoSteps = arith::AddIOp::create(rewriter, loc, step, step);
  Value withinTwo =
      arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ule, runLength, twoSteps);
  Value fitsPair = arith::AndIOp::create(rewriter, loc, beyondOne, withinTwo);
  Value lastVector = arith::SubIOp::create(rewriter, loc, runLength, step);

  SmallVector<Value> lbs(outerBounds.size(), index(rewriter, 0)), ubs,
      steps(outerBounds.size(), index(rewriter, 1));
  for (int64_t bound : outerBounds)
    ubs.push_back(index(rewriter, bound));
  // One vector of `type` (masked or not) at `at` of the run, for every inner point.
  auto inner = [&](OpBuilder &cb, Location cl, ValueRange outer, Value at, Value current,
                   VectorType type, Value withMask) -> Value {
    auto loop = scf::ForOp::create(
        cb, cl, index(cb, 0), index(cb, innerBound), index(cb, 1), ValueRange{current},
        [&](OpBuilder &ib, Location il, Value point, ValueRange iter) {
          // A masked read's lanes past the run are never stored: poison, not a copy
          // of the padding (which on RVV costs a register move and a vsetvli per read).
          Value fill = withMask ? ub::PoisonOp::create(ib, il, element).getResult() : padding;
          auto read = vector::TransferReadOp::create(ib, il, type, source,
                                                     from(ib, il, outer, point, at), fill,
                                                     ArrayRef<bool>{true});
          if (withMask)
            read.getMaskMutable().assign(withMask);
          auto write = vector::TransferWriteOp::create(ib, il, read.getResult(), iter[0],
                                                       to(ib, il, outer, point, at),
                                                       ArrayRef<bool>{true});
          if (withMask)
            write.getMaskMutable().assign(withMask);
          scf::YieldOp::create(ib, il, write.getResult());
        });
    return loop.getResult(0);
  };
  auto oneMasked = [&](VectorType type) {
    Value mask = maskOf(type);
    return [&, type, mask](OpBuilder &b, Location l, ValueRange outer,
                           ValueRange into) -> scf::ValueVector {
      return {inner(b, l, outer, index(b, 0), into[0], type, mask)};
    };
  };
  auto wholeVectors = [&](OpBuilder &b, Location l, ValueRange outer,
                          ValueRange into) -> scf::ValueVector {
    auto vectors = scf::ForOp::create(
        b, l, index(b, 0), whole, step, ValueRange{into[0]},
        [&](OpBuilder &vb, Location vl, Value at, ValueRange iter) {
          scf::YieldOp::create(vb, vl, inner(vb, vl, outer, at, iter[0], vectorType, Value()));
        });
    Value copied = vectors.getResult(0);
    auto last = scf::IfOp::create(
        b, l, partial,
        [&](OpBuilder &tb, Location tl) {
          scf::YieldOp::create(tb, tl,
                               inner(tb, tl, outer, lastVector, copied, vectorType, Value()));
        },
        [&](OpBuilder &eb, Location el) { scf::YieldOp::create(eb, el, copied); });
    return {last.getResult(0)};
  };
  auto nest = [&](OpBuilder &b, Location l, auto body) {
    scf::YieldOp::create(
        b, l, scf::buildLoopNest(b, l, lbs, ubs, steps, ValueRange{patches}, body).results[0]);
  };
  auto shortRun = oneMasked(vectorType), pairRun = oneMasked(pairType);
  auto version = scf::IfOp::create(
      rewriter, loc, overlapping,
      [&](OpBuilder &b, Location l) {
        auto longRun = scf::IfOp::create(
            b, l, fitsPair, [&](OpBuilder &pb, Location pl) { nest(pb, pl, pairRun); },
            [&](OpBuilder &wb, Location wl) { nest(wb, wl, wholeVectors); });
        scf::YieldOp::create(b, l, longRun.getResult(0));
      },
      [&](OpBuilder &b, Location l) { nest(b, l, shortRun); });
  return version.getResult(0);
}

/// Whether NHWC patch rows move whole (KW*C elements, contiguous only with unit
/// column dilation) with scalable vectors; their input is then read as [N, H, W*C].
bool copiesWholeNhwcRows(int64_t scalableLanes, int64_t dw) { return scalableLanes > 0 && dw == 1; }

/// The patches of an NHWC input, [N, OH, OW, KH, KW, C]: a loop nest over the
/// first five dims that moves the C channels at a time (a transfer from
/// input[n, oh*sh + kh*dh, ow*sw + kw*dw, 0:C]). Where copiesWholeNhwcRows, a
/// patch row's KW*C elements (contiguous in the input and in the patches) move
/// with scalable vectors (copyRunsScalable), and `input` is given as [N, H, W*C].
Value copyNhwcPatches(PatternRewriter &rewriter, Location loc, Value input,
                      RankedTensorType patchesType, int64_t sh, int64_t sw, int64_t dh,
                      int64_t dw, int64_t scalableLanes) {
  ArrayRef<int64_t> shape = patchesType.getShape();
  Type element = patchesType.getElementType();
  Value empty = tensor::EmptyOp::create(rewriter, loc, shape, element);
  auto index = [&](OpBuilder &b, int64_t value) -> Value {
    return arith::ConstantIndexOp::create(b, loc, value);
  };
  if (copiesWholeNhwcRows(scalableLanes, dw)) {
    const int64_t channels = shape[5];
    Value flat = collapse(rewriter, loc, empty, 4, 5); // [N, OH, OW, KH, KW*C]
    // Outer loops n, oh, kh; the inner one steps along the output columns ow.
    auto from = [&](OpBuilder &b, Location l, ValueRange outer, Value ow, Value at) {
      // input row oh*sh + kh*dh, from element ow*sw*C of the row
      Value row = arith::AddIOp::create(b, l, arith::MulIOp::create(b, l, outer[1], index(b, sh)),
                                        arith::MulIOp::create(b, l, outer[2], index(b, dh)));
      Value column = arith::AddIOp::create(
          b, l, arith::MulIOp::create(b, l, ow, index(b, sw * channels)), at);
      return SmallVector<Value>{outer[0], row, column};
    };
    auto to = [&](OpBuilder &, Location, ValueRange outer, Value ow, Value at) {
      return SmallVector<Value>{outer[0], outer[1], ow, outer[2], at};
    };
    Value patches = copyRunsScalable(rewriter, loc, input, flat, {shape[0], shape[1], shape[3]},
                                     shape[2], shape[4] * channels, scalableLanes, from, to);
    return tensor::ExpandShapeOp::create(rewriter, loc, patchesType, patches, mergeRange(6, 4, 5));
  }
  SmallVector<Value> lbs(5, index(rewriter, 0)), ubs, steps(5, index(rewriter, 1));
  for (int64_t d = 0; d < 5; ++d)
    ubs.push_back(index(rewriter, shape[d]));
  scf::LoopNest nest = scf::buildLoopNest(
      rewriter, loc, lbs, ubs, steps, ValueRange{empty},
      [&](OpBuilder &b, Location l, ValueRange ivs, ValueRange patches) -> scf::ValueVector {
        // input row oh*sh + kh*dh, column ow*sw + kw*dw
        auto at = [&](Value out, int64_t stride, Value tap, int64_t dilation) -> Value {
          Value scaled = arith::MulIOp::create(b, l, out, index(b, stride));
          Value offset = arith::MulIOp::create(b, l, tap, index(b, dilation));
          return arith::AddIOp::create(b, l, scaled, offset);
        };
        Value zero = index(b, 0);
        return {copyRun(b, l, input,
                        ValueRange{ivs[0], at(ivs[1], sh, ivs[3], dh), at(ivs[2], sw, ivs[4], dw), zero},
                        patches[0], ValueRange{ivs[0], ivs[1], ivs[2], ivs[3], ivs[4], zero},
                        shape[5])};
      });
  return nest.results[0];
}

/// The patches of an NCHW input with unit column stride, [N, C, KH, KW, OH, OW]:
/// a loop nest over the first five dims that moves a row of OW output columns
/// at a time (input[n, c, oh*sh + kh*dh, kw*dw : kw*dw + OW], contiguous): 3x3
/// 64->64 on 16x16 eff 0.89/0.79/0.47 -> 0.86/0.84/0.73 at VLEN 128/256/1024
/// against an elementwise (scalar) copy.
Value copyNchwPatches(PatternRewriter &rewriter, Location loc, Value input,
                      RankedTensorType patchesType, int64_t sh, int64_t dh, int64_t dw,
                      int64_t scalableLanes) {
  ArrayRef<int64_t> shape = patchesType.getShape();
  Type element = patchesType.getElementType();
  Value empty = tensor::EmptyOp::create(rewriter, loc, shape, element);
  auto index = [&](OpBuilder &b, int64_t value) -> Value {
    return arith::ConstantIndexOp::create(b, loc, value);
  };
  // Rows of at least 8 floats: a fixed vector of fewer is at most LMUL 2 (VLEN 128),
  // and the scalable loop's own work would cost more than it saves.
  if (scalableLanes > 0 && shape[5] * element.getIntOrFloatBitWidth() >= 8 * 32) {
    // Outer loops n, c, kh, kw; the inner one steps along the output rows oh.
    auto from = [&](OpBuilder &b, Location l, ValueRange outer, Value oh, Value at) {
      // input row oh*sh + kh*dh, from column kw*dw
      Value row = arith::AddIOp::create(b, l, arith::MulIOp::create(b, l, oh, index(b, sh)),
                                        arith::MulIOp::create(b, l, outer[2], index(b, dh)));
      Value column =
          arith::AddIOp::create(b, l, arith::MulIOp::create(b, l, outer[3], index(b, dw)), at);
      return SmallVector<Value>{outer[0], outer[1], row, column};
    };
    auto to = [&](OpBuilder &, Location, ValueRange outer, Value oh, Value at) {
      return SmallVector<Value>{outer[0], outer[1], outer[2], outer[3], oh, at};
    };
    return copyRunsScalable(rewriter, loc, input, empty, shape.take_front(4), shape[4],
                            shape[5], scalableLanes, from, to);
  }
  SmallVector<Value> lbs(5, index(rewriter, 0)), ubs, steps(5, index(rewriter, 1));
  for (int64_t d = 0; d < 5; ++d)
    ubs.push_back(index(rewriter, shape[d]));
  scf::LoopNest nest = scf::buildLoopNest(
      rewriter, loc, lbs, ubs, steps, ValueRange{empty},
      [&](OpBuilder &b, Location l, ValueRange ivs, ValueRange patches) -> scf::ValueVector {
        // ivs: n, c, kh, kw, oh; input row oh*sh + kh*dh, first column kw*dw
        Value row = arith::AddIOp::create(b, l, arith::MulIOp::create(b, l, ivs[4], index(b, sh)),
                                          arith::MulIOp::create(b, l, ivs[2], index(b, dh)));
        Value column = arith::MulIOp::create(b, l, ivs[3], index(b, dw));
        return {copyRun(b, l, input, ValueRange{ivs[0], ivs[1], row, column}, patches[0],
                        ValueRange{ivs[0], ivs[1], ivs[2], ivs[3], ivs[4], index(b, 0)},
                        shape[5])};
      });
  return nest.results[0];
}

/// Any other NHWC kernel: the patches are copied into an im2col tensor laid out
/// [N, OH, OW, KH, KW, C] (copyNhwcPatches; upstream's rewrite indexes a
/// flattened patch with div/mod, which stays scalar). Viewed as
/// [N*OH*OW, KH*KW*C] it is the matmul's A.
template <typename ConvOp, bool kFilterFirst>
struct NhwcConvThroughIm2Col : OpRewritePattern<ConvOp> {
  NhwcConvThroughIm2Col(MLIRContext *ctx, int64_t budgetBytes, int64_t scalableLanes,
                        PatternBenefit benefit)
      : OpRewritePattern<ConvOp>(ctx, benefit), budgetBytes(budgetBytes),
        scalableLanes(scalableLanes) {}
  int64_t budgetBytes;
  int64_t scalableLanes;

  LogicalResult matchAndRewrite(ConvOp conv, PatternRewriter &rewriter) const override {
    if (!isLibmipsConv(conv))
      return rewriter.notifyMatchFailure(conv, "not a static conv libmips runs");
    Value input = conv.getDpsInputs()[0], filter = conv.getDpsInputs()[1];
    Value init = conv.getDpsInits()[0];
    auto inputType = cast<RankedTensorType>(input.getType());
    auto filterType = cast<RankedTensorType>(filter.getType());
    auto initType = cast<RankedTensorType>(init.getType());
    auto [sh, sw] = pairOf(conv.getStrides());
    auto [dh, dw] = pairOf(conv.getDilations());
    int64_t kh = filterType.getDimSize(kFilterFirst ? 1 : 0);
    int64_t kw = filterType.getDimSize(kFilterFirst ? 2 : 1);
    int64_t n = initType.getDimSize(0), oh = initType.getDimSize(1), ow = initType.getDimSize(2);
    int64_t c = inputType.getDimSize(3);
    Location loc = conv.getLoc();

    Type element = inputType.getElementType();
    SmallVector<Value> zeroPoints = zeroPointsOf(conv);
    int64_t bytesPerRow = ow * kh * kw * c * element.getIntOrFloatBitWidth() / 8;
    // Whole rows read the input as [N, H, W*C], collapsed once, here: a row block's
    // slice of a function argument would be copied to be collapsed.
    Value source = copiesWholeNhwcRows(scalableLanes, dw) ? collapse(rewriter, loc, input, 2, 3)
                                                         : input;
    if (n * oh * bytesPerRow <= budgetBytes) {
      auto patchesType = RankedTensorType::get({n, oh, ow, kh, kw, c}, element);
      Value patches =
          copyNhwcPatches(rewriter, loc, source, patchesType, sh, sw, dh, dw, scalableLanes);
      Value columns = tensor::CollapseShapeOp::create(
          rewriter, loc, patches, SmallVector<ReassociationIndices>{{0, 1, 2}, {3, 4, 5}});
      rewriter.replaceOp(conv, multiplyRowsByFilter(rewriter, loc, columns, filter, init,
                                                    kFilterFirst, zeroPoints));
      return success();
    }
    // Blocks of output rows of one image, each with its own bounded patches.
    int64_t rows = rowsPerBlock(oh, bytesPerRow, budgetBytes);
    auto patchesType = RankedTensorType::get({1, rows, ow, kh, kw, c}, element);
    Value result = forEachRowBlock(
        rewriter, loc, init, /*rowDim=*/1, rows, [&](Value image, Value firstRow, Value out) {
          Value in = inputRowsOf(rewriter, loc, source, 1, image, firstRow, rows, sh, kh, dh);
          Value patches =
              copyNhwcPatches(rewriter, loc, in, patchesType, sh, sw, dh, dw, scalableLanes);
          Value columns = tensor::CollapseShapeOp::create(
              rewriter, loc, patches, SmallVector<ReassociationIndices>{{0, 1, 2}, {3, 4, 5}});
          return multiplyRowsByFilter(rewriter, loc, columns, filter, out, kFilterFirst,
                                      zeroPoints);
        });
    rewriter.replaceOp(conv, result);
    return success();
  }
};

/// Any other NCHW kernel: patches laid out [N, C, KH, KW, OH, OW] (the copy's
/// inner loop runs along a row of the input), viewed as [N, C*KH*KW, OH*OW]:
/// a batch of (F x C*KH*KW) * (C*KH*KW x OH*OW) products sharing the filter.
struct NchwConvThroughIm2Col : OpRewritePattern<linalg::Conv2DNchwFchwOp> {
  NchwConvThroughIm2Col(MLIRContext *ctx, int64_t budgetBytes, int64_t scalableLanes,
                        PatternBenefit benefit)
      : OpRewritePattern(ctx, benefit), budgetBytes(budgetBytes), scalableLanes(scalableLanes) {}
  int64_t budgetBytes;
  int64_t scalableLanes;

  LogicalResult matchAndRewrite(linalg::Conv2DNchwFchwOp conv,
                                PatternRewriter &rewriter) const override {
    if (!isLibmipsConv(conv))
      return rewriter.notifyMatchFailure(conv, "not a static conv libmips runs");
    Value input = conv.getDpsInputs()[0], filter = conv.getDpsInputs()[1];
    Value init = conv.getDpsInits()[0];
    auto inputType = cast<RankedTensorType>(input.getType());
    auto filterType = cast<RankedTensorType>(filter.getType());
    auto initType = cast<RankedTensorType>(init.getType());
    auto [sh, sw] = pairOf(conv.getStrides());
    auto [dh, dw] = pairOf(conv.getDilations());
    int64_t kh = filterType.getDimSize(2), kw = filterType.getDimSize(3);
    int64_t n = initType.getDimSize(0), oh = initType.getDimSize(2), ow = initType.getDimSize(3);
    int64_t c = inputType.getDimSize(1);
    Location loc = conv.getLoc();
    MLIRContext *ctx = rewriter.getContext();

    Type element = inputType.getElementType();
    // The patches of `in` (an image or a block of its rows) as `type`.
    auto patchesOf = [&](Value in, RankedTensorType type) -> Value {
      if (sw == 1)
        return copyNchwPatches(rewriter, loc, in, type, sh, dh, dw, scalableLanes);
      // Strided rows: an elementwise copy (scalar).
      SmallVector<AffineExpr> d(6);
      bindDimsList(ctx, MutableArrayRef<AffineExpr>(d));
      // (n, c, kh, kw, oh, ow) -> input (n, c, oh*sh + kh*dh, ow*sw + kw*dw)
      AffineMap read =
          AffineMap::get(6, 0, {d[0], d[1], d[4] * sh + d[2] * dh, d[5] * sw + d[3] * dw}, ctx);
      Value empty = tensor::EmptyOp::create(rewriter, loc, type.getShape(), element);
      return linalg::GenericOp::create(
                 rewriter, loc, type, ValueRange{in}, ValueRange{empty},
                 SmallVector<AffineMap>{read, AffineMap::getMultiDimIdentityMap(6, ctx)},
                 SmallVector<utils::IteratorType>(6, utils::IteratorType::parallel),
                 [](OpBuilder &b, Location l, ValueRange args) {
                   linalg::YieldOp::create(b, l, args[0]);
                 })
          .getResult(0);
    };
    auto multiply = [&](Value patches, Value out) {
      Value columns = tensor::CollapseShapeOp::create(
          rewriter, loc, patches, SmallVector<ReassociationIndices>{{0}, {1, 2, 3}, {4, 5}});
      return multiplyFilterByColumns(rewriter, loc, filter, columns, out);
    };
    int64_t bytesPerRow = c * kh * kw * ow * element.getIntOrFloatBitWidth() / 8;
    if (n * oh * bytesPerRow <= budgetBytes) {
      auto patchesType = RankedTensorType::get({n, c, kh, kw, oh, ow}, element);
      rewriter.replaceOp(conv, multiply(patchesOf(input, patchesType), init));
      return success();
    }
    // Blocks of output rows of one image, each with its own bounded patches.
    int64_t rows = rowsPerBlock(oh, bytesPerRow, budgetBytes);
    auto patchesType = RankedTensorType::get({1, c, kh, kw, rows, ow}, element);
    Value result = forEachRowBlock(
        rewriter, loc, init, /*rowDim=*/2, rows, [&](Value image, Value firstRow, Value out) {
          Value in = inputRowsOf(rewriter, loc, input, 2, image, firstRow, rows, sh, kh, dh);
          return multiply(patchesOf(in, patchesType), out);
        });
    rewriter.replaceOp(conv, result);
    return success();
  }
};

/// A depthwise conv with a channel multiplier of 1 (what tosa.depthwise_conv2d
/// becomes) as the plain depthwise form, which mips-vectorize-depthwise-conv
/// writes as vector code: the filter's and output's unit dimension is dropped.
struct DepthwiseMultiplierOne : OpRewritePattern<linalg::DepthwiseConv2DNhwcHwcmOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::DepthwiseConv2DNhwcHwcmOp conv,
                                PatternRewriter &rewriter) const override {
    if (!conv.hasPureTensorSemantics())
      return failure();
    Value filter = conv.getDpsInputOperand(1)->get();
    auto filterType = cast<RankedTensorType>(filter.getType());
    if (filterType.getDimSize(3) != 1)
      return failure();
    Location loc = conv.getLoc();
    SmallVector<ReassociationIndices> lastTwo3 = {{0}, {1}, {2, 3}};
    SmallVector<ReassociationIndices> lastTwo4 = {{0}, {1}, {2}, {3, 4}};
    Value filter3 = tensor::CollapseShapeOp::create(rewriter, loc, filter, lastTwo3);
    Value init = tensor::CollapseShapeOp::create(rewriter, loc, conv.getDpsInitOperand(0)->get(),
                                                 lastTwo4);
    auto plain = linalg::DepthwiseConv2DNhwcHwcOp::create(
        rewriter, loc, TypeRange{init.getType()},
        ValueRange{conv.getDpsInputOperand(0)->get(), filter3}, ValueRange{init},
        conv.getStrides(), conv.getDilations());
    rewriter.replaceOpWithNewOp<tensor::ExpandShapeOp>(conv, conv.getResultTypes()[0],
                                                       plain.getResult(0), lastTwo4);
    return success();
  }
};

/// A convolution over a zero-padded input whose outer taps read only padding
/// (small images: a 3x3 kernel, padding 1, on a 1x1 input reads the input with
/// its centre tap alone) becomes the convolution of the taps that read the
/// input: its filter a slice of the filter, its input padded less. The dropped
/// terms are products with zero, so the result is the same unless a dropped
/// weight is Inf or NaN. ResNet-18's last stage on a 32x32 image does 1/9 of the
/// work, and its 1x1 result is a pointwise conv (a view, no im2col).
template <typename ConvOp>
struct DropPaddingOnlyTaps : OpRewritePattern<ConvOp> {
  DropPaddingOnlyTaps(MLIRContext *ctx, std::array<int64_t, 2> inputDims,
                      std::array<int64_t, 2> filterDims)
      : OpRewritePattern<ConvOp>(ctx, /*benefit=*/3), inputDims(inputDims),
        filterDims(filterDims) {}
  std::array<int64_t, 2> inputDims, filterDims; // the spatial dims (H, W)
  // FCHW: the taps are the filter's last dims, after its channels.
  bool tapsInnermost = std::is_same_v<ConvOp, linalg::Conv2DNchwFchwOp>;

  LogicalResult matchAndRewrite(ConvOp conv, PatternRewriter &rewriter) const override {
    if (!isLibmipsConv(conv))
      return rewriter.notifyMatchFailure(conv, "not a static conv libmips runs");
    auto pad = conv.getDpsInputs()[0].template getDefiningOp<tensor::PadOp>();
    if (!pad || pad.getSource().getType().hasStaticShape() == false ||
        ShapedType::isDynamicShape(pad.getStaticLow()) ||
        ShapedType::isDynamicShape(pad.getStaticHigh()))
      return rewriter.notifyMatchFailure(conv, "input not a static tensor.pad");
    Value padValue = pad.getConstantPaddingValue();
    if (!padValue || !(matchPattern(padValue, m_AnyZeroFloat()) || matchPattern(padValue, m_Zero())))
      return rewriter.notifyMatchFailure(conv, "padding not a constant zero");
    ArrayRef<int64_t> low = pad.getStaticLow(), high = pad.getStaticHigh();
    auto source = cast<RankedTensorType>(pad.getSource().getType());
    for (int64_t d = 0; d < source.getRank(); ++d)
      if (d != inputDims[0] && d != inputDims[1] && (low[d] != 0 || high[d] != 0))
        return rewriter.notifyMatchFailure(conv, "padding outside the spatial dims");
    Value filter = conv.getDpsInputs()[1];
    auto filterType = cast<RankedTensorType>(filter.getType());
    auto outType = cast<RankedTensorType>(conv.getDpsInits()[0].getType());
    auto strides = llvm::to_vector(conv.getStrides().template getValues<int64_t>());
    auto dilations = llvm::to_vector(conv.getDilations().template getValues<int64_t>());

    std::array<std::pair<int64_t, int64_t>, 2> taps;
    bool drops = false;
    for (int i = 0; i < 2; ++i) {
      int64_t kernel = filterType.getDimSize(filterDims[i]);
      auto range = mips::tapsReadingInput(kernel, outType.getDimSize(inputDims[i]), strides[i],
                                          dilations[i], low[inputDims[i]],
                                          source.getDimSize(inputDims[i]));
      if (!range) // every product is with padding: the output is the init
        return rewriter.notifyMatchFailure(conv, "no tap reads the input");
      taps[i] = *range;
      drops |= range->first != 0 || range->second != kernel - 1;
    }
    if (!drops)
      return rewriter.notifyMatchFailure(conv, "every tap reads the input");
    // The kept filter must stay a view of the filter when the matmul flattens its
    // taps and channels: one tap always is; whole rows of taps are when the channels
    // follow the taps (HWCF, FHWC). Otherwise the slice would be copied on every call,
    // which costs more than the products it saves (ResNet-18's stride-2 3x3 conv on a
    // 2x2 image keeps 2x2 taps: 0.5 M floats copied against 0.7 M multiply-adds).
    bool oneTap = taps[0].first == taps[0].second && taps[1].first == taps[1].second;
    bool wholeRows = taps[1].first == 0 &&
                     taps[1].second == filterType.getDimSize(filterDims[1]) - 1;
    if (!oneTap && !(wholeRows && !tapsInnermost))
      return rewriter.notifyMatchFailure(conv, "the kept taps are not a view of the filter");

    Location loc = conv.getLoc();
    // The filter's taps [first, last] in each spatial dim (a view).
    SmallVector<OpFoldResult> fOffsets(filterType.getRank(), rewriter.getIndexAttr(0));
    SmallVector<OpFoldResult> fSizes, ones(filterType.getRank(), rewriter.getIndexAttr(1));
    for (int64_t d = 0; d < filterType.getRank(); ++d)
      fSizes.push_back(rewriter.getIndexAttr(filterType.getDimSize(d)));
    // The input window the kept taps read, in padded coordinates [begin, begin +
    // size): the source rows inside it, padded by what lies outside.
    SmallVector<OpFoldResult> sOffsets(source.getRank(), rewriter.getIndexAttr(0));
    SmallVector<OpFoldResult> sSizes, sOnes(source.getRank(), rewriter.getIndexAttr(1));
    for (int64_t d = 0; d < source.getRank(); ++d)
      sSizes.push_back(rewriter.getIndexAttr(source.getDimSize(d)));
    SmallVector<int64_t> newLow(source.getRank(), 0), newHigh(source.getRank(), 0);
    bool slicesSource = false;
    for (int i = 0; i < 2; ++i) {
      auto [first, last] = taps[i];
      int64_t kernel = last - first + 1;
      fOffsets[filterDims[i]] = rewriter.getIndexAttr(first);
      fSizes[filterDims[i]] = rewriter.getIndexAttr(kernel);
      int64_t d = inputDims[i];
      int64_t begin = first * dilations[i];
      int64_t size = (outType.getDimSize(d) - 1) * strides[i] + (kernel - 1) * dilations[i] + 1;
      int64_t dataBegin = std::max(low[d], begin);
      int64_t dataEnd = std::min(low[d] + source.getDimSize(d), begin + size);
      sOffsets[d] = rewriter.getIndexAttr(dataBegin - low[d]);
      sSizes[d] = rewriter.getIndexAttr(dataEnd - dataBegin);
      slicesSource |= dataBegin - low[d] != 0 || dataEnd - dataBegin != source.getDimSize(d);
      newLow[d] = dataBegin - begin;
      newHigh[d] = begin + size - dataEnd;
    }
    Value newFilter;
    if (oneTap) {
      // One tap: the filter's channels at it, as a 2-D view (a rank-reducing slice;
      // collapsing a 4-D slice would copy it), expanded back to the conv's 1x1 form,
      // which the pointwise rewrite collapses again into this view.
      SmallVector<int64_t> channels;
      SmallVector<ReassociationIndices> groups;
      for (int64_t d = 0; d < filterType.getRank(); ++d)
        if (d != filterDims[0] && d != filterDims[1])
          channels.push_back(filterType.getDimSize(d));
      auto viewType = RankedTensorType::get(channels, filterType.getElementType());
      Value view = tensor::ExtractSliceOp::create(rewriter, loc, viewType, filter, fOffsets,
                                                  fSizes, ones);
      // Each unit tap dim joins the next channel dim (the last one when none follows).
      ReassociationIndices pending;
      for (int64_t d = 0; d < filterType.getRank(); ++d) {
        pending.push_back(d);
        if (d != filterDims[0] && d != filterDims[1]) {
          groups.push_back(pending);
          pending.clear();
        }
      }
      groups.back().append(pending.begin(), pending.end());
      auto oneTap = filterType.clone(
          llvm::to_vector(llvm::map_range(fSizes, [](OpFoldResult size) {
            return *getConstantIntValue(size);
          })));
      newFilter = tensor::ExpandShapeOp::create(rewriter, loc, oneTap, view, groups);
    } else {
      newFilter = tensor::ExtractSliceOp::create(rewriter, loc, filter, fOffsets, fSizes, ones);
    }
    Value input = pad.getSource();
    if (slicesSource)
      input = tensor::ExtractSliceOp::create(rewriter, loc, input, sOffsets, sSizes, sOnes);
    if (llvm::any_of(newLow, [](int64_t v) { return v != 0; }) ||
        llvm::any_of(newHigh, [](int64_t v) { return v != 0; })) {
      SmallVector<OpFoldResult> lowOfr, highOfr;
      for (int64_t d = 0; d < source.getRank(); ++d) {
        lowOfr.push_back(rewriter.getIndexAttr(newLow[d]));
        highOfr.push_back(rewriter.getIndexAttr(newHigh[d]));
      }
      // A new zero: the old pad's value may be defined inside its region (the greedy
      // driver hoists such constants today; this does not rely on it).
      Value zero = arith::ConstantOp::create(
          rewriter, loc, rewriter.getZeroAttr(source.getElementType()));
      input = tensor::PadOp::create(rewriter, loc, Type(), input, lowOfr, highOfr, zero);
    }
    SmallVector<Value> operands = {input, newFilter, conv.getDpsInits()[0]};
    Operation *smaller = mlir::clone(rewriter, conv, conv->getResultTypes(), operands);
    rewriter.replaceOp(conv, smaller->getResults());
    return success();
  }
};

struct ConvertConvToMatmul : mips::impl::ConvertConvToMatmulBase<ConvertConvToMatmul> {
  using ConvertConvToMatmulBase::ConvertConvToMatmulBase;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    if (im2colBytes < 1) {
      getOperation()->emitError("convert-conv-to-matmul: im2col-bytes must be at least 1");
      return signalPassFailure();
    }
    if (scalableLanes < 0) {
      getOperation()->emitError("convert-conv-to-matmul: scalable-lanes must not be negative");
      return signalPassFailure();
    }
    mips::populateConvToMatmulPatterns(patterns, im2colBytes, scalableLanes);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

void mlir::mips::populateConvToMatmulPatterns(RewritePatternSet &patterns,
                                              int64_t im2colBudgetBytes,
                                              int64_t scalableLanes) {
  MLIRContext *ctx = patterns.getContext();
  // Taps that read only zero padding go first: what remains may be a 1x1 conv.
  patterns.add<DropPaddingOnlyTaps<linalg::Conv2DNchwFchwOp>>(ctx, std::array<int64_t, 2>{2, 3},
                                                              std::array<int64_t, 2>{2, 3});
  patterns.add<DropPaddingOnlyTaps<linalg::Conv2DNhwcHwcfOp>>(ctx, std::array<int64_t, 2>{1, 2},
                                                              std::array<int64_t, 2>{0, 1});
  patterns.add<DropPaddingOnlyTaps<linalg::Conv2DNhwcFhwcOp>>(ctx, std::array<int64_t, 2>{1, 2},
                                                              std::array<int64_t, 2>{1, 2});
  // The view-only rewrites first: they win over im2col for 1x1 kernels.
  // The _q forms (int8 with zero points, what TOSA's quantized conv2d becomes)
  // reach libmips as linalg.quantized_matmul.
  patterns.add<PointwiseNhwcConvToMatmul<linalg::Conv2DNhwcHwcfOp, false>,
               PointwiseNhwcConvToMatmul<linalg::Conv2DNhwcFhwcOp, true>,
               PointwiseNhwcConvToMatmul<linalg::Conv2DNhwcHwcfQOp, false>,
               PointwiseNhwcConvToMatmul<linalg::Conv2DNhwcFhwcQOp, true>,
               PointwiseNchwConvToMatmul>(ctx, /*benefit=*/2);
  patterns.add<DepthwiseMultiplierOne>(ctx);
  // A zero fill seen through the reshapes of a conv's output is still a zero fill,
  // so convert-linalg-to-mips lets libmips overwrite C instead of accumulating
  // into a filled buffer.
  linalg::FillOp::getCanonicalizationPatterns(patterns, ctx);
  patterns.add<NhwcConvThroughIm2Col<linalg::Conv2DNhwcHwcfOp, false>,
               NhwcConvThroughIm2Col<linalg::Conv2DNhwcFhwcOp, true>,
               NhwcConvThroughIm2Col<linalg::Conv2DNhwcHwcfQOp, false>,
               NhwcConvThroughIm2Col<linalg::Conv2DNhwcFhwcQOp, true>, NchwConvThroughIm2Col>(
      ctx, im2colBudgetBytes, scalableLanes, /*benefit=*/1);
}

std::string mlir::mips::whyConvStaysLoops(linalg::LinalgOp conv) {
  Operation *op = conv.getOperation();
  if (!isConvertedLayout(op)) {
    if (op->getName().getStringRef().contains("depthwise"))
      return "a depthwise convolution is not a matmul; it runs as loops";
    if (op->getName().getStringRef().contains("pooling"))
      return "pooling runs as loops";
    return "only linalg.conv_2d_nhwc_hwcf, conv_2d_nhwc_fhwc (and their _q forms) and "
           "conv_2d_nchw_fchw reach libmips";
  }
  if (!conv.hasPureTensorSemantics())
    return "its operands are buffers; only convolutions on tensors are rewritten";
  if (conv.hasDynamicShape())
    return "its shape is dynamic; only static convolutions are rewritten";
  if (!isLibmipsConv(conv)) {
    std::string types;
    llvm::raw_string_ostream os(types);
    os << "its element types (" << getElementTypeOrSelf(conv.getDpsInputs()[0]) << ", "
       << getElementTypeOrSelf(conv.getDpsInputs()[1]) << " -> "
       << getElementTypeOrSelf(conv.getDpsInits()[0])
       << ") are not f32 or int8 into int32, which libmips multiplies";
    return types;
  }
  return "";
}

std::optional<std::pair<int64_t, int64_t>>
mlir::mips::tapsReadingInput(int64_t kernel, int64_t outSize, int64_t stride, int64_t dilation,
                             int64_t low, int64_t inSize) {
  std::optional<std::pair<int64_t, int64_t>> range;
  for (int64_t t = 0; t < kernel; ++t) {
    bool reads = false;
    for (int64_t o = 0; o < outSize && !reads; ++o) {
      int64_t at = o * stride + t * dilation;
      reads = at >= low && at < low + inSize;
    }
    if (!reads)
      continue;
    if (!range)
      range = std::make_pair(t, t);
    range->second = t;
  }
  return range;
}
