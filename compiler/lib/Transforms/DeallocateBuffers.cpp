// SPDX-License-Identifier: Apache-2.0
//===- DeallocateBuffers.cpp - free what bufferization allocated -*- C++ -*-===//
//
// Upstream's ownership-based deallocation refuses any function that already
// frees memory ("memory free side-effect on MemRef value not supported!").
// Input written on memrefs often does; such a function owns its memory, and is
// left alone as long as it frees every buffer it allocates.
//
//===----------------------------------------------------------------------===//

#include "mips-compiler/Transforms/Passes.h"

#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir {
namespace mips {
#define GEN_PASS_DEF_MIPSDEALLOCATEBUFFERS
#include "mips-compiler/Transforms/Passes.h.inc"
} // namespace mips
} // namespace mlir

using namespace mlir;

namespace {

/// In a function that frees memory itself, every memref.alloc must have a
/// memref.dealloc among its users: nothing else would free it.
static LogicalResult checkSelfManagedFunction(func::FuncOp func, memref::DeallocOp firstDealloc) {
  WalkResult result = func.walk([&](memref::AllocOp alloc) {
    bool freed = llvm::any_of(alloc->getUsers(), [](Operation *user) {
      return isa<memref::DeallocOp>(user);
    });
    if (freed)
      return WalkResult::advance();
    InFlightDiagnostic diag = alloc.emitError()
        << "this buffer is never freed, but @" << func.getSymName()
        << " frees others itself (memref.dealloc), so mips-compile leaves its memory "
           "to it; free this buffer with memref.dealloc too, or remove the function's "
           "memref.dealloc ops and let mips-compile place them all";
    diag.attachNote(firstDealloc.getLoc()) << "the function frees memory here";
    return WalkResult::interrupt();
  });
  return failure(result.wasInterrupted());
}

struct MipsDeallocateBuffersPass
    : mips::impl::MipsDeallocateBuffersBase<MipsDeallocateBuffersPass> {
  using Base::Base;

  void runOnOperation() override {
    SymbolTableCollection symbolTables;
    bufferization::DeallocationOptions options;
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      memref::DeallocOp firstDealloc;
      func.walk([&](memref::DeallocOp dealloc) {
        firstDealloc = dealloc;
        return WalkResult::interrupt();
      });
      LogicalResult result =
          firstDealloc ? checkSelfManagedFunction(func, firstDealloc)
                       : bufferization::deallocateBuffersOwnershipBased(func, options,
                                                                       symbolTables);
      if (failed(result))
        return signalPassFailure();
    }
  }
};

} // namespace
