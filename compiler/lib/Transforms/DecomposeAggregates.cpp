// SPDX-License-Identifier: Apache-2.0
//===- DecomposeAggregates.cpp - linalg.softmax & co. as generics -*- C++ -*-===//
//
// Aggregated linalg ops (linalg.softmax) have no loop lowering of their own:
// left alone they reach LLVM translation unconverted. Their own decomposition
// (linalg.generic reductions and elementwise ops) lowers like everything else.
//
//===----------------------------------------------------------------------===//

#include "mips-compiler/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace mips {
#define GEN_PASS_DEF_MIPSDECOMPOSEAGGREGATES
#include "mips-compiler/Transforms/Passes.h.inc"
} // namespace mips
} // namespace mlir

using namespace mlir;

namespace {

struct DecomposeAggregates : mips::impl::MipsDecomposeAggregatesBase<DecomposeAggregates> {
  void runOnOperation() override {
    SmallVector<linalg::AggregatedOpInterface> aggregates;
    getOperation()->walk([&](linalg::AggregatedOpInterface op) { aggregates.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (linalg::AggregatedOpInterface op : aggregates) {
      rewriter.setInsertionPoint(op);
      FailureOr<SmallVector<Value>> parts = op.decomposeOperation(rewriter);
      if (failed(parts)) {
        op->emitError("cannot be decomposed into simpler linalg ops");
        return signalPassFailure();
      }
      rewriter.replaceOp(op, *parts);
    }
  }
};

} // namespace
