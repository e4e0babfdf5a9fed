// SPDX-License-Identifier: Apache-2.0
//===- CollapseElementwise.cpp - elementwise loops as one loop --*- C++ -*-===//
//
// An elementwise op over dense buffers is one loop over all their elements, and
// one that broadcasts along its trailing dims (a bias per channel over an image)
// one loop over them. As a nest whose innermost loop is short and static (16
// NHWC channels, 15 pixels of a row), LLVM unrolls that loop and vectorizes
// across the next one with strided accesses instead (a ReLU before a conv cost 8%
// more at VLEN 256 that way), or not at all (SqueezeNet's biases: 32 k scalar
// instructions more at VLEN 256).
//
//===----------------------------------------------------------------------===//

#include "mips-compiler/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace mips {
#define GEN_PASS_DEF_MIPSCOLLAPSEELEMENTWISE
#include "mips-compiler/Transforms/Passes.h.inc"
} // namespace mips
} // namespace mlir

using namespace mlir;

namespace {

/// The trailing dims of elementwise `op` (parallel, over buffers) as one, from the
/// first dim where every operand either runs along all of them, in order and
/// contiguous in its buffer, or along none of them: a broadcast, such as a bias per
/// channel over an NCHW image (whose pixels, as a nest, were a short static loop that
/// LLVM unrolled, reloading the bias for every other store). All dims where the
/// operands allow; none if fewer than two would merge.
SmallVector<ReassociationIndices> trailingDenseDims(linalg::LinalgOp op) {
  int64_t rank = op.getNumLoops();
  if (rank < 2 || op.getNumReductionLoops() != 0 || !op.hasPureBufferSemantics() ||
      !op.hasOnlyProjectedPermutations())
    return {};
  auto mergesInOperand = [&](OpOperand &operand, int64_t first) {
    AffineMap map = op.getMatchingIndexingMap(&operand);
    SmallVector<int64_t> positions; // of dims first.. in the map's results
    for (int64_t d = first; d < rank; ++d)
      if (std::optional<unsigned> at = map.getResultPosition(getAffineDimExpr(d, op->getContext())))
        positions.push_back(*at);
    if (positions.empty())
      return true; // broadcast along all of them
    if (static_cast<int64_t>(positions.size()) != rank - first)
      return false;
    for (size_t i = 1; i < positions.size(); ++i)
      if (positions[i] != positions[0] + static_cast<int64_t>(i))
        return false;
    auto type = dyn_cast<MemRefType>(operand.get().getType());
    if (!type)
      return false;
    SmallVector<ReassociationIndices> groups;
    for (int64_t r = 0; r < type.getRank();) {
      ReassociationIndices group{r};
      if (r == positions[0])
        for (size_t i = 1; i < positions.size(); ++i)
          group.push_back(r + static_cast<int64_t>(i));
      r += static_cast<int64_t>(group.size());
      groups.push_back(group);
    }
    return memref::CollapseShapeOp::isGuaranteedCollapsible(type, groups);
  };
  for (int64_t first = 0; first + 2 <= rank; ++first) {
    if (!llvm::all_of(op->getOpOperands(),
                      [&](OpOperand &operand) { return mergesInOperand(operand, first); }))
      continue;
    ReassociationIndices merged; // the dims before it stay as they are
    for (int64_t d = first; d < rank; ++d)
      merged.push_back(d);
    return {merged};
  }
  return {};
}

struct CollapseElementwise : mips::impl::MipsCollapseElementwiseBase<CollapseElementwise> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    linalg::populateCollapseDimensions(patterns, trailingDenseDims);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
