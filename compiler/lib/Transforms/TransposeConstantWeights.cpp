// SPDX-License-Identifier: Apache-2.0
//===- TransposeConstantWeights.cpp - narrow products along the weights -*- C++ -*-===//
//
// A matmul whose A is constant weights and whose product is narrower than A is
// tall (an NCHW convolution's filters times the few pixels of a small image; a
// classifier's 1000 outputs for one image) runs its vectors along the short side.
// Computing C^T = B^T * A^T instead runs them along the weights' rows, but then
// the weights are B and must be read along k: the transposed weights are written
// at compile time into a constant of their own, so that the call reads it in
// place, in ascending k order, with no packing and no ABI beyond 1.0 (for a few
// columns libmips may turn the call back, and then reads A column-major from the
// copy, as contiguous as a packed panel). With
// --mips-pack-constant-weights the runtime packs them instead (convert-mips-to-
// libmips), and this pass does not run.
//
//===----------------------------------------------------------------------===//

#include "mips-compiler/Dialect/Mips/MipsOps.h"
#include "mips-compiler/Transforms/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringSet.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <tuple>

namespace mlir {
namespace mips {
#define GEN_PASS_DEF_MIPSTRANSPOSECONSTANTWEIGHTS
#include "mips-compiler/Transforms/Passes.h.inc"
} // namespace mips
} // namespace mlir

using namespace mlir;

namespace {

/// A constant global's view: the global and the view's static layout.
struct WeightsView {
  memref::GlobalOp global;
  int64_t offset = 0;
  SmallVector<int64_t, 2> strides;
};

/// The constant global that `operand` views through casts, reshapes and subviews,
/// when the view's layout is static (every call reads the same elements) and the
/// global's data is known: inline dense data or a resource blob, not a splat.
std::optional<WeightsView> constantWeights(Operation *op, Value operand) {
  WeightsView view;
  auto type = cast<MemRefType>(operand.getType());
  if (!type.hasStaticShape() || failed(type.getStridesAndOffset(view.strides, view.offset)) ||
      ShapedType::isDynamic(view.offset) || llvm::any_of(view.strides, ShapedType::isDynamic))
    return std::nullopt;
  Value source = operand;
  while (Operation *producer = source.getDefiningOp()) {
    if (!isa<memref::CastOp, memref::CollapseShapeOp, memref::ExpandShapeOp, memref::SubViewOp>(
            producer))
      break;
    source = producer->getOperand(0);
  }
  auto get = source.getDefiningOp<memref::GetGlobalOp>();
  if (!get)
    return std::nullopt;
  view.global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(op, get.getNameAttr());
  if (!view.global || !view.global.getConstant() || !view.global.getInitialValue() ||
      !view.global.getType().getLayout().isIdentity())
    return std::nullopt;
  return view;
}

/// Whether every element (i, l) < (m, k) of the view, at offset + i*sm + l*sk, lies in
/// the global's `elements` (a cast may assert a layout the data does not have).
bool viewInBounds(const WeightsView &view, int64_t m, int64_t k, int64_t sm, int64_t sk,
                  int64_t elements) {
  const int64_t lowest = view.offset + std::min<int64_t>(0, (m - 1) * sm) +
                         std::min<int64_t>(0, (k - 1) * sk);
  const int64_t highest = view.offset + std::max<int64_t>(0, (m - 1) * sm) +
                          std::max<int64_t>(0, (k - 1) * sk);
  return lowest >= 0 && highest < elements;
}

/// The bytes of a constant global's elements, row-major; empty if unknown.
ArrayRef<char> rawData(memref::GlobalOp global) {
  Attribute value = *global.getInitialValue();
  if (auto dense = dyn_cast<DenseElementsAttr>(value))
    return dense.isSplat() ? ArrayRef<char>() : dense.getRawData();
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(value))
    if (AsmResourceBlob *blob = resource.getRawHandle().getBlob())
      return blob->getData();
  return {};
}

struct MipsTransposeConstantWeightsPass
    : mips::impl::MipsTransposeConstantWeightsBase<MipsTransposeConstantWeightsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    // One transposed copy per view, shared by the matmuls that read it (the dense
    // and strided copies of a function).
    std::map<std::tuple<std::string, int64_t, int64_t, int64_t, int64_t, int64_t>,
             memref::GlobalOp>
        copies;
    SmallVector<mips::MatmulOp> matmuls;
    module.walk([&](mips::MatmulOp op) {
      if (op.hasPureBufferSemantics() && !op.getInlined())
        matmuls.push_back(op);
    });
    for (mips::MatmulOp op : matmuls) {
      auto lhsType = cast<MemRefType>(op.getLhs().getType());
      auto initType = cast<MemRefType>(op.getInit().getType());
      if (lhsType.getRank() != 2 || !lhsType.getElementType().isIntOrFloat() ||
          lhsType.getElementTypeBitWidth() % 8 != 0 || !initType.hasStaticShape())
        continue;
      const int64_t m = lhsType.getDimSize(op.getLhsMDim());
      const int64_t k = lhsType.getDimSize(op.getLhsKDim());
      const int64_t n = initType.getDimSize(1);
      // The other way round, the vectors would run along the shorter side.
      if (n >= m)
        continue;
      std::optional<WeightsView> view = constantWeights(op, op.getLhs());
      // Globals of this module only (not of a nested one): the copy joins its symbols.
      if (!view || view->global->getParentOp() != module)
        continue;
      ArrayRef<char> data = rawData(view->global);
      const int64_t bytes = lhsType.getElementTypeBitWidth() / 8;
      if (data.empty() ||
          (int64_t)data.size() != view->global.getType().getNumElements() * bytes)
        continue;
      // A(i, l) is at offset + i*sm + l*sk of the global's elements.
      const int64_t sm = view->strides[op.getLhsMDim()], sk = view->strides[op.getLhsKDim()];
      if (!viewInBounds(*view, m, k, sm, sk, view->global.getType().getNumElements()))
        continue;
      auto key = std::make_tuple(view->global.getSymName().str(), view->offset, m, k, sm, sk);
      memref::GlobalOp &copy = copies[key];
      OpBuilder b(op);
      if (!copy) {
        // A^T, k x m row-major.
        std::vector<char> transposed(m * k * bytes);
        for (int64_t l = 0; l < k; ++l)
          for (int64_t i = 0; i < m; ++i)
            std::memcpy(&transposed[(l * m + i) * bytes],
                        &data[(view->offset + i * sm + l * sk) * bytes], bytes);
        auto type = MemRefType::get({k, m}, lhsType.getElementType());
        auto tensorType = RankedTensorType::get({k, m}, lhsType.getElementType());
        std::string name = (view->global.getSymName() + "_transposed").str();
        auto value = DenseResourceElementsAttr::get(
            tensorType, name,
            HeapAsmResourceBlob::allocateAndCopyWithAlign(transposed, alignof(int64_t)));
        OpBuilder top(module.getBodyRegion());
        top.setInsertionPoint(view->global);
        copy = memref::GlobalOp::create(top, view->global.getLoc(), name,
                                        top.getStringAttr("private"), type, value,
                                        /*constant=*/true, view->global.getAlignmentAttr());
        symbols.insert(copy); // renames it if the name is taken
      }
      Location loc = op.getLoc();
      Value weightsT = memref::GetGlobalOp::create(b, loc, copy.getType(), copy.getSymName());
      // C^T as a view of C: strides swapped, no copy.
      Value initT = memref::TransposeOp::create(
          b, loc, op.getInit(),
          AffineMapAttr::get(AffineMap::getPermutationMap(ArrayRef<unsigned>{1, 0},
                                                          b.getContext())));
      // B^T is B with the other transpose flag.
      auto swapped = mips::MatmulOp::create(b, loc, Type(), op.getRhs(), weightsT, initT,
                                            /*transpose_lhs=*/!op.getTransposeRhs(),
                                            /*transpose_rhs=*/false, op.getOverwrite(),
                                            /*inlined=*/false);
      swapped->setDiscardableAttrs(op->getDiscardableAttrDictionary());
      Value oldWeights = op.getLhs();
      op.erase();
      // The old weights' views, now unread.
      while (oldWeights && oldWeights.use_empty()) {
        Operation *producer = oldWeights.getDefiningOp();
        if (!isa_and_nonnull<memref::CastOp, memref::CollapseShapeOp, memref::ExpandShapeOp,
                             memref::SubViewOp, memref::GetGlobalOp>(producer))
          break;
        oldWeights = producer->getNumOperands() ? producer->getOperand(0) : Value();
        producer->erase();
      }
    }
    // Private weights now read only through their transposed copies (one global may
    // have several views, so each name once; a public one may be read from elsewhere).
    llvm::StringSet<> originals;
    for (auto &[key, copy] : copies)
      originals.insert(std::get<0>(key));
    for (const auto &name : originals) {
      auto original = symbols.lookup<memref::GlobalOp>(name.getKey());
      if (original && original.isPrivate() && SymbolTable::symbolKnownUseEmpty(original, module))
        symbols.erase(original);
    }
  }
};

} // namespace
