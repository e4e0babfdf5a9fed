// SPDX-License-Identifier: Apache-2.0
//===- InlineSmallMatmuls.cpp - pick inline code for small matmuls -*- C++ -*-===//
//
// Kernel variant selection: below the threshold, the fixed cost of a libmips call
// (checks, dispatch, packing) outweighs the work, so the matmul is marked `inlined`
// and convert-mips-to-libmips emits straight-line vector code for it.
//
//===----------------------------------------------------------------------===//

#include "mips-compiler/Transforms/Passes.h"

#include "mips-compiler/Dialect/Mips/MipsOps.h"
#include "llvm/Support/MathExtras.h"

namespace mlir {
namespace mips {
#define GEN_PASS_DEF_MIPSINLINESMALLMATMULS
#include "mips-compiler/Transforms/Passes.h.inc"
} // namespace mips
} // namespace mlir

using namespace mlir;

namespace {

/// The inline code loads K rows of B and does M*K multiply-adds of a broadcast A
/// element: measured against libmips with bench/inline_threshold.sh, long reductions
/// (1x8x64, 2x4x64) lose inline even below the size threshold.
constexpr int64_t kMaxInlineK = 32;

/// M*N*K of a matmul with static shapes the inline code runs well (any static shape
/// with `anyShape`), else nothing.
static std::optional<int64_t> getInlineableWork(mips::MatmulOp op, bool anyShape) {
  auto lhs = cast<ShapedType>(op.getLhs().getType());
  auto rhs = cast<ShapedType>(op.getRhs().getType());
  auto init = cast<ShapedType>(op.getInit().getType());
  if (!lhs.hasStaticShape() || !rhs.hasStaticShape() || !init.hasStaticShape())
    return std::nullopt;
  int64_t m = lhs.getDimSize(op.getLhsMDim()), k = lhs.getDimSize(op.getLhsKDim()),
          n = rhs.getDimSize(op.getRhsNDim());
  // An empty product is libmips's to handle (overwrite still zeroes C); vectors of
  // no elements do not exist.
  if (m == 0 || n == 0 || k == 0 || (!anyShape && k > kMaxInlineK))
    return std::nullopt;
  int64_t mn, mnk;
  if (llvm::MulOverflow(m, n, mn) || llvm::MulOverflow(mn, k, mnk))
    return std::nullopt;
  return mnk;
}

struct MipsInlineSmallMatmulsPass
    : mips::impl::MipsInlineSmallMatmulsBase<MipsInlineSmallMatmulsPass> {
  using Base::Base;

  void runOnOperation() override {
    if (threshold <= 0)
      return;
    getOperation().walk([&](mips::MatmulOp op) {
      std::optional<int64_t> work = getInlineableWork(op, anyShape);
      if (work && *work <= threshold)
        op.setInlined(true);
    });
  }
};

} // namespace
