// SPDX-License-Identifier: Apache-2.0
//===- ModelChecks.cpp - What mips-compile refuses, in one line each -------===//
//
// Inputs MLIR accepts but mips-compile cannot compile (or would compile into an
// object that does not link) get one located error saying what to do, before
// any pass runs.
//
//===----------------------------------------------------------------------===//

#include "mips-compiler/Tools/ModelChecks.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;

/// What mips-compile compiles, for messages about what it does not.
static const char kAcceptedDialects[] =
    "func, arith, math, complex, tensor, memref, linalg, tosa, scf, vector and mips";

/// Replaces MLIR's parser errors for operations of dialects this tool does not know
/// (PyTorch, StableHLO, ...: a list of 50 dialects, or advice to call
/// allowUnregisteredDialects()), and for their types and attributes, with one line
/// naming the dialect and what to do.
LogicalResult mips::explainForeignDialect(Diagnostic &diag, llvm::SourceMgr &sourceMgr) {
  if (diag.getSeverity() != DiagnosticSeverity::Error)
    return failure();
  const std::string message = diag.str();
  std::string dialect;
  llvm::StringRef text(message);
  llvm::StringRef what = "operations";
  if (text.contains("created with unregistered dialect") &&
      (text.consume_front("`!") || text.consume_front("`#"))) {
    // A type or attribute, e.g. !torch.vtensor<...> in a function's signature, which
    // MLIR prints as `!"torch"<"vtensor<...>">`.
    what = text.contains("` type created") ? "types" : "attributes";
    text.consume_front("\"");
    dialect = text.take_until([](char c) { return c == '"' || c == '.' || c == '<'; }).str();
  } else if (text.consume_front("Dialect `")) {
    dialect = text.take_until([](char c) { return c == '\''; }).str();
  } else if (text.starts_with("operation being parsed with an unregistered dialect")) {
    // The generic form: the op's quoted name precedes the location on its line.
    if (auto loc = dyn_cast<FileLineColLoc>(diag.getLocation())) {
      const unsigned id = sourceMgr.getMainFileID();
      llvm::StringRef buffer = sourceMgr.getMemoryBuffer(id)->getBuffer();
      llvm::SMLoc at = sourceMgr.FindLocForLineAndColumn(id, loc.getLine(), loc.getColumn());
      if (at.isValid()) {
        llvm::StringRef before = buffer.take_front(at.getPointer() - buffer.data());
        size_t close = before.rfind('"');
        size_t open = close == llvm::StringRef::npos ? close : before.rfind('"', close - 1);
        if (open != llvm::StringRef::npos)
          dialect = before.slice(open + 1, close).split('.').first.str();
      }
    }
    if (dialect.empty())
      dialect = "an unknown dialect";
  } else {
    return failure();
  }
  emitError(diag.getLocation())
      << "'" << dialect << "' " << what << " are not something mips-compile compiles; it "
      << "accepts " << kAcceptedDialects << ": lower the model to linalg or TOSA first";
  return success(); // the original error and its notes are dropped
}

/// Names the mips runtime (linked into every object) and libmips define. A model
/// function of the same name would not link, or would replace the runtime's own.
static LogicalResult checkFunctionNames(ModuleOp module) {
  static const char *const reservedPrefixes[] = {"mips_", "mipsrt_", "__mips_rt_",
                                                 "_mlir_ciface_"};
  static const char *const reservedNames[] = {"memrefCopy", "malloc", "free",
                                              "aligned_alloc"};
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isExternal())
      continue;
    llvm::StringRef name = func.getSymName();
    bool reserved = llvm::is_contained(reservedNames, name);
    for (const char *prefix : reservedPrefixes)
      reserved |= name.starts_with(prefix);
    if (reserved) {
      func.emitError() << "@" << name << " collides with a name the mips runtime or libmips "
                       << "defines (mips_*, mipsrt_*, __mips_rt_*, _mlir_ciface_*, memrefCopy, "
                       << "malloc, free, aligned_alloc); rename the function";
      return failure();
    }
  }
  return success();
}

/// Memrefs whose layout is an affine map without strides (a permutation, a tiled
/// layout) have no (offset, strides) for libmips or for MLIR's lowering to LLVM.
static LogicalResult checkMemrefLayouts(ModuleOp module) {
  auto isUnstrided = [](Type type) {
    auto memref = dyn_cast<MemRefType>(type);
    return memref && !memref.isStrided();
  };
  // Outer ops first: a function's signature is reported at the function.
  WalkResult result = module.walk<WalkOrder::PreOrder>([&](Operation *op) {
    SmallVector<Type> types(op->getOperandTypes());
    llvm::append_range(types, op->getResultTypes());
    if (auto func = dyn_cast<FunctionOpInterface>(op)) {
      llvm::append_range(types, func.getArgumentTypes());
      llvm::append_range(types, func.getResultTypes());
    }
    for (Region &region : op->getRegions())
      for (Block &block : region)
        llvm::append_range(types, block.getArgumentTypes());
    const Type *bad = llvm::find_if(types, isUnstrided);
    if (bad == types.end())
      return WalkResult::advance();
    op->emitError() << *bad << " has a layout map without strides; mips-compile "
                    << "lowers memrefs with strided layouts only: write the layout as "
                    << "strided<[...], offset: ...>, or run mlir-opt --normalize-memrefs first";
    return WalkResult::interrupt();
  });
  return failure(result.wasInterrupted());
}

/// MLIR 22's TOSA-to-linalg lowering reads tosa.matmul's zero points as constants;
/// other zero points would fail later as a bare "failed to legalize".
static LogicalResult checkTosaZeroPoints(ModuleOp module) {
  WalkResult result = module.walk([](Operation *op) {
    if (op->getName().getStringRef() != "tosa.matmul" || op->getNumOperands() != 4)
      return WalkResult::advance();
    for (unsigned operand : {2u, 3u})
      if (!matchPattern(op->getOperand(operand), m_Constant())) {
        op->emitError() << "tosa.matmul's " << (operand == 2 ? "A" : "B")
                        << " zero point is not a constant, which MLIR 22's TOSA lowering "
                        << "needs; make it a tosa.const, or write the product as "
                        << "linalg.quantized_batch_matmul, whose zero points may be any value";
        return WalkResult::interrupt();
      }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

LogicalResult mips::checkModelForMipsCompile(ModuleOp module) {
  return failure(failed(checkFunctionNames(module)) || failed(checkMemrefLayouts(module)) ||
                 failed(checkTosaZeroPoints(module)));
}
