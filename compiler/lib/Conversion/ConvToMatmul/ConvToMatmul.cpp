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

#include "mips-compiler/Utils/VectorCopies.h"

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
    if (!mips::isLibmipsConv(conv) || !allOnes(conv.getStrides()))
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
    if (!mips::isLibmipsConv(conv) || !allOnes(conv.getStrides()))
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
    Value patches = mips::copyRunsScalable(rewriter, loc, input, flat, {shape[0], shape[1], shape[3]},
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
        return {mips::copyRun(b, l, input,
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
    return mips::copyRunsScalable(rewriter, loc, input, empty, shape.take_front(4), shape[4],
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
        return {mips::copyRun(b, l, input, ValueRange{ivs[0], ivs[1], row, column}, patches[0],
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
    if (!mips::isLibmipsConv(conv))
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
    if (!mips::isLibmipsConv(conv))
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
  // The view-only rewrites first: they win over im2col for 1x1 kernels.
  // The _q forms (int8 with zero points, what TOSA's quantized conv2d becomes)
  // reach libmips as linalg.quantized_matmul.
  patterns.add<PointwiseNhwcConvToMatmul<linalg::Conv2DNhwcHwcfOp, false>,
               PointwiseNhwcConvToMatmul<linalg::Conv2DNhwcFhwcOp, true>,
               PointwiseNhwcConvToMatmul<linalg::Conv2DNhwcHwcfQOp, false>,
               PointwiseNhwcConvToMatmul<linalg::Conv2DNhwcFhwcQOp, true>,
               PointwiseNchwConvToMatmul>(ctx, /*benefit=*/2);
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
  if (!mips::isLibmipsConv(conv)) {
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

bool mlir::mips::isLibmipsConv(linalg::LinalgOp conv) {
  if (!conv.hasPureTensorSemantics() || conv.hasDynamicShape())
    return false;
  Type a = getElementTypeOrSelf(conv.getDpsInputs()[0]);
  Type b = getElementTypeOrSelf(conv.getDpsInputs()[1]);
  Type c = getElementTypeOrSelf(conv.getDpsInits()[0]);
  if (a.isF32() && b.isF32() && c.isF32())
    return true;
  return a.isSignlessInteger(8) && b.isSignlessInteger(8) && c.isSignlessInteger(32);
}
