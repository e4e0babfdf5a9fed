// SPDX-License-Identifier: Apache-2.0
//===- ImportTable.cpp - route libmips calls through a table ----*- C++ -*-===//
//
// The default (dynamic) way generated code reaches libmips: each call of an ABI
// function loads its pointer from __mips_rt_import_table, which the runtime
// fills once from the kernel provider it dlopens. The object is left with no
// undefined libmips symbol.
//
//===----------------------------------------------------------------------===//

#include "mips-compiler/Transforms/Passes.h"

#include "mips-compiler/Runtime/Imports.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir {
namespace mips {
#define GEN_PASS_DEF_MIPSIMPORTTABLE
#include "mips-compiler/Transforms/Passes.h.inc"
} // namespace mips
} // namespace mlir

using namespace mlir;

namespace {

/// Returns `name` from `module`, declaring it with `build` if absent.
template <typename OpTy, typename BuildFn>
static OpTy getOrDeclare(ModuleOp module, StringRef name, BuildFn build) {
  if (auto existing = module.lookupSymbol<OpTy>(name))
    return existing;
  OpBuilder builder = OpBuilder::atBlockBegin(module.getBody());
  return build(builder);
}

struct MipsImportTablePass
    : mips::impl::MipsImportTableBase<MipsImportTablePass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Only calls of external declarations: a function the module defines
    // itself is not libmips, whatever its name.
    SmallVector<LLVM::CallOp> calls;
    module.walk([&](LLVM::CallOp call) {
      std::optional<StringRef> callee = call.getCallee();
      if (!callee || !mips::lookupImportSlot(*callee))
        return;
      auto decl = module.lookupSymbol<LLVM::LLVMFuncOp>(*callee);
      if (decl && decl.isExternal())
        calls.push_back(call);
    });
    if (calls.empty())
      return;

    MLIRContext *ctx = &getContext();
    Location loc = module.getLoc();
    auto ptrType = LLVM::LLVMPointerType::get(ctx);
    // The table of the runtime for the ABI minor the module's calls need.
    const unsigned abiMinor = mips::getRequiredAbiMinor(module);
    auto tableType = LLVM::LLVMArrayType::get(ptrType, mips::importSlotCount(abiMinor));
    // Both are defined (weak, hidden) by the mips runtime linked into the object.
    std::string tableName = mips::importTableSymbol(abiMinor);
    std::string ensureName = mips::ensureImportsSymbol(abiMinor);
    auto table = getOrDeclare<LLVM::GlobalOp>(module, tableName, [&](OpBuilder &b) {
      return LLVM::GlobalOp::create(b, loc, tableType, /*isConstant=*/false,
                                    LLVM::Linkage::External, tableName, Attribute());
    });
    if (table.getGlobalType() != tableType) {
      table.emitError() << "'" << tableName << "' must have type " << tableType;
      return signalPassFailure();
    }
    auto ensure = getOrDeclare<LLVM::LLVMFuncOp>(module, ensureName, [&](OpBuilder &b) {
      auto type = LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), {});
      return LLVM::LLVMFuncOp::create(b, loc, ensureName, type);
    });

    for (LLVM::CallOp call : calls) {
      unsigned slot = *mips::lookupImportSlot(*call.getCallee());
      if (slot >= mips::importSlotCount(abiMinor)) {
        call.emitError() << "calls '" << *call.getCallee() << "', which libmips "
                         << MIPS_RT_ABI_MAJOR << "." << mips::kImportedFunctions[slot].abiMinor
                         << " added, but the module needs only ABI " << MIPS_RT_ABI_MAJOR << "."
                         << abiMinor << " ('" << mips::kRequiredAbiMinorAttr << "')";
        return signalPassFailure();
      }
      OpBuilder b(call);
      Location callLoc = call.getLoc();
      LLVM::CallOp::create(b, callLoc, ensure, ValueRange{});
      Value base = LLVM::AddressOfOp::create(b, callLoc, table);
      Value slotAddress = LLVM::GEPOp::create(
          b, callLoc, ptrType, tableType, base,
          ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(slot)});
      Value function = LLVM::LoadOp::create(b, callLoc, ptrType, slotAddress);
      SmallVector<Value> operands = {function};
      llvm::append_range(operands, call.getArgOperands());
      auto indirect =
          LLVM::CallOp::create(b, callLoc, call.getCalleeFunctionType(), operands);
      call.replaceAllUsesWith(indirect.getResults());
      call.erase();
    }

    for (const mips::ImportedFunction &function : mips::kImportedFunctions) {
      auto decl = module.lookupSymbol<LLVM::LLVMFuncOp>(function.name);
      if (decl && decl.isExternal() && SymbolTable::symbolKnownUseEmpty(decl, module))
        decl.erase();
    }
  }
};

} // namespace
