// SPDX-License-Identifier: Apache-2.0
//===- CopiesAsLoops.cpp - buffer copies as loops LLVM vectorizes -*- C++ -*-===//
//
// memref.copy lowers to the runtime's memrefCopy, a call per element, unless both
// buffers are contiguous, and then to the C library's memcpy, which is scalar on
// riscv64. A padded input (tensor.pad bufferizes to a fill and a copy into the
// interior) cost ResNet-18 1.1 M instructions that way. As linalg.copy the copy
// is a loop nest LLVM vectorizes (and, over dense buffers, one loop).
//
//===----------------------------------------------------------------------===//

#include "mips-compiler/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace mips {
#define GEN_PASS_DEF_MIPSCOPIESASLOOPS
#include "mips-compiler/Transforms/Passes.h.inc"
} // namespace mips
} // namespace mlir

using namespace mlir;

namespace {

bool isContiguous(MemRefType type) {
  return memref::isStaticShapeAndContiguousRowMajor(type);
}

struct CopiesAsLoops : mips::impl::MipsCopiesAsLoopsBase<CopiesAsLoops> {
  using MipsCopiesAsLoopsBase::MipsCopiesAsLoopsBase;

  void runOnOperation() override {
    SmallVector<memref::CopyOp> copies;
    getOperation()->walk([&](memref::CopyOp copy) { copies.push_back(copy); });
    IRRewriter rewriter(&getContext());
    for (memref::CopyOp copy : copies) {
      auto source = dyn_cast<MemRefType>(copy.getSource().getType());
      auto target = dyn_cast<MemRefType>(copy.getTarget().getType());
      if (!source || !target || !source.isStrided() || !target.isStrided())
        continue;
      // memcpy is the fast way where the C library's is vectorized.
      if (!allCopies && isContiguous(source) && isContiguous(target))
        continue;
      rewriter.setInsertionPoint(copy);
      rewriter.replaceOpWithNewOp<linalg::CopyOp>(copy, copy.getSource(), copy.getTarget());
    }
  }
};

} // namespace
