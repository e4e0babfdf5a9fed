//===- ExposeCInterface.cpp - _mlir_ciface_ wrappers ------------*- C++ -*-===//
//
// Marks public function definitions with llvm.emit_c_interface, so that C code
// can call them through memref descriptors passed by pointer.
//
//===----------------------------------------------------------------------===//

#include "mips-compiler/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir {
namespace mips {
#define GEN_PASS_DEF_MIPSEXPOSECINTERFACE
#include "mips-compiler/Passes.h.inc"
} // namespace mips
} // namespace mlir

using namespace mlir;

namespace {

struct MipsExposeCInterfacePass
    : mips::impl::MipsExposeCInterfaceBase<MipsExposeCInterfacePass> {
  using Base::Base;

  void runOnOperation() override {
    UnitAttr unit = UnitAttr::get(&getContext());
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (func.isPublic() && !func.isExternal())
        func->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(), unit);
  }
};

} // namespace
