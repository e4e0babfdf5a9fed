// SPDX-License-Identifier: Apache-2.0
//===- ExposeCInterface.cpp - _mlir_ciface_ wrappers ------------*- C++ -*-===//
//
// Marks public function definitions with llvm.emit_c_interface, so that C code
// can call them through memref descriptors passed by pointer, and marks their
// tensor arguments read-only for bufferization: a C caller's buffers are inputs,
// never scratch space (an accumulating matmul works on a copy of its init).
//
//===----------------------------------------------------------------------===//

#include "mips-compiler/Transforms/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir {
namespace mips {
#define GEN_PASS_DEF_MIPSEXPOSECINTERFACE
#include "mips-compiler/Transforms/Passes.h.inc"
} // namespace mips
} // namespace mlir

using namespace mlir;

namespace {

struct MipsExposeCInterfacePass
    : mips::impl::MipsExposeCInterfaceBase<MipsExposeCInterfacePass> {
  using Base::Base;

  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    auto readOnly = BoolAttr::get(ctx, false);
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (!func.isPublic() || func.isExternal())
        continue;
      func->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(), UnitAttr::get(ctx));
      for (auto [index, type] : llvm::enumerate(func.getArgumentTypes()))
        if (isa<TensorType>(type))
          func.setArgAttr(index, bufferization::BufferizationDialect::kWritableAttrName,
                          readOnly);
    }
  }
};

} // namespace
