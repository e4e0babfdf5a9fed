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
  int64_t scalableLanes = 0;        // > 0: wide inline f32 code on vector<[lanes]xf32>
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

/// Whether the call for `op` multiplies by constant weights packed once.
static bool packsWeights(mips::MatmulOp op, const CallOptions &options) {
  return getPackedOperand(op, options) != PackedOperand::None;
}

/// The libmips ABI minor the call for `op` needs.
static unsigned requiredAbiMinor(mips::MatmulOp op, const CallOptions &options) {
  return passesAnyOrder(op, options) || packsWeights(op, options) ? 2 : MIPS_RT_ABI_MINOR_BASE;
}

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

/// mips_status_string and the runtime's failure report, which follow every call.
static void appendFailureReport(SmallVectorImpl<AbiFunction> &functions, MLIRContext *ctx,
                                unsigned abiMinor) {
  Builder b(ctx);
  Type i32 = b.getI32Type(), pointer = LLVM::LLVMPointerType::get(ctx);
  functions.push_back({"mips_status_string", b.getFunctionType({i32}, {pointer}), false});
  functions.push_back({mips::callFailedSymbol(abiMinor),
                       b.getFunctionType({i32, i32, pointer}, {}), false});
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

/// The ABI functions a libmips call for `op` needs, in the order the call uses
/// them: the kernel, mips_status_string, the runtime's failure report, and, for
/// dynamic shapes, its shape report. The runtime's names are those of the
/// runtime for the module's ABI minor.
static SmallVector<AbiFunction, 4> getAbiFunctions(mips::MatmulOp op, const CallOptions &options) {
  const unsigned abiMinor = mips::getRequiredAbiMinor(op->getParentOfType<ModuleOp>());
  const PackedOperand packedOperand = getPackedOperand(op, options);
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
  SmallVector<AbiFunction, 4> functions = {
      {callee, b.getFunctionType(kernelArgs, {i32}), /*barePointers=*/true}};
  appendFailureReport(functions, op.getContext(), abiMinor);
  if (needsShapeCheck(op))
    functions.push_back(badShapesFunction(op.getContext(), abiMinor));
  if (packed) {
    // (slot, k, n, B's base, offset, stride0, stride1) -> handle; the slot is a
    // memref<1xi64> global, passed as its base.
    Type slot = MemRefType::get({}, i64);
    functions.push_back({packedBHelper(op, abiMinor),
                         b.getFunctionType({slot, i64, i64, baseOf(callB), i64, i64, i64},
                                           {pointer}),
                         /*barePointers=*/true});
  }
  return functions;
}

/// The ABI functions a batched call for `op` needs: mips_matmul_batch_<type>, the
/// failure report's two, and, for dynamic shapes, the shape and batch reports.
static SmallVector<AbiFunction, 4> getBatchAbiFunctions(mips::BatchMatmulOp op) {
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
  SmallVector<AbiFunction, 4> functions = {
      {isF32 ? "mips_matmul_batch_f32" : "mips_matmul_batch_i8i32",
       b.getFunctionType(kernelArgs, {i32}), /*barePointers=*/true}};
  appendFailureReport(functions, op.getContext(), abiMinor);
  if (needsShapeCheck(op)) {
    functions.push_back(badShapesFunction(op.getContext(), abiMinor));
    functions.push_back(badBatchFunction(op.getContext(), abiMinor));
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
                            ArrayRef<AbiFunction> functions, const CallOptions &options) {
  Location loc = op.getLoc();
  auto module = op->getParentOfType<ModuleOp>();
  SmallVector<func::FuncOp, 4> decls;
  for (const AbiFunction &function : functions)
    decls.push_back(getOrDeclare(rewriter, module, function));
  func::FuncOp kernel = decls[0], statusString = decls[1], callFailed = decls[2];
  const bool shapeCheck = needsShapeCheck(op);

  AbiMatrix a = decompose(rewriter, loc, op.getLhs(), op.getTransposeLhs());
  AbiMatrix bm = decompose(rewriter, loc, op.getRhs(), op.getTransposeRhs());
  AbiMatrix c = decompose(rewriter, loc, op.getInit(), /*transposed=*/false);
  if (shapeCheck)
    emitShapeCheck(rewriter, loc, decls[3], a, bm, c);
  const PackedOperand packedOperand = getPackedOperand(op, options);
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
  const uint32_t flagBits = (op.getOverwrite() ? 0 : MIPS_MATMUL_ACCUMULATE) |
                            (passesAnyOrder(op, options) ? MIPS_MATMUL_ANY_ORDER : 0);
  Value flags = arith::ConstantIntOp::create(rewriter, loc, rewriter.getI32Type(), flagBits);
  SmallVector<Value> operands;
  if (packedOperand != PackedOperand::None) {
    // The handle of B, packed by the runtime on first use; then the packed call.
    memref::GlobalOp slot = getOrCreateHandleSlot(
        rewriter, module, getConstantWeights(op, weights), weights, weightsTransposed);
    Value slotRef = memref::GetGlobalOp::create(rewriter, loc, slot.getType(), slot.getSymName());
    Value slotBase = memref::ExtractStridedMetadataOp::create(rewriter, loc, slotRef).getBaseBuffer();
    Value handle = func::CallOp::create(rewriter, loc, decls.back(),
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
  Value status = func::CallOp::create(rewriter, loc, kernel, operands).getResult(0);
  emitFailureReport(rewriter, loc, status, kernel, statusString, callFailed);
}

/// Emits `status = mips_matmul_batch_<type>(batch, m, n, k, A..., B..., C...,
/// flags)` and its failure report; a shared (rank-2) operand has batch stride 0.
static void emitBatchCall(RewriterBase &rewriter, mips::BatchMatmulOp op,
                          ArrayRef<AbiFunction> functions, const CallOptions &options) {
  Location loc = op.getLoc();
  auto module = op->getParentOfType<ModuleOp>();
  SmallVector<func::FuncOp, 5> decls;
  for (const AbiFunction &function : functions)
    decls.push_back(getOrDeclare(rewriter, module, function));
  const AbiBatch batch = decomposeBatch(rewriter, loc, op);
  const AbiMatrix &a = batch.a, &bm = batch.b, &c = batch.c;
  if (needsShapeCheck(op))
    emitBatchShapeChecks(rewriter, loc, decls[3], decls[4], batch);
  auto toI64 = [&](Value index) {
    return arith::IndexCastOp::create(rewriter, loc, rewriter.getI64Type(), index).getResult();
  };
  const uint32_t flagBits = (op.getOverwrite() ? 0 : MIPS_MATMUL_ACCUMULATE) |
                            (passesAnyOrder(op, options) ? MIPS_MATMUL_ANY_ORDER : 0);
  SmallVector<Value> operands = {toI64(c.batchSize), toI64(a.sizes[0]), toI64(bm.sizes[1]),
                                 toI64(a.sizes[1])};
  for (const AbiMatrix *matrix : {&a, &bm, &c})
    operands.append(
        {matrix->base, matrix->offset, matrix->batchStride, matrix->stride0, matrix->stride1});
  operands.push_back(arith::ConstantIntOp::create(rewriter, loc, rewriter.getI32Type(), flagBits));
  Value status = func::CallOp::create(rewriter, loc, decls[0], operands).getResult(0);
  emitFailureReport(rewriter, loc, status, decls[0], decls[1], decls[2]);
}

//===----------------------------------------------------------------------===//
// Inline code, for matmuls marked `inlined`
//===----------------------------------------------------------------------===//

/// The buffer behind `metadata`, as a view of static `shape` whose innermost
/// stride is statically 1 (a memref.cast to that type would fold away again).
static Value viewWithUnitInnerStride(OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
                                     memref::ExtractStridedMetadataOp metadata) {
  SmallVector<OpFoldResult> sizes, strides;
  for (auto [size, stride] : llvm::zip_equal(shape, metadata.getStrides())) {
    sizes.push_back(b.getIndexAttr(size));
    strides.push_back(stride);
  }
  strides.back() = b.getIndexAttr(1);
  return memref::ReinterpretCastOp::create(b, loc, metadata.getBaseBuffer(),
                                           OpFoldResult(metadata.getOffset()), sizes, strides);
}

/// The same product as loops, for any strides: a linalg.matmul (which the
/// pipeline lowers to loops), after a zero fill for `overwrite`.
static void emitLoopMatmul(OpBuilder &b, mips::MatmulOp op) {
  Location loc = op.getLoc();
  MLIRContext *ctx = op.getContext();
  if (op.getOverwrite()) {
    Value zero = arith::ConstantOp::create(
        b, loc, b.getZeroAttr(getElementTypeOrSelf(op.getInit().getType())));
    linalg::FillOp::create(b, loc, zero, op.getInit());
  }
  AffineExpr m, n, k;
  bindDims(ctx, m, n, k);
  auto map = [&](AffineExpr x, AffineExpr y) {
    return AffineMapAttr::get(AffineMap::get(3, 0, {x, y}, ctx));
  };
  ArrayAttr maps = b.getArrayAttr({op.getTransposeLhs() ? map(k, m) : map(m, k),
                                   op.getTransposeRhs() ? map(n, k) : map(k, n), map(m, n)});
  linalg::MatmulOp::create(b, loc, TypeRange{}, ValueRange{op.getLhs(), op.getRhs()},
                           ValueRange{op.getInit()},
                           ArrayRef<NamedAttribute>{b.getNamedAttr("indexing_maps", maps)});
}

/// Where bufferization may not accumulate into C in place (a function argument,
/// say), it copies C whole into a fresh buffer just before the matmul. From an
/// argument's dynamic layout that copy is a memrefCopy call, as dear as a small
/// matmul itself; inline code can instead read C's rows from the copy's source
/// and store them into the fresh buffer. Returns that copy, or null if C is not
/// such a fresh copy, the matmul overwrites C, or it has no vector path (a
/// transposed B).
static memref::CopyOp findCopyIntoFreshInit(mips::MatmulOp op) {
  auto copy = dyn_cast_or_null<memref::CopyOp>(op->getPrevNode());
  if (op.getOverwrite() || op.getTransposeRhs() || !copy || copy.getTarget() != op.getInit() ||
      !op.getInit().getDefiningOp<memref::AllocOp>())
    return {};
  // The source must be a buffer the inline code can view by its strides, and no
  // view of the fresh buffer (rows stored early would change rows read late);
  // extract_strided_metadata and reinterpret_cast are views too.
  auto sourceType = dyn_cast<MemRefType>(copy.getSource().getType());
  if (!sourceType || !mips::isPlainStridedMemRef(sourceType))
    return {};
  Value root = copy.getSource();
  while (auto view = root.getDefiningOp<ViewLikeOpInterface>())
    root = view.getViewSource();
  if (root == op.getInit())
    return {};
  return copy;
}

/// Rows of C per block of the wide inline code: 8 accumulators of LMUL 2 and B's row
/// take 18 of RVV's 32 registers, and a B row loaded serves 8 multiply-adds.
constexpr int64_t kInlineRowsPerBlock = 8;

/// Inline code for f32 rows wider than a fixed vector prices well: a fixed vector is
/// sized for the smallest VLEN (16 floats take LMUL 4, and keeping B's K rows in
/// registers spills from 16x16x16 on). Here vectors are scalable (vector<[lanes]xf32>),
/// C's columns run in chunks of vscale * lanes with a mask for the last one (one
/// chunk for 16 columns from VLEN 256), and C's rows in blocks of at most 8 whose
/// accumulators stay in registers while each k loads B's row once and multiplies it
/// by a broadcast A(i, l) per row. A is read through a view with a unit inner stride,
/// so its elements are loads at immediate offsets from a row's (or column's) start.
/// `rhs`, `init`, `initSource` and `lhs` are such views; runs inside the fast branch.
static void emitScalableInlineMatmul(OpBuilder &b, Location loc, mips::MatmulOp op, Value lhs,
                                     Value rhs, Value init, Value initSource, int64_t lanes) {
  auto initType = cast<MemRefType>(op.getInit().getType());
  const int64_t m = initType.getDimSize(0), n = initType.getDimSize(1),
                k = cast<MemRefType>(op.getLhs().getType()).getDimSize(op.getLhsKDim());
  Type f32 = b.getF32Type();
  auto rowType = VectorType::get({lanes}, f32, {true});
  auto maskType = VectorType::get({lanes}, b.getI1Type(), {true});
  auto index = [&](OpBuilder &at, int64_t i) {
    return arith::ConstantIndexOp::create(at, loc, i).getResult();
  };
  Value step = arith::MulIOp::create(b, loc, vector::VectorScaleOp::create(b, loc),
                                     index(b, lanes));
  scf::ForOp::create(
      b, loc, index(b, 0), index(b, n), step, ValueRange{},
      [&](OpBuilder &body, Location, Value j0, ValueRange) {
        Value left = arith::SubIOp::create(body, loc, index(body, n), j0);
        Value mask = vector::CreateMaskOp::create(body, loc, maskType, ValueRange{left});
        Value zero = arith::ConstantOp::create(body, loc, body.getZeroAttr(rowType));
        // Lanes past the mask are never stored: no value for them to merge into
        // (a zero passed through costs a register copy per load).
        Value unused = ub::PoisonOp::create(body, loc, rowType);
        // Row blocks split evenly, as libmips splits them: 16 rows are 8 + 8.
        const int64_t blocks = llvm::divideCeil(m, kInlineRowsPerBlock);
        for (int64_t block = 0, first = 0; block < blocks; ++block) {
          const int64_t rows = (m - first) / (blocks - block);
          SmallVector<Value> acc;
          for (int64_t i = first; i < first + rows; ++i)
            acc.push_back(op.getOverwrite()
                              ? zero
                              : vector::MaskedLoadOp::create(body, loc, rowType, initSource,
                                                             ValueRange{index(body, i), j0}, mask,
                                                             unused)
                                    .getResult());
          // A loop over k, not unrolled here: with every step unrolled, LLVM
          // schedules B's rows early and spills the accumulators.
          auto steps = scf::ForOp::create(
              body, loc, index(body, 0), index(body, k), index(body, 1), acc,
              [&](OpBuilder &kb, Location, Value l, ValueRange sums) {
                Value rowOfB =
                    vector::MaskedLoadOp::create(kb, loc, rowType, rhs, ValueRange{l, j0}, mask, unused);
                SmallVector<Value> next;
                for (int64_t r = 0; r < rows; ++r) {
                  Value i = index(kb, first + r);
                  SmallVector<Value> at = op.getTransposeLhs() ? SmallVector<Value>{l, i}
                                                               : SmallVector<Value>{i, l};
                  Value a = memref::LoadOp::create(kb, loc, lhs, at);
                  Value broadcast = vector::BroadcastOp::create(kb, loc, rowType, a);
                  next.push_back(vector::FMAOp::create(kb, loc, broadcast, rowOfB, sums[r]));
                }
                scf::YieldOp::create(kb, loc, next);
              });
          acc.assign(steps.getResults().begin(), steps.getResults().end());
          for (int64_t r = 0; r < rows; ++r)
            vector::MaskedStoreOp::create(body, loc, init, ValueRange{index(body, first + r), j0},
                                          mask, acc[r]);
          first += rows;
        }
        scf::YieldOp::create(body, loc);
      });
}

/// Straight-line vector code on fixed vectors of N: B's K rows in vector registers
/// and, one row of C at a time, for each l a multiply-add of A(i, l), broadcast,
/// with row l of B into row i of C. `rhs`, `init` and `initSource` are views with
/// a unit inner stride; runs inside the fast branch.
static void emitFixedInlineMatmul(OpBuilder &fast, Location loc, mips::MatmulOp op, Value rhs,
                                  Value init, Value initSource) {
  auto lhsType = cast<MemRefType>(op.getLhs().getType());
  auto initType = cast<MemRefType>(op.getInit().getType());
  const int64_t m = initType.getDimSize(0), n = initType.getDimSize(1),
                k = lhsType.getDimSize(op.getLhsKDim());
  Type acc = initType.getElementType(), in = lhsType.getElementType();
  const bool isFloat = isa<FloatType>(acc);
  auto index = [&](int64_t i) { return arith::ConstantIndexOp::create(fast, loc, i).getResult(); };
  auto rowType = VectorType::get({n}, acc);
  Value zero = index(0);
  SmallVector<Value> rowsOfB;
  for (int64_t l = 0; l < k; ++l) {
    Value row = vector::LoadOp::create(fast, loc, VectorType::get({n}, in), rhs,
                                       ValueRange{index(l), zero});
    if (!isFloat)
      row = arith::ExtSIOp::create(fast, loc, rowType, row);
    rowsOfB.push_back(row);
  }
  // One row of C at a time: B's K rows and a single row of C are live, not all
  // of C (M + K rows would spill long before K + 1 do).
  for (int64_t i = 0; i < m; ++i) {
    Value rowOfC = op.getOverwrite()
                       ? arith::ConstantOp::create(fast, loc, fast.getZeroAttr(rowType)).getResult()
                       : vector::LoadOp::create(fast, loc, rowType, initSource,
                                                ValueRange{index(i), zero})
                             .getResult();
    for (int64_t l = 0; l < k; ++l) {
      SmallVector<Value> at = op.getTransposeLhs() ? SmallVector<Value>{index(l), index(i)}
                                                   : SmallVector<Value>{index(i), index(l)};
      Value a = memref::LoadOp::create(fast, loc, op.getLhs(), at);
      if (!isFloat)
        a = arith::ExtSIOp::create(fast, loc, acc, a);
      Value broadcast = vector::BroadcastOp::create(fast, loc, rowType, a);
      rowOfC = isFloat ? vector::FMAOp::create(fast, loc, broadcast, rowsOfB[l], rowOfC).getResult()
                       : arith::AddIOp::create(fast, loc, rowOfC,
                                               arith::MulIOp::create(fast, loc, broadcast, rowsOfB[l]))
                             .getResult();
    }
    vector::StoreOp::create(fast, loc, rowOfC, init, ValueRange{index(i), zero});
  }
}

/// Inline code for an inlined matmul: vector loads and stores of B's and C's rows
/// (and A's elements through a view, for the scalable form), which need them
/// unit-stride; that is checked at run time (C callers may pass any view), and
/// other views take the loops of emitLoopMatmul. Rows wider than a fixed vector
/// prices well (8 floats, LMUL 2 at VLEN 128) take the scalable form where the
/// target has it (`scalableLanes` > 0, f32), others the fixed one. `copyIn`, from
/// findCopyIntoFreshInit, is folded in: C's rows are read from its source.
static void emitInlineMatmul(OpBuilder &b, mips::MatmulOp op, memref::CopyOp copyIn,
                             int64_t scalableLanes) {
  Location loc = op.getLoc();
  auto lhsType = cast<MemRefType>(op.getLhs().getType());
  auto initType = cast<MemRefType>(op.getInit().getType());
  // B's rows are unit-stride only in its stored order.
  if (op.getTransposeRhs()) {
    emitLoopMatmul(b, op);
    return;
  }
  auto rhsMetadata = memref::ExtractStridedMetadataOp::create(b, loc, op.getRhs());
  auto initMetadata = memref::ExtractStridedMetadataOp::create(b, loc, op.getInit());
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  auto isOne = [&](Value stride) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, stride, one).getResult();
  };
  Value rowsAreUnitStride = arith::AndIOp::create(b, loc, isOne(rhsMetadata.getStrides().back()),
                                                  isOne(initMetadata.getStrides().back()));
  const bool scalable = scalableLanes > 0 && isa<FloatType>(initType.getElementType()) &&
                        initType.getDimSize(1) > 8;
  memref::ExtractStridedMetadataOp lhsMetadata;
  if (scalable) {
    lhsMetadata = memref::ExtractStridedMetadataOp::create(b, loc, op.getLhs());
    rowsAreUnitStride = arith::AndIOp::create(b, loc, rowsAreUnitStride,
                                              isOne(lhsMetadata.getStrides().back()));
  }
  memref::ExtractStridedMetadataOp sourceMetadata;
  if (copyIn) {
    sourceMetadata = memref::ExtractStridedMetadataOp::create(b, loc, copyIn.getSource());
    rowsAreUnitStride = arith::AndIOp::create(b, loc, rowsAreUnitStride,
                                              isOne(sourceMetadata.getStrides().back()));
  }
  auto ifOp = scf::IfOp::create(b, loc, rowsAreUnitStride, /*withElseRegion=*/true);

  OpBuilder fast = ifOp.getThenBodyBuilder();
  Value rhs = viewWithUnitInnerStride(fast, loc, cast<MemRefType>(op.getRhs().getType()).getShape(),
                                      rhsMetadata);
  Value init = viewWithUnitInnerStride(fast, loc, initType.getShape(), initMetadata);
  Value initSource =
      copyIn ? viewWithUnitInnerStride(fast, loc, initType.getShape(), sourceMetadata) : init;
  if (scalable)
    emitScalableInlineMatmul(fast, loc, op,
                             viewWithUnitInnerStride(fast, loc, lhsType.getShape(), lhsMetadata),
                             rhs, init, initSource, scalableLanes);
  else
    emitFixedInlineMatmul(fast, loc, op, rhs, init, initSource);

  OpBuilder general = ifOp.getElseBodyBuilder();
  if (copyIn)
    memref::CopyOp::create(general, loc, copyIn.getSource(), op.getInit());
  emitLoopMatmul(general, op);
}

/// mips.matmul on buffers: a libmips call, or inline code when `inlined`.
struct MatmulToLibmipsCall : OpRewritePattern<mips::MatmulOp> {
  MatmulToLibmipsCall(MLIRContext *context, CallOptions options)
      : OpRewritePattern(context), options(options) {}
  CallOptions options;

  LogicalResult matchAndRewrite(mips::MatmulOp op,
                                PatternRewriter &rewriter) const override {
    if (!isa<MemRefType>(op.getInit().getType()))
      return rewriter.notifyMatchFailure(op, "on tensors: bufferize first");
    if (op.getInlined()) {
      emitInlineMatmul(rewriter, op, /*copyIn=*/nullptr, options.scalableLanes);
    } else {
      SmallVector<AbiFunction, 4> functions = getAbiFunctions(op, options);
      if (std::optional<std::string> clash =
              findDeclarationClash(op->getParentOfType<ModuleOp>(), functions))
        return rewriter.notifyMatchFailure(op, *clash);
      emitLibmipsCall(rewriter, op, functions, options);
    }
    rewriter.eraseOp(op);
    return success();
  }
};

/// mips.batch_matmul on buffers: one batched call (the pass expands the op into a
/// loop of matmuls first unless batched calls are allowed).
struct BatchMatmulToLibmipsCall : OpRewritePattern<mips::BatchMatmulOp> {
  BatchMatmulToLibmipsCall(MLIRContext *context, CallOptions options)
      : OpRewritePattern(context), options(options) {}
  CallOptions options;

  LogicalResult matchAndRewrite(mips::BatchMatmulOp op,
                                PatternRewriter &rewriter) const override {
    if (!isa<MemRefType>(op.getInit().getType()))
      return rewriter.notifyMatchFailure(op, "on tensors: bufferize first");
    if (!options.batchedCalls)
      return rewriter.notifyMatchFailure(op, "batched calls need libmips 1.2: expand first");
    SmallVector<AbiFunction, 4> functions = getBatchAbiFunctions(op);
    if (std::optional<std::string> clash =
            findDeclarationClash(op->getParentOfType<ModuleOp>(), functions))
      return rewriter.notifyMatchFailure(op, *clash);
    emitBatchCall(rewriter, op, functions, options);
    rewriter.eraseOp(op);
    return success();
  }
};

struct ConvertMipsToLibmipsPass
    : mips::impl::ConvertMipsToLibmipsBase<ConvertMipsToLibmipsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    const CallOptions options{anyOrder, packConstantWeights, batchedCalls, scalableLanes};
    // Tensors left over are a pipeline error, not something to call libmips with.
    WalkResult onTensors = module.walk([&](Operation *op) {
      if (isa<mips::MatmulOp, mips::BatchMatmulOp>(op) &&
          !isa<MemRefType>(op->getOperand(2).getType())) {
        op->emitOpError("on tensors cannot call libmips; bufferize it first");
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (onTensors.wasInterrupted())
      return signalPassFailure();
    // The ABI minor the calls need, recorded first: the runtime's names depend on it.
    unsigned abiMinor = mips::getRequiredAbiMinor(module);
    module.walk([&](mips::MatmulOp op) {
      if (!op.getInlined())
        abiMinor = std::max(abiMinor, requiredAbiMinor(op, options));
    });
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
      const AbiFunction reports[] = {badShapesFunction(&getContext(), abiMinor),
                                     badBatchFunction(&getContext(), abiMinor)};
      for (mips::BatchMatmulOp op : batches) {
        // The whole batch's extents, as a batched call checks them: entries with a
        // static 0 extent are never called, and a unit batch is one entry whatever
        // the operands' batches say.
        if (needsShapeCheck(op)) {
          if (std::optional<std::string> clash = findDeclarationClash(module, reports)) {
            op.emitError() << *clash;
            return signalPassFailure();
          }
          rewriter.setInsertionPoint(op);
          emitBatchShapeChecks(rewriter, op.getLoc(), getOrDeclare(rewriter, module, reports[0]),
                               getOrDeclare(rewriter, module, reports[1]),
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
          matmul && !matmul.getInlined() && requiredAbiMinor(matmul, options) > abiMinor) {
        op->emitError() << "needs libmips ABI 1." << requiredAbiMinor(matmul, options)
                        << " but the module recorded 1." << abiMinor;
        return WalkResult::interrupt();
      }
      SmallVector<AbiFunction, 4> functions;
      if (auto matmul = dyn_cast<mips::MatmulOp>(op); matmul && !matmul.getInlined())
        functions = getAbiFunctions(matmul, options);
      else if (auto batch = dyn_cast<mips::BatchMatmulOp>(op))
        functions = getBatchAbiFunctions(batch);
      if (std::optional<std::string> clash = findDeclarationClash(module, functions)) {
        op->emitError() << *clash;
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (checked.wasInterrupted())
      return signalPassFailure();
    // Inlined matmuls whose C is a fresh copy take the copy in, here rather than
    // in the pattern: a walk-driven pattern may erase only the op it matched.
    module.walk([&](mips::MatmulOp op) {
      memref::CopyOp copyIn = op.getInlined() ? findCopyIntoFreshInit(op) : nullptr;
      if (!copyIn)
        return;
      rewriter.setInsertionPoint(op);
      emitInlineMatmul(rewriter, op, copyIn, scalableLanes);
      rewriter.eraseOp(op);
      rewriter.eraseOp(copyIn);
    });
    RewritePatternSet patterns(&getContext());
    mips::populateMipsToLibmipsPatterns(patterns, anyOrder, packConstantWeights, batchedCalls,
                                        scalableLanes);
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
                                               bool packConstantWeights, bool batchedCalls,
                                               int64_t scalableLanes) {
  const CallOptions options{anyOrder, packConstantWeights, batchedCalls, scalableLanes};
  patterns.add<MatmulToLibmipsCall, BatchMatmulToLibmipsCall>(patterns.getContext(), options);
}
