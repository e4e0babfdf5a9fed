// SPDX-License-Identifier: Apache-2.0
//===- InlineSmallMatmuls.cpp - pick inline code for small matmuls -*- C++ -*-===//
//
// Kernel variant selection: below the threshold, the fixed cost of a libmips call
// (checks, dispatch, packing) outweighs the work, so the matmul is marked `inlined`
// and convert-mips-to-vector emits straight-line vector code for it.
//
//===----------------------------------------------------------------------===//

#include "mips-compiler/Transforms/Passes.h"

#include "mips-compiler/Dialect/Mips/BatchMatmulLoop.h"
#include "mips-compiler/Dialect/Mips/MipsOps.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/Support/MathExtras.h"

namespace mlir {
namespace mips {
#define GEN_PASS_DEF_MIPSINLINESMALLMATMULS
#include "mips-compiler/Transforms/Passes.h.inc"
} // namespace mips
} // namespace mlir

using namespace mlir;

namespace {

/// The inline code keeps K rows of B in registers and does M*K multiply-adds of a
/// broadcast A element. libmips gets faster as K grows, the inline code does not:
/// measured with bench/inline_threshold.sh, K <= 8 wins up to the threshold, K <= 16
/// up to half of it (8x8x16 is a tie at VLEN 1024), and K = 32 loses from 4x4x32.
constexpr int64_t kShortK = 8;
constexpr int64_t kMaxInlineK = 16;

/// The M*N*K to compare with the threshold, counting double for 8 < K <= 16, of a
/// matmul (a batch entry) with static shapes the inline code runs well (any static
/// shape with `anyShape`), else nothing.
/// With scalable vectors, f32 rows wider than 8 run on vector<[4]xf32> in row
/// blocks that stream B (convert-mips-to-vector), and beat even an embedded call
/// up to 8 times the threshold with K <= 16 (bench/linkage_modes.sh at VLEN 256,
/// busiest inline / embedded: 16x16x16 645 / 787, 32x16x16 1285 / 1474, 32x32x16
/// 2567 / 2709, 64x16x16 2565 / 2666); with longer k they tie or lose (16x16x32
/// 1221 / 1220, 24x24x24 2791 / 2574, 32x32x32 4871 / 4743).
constexpr int64_t kScalableWeightDivisor = 8;

template <typename OpTy>
static std::optional<int64_t> getInlineableWork(OpTy op, bool anyShape, bool embeddedLibmips,
                                                bool scalable) {
  auto lhs = cast<ShapedType>(op.getLhs().getType());
  auto rhs = cast<ShapedType>(op.getRhs().getType());
  auto init = cast<ShapedType>(op.getInit().getType());
  if (!lhs.hasStaticShape() || !rhs.hasStaticShape() || !init.hasStaticShape())
    return std::nullopt;
  int64_t m = lhs.getDimSize(op.getLhsMDim()), k = lhs.getDimSize(op.getLhsKDim()),
          n = rhs.getDimSize(op.getRhsNDim());
  // An empty product is libmips's to handle (overwrite still zeroes C); vectors of
  // no elements do not exist.
  if (m == 0 || n == 0 || k == 0)
    return std::nullopt;
  // A single column (a matvec) costs the inline code as much per row as a wide
  // one, and libmips has a fast path for it: 64x1x16 costs 1793 instructions as a
  // call and 4226 inline.
  if (!anyShape && (k > kMaxInlineK || n == 1))
    return std::nullopt;
  int64_t mn, mnk, weighted;
  if (llvm::MulOverflow(m, n, mn) || llvm::MulOverflow(mn, k, mnk))
    return std::nullopt;
  // (A transposed B has no inline vector form: its inline code is loops.)
  if (scalable && !anyShape && n > kShortK && getElementTypeOrSelf(init).isF32() &&
      !op.getTransposeRhs())
    return llvm::divideCeil(mnk, kScalableWeightDivisor);
  int64_t weight = (anyShape || k <= kShortK) ? 1 : 2;
  // An embedded libmips call is cheaper, and wins for wide N from smaller products
  // (bench/linkage_modes.sh at VLEN 256: 16x16x8 busiest 666 vs 801 inline, 10x10x10
  // 496 vs 681); narrow N stays inline (32x8x8: 1868 vs 657).
  if (embeddedLibmips && !anyShape && n > kShortK)
    weight *= 2;
  if (llvm::MulOverflow(mnk, weight, weighted))
    return std::nullopt;
  return weighted;
}

struct MipsInlineSmallMatmulsPass
    : mips::impl::MipsInlineSmallMatmulsBase<MipsInlineSmallMatmulsPass> {
  using Base::Base;

  void runOnOperation() override {
    if (threshold <= 0)
      return;
    getOperation().walk([&](mips::MatmulOp op) {
      std::optional<int64_t> work = getInlineableWork(op, anyShape, embeddedLibmips, scalable);
      if (work && *work <= threshold)
        op.setInlined(true);
    });
    // A batch of small entries: a loop of inlined entries (a batched call would
    // pay the call's fixed cost for entries this small too).
    SmallVector<mips::BatchMatmulOp> smallBatches;
    getOperation().walk([&](mips::BatchMatmulOp op) {
      std::optional<int64_t> work = getInlineableWork(op, anyShape, embeddedLibmips, scalable);
      if (work && *work <= threshold)
        smallBatches.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (mips::BatchMatmulOp op : smallBatches)
      for (mips::MatmulOp entry : mips::expandBatchMatmul(rewriter, op))
        entry.setInlined(true);
  }
};

} // namespace
