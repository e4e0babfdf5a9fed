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
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
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

/// True if `buffer`, or a view or cast of it, is freed by memref.dealloc or
/// returned (then the caller owns it).
static bool isFreedOrReturned(Value buffer) {
  SmallVector<Value> aliases = {buffer};
  while (!aliases.empty()) {
    Value alias = aliases.pop_back_val();
    for (Operation *user : alias.getUsers()) {
      if (isa<memref::DeallocOp, func::ReturnOp>(user))
        return true;
      if (auto view = dyn_cast<ViewLikeOpInterface>(user))
        if (view.getViewSource() == alias)
          llvm::append_range(aliases, user->getResults());
    }
  }
  return false;
}

/// In a function that frees memory itself, every memref.alloc must be freed
/// there or returned to the caller: nothing else would free it.
static LogicalResult checkSelfManagedFunction(func::FuncOp func, memref::DeallocOp firstDealloc) {
  WalkResult result = func.walk([&](memref::AllocOp alloc) {
    if (isFreedOrReturned(alloc.getResult()))
      return WalkResult::advance();
    InFlightDiagnostic diag = alloc.emitError()
        << "this buffer is neither freed nor returned, but @" << func.getSymName()
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
