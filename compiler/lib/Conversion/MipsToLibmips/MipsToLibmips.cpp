// SPDX-License-Identifier: Apache-2.0
//===- MipsToLibmips.cpp - mips.matmul on memrefs to libmips ----*- C++ -*-===//
//
// The only place that knows the libmips ABI: every buffer is split by
// memref.extract_strided_metadata into (base, offset, stride0, stride1),
// transposes swap strides, dynamic shapes are checked before the call, and a
// nonzero status calls the runtime's failure report.
//
//===----------------------------------------------------------------------===//

#include "mips-compiler/Conversion/MipsToLibmips/MipsToLibmips.h"

#include "mips-compiler/Dialect/Mips/BatchMatmulLoop.h"
#include "mips-compiler/Dialect/Mips/MipsOps.h"
#include "mips-compiler/Runtime/Imports.h"
#include "mips/mips.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

#include <memory>

namespace mlir {
namespace mips {
#define GEN_PASS_DEF_CONVERTMIPSTOLIBMIPS
#include "mips-compiler/Conversion/Passes.h.inc"
} // namespace mips
} // namespace mlir

using namespace mlir;

namespace {

/// True if the verifier could not already prove that the operands fit together.
template <typename OpTy>
static bool needsShapeCheck(OpTy op) {
  auto lhs = cast<ShapedType>(op.getLhs().getType());
  auto rhs = cast<ShapedType>(op.getRhs().getType());
  auto init = cast<ShapedType>(op.getInit().getType());
  return !lhs.hasStaticShape() || !rhs.hasStaticShape() || !init.hasStaticShape();
}

/// A function the emitted code calls: a libmips entry point, or the runtime's.
struct AbiFunction {
  std::string name;
  FunctionType type;
  bool barePointers; // memref<elt> arguments lower to a plain pointer
};

/// What the libmips calls may use beyond ABI 1.0 (each needs 1.2).
struct CallOptions {
  bool anyOrder = false;            // MIPS_MATMUL_ANY_ORDER on f32 calls
  bool packConstantWeights = false; // constant weights packed once, then packed calls
  bool batchedCalls = false;        // mips.batch_matmul as one mips_matmul_batch_* call
};

/// Whether the call for `op` passes MIPS_MATMUL_ANY_ORDER: f32 only, since integer
/// sums are the same in any order (and the flag would demand ABI 1.2 for nothing).
template <typename OpTy>
static bool passesAnyOrder(OpTy op, const CallOptions &options) {
  return options.anyOrder && getElementTypeOrSelf(op.getLhs()).isF32();
}

/// The constant global that `operand` views (a model's weights), if any: through
/// casts, reshapes and subviews, to a view whose layout is static, so that every call
/// reads the same elements.
static memref::GlobalOp getConstantWeights(Operation *op, Value operand) {
  int64_t offset;
  SmallVector<int64_t> strides;
  auto type = cast<MemRefType>(operand.getType());
  if (!type.hasStaticShape() || failed(type.getStridesAndOffset(strides, offset)) ||
      ShapedType::isDynamic(offset) || llvm::any_of(strides, ShapedType::isDynamic))
    return {};
  Value source = operand;
  while (Operation *view = source.getDefiningOp()) {
    if (!isa<memref::CastOp, memref::CollapseShapeOp, memref::ExpandShapeOp, memref::SubViewOp>(view))
      break;
    source = view->getOperand(0);
  }
  auto get = source.getDefiningOp<memref::GetGlobalOp>();
  if (!get)
    return {};
  auto global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(op, get.getNameAttr());
  return global && global.getConstant() ? global : memref::GlobalOp();
}

/// Which operand of a matmul's call is constant weights packed once.
enum class PackedOperand {
  None,
  Rhs,
  /// A constant A whose product is narrow: the call computes C^T = B^T * A^T, so that
  /// A^T is the packed B and the vectors run along A's rows (a classifier's 1000
  /// outputs, not the image's single pixel). The sum over k keeps its order.
  LhsSwapped,
};

/// Which operand of `op`'s call is packed once. A constant A only where the product
/// is narrower than A is tall: the other way round its vectors would run along the
/// shorter side (measured: packing every constant A is slower in every network).
static PackedOperand getPackedOperand(mips::MatmulOp op, const CallOptions &options) {
  if (!options.packConstantWeights || op.getInlined())
    return PackedOperand::None;
  if (getConstantWeights(op, op.getRhs()))
    return PackedOperand::Rhs;
  auto lhs = cast<MemRefType>(op.getLhs().getType());
  auto init = cast<MemRefType>(op.getInit().getType());
  const int64_t m = lhs.getDimSize(op.getTransposeLhs() ? 1 : 0);
  const int64_t n = init.getDimSize(1);
  if (getConstantWeights(op, op.getLhs()) && !ShapedType::isDynamic(n) && n < m)
    return PackedOperand::LhsSwapped;
  return PackedOperand::None;
}

/// The MIPS_MATMUL_* flags of the call for `op`.
template <typename OpTy>
static uint32_t callFlags(OpTy op, const CallOptions &options) {
  return (op.getOverwrite() ? 0 : MIPS_MATMUL_ACCUMULATE) |
         (passesAnyOrder(op, options) ? MIPS_MATMUL_ANY_ORDER : 0);
}

/// One matmul's libmips call, decided once per op (CallPlans): which operand is
/// constant weights packed once, and whose; the flags; the ABI minor it needs.
struct MatmulCallPlan {
  PackedOperand packed = PackedOperand::None;
  memref::GlobalOp weights; // the packed operand's global
  uint32_t flags = 0;
  unsigned abiMinor = MIPS_RT_ABI_MINOR_BASE;
};

static MatmulCallPlan planCall(mips::MatmulOp op, const CallOptions &options) {
  MatmulCallPlan plan;
  plan.packed = getPackedOperand(op, options);
  if (plan.packed != PackedOperand::None)
    plan.weights = getConstantWeights(
        op, plan.packed == PackedOperand::LhsSwapped ? op.getLhs() : op.getRhs());
  plan.flags = callFlags(op, options);
  plan.abiMinor = passesAnyOrder(op, options) || plan.packed != PackedOperand::None
                      ? 2
                      : MIPS_RT_ABI_MINOR_BASE;
  return plan;
}

/// The plans of a module's matmuls, each made on first use: the ABI minor the
/// module records, the declarations checked, and the call emitted all read one plan.
class CallPlans {
public:
  explicit CallPlans(CallOptions options) : options(options) {}
  const MatmulCallPlan &get(mips::MatmulOp op) {
    auto [it, inserted] = plans.try_emplace(op.getOperation());
    if (inserted)
      it->second = planCall(op, options);
    return it->second;
  }
  const CallOptions &getOptions() const { return options; }

private:
  CallOptions options;
  llvm::DenseMap<Operation *, MatmulCallPlan> plans;
};

/// The libmips ABI minor the calls for `op` need: a batched call's, or those of the
/// loop of matmuls it becomes. Any entry over constant weights may pack them (a
/// shared constant A or B, a unit batch's constant operand), so constant weights
/// count whether or not an entry will.
static unsigned requiredAbiMinor(mips::BatchMatmulOp op, const CallOptions &options) {
  if (options.batchedCalls)
    return 2;
  // The loop of a batch with a static 0 extent makes no call at all.
  if (llvm::any_of(ValueRange{op.getLhs(), op.getRhs(), op.getInit()}, [](Value v) {
        return llvm::is_contained(cast<ShapedType>(v.getType()).getShape(), 0);
      }))
    return MIPS_RT_ABI_MINOR_BASE;
  const bool overWeights = options.packConstantWeights && (getConstantWeights(op, op.getLhs()) ||
                                                           getConstantWeights(op, op.getRhs()));
  return passesAnyOrder(op, options) || overWeights ? 2 : MIPS_RT_ABI_MINOR_BASE;
}

/// The runtime function that packs `op`'s constant weights on first use and returns
/// their handle: packed_b_f32 or packed_b_i8.
static std::string packedBHelper(mips::MatmulOp op, unsigned abiMinor) {
  return mips::runtimeSymbol(
      "common", getElementTypeOrSelf(op.getLhs()).isF32() ? "packed_b_f32" : "packed_b_i8", abiMinor);
}

/// What memref.extract_strided_metadata gives as `buffer`'s base: memref<elt>.
static Type baseOf(Value buffer) {
  auto type = cast<MemRefType>(buffer.getType());
  return MemRefType::get({}, type.getElementType(), MemRefLayoutAttrInterface(),
                         type.getMemorySpace());
}

/// The runtime's report of matrix extents that disagree.
static AbiFunction badShapesFunction(MLIRContext *ctx, unsigned abiMinor) {
  Builder b(ctx);
  return {mips::badShapesSymbol(abiMinor), b.getFunctionType(SmallVector<Type>(6, b.getI64Type()), {}),
          false};
}

/// The runtime's report of batch extents that disagree (any minor's runtime has it).
static AbiFunction badBatchFunction(MLIRContext *ctx, unsigned abiMinor) {
  Builder b(ctx);
  return {mips::badBatchSymbol(abiMinor), b.getFunctionType(SmallVector<Type>(3, b.getI64Type()), {}),
          false};
}

/// The functions one call declares and calls, by role.
struct CallFunctions {
  AbiFunction kernel, statusString, callFailed;
  std::optional<AbiFunction> badShapes, badBatch, packedB;
  /// All of them, in the order they are declared.
  SmallVector<AbiFunction, 6> all() const {
    SmallVector<AbiFunction, 6> functions = {kernel, statusString, callFailed};
    for (const std::optional<AbiFunction> &function : {badShapes, badBatch, packedB})
      if (function)
        functions.push_back(*function);
    return functions;
  }
};

/// Their declarations in a module.
struct CallDecls {
  func::FuncOp kernel, statusString, callFailed, badShapes, badBatch, packedB;
};

/// mips_status_string and the runtime's failure report, which follow every call.
static void setFailureReport(CallFunctions &functions, MLIRContext *ctx, unsigned abiMinor) {
  Builder b(ctx);
  Type i32 = b.getI32Type(), pointer = LLVM::LLVMPointerType::get(ctx);
  functions.statusString = {"mips_status_string", b.getFunctionType({i32}, {pointer}), false};
  functions.callFailed = {mips::callFailedSymbol(abiMinor),
                          b.getFunctionType({i32, i32, pointer}, {}), false};
}

/// The ABI functions a libmips call for `op` needs: the kernel, mips_status_string,
/// the runtime's failure report, for dynamic shapes its shape report, and for packed
/// weights the runtime's packer. The runtime's names are those of the runtime for
/// the module's ABI minor.
static CallFunctions getAbiFunctions(mips::MatmulOp op, const MatmulCallPlan &plan) {
  const unsigned abiMinor = mips::getRequiredAbiMinor(op->getParentOfType<ModuleOp>());
  const PackedOperand packedOperand = plan.packed;
  const bool packed = packedOperand != PackedOperand::None;
  // With A packed, the call's A is op's B (the two have one element type).
  Value callA = packedOperand == PackedOperand::LhsSwapped ? op.getRhs() : op.getLhs();
  Value callB = packedOperand == PackedOperand::LhsSwapped ? op.getLhs() : op.getRhs();
  Builder b(op.getContext());
  Type i32 = b.getI32Type(), i64 = b.getI64Type();
  Type pointer = LLVM::LLVMPointerType::get(op.getContext());
  // (m, n, k, A, B, C, flags), or with B packed (m, A, B's handle, C, flags); each
  // matrix as (base, offset, stride0, stride1).
  SmallVector<Type> kernelArgs(packed ? 1 : 3, i64);
  const Value matrices[] = {callA, callB, op.getInit()};
  for (auto [index, matrix] : llvm::enumerate(matrices)) {
    if (packed && index == 1) {
      kernelArgs.push_back(pointer);
      continue;
    }
    kernelArgs.push_back(baseOf(matrix));
    kernelArgs.append(3, i64); // offset, stride0, stride1
  }
  kernelArgs.push_back(i32); // flags
  // The verifier allows f32 and i8 x i8 -> i32 only.
  const bool isF32 = getElementTypeOrSelf(op.getLhs()).isF32();
  std::string callee = packed ? (isF32 ? "mips_matmul_packed_f32" : "mips_matmul_packed_i8i32")
                              : (isF32 ? "mips_matmul_f32" : "mips_matmul_i8i32");
  CallFunctions functions;
  functions.kernel = {callee, b.getFunctionType(kernelArgs, {i32}), /*barePointers=*/true};
  setFailureReport(functions, op.getContext(), abiMinor);
  if (needsShapeCheck(op))
    functions.badShapes = badShapesFunction(op.getContext(), abiMinor);
  if (packed) {
    // (slot, k, n, B's base, offset, stride0, stride1) -> handle; the slot is a
    // memref<1xi64> global, passed as its base.
    Type slot = MemRefType::get({}, i64);
    functions.packedB = {packedBHelper(op, abiMinor),
                         b.getFunctionType({slot, i64, i64, baseOf(callB), i64, i64, i64},
                                           {pointer}),
                         /*barePointers=*/true};
  }
  return functions;
}

/// The ABI functions a batched call for `op` needs: mips_matmul_batch_<type>, the
/// failure report's two, and, for dynamic shapes, the shape and batch reports.
static CallFunctions getBatchAbiFunctions(mips::BatchMatmulOp op) {
  const unsigned abiMinor = mips::getRequiredAbiMinor(op->getParentOfType<ModuleOp>());
  Builder b(op.getContext());
  Type i32 = b.getI32Type(), i64 = b.getI64Type();
  // (batch, m, n, k, A, B, C, flags); each matrix as (base, offset, batch stride,
  // stride0, stride1).
  SmallVector<Type> kernelArgs(4, i64);
  for (Value matrix : {op.getLhs(), op.getRhs(), op.getInit()}) {
    kernelArgs.push_back(baseOf(matrix));
    kernelArgs.append(4, i64);
  }
  kernelArgs.push_back(i32);
  const bool isF32 = getElementTypeOrSelf(op.getLhs()).isF32();
  CallFunctions functions;
  functions.kernel = {isF32 ? "mips_matmul_batch_f32" : "mips_matmul_batch_i8i32",
                      b.getFunctionType(kernelArgs, {i32}), /*barePointers=*/true};
  setFailureReport(functions, op.getContext(), abiMinor);
  if (needsShapeCheck(op)) {
    functions.badShapes = badShapesFunction(op.getContext(), abiMinor);
    functions.badBatch = badBatchFunction(op.getContext(), abiMinor);
  }
  return functions;
}

/// The module's slot for the handle of `packed` (a view of `weights`, transposed if
/// `transposed`), packed as the call's B: a private memref<1xi64> global, zero until
/// the runtime stores the handle. One slot per packed matrix, found by its key (the
/// weights, the view's layout, the orientation) rather than by its name, which only
/// reads well: where a symbol has that name, the slot's gets a number.
static memref::GlobalOp getOrCreateHandleSlot(RewriterBase &rewriter, ModuleOp module,
                                              memref::GlobalOp weights, Value packed,
                                              bool transposed) {
  MLIRContext *ctx = module.getContext();
  auto view = cast<MemRefType>(packed.getType());
  SmallVector<int64_t> strides;
  int64_t offset = 0;
  (void)view.getStridesAndOffset(strides, offset); // static: getConstantWeights checked
  Builder b(ctx);
  auto key = b.getArrayAttr({FlatSymbolRefAttr::get(weights.getSymNameAttr()),
                             b.getI64IntegerAttr(offset), b.getDenseI64ArrayAttr(view.getShape()),
                             b.getDenseI64ArrayAttr(strides), b.getBoolAttr(transposed)});
  constexpr llvm::StringLiteral keyName = "mips.packed_weights";
  for (auto slot : module.getOps<memref::GlobalOp>())
    if (slot->getAttr(keyName) == key)
      return slot;
  std::string name = ("__mips_packed_" + weights.getSymName()).str();
  SmallVector<int64_t> wholeStrides;
  int64_t wholeOffset = 0;
  (void)weights.getType().getStridesAndOffset(wholeStrides, wholeOffset);
  if (view.getShape() != weights.getType().getShape() || strides != wholeStrides ||
      offset != wholeOffset) {
    llvm::raw_string_ostream os(name);
    os << "_at" << offset;
    for (auto [size, stride] : llvm::zip(view.getShape(), strides))
      os << "_" << size << "s" << stride;
  }
  if (transposed)
    name += "_t";
  const std::string readable = name;
  for (unsigned suffix = 1; module.lookupSymbol(name); ++suffix)
    name = readable + "_" + std::to_string(suffix);
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(module.getBody());
  auto type = MemRefType::get({1}, rewriter.getI64Type());
  auto zero = DenseElementsAttr::get(RankedTensorType::get({1}, rewriter.getI64Type()),
                                     rewriter.getI64IntegerAttr(0).getValue());
  auto slot = memref::GlobalOp::create(rewriter, module.getLoc(), name,
                                       rewriter.getStringAttr("private"), type, zero,
                                       /*constant=*/false, /*alignment=*/IntegerAttr());
  slot->setAttr(keyName, key);
  return slot;
}

/// Why `module` cannot declare `functions` as the ABI needs them (a symbol of the
/// same name that is not a func.func of the same type: a call through it would not
/// match the ABI), or nothing.
static std::optional<std::string> findDeclarationClash(ModuleOp module,
                                                       ArrayRef<AbiFunction> functions) {
  for (const AbiFunction &function : functions) {
    Operation *existing = module.lookupSymbol(function.name);
    if (!existing)
      continue;
    auto func = dyn_cast<func::FuncOp>(existing);
    if (func && func.getFunctionType() == function.type)
      continue;
    std::string clash;
    llvm::raw_string_ostream os(clash);
    os << "'" << function.name << "' is already ";
    if (func)
      os << "declared as '" << func.getFunctionType() << "'";
    else
      os << "defined by '" << existing->getName() << "'";
    os << ", which does not match the libmips ABI '" << function.type << "'";
    return clash;
  }
  return std::nullopt;
}

/// `function`'s declaration in `module`, created private if missing.
static func::FuncOp getOrDeclare(RewriterBase &rewriter, ModuleOp module,
                                 const AbiFunction &function) {
  // findDeclarationClash has ruled out other symbols of this name.
  if (auto existing = module.lookupSymbol<func::FuncOp>(function.name))
    return existing;
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(module.getBody());
  auto decl = func::FuncOp::create(rewriter, module.getLoc(), function.name, function.type);
  decl.setPrivate();
  if (function.barePointers)
    decl->setAttr("llvm.bareptr", rewriter.getUnitAttr());
  return decl;
}

/// The declarations of `functions` in `module`, made in CallFunctions::all's order.
static CallDecls declareAll(RewriterBase &rewriter, ModuleOp module,
                            const CallFunctions &functions) {
  CallDecls decls;
  auto declare = [&](const std::optional<AbiFunction> &function) {
    return function ? getOrDeclare(rewriter, module, *function) : func::FuncOp();
  };
  decls.kernel = getOrDeclare(rewriter, module, functions.kernel);
  decls.statusString = getOrDeclare(rewriter, module, functions.statusString);
  decls.callFailed = getOrDeclare(rewriter, module, functions.callFailed);
  decls.badShapes = declare(functions.badShapes);
  decls.badBatch = declare(functions.badBatch);
  decls.packedB = declare(functions.packedB);
  return decls;
}

/// One matrix (or batch of matrices) as the libmips ABI passes it.
struct AbiMatrix {
  Value base;              // memref<elt>: lowers to a bare pointer
  Value offset;            // i64
  Value stride0, stride1;  // i64
  SmallVector<Value, 2> sizes; // index
  Value batchStride;       // i64; 0 for a rank-2 operand every batch entry shares
  Value batchSize;         // index; null for a rank-2 operand
};

/// Splits `buffer` into (base, offset, strides); `transposed` swaps the strides
/// and sizes so that element (i, j) of the view is element (j, i) of `buffer`. A
/// rank-3 buffer is a batch of such matrices along its first dimension.
static AbiMatrix decompose(OpBuilder &b, Location loc, Value buffer,
                           bool transposed) {
  auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, buffer);
  auto toI64 = [&](Value index) {
    return arith::IndexCastOp::create(b, loc, b.getI64Type(), index).getResult();
  };
  const bool batched = cast<MemRefType>(buffer.getType()).getRank() == 3;
  const unsigned first = batched ? 1 : 0;
  unsigned d0 = first + (transposed ? 1 : 0), d1 = first + (transposed ? 0 : 1);
  AbiMatrix matrix;
  matrix.base = metadata.getBaseBuffer();
  matrix.offset = toI64(metadata.getOffset());
  matrix.stride0 = toI64(metadata.getStrides()[d0]);
  matrix.stride1 = toI64(metadata.getStrides()[d1]);
  matrix.sizes = {metadata.getSizes()[d0], metadata.getSizes()[d1]};
  if (batched) {
    matrix.batchStride = toI64(metadata.getStrides()[0]);
    matrix.batchSize = metadata.getSizes()[0];
  } else {
    matrix.batchStride = arith::ConstantIntOp::create(b, loc, b.getI64Type(), 0);
  }
  return matrix;
}

/// Emits `if (any extent disagrees) report(...)`: with dynamic shapes, a
/// mismatch found only at run time must stop the program before libmips reads
/// or writes outside a buffer.
static void emitShapeCheck(OpBuilder &b, Location loc, func::FuncOp report, const AbiMatrix &a,
                           const AbiMatrix &bm, const AbiMatrix &c) {
  auto same = [&](Value x, Value y) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, x, y).getResult();
  };
  Value fits = arith::AndIOp::create(
      b, loc,
      arith::AndIOp::create(b, loc, same(a.sizes[1], bm.sizes[0]),
                            same(c.sizes[0], a.sizes[0])),
      same(c.sizes[1], bm.sizes[1]));
  Value misfit = arith::XOrIOp::create(
      b, loc, fits, arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1));
  auto ifOp = scf::IfOp::create(b, loc, misfit, /*withElseRegion=*/false);
  OpBuilder then = ifOp.getThenBodyBuilder();
  SmallVector<Value> extents;
  for (Value size : {a.sizes[0], a.sizes[1], bm.sizes[0], bm.sizes[1], c.sizes[0],
                     c.sizes[1]})
    extents.push_back(
        arith::IndexCastOp::create(then, loc, then.getI64Type(), size).getResult());
  func::CallOp::create(then, loc, report, extents);
}

/// Emits `if (status != 0) call_failed(slot, status, mips_status_string(status))`
/// after a call of `kernel`: the status text comes from the same provider.
static void emitFailureReport(OpBuilder &b, Location loc, Value status, func::FuncOp kernel,
                              func::FuncOp statusString, func::FuncOp callFailed) {
  Value zero = arith::ConstantIntOp::create(b, loc, b.getI32Type(), 0);
  Value isError = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, status, zero);
  auto ifOp = scf::IfOp::create(b, loc, isError, /*withElseRegion=*/false);
  OpBuilder then = ifOp.getThenBodyBuilder();
  Value slot = arith::ConstantIntOp::create(then, loc, then.getI32Type(),
                                            *mips::lookupImportSlot(kernel.getSymName()));
  Value text = func::CallOp::create(then, loc, statusString, ValueRange{status}).getResult(0);
  func::CallOp::create(then, loc, callFailed, ValueRange{slot, status, text});
}

/// Emits `if (a batched operand's batch != C's) report(lhs, rhs, init batch)`; the
/// extents are index values, null for a shared operand (reported as -1).
static void emitBatchCheck(OpBuilder &b, Location loc, func::FuncOp report, Value lhsBatch,
                           Value rhsBatch, Value initBatch) {
  Value misfit = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 0);
  for (Value batch : {lhsBatch, rhsBatch})
    if (batch)
      misfit = arith::OrIOp::create(
          b, loc, misfit,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, batch, initBatch));
  auto ifOp = scf::IfOp::create(b, loc, misfit, /*withElseRegion=*/false);
  OpBuilder then = ifOp.getThenBodyBuilder();
  auto extent = [&](Value batch) -> Value {
    if (!batch)
      return arith::ConstantIntOp::create(then, loc, then.getI64Type(), -1);
    return arith::IndexCastOp::create(then, loc, then.getI64Type(), batch);
  };
  func::CallOp::create(then, loc, report,
                       ValueRange{extent(lhsBatch), extent(rhsBatch), extent(initBatch)});
}

/// A batch's operands as the ABI passes them.
struct AbiBatch {
  AbiMatrix a, b, c;
};

static AbiBatch decomposeBatch(OpBuilder &b, Location loc, mips::BatchMatmulOp op) {
  return {decompose(b, loc, op.getLhs(), op.getTransposeLhs()),
          decompose(b, loc, op.getRhs(), op.getTransposeRhs()),
          decompose(b, loc, op.getInit(), /*transposed=*/false)};
}

/// Emits the run-time checks of a batch with dynamic shapes: the matrix extents,
/// then the batch extents.
static void emitBatchShapeChecks(OpBuilder &b, Location loc, func::FuncOp shapesReport,
                                 func::FuncOp batchReport, const AbiBatch &batch) {
  emitShapeCheck(b, loc, shapesReport, batch.a, batch.b, batch.c);
  emitBatchCheck(b, loc, batchReport, batch.a.batchSize, batch.b.batchSize, batch.c.batchSize);
}

/// Emits `status = mips_matmul_<type>(m, n, k, A..., B..., C..., flags)` (or the
/// packed form) and its failure report. The declarations `functions` names must
/// not conflict (checked by the caller).
static void emitLibmipsCall(RewriterBase &rewriter, mips::MatmulOp op,
                            const CallFunctions &functions, const MatmulCallPlan &plan) {
  Location loc = op.getLoc();
  auto module = op->getParentOfType<ModuleOp>();
  const CallDecls decls = declareAll(rewriter, module, functions);
  const bool shapeCheck = needsShapeCheck(op);

  AbiMatrix a = decompose(rewriter, loc, op.getLhs(), op.getTransposeLhs());
  AbiMatrix bm = decompose(rewriter, loc, op.getRhs(), op.getTransposeRhs());
  AbiMatrix c = decompose(rewriter, loc, op.getInit(), /*transposed=*/false);
  if (shapeCheck)
    emitShapeCheck(rewriter, loc, decls.badShapes, a, bm, c);
  const PackedOperand packedOperand = plan.packed;
  Value weights = op.getRhs();
  bool weightsTransposed = op.getTransposeRhs();
  if (packedOperand == PackedOperand::LhsSwapped) {
    // C^T = B^T * A^T: each matrix transposed is its strides and sizes swapped.
    auto transpose = [](AbiMatrix matrix) {
      std::swap(matrix.stride0, matrix.stride1);
      std::swap(matrix.sizes[0], matrix.sizes[1]);
      return matrix;
    };
    AbiMatrix swappedA = transpose(bm);
    bm = transpose(a);
    a = swappedA;
    c = transpose(c);
    weights = op.getLhs();
    weightsTransposed = !op.getTransposeLhs();
  }
  auto toI64 = [&](Value index) {
    return arith::IndexCastOp::create(rewriter, loc, rewriter.getI64Type(), index).getResult();
  };
  Value m = toI64(a.sizes[0]), k = toI64(a.sizes[1]), n = toI64(bm.sizes[1]);
  Value flags = arith::ConstantIntOp::create(rewriter, loc, rewriter.getI32Type(), plan.flags);
  SmallVector<Value> operands;
  if (packedOperand != PackedOperand::None) {
    // The handle of B, packed by the runtime on first use; then the packed call.
    memref::GlobalOp slot =
        getOrCreateHandleSlot(rewriter, module, plan.weights, weights, weightsTransposed);
    Value slotRef = memref::GetGlobalOp::create(rewriter, loc, slot.getType(), slot.getSymName());
    Value slotBase = memref::ExtractStridedMetadataOp::create(rewriter, loc, slotRef).getBaseBuffer();
    Value handle = func::CallOp::create(rewriter, loc, decls.packedB,
                                        ValueRange{slotBase, k, n, bm.base, bm.offset, bm.stride0,
                                                   bm.stride1})
                       .getResult(0);
    operands = {m, a.base, a.offset, a.stride0, a.stride1, handle,
                c.base, c.offset, c.stride0, c.stride1, flags};
  } else {
    operands = {m, n, k};
    for (const AbiMatrix *matrix : {&a, &bm, &c})
      operands.append({matrix->base, matrix->offset, matrix->stride0, matrix->stride1});
    operands.push_back(flags);
  }
  Value status = func::CallOp::create(rewriter, loc, decls.kernel, operands).getResult(0);
  emitFailureReport(rewriter, loc, status, decls.kernel, decls.statusString, decls.callFailed);
}

/// Emits `status = mips_matmul_batch_<type>(batch, m, n, k, A..., B..., C...,
/// flags)` and its failure report; a shared (rank-2) operand has batch stride 0.
static void emitBatchCall(RewriterBase &rewriter, mips::BatchMatmulOp op,
                          const CallFunctions &functions, const CallOptions &options) {
  Location loc = op.getLoc();
  auto module = op->getParentOfType<ModuleOp>();
  const CallDecls decls = declareAll(rewriter, module, functions);
  const AbiBatch batch = decomposeBatch(rewriter, loc, op);
  const AbiMatrix &a = batch.a, &bm = batch.b, &c = batch.c;
  if (needsShapeCheck(op))
    emitBatchShapeChecks(rewriter, loc, decls.badShapes, decls.badBatch, batch);
  auto toI64 = [&](Value index) {
    return arith::IndexCastOp::create(rewriter, loc, rewriter.getI64Type(), index).getResult();
  };
  const uint32_t flagBits = callFlags(op, options);
  SmallVector<Value> operands = {toI64(c.batchSize), toI64(a.sizes[0]), toI64(bm.sizes[1]),
                                 toI64(a.sizes[1])};
  for (const AbiMatrix *matrix : {&a, &bm, &c})
    operands.append(
        {matrix->base, matrix->offset, matrix->batchStride, matrix->stride0, matrix->stride1});
  operands.push_back(arith::ConstantIntOp::create(rewriter, loc, rewriter.getI32Type(), flagBits));
  Value status = func::CallOp::create(rewriter, loc, decls.kernel, operands).getResult(0);
  emitFailureReport(rewriter, loc, status, decls.kernel, decls.statusString, decls.callFailed);
}

/// mips.matmul on buffers: a libmips call.
struct MatmulToLibmipsCall : OpRewritePattern<mips::MatmulOp> {
  MatmulToLibmipsCall(MLIRContext *context, std::shared_ptr<CallPlans> plans)
      : OpRewritePattern(context), plans(std::move(plans)) {}
  std::shared_ptr<CallPlans> plans;

  LogicalResult matchAndRewrite(mips::MatmulOp op,
                                PatternRewriter &rewriter) const override {
    if (!isa<MemRefType>(op.getInit().getType()))
      return rewriter.notifyMatchFailure(op, "on tensors: bufferize first");
    if (op.getInlined())
      return rewriter.notifyMatchFailure(op, "inlined: convert-mips-to-vector writes it");
    const MatmulCallPlan &plan = plans->get(op);
    CallFunctions functions = getAbiFunctions(op, plan);
    if (std::optional<std::string> clash =
            findDeclarationClash(op->getParentOfType<ModuleOp>(), functions.all()))
      return rewriter.notifyMatchFailure(op, *clash);
    emitLibmipsCall(rewriter, op, functions, plan);
    rewriter.eraseOp(op);
    return success();
  }
};

/// mips.batch_matmul on buffers: one batched call (the pass expands the op into a
/// loop of matmuls first unless batched calls are allowed).
struct BatchMatmulToLibmipsCall : OpRewritePattern<mips::BatchMatmulOp> {
  BatchMatmulToLibmipsCall(MLIRContext *context, std::shared_ptr<CallPlans> plans)
      : OpRewritePattern(context), plans(std::move(plans)) {}
  std::shared_ptr<CallPlans> plans;

  LogicalResult matchAndRewrite(mips::BatchMatmulOp op,
                                PatternRewriter &rewriter) const override {
    if (!isa<MemRefType>(op.getInit().getType()))
      return rewriter.notifyMatchFailure(op, "on tensors: bufferize first");
    if (!plans->getOptions().batchedCalls)
      return rewriter.notifyMatchFailure(op, "batched calls need libmips 1.2: expand first");
    CallFunctions functions = getBatchAbiFunctions(op);
    if (std::optional<std::string> clash =
            findDeclarationClash(op->getParentOfType<ModuleOp>(), functions.all()))
      return rewriter.notifyMatchFailure(op, *clash);
    emitBatchCall(rewriter, op, functions, plans->getOptions());
    rewriter.eraseOp(op);
    return success();
  }
};

struct ConvertMipsToLibmipsPass
    : mips::impl::ConvertMipsToLibmipsBase<ConvertMipsToLibmipsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    const CallOptions options{anyOrder, packConstantWeights, batchedCalls};
    auto plans = std::make_shared<CallPlans>(options);
    // Tensors left over, or inline matmuls not yet written, are a pipeline error, not
    // something to call libmips with.
    WalkResult onTensors = module.walk([&](Operation *op) {
      if (isa<mips::MatmulOp, mips::BatchMatmulOp>(op) &&
          !isa<MemRefType>(op->getOperand(2).getType())) {
        op->emitOpError("on tensors cannot call libmips; bufferize it first");
        return WalkResult::interrupt();
      }
      if (auto matmul = dyn_cast<mips::MatmulOp>(op); matmul && matmul.getInlined()) {
        op->emitOpError("is marked inlined: convert-mips-to-vector writes it as vector code");
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (onTensors.wasInterrupted())
      return signalPassFailure();
    // The ABI minor the calls need, recorded first: the runtime's names depend on it.
    unsigned abiMinor = mips::getRequiredAbiMinor(module);
    module.walk([&](mips::MatmulOp op) { abiMinor = std::max(abiMinor, plans->get(op).abiMinor); });
    module.walk([&](mips::BatchMatmulOp op) {
      abiMinor = std::max(abiMinor, requiredAbiMinor(op, options));
    });
    if (abiMinor != MIPS_RT_ABI_MINOR_BASE)
      module->setAttr(mips::kRequiredAbiMinorAttr,
                      IntegerAttr::get(IntegerType::get(&getContext(), 32), abiMinor));
    // Without batched calls, a batch is one call per entry, which any 1.x runs;
    // dynamic batch extents are checked first, as a batched call checks them (the
    // loop would otherwise read entries past the end of a shorter operand).
    IRRewriter rewriter(&getContext());
    if (!batchedCalls) {
      SmallVector<mips::BatchMatmulOp> batches;
      module.walk([&](mips::BatchMatmulOp op) { batches.push_back(op); });
      const AbiFunction badShapes = badShapesFunction(&getContext(), abiMinor);
      const AbiFunction badBatch = badBatchFunction(&getContext(), abiMinor);
      for (mips::BatchMatmulOp op : batches) {
        // The whole batch's extents, as a batched call checks them: entries with a
        // static 0 extent are never called, and a unit batch is one entry whatever
        // the operands' batches say.
        if (needsShapeCheck(op)) {
          if (std::optional<std::string> clash =
                  findDeclarationClash(module, {badShapes, badBatch})) {
            op.emitError() << *clash;
            return signalPassFailure();
          }
          rewriter.setInsertionPoint(op);
          emitBatchShapeChecks(rewriter, op.getLoc(), getOrDeclare(rewriter, module, badShapes),
                               getOrDeclare(rewriter, module, badBatch),
                               decomposeBatch(rewriter, op.getLoc(), op));
        }
        mips::expandBatchMatmul(rewriter, op);
      }
    }
    // What the patterns would only decline, reported. Every call of one element
    // type declares the same function, so existing symbols are all that can clash.
    // A call that needs a later ABI than the one recorded would name functions the
    // recorded runtime lacks: a bug here, reported rather than emitted.
    WalkResult checked = module.walk([&](Operation *op) {
      if (auto matmul = dyn_cast<mips::MatmulOp>(op);
          matmul && plans->get(matmul).abiMinor > abiMinor) {
        op->emitError() << "needs libmips ABI 1." << plans->get(matmul).abiMinor
                        << " but the module recorded 1." << abiMinor;
        return WalkResult::interrupt();
      }
      SmallVector<AbiFunction, 6> functions;
      if (auto matmul = dyn_cast<mips::MatmulOp>(op))
        functions = getAbiFunctions(matmul, plans->get(matmul)).all();
      else if (auto batch = dyn_cast<mips::BatchMatmulOp>(op))
        functions = getBatchAbiFunctions(batch).all();
      if (std::optional<std::string> clash = findDeclarationClash(module, functions)) {
        op->emitError() << *clash;
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (checked.wasInterrupted())
      return signalPassFailure();
    RewritePatternSet patterns(&getContext());
    patterns.add<MatmulToLibmipsCall, BatchMatmulToLibmipsCall>(&getContext(), plans);
    walkAndApplyPatterns(module, std::move(patterns));
    // Nothing may be left for a later pass to trip over.
    module.walk([&](Operation *op) {
      if (isa<mips::MatmulOp, mips::BatchMatmulOp>(op)) {
        op->emitOpError("was not converted to a libmips call");
        signalPassFailure();
      }
    });
  }
};

} // namespace

void mlir::mips::populateMipsToLibmipsPatterns(RewritePatternSet &patterns, bool anyOrder,
                                               bool packConstantWeights, bool batchedCalls) {
  const CallOptions options{anyOrder, packConstantWeights, batchedCalls};
  patterns.add<MatmulToLibmipsCall, BatchMatmulToLibmipsCall>(patterns.getContext(),
                                                              std::make_shared<CallPlans>(options));
}
