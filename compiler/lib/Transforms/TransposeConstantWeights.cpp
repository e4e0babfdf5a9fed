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
// copy, as contiguous as a packed panel). Constant f32 weights that are B but stored
// n x k (PyTorch's Linear: a classifier's weights) are copied k x n the same way: in
// ascending order libmips would transpose them on every call (one token against them:
// eff 0.235 at VLEN 256), where rows along n are read in place (0.498). With
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

/// The elements (i, l) < (rows, k) of a view, at offset + i*s_rows + l*s_k of `data`,
/// written k-major: copy[l][i], as a k x rows row-major matrix.
std::vector<char> kMajorCopy(ArrayRef<char> data, const WeightsView &view, int64_t rows,
                             int64_t k, int64_t sRows, int64_t sK, int64_t bytes) {
  std::vector<char> copy(rows * k * bytes);
  for (int64_t l = 0; l < k; ++l)
    for (int64_t i = 0; i < rows; ++i)
      std::memcpy(&copy[(l * rows + i) * bytes], &data[(view.offset + i * sRows + l * sK) * bytes],
                  bytes);
  return copy;
}

struct MipsTransposeConstantWeightsPass
    : mips::impl::MipsTransposeConstantWeightsBase<MipsTransposeConstantWeightsPass> {
  /// One k-major copy per view, shared by the matmuls that read it (the dense and
  /// strided copies of a function; a view read as A by one and as B by another).
  std::map<std::tuple<std::string, int64_t, int64_t, int64_t, int64_t, int64_t>,
           memref::GlobalOp>
      copies;

  /// The k-major copy (k x rows, row-major) of `weights`, a rows x k operand of `op`
  /// (rows and k along dimensions rowsDim and kDim), if it is a static, in-bounds view
  /// of a constant global of this module with known data; else null.
  memref::GlobalOp kMajorWeights(ModuleOp module, SymbolTable &symbols, mips::MatmulOp op,
                                 Value weights, unsigned rowsDim, unsigned kDim) {
    auto type = cast<MemRefType>(weights.getType());
    if (type.getRank() != 2 || !type.getElementType().isIntOrFloat() ||
        type.getElementTypeBitWidth() % 8 != 0)
      return {};
    std::optional<WeightsView> view = constantWeights(op, weights);
    // Globals of this module only (not of a nested one): the copy joins its symbols.
    if (!view || view->global->getParentOp() != module)
      return {};
    ArrayRef<char> data = rawData(view->global);
    const int64_t bytes = type.getElementTypeBitWidth() / 8;
    const int64_t elements = view->global.getType().getNumElements();
    if (data.empty() || (int64_t)data.size() != elements * bytes)
      return {};
    const int64_t rows = type.getDimSize(rowsDim), k = type.getDimSize(kDim);
    const int64_t sRows = view->strides[rowsDim], sK = view->strides[kDim];
    if (!viewInBounds(*view, rows, k, sRows, sK, elements))
      return {};
    memref::GlobalOp &copy =
        copies[std::make_tuple(view->global.getSymName().str(), view->offset, rows, k, sRows, sK)];
    if (copy)
      return copy;
    auto copyType = MemRefType::get({k, rows}, type.getElementType());
    auto tensorType = RankedTensorType::get({k, rows}, type.getElementType());
    std::string name = (view->global.getSymName() + "_transposed").str();
    auto value = DenseResourceElementsAttr::get(
        tensorType, name,
        HeapAsmResourceBlob::allocateAndCopyWithAlign(
            kMajorCopy(data, *view, rows, k, sRows, sK, bytes), alignof(int64_t)));
    OpBuilder top(module.getBodyRegion());
    top.setInsertionPoint(view->global);
    copy = memref::GlobalOp::create(top, view->global.getLoc(), name,
                                    top.getStringAttr("private"), copyType, value,
                                    /*constant=*/true, view->global.getAlignmentAttr());
    symbols.insert(copy); // renames it if the name is taken
    return copy;
  }

  /// Erases `op` and the views of `weights` that then have no reader.
  static void eraseWithUnreadViews(mips::MatmulOp op, Value weights) {
    op.erase();
    while (weights && weights.use_empty()) {
      Operation *producer = weights.getDefiningOp();
      if (!isa_and_nonnull<memref::CastOp, memref::CollapseShapeOp, memref::ExpandShapeOp,
                           memref::SubViewOp, memref::GetGlobalOp>(producer))
        break;
      weights = producer->getNumOperands() ? producer->getOperand(0) : Value();
      producer->erase();
    }
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    copies.clear();
    SmallVector<mips::MatmulOp> matmuls;
    module.walk([&](mips::MatmulOp op) {
      if (op.hasPureBufferSemantics() && !op.getInlined())
        matmuls.push_back(op);
    });
    for (mips::MatmulOp op : matmuls) {
      auto lhsType = cast<MemRefType>(op.getLhs().getType());
      auto rhsType = cast<MemRefType>(op.getRhs().getType());
      auto initType = cast<MemRefType>(op.getInit().getType());
      if (lhsType.getRank() != 2 || rhsType.getRank() != 2 || !initType.hasStaticShape())
        continue;
      const int64_t m = lhsType.getDimSize(op.getLhsMDim());
      const int64_t n = initType.getDimSize(1);
      OpBuilder b(op);
      Location loc = op.getLoc();
      // Constant A and a product narrower than A is tall: C^T = B^T * A^T, A^T read in
      // place as B (the other way round, the vectors would run along the shorter side).
      if (n < m) {
        if (memref::GlobalOp copy = kMajorWeights(module, symbols, op, op.getLhs(),
                                                  op.getLhsMDim(), op.getLhsKDim())) {
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
          eraseWithUnreadViews(op, op.getLhs());
          continue;
        }
      }
      // Constant f32 B whose rows along n are not contiguous (stored n x k): read as a
      // k x n copy. Integer sums run as dot products along k in any order, which such
      // a B suits, so they keep it.
      if (!isa<FloatType>(rhsType.getElementType()) || n < 2)
        continue;
      int64_t offset;
      SmallVector<int64_t, 2> strides;
      if (failed(rhsType.getStridesAndOffset(strides, offset)) ||
          strides[op.getRhsNDim()] == 1)
        continue;
      if (memref::GlobalOp copy = kMajorWeights(module, symbols, op, op.getRhs(),
                                                op.getRhsNDim(), op.getRhsKDim())) {
        Value weights = memref::GetGlobalOp::create(b, loc, copy.getType(), copy.getSymName());
        auto rowMajor = mips::MatmulOp::create(b, loc, Type(), op.getLhs(), weights, op.getInit(),
                                               op.getTransposeLhs(), /*transpose_rhs=*/false,
                                               op.getOverwrite(), /*inlined=*/false);
        rowMajor->setDiscardableAttrs(op->getDiscardableAttrDictionary());
        eraseWithUnreadViews(op, op.getRhs());
      }
    }
    // Private weights now read only through their copies (one global may have several
    // views, so each name once; a public one may be read from elsewhere).
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
