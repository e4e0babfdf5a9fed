// SPDX-License-Identifier: Apache-2.0
//===- ForwardArgumentCopies.cpp - read arguments in place --------*- C++ -*-===//
//
// Bufferization copies a function argument of unknown strides into a new buffer
// before reshaping it (a collapse is not valid on every layout): a 1x1 conv's
// input, a conv's filter. In a dense-argument copy of the function the strides
// are known and the reshape is valid on the argument itself, so the copy (a
// scalar memcpy: 47 % of a 1x1 conv's instructions at VLEN 1024) is not needed
// when neither the argument nor the copy is ever written.
//
//===----------------------------------------------------------------------===//

#include "mips-compiler/Transforms/Passes.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir {
namespace mips {
#define GEN_PASS_DEF_MIPSFORWARDARGUMENTCOPIES
#include "mips-compiler/Transforms/Passes.h.inc"
} // namespace mips
} // namespace mlir

using namespace mlir;

namespace {

/// Whether `user` declares that it only reads `value`. A view of it (any op with a
/// memref result) does not count: it has no effects of its own, but its users may
/// write through it, and its type depends on the buffer's layout.
bool onlyReads(Operation *user, Value value) {
  auto effects = dyn_cast<MemoryEffectOpInterface>(user);
  if (!effects || llvm::any_of(user->getResultTypes(), llvm::IsaPred<BaseMemRefType>))
    return false;
  SmallVector<MemoryEffects::EffectInstance> instances;
  effects.getEffectsOnValue(value, instances);
  return llvm::all_of(instances, [](const MemoryEffects::EffectInstance &instance) {
    return isa<MemoryEffects::Read>(instance.getEffect());
  });
}

/// Whether `view` (a collapse) is only read by its users.
bool onlyReadThrough(Value view) {
  return llvm::all_of(view.getUsers(), [&](Operation *user) { return onlyReads(user, view); });
}

/// Whether nothing in the function may write `argument`: each use is the source of
/// a copy, a collapse that is only read, or an op that only reads it.
bool neverWritten(Value argument) {
  return llvm::all_of(argument.getUses(), [](OpOperand &use) {
    Operation *user = use.getOwner();
    if (auto copy = dyn_cast<memref::CopyOp>(user))
      return copy.getSource() == use.get();
    if (isa<memref::CollapseShapeOp>(user))
      return onlyReadThrough(user->getResult(0));
    return onlyReads(user, use.get());
  });
}

/// Makes the readers of `copy`'s target read its source instead, if that is
/// valid, and removes the copy.
void forward(memref::CopyOp copy, IRRewriter &rewriter) {
  Value source = copy.getSource(), target = copy.getTarget();
  auto alloc = target.getDefiningOp<memref::AllocOp>();
  if (!alloc || !isa<BlockArgument>(source) || !neverWritten(source))
    return;
  // The target: copied into once, deallocated, and otherwise only collapsed (in
  // ways valid on the source's layout), after the copy, for reading.
  SmallVector<memref::CollapseShapeOp> collapses;
  SmallVector<Operation *> deallocs;
  auto sourceType = cast<MemRefType>(source.getType());
  for (Operation *user : target.getUsers()) {
    if (user == copy.getOperation())
      continue;
    if (isa<memref::DeallocOp>(user)) {
      deallocs.push_back(user);
      continue;
    }
    auto collapse = dyn_cast<memref::CollapseShapeOp>(user);
    if (!collapse || collapse->getBlock() != copy->getBlock() ||
        !copy->isBeforeInBlock(collapse) || !onlyReadThrough(collapse.getResult()) ||
        !memref::CollapseShapeOp::isGuaranteedCollapsible(sourceType,
                                                          collapse.getReassociationIndices()))
      return;
    collapses.push_back(collapse);
  }
  for (memref::CollapseShapeOp collapse : collapses) {
    rewriter.setInsertionPoint(collapse);
    auto inPlace = memref::CollapseShapeOp::create(rewriter, collapse.getLoc(), source,
                                                   collapse.getReassociationIndices());
    // The readers take any strided view (mips.matmul, linalg ops, transfers).
    rewriter.replaceAllUsesWith(collapse.getResult(), inPlace.getResult());
    rewriter.eraseOp(collapse);
  }
  for (Operation *dealloc : deallocs)
    rewriter.eraseOp(dealloc);
  rewriter.eraseOp(copy);
  rewriter.eraseOp(alloc);
}

struct ForwardArgumentCopies : mips::impl::MipsForwardArgumentCopiesBase<ForwardArgumentCopies> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    SmallVector<memref::CopyOp> copies;
    getOperation()->walk([&](memref::CopyOp copy) { copies.push_back(copy); });
    for (memref::CopyOp copy : copies)
      forward(copy, rewriter);
  }
};

} // namespace
