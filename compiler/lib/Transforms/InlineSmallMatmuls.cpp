// SPDX-License-Identifier: Apache-2.0
//===- InlineSmallMatmuls.cpp - inline code for small matmuls ---*- C++ -*-===//
//
// Kernel variant selection: below the threshold, the fixed cost of a libmips
// call (checks, dispatch, packing) outweighs the work, so the matmul becomes a
// linalg.matmul that the linalg vectorizer turns into vector.contract.
//
//===----------------------------------------------------------------------===//

#include "mips-compiler/Transforms/Passes.h"

#include "mips-compiler/Dialect/Mips/MipsOps.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace mips {
#define GEN_PASS_DEF_MIPSINLINESMALLMATMULS
#include "mips-compiler/Transforms/Passes.h.inc"
} // namespace mips
} // namespace mlir

using namespace mlir;

namespace {

/// The inline code is K rank-1 updates of M rows of N, reading its operands element by
/// element (their strides are only known at run time). Measured against libmips with
/// bench/inline_threshold.sh, it loses at any size on long reductions (K > 16) and when
/// few rows share a wide B (N > 4M: each element of B feeds only M multiply-adds), so
/// only shapes within these bounds are candidates.
constexpr int64_t kMaxInlineK = 16;
constexpr int64_t kMaxInlineColumnsPerRow = 4;

/// M*N*K of a matmul with static shapes the inline code runs well (any static shape
/// with `anyShape`), else nothing.
static std::optional<int64_t> getInlineableWork(mips::MatmulOp op, bool anyShape) {
  auto lhs = cast<ShapedType>(op.getLhs().getType());
  auto rhs = cast<ShapedType>(op.getRhs().getType());
  if (!lhs.hasStaticShape() || !rhs.hasStaticShape())
    return std::nullopt;
  int64_t m = lhs.getDimSize(op.getLhsMDim()), k = lhs.getDimSize(op.getLhsKDim()),
          n = rhs.getDimSize(op.getRhsNDim());
  if (!anyShape && (k > kMaxInlineK || n > kMaxInlineColumnsPerRow * m))
    return std::nullopt;
  return m * n * k;
}

/// The same product as a linalg.matmul: transposes as indexing maps, overwrite
/// as a zero fill of the init.
static linalg::MatmulOp buildLinalgMatmul(RewriterBase &rewriter, mips::MatmulOp op) {
  Location loc = op.getLoc();
  MLIRContext *ctx = op.getContext();
  Value init = op.getInit();
  if (op.getOverwrite()) {
    Value zero = arith::ConstantOp::create(
        rewriter, loc, rewriter.getZeroAttr(getElementTypeOrSelf(init.getType())));
    init = linalg::FillOp::create(rewriter, loc, zero, init).getResult(0);
  }
  AffineExpr m, n, k;
  bindDims(ctx, m, n, k);
  auto map = [&](AffineExpr a, AffineExpr b) {
    return AffineMapAttr::get(AffineMap::get(3, 0, {a, b}, ctx));
  };
  ArrayAttr maps = rewriter.getArrayAttr(
      {op.getTransposeLhs() ? map(k, m) : map(m, k),
       op.getTransposeRhs() ? map(n, k) : map(k, n), map(m, n)});
  return linalg::MatmulOp::create(
      rewriter, loc, TypeRange{op.getResult().getType()},
      ValueRange{op.getLhs(), op.getRhs()}, ValueRange{init},
      ArrayRef<NamedAttribute>{rewriter.getNamedAttr("indexing_maps", maps)});
}

struct MipsInlineSmallMatmulsPass
    : mips::impl::MipsInlineSmallMatmulsBase<MipsInlineSmallMatmulsPass> {
  using Base::Base;

  void runOnOperation() override {
    if (threshold <= 0)
      return;
    SmallVector<mips::MatmulOp> small;
    getOperation().walk([&](mips::MatmulOp op) {
      std::optional<int64_t> work = getInlineableWork(op, anyShape);
      if (op.getResult() && work && *work <= threshold)
        small.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (mips::MatmulOp op : small) {
      rewriter.setInsertionPoint(op);
      linalg::MatmulOp matmul = buildLinalgMatmul(rewriter, op);
      rewriter.replaceOp(op, matmul.getResult(0));
      rewriter.setInsertionPoint(matmul);
      FailureOr<linalg::VectorizationResult> vectorized = linalg::vectorize(
          rewriter, matmul, /*inputVectorSizes=*/{}, /*inputScalableVecDims=*/{},
          /*vectorizeNDExtract=*/false, /*flatten1DDepthwiseConv=*/false,
          /*assumeDynamicDimsMatchVecSizes=*/false, /*createNamedContraction=*/true);
      // A matmul with static shapes always vectorizes; if upstream ever
      // declines, the linalg.matmul is still correct, as loops.
      if (succeeded(vectorized))
        rewriter.replaceOp(matmul, vectorized->replacements);
    }
  }
};

} // namespace
