// SPDX-License-Identifier: Apache-2.0
//===- Pipelines.cpp - the mips lowering pipeline ---------------*- C++ -*-===//

#include "mips-compiler/Pipelines/Pipelines.h"

#include "mips-compiler/Conversion/Passes.h"
#include "mips-compiler/Transforms/Passes.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/TosaToLinalg/TosaToLinalg.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using mlir::mips::kScalableVectorLanes;

/// TOSA input as linalg on tensors, by upstream's lowering (a no-op on other
/// input).
static void addFrontendPasses(OpPassManager &pm) {
  pm.addNestedPass<func::FuncOp>(createTosaToSCFPass()); // cond_if, while_loop
  tosa::addTosaToLinalgPasses(pm, TosaToLinalgOptions(), TosaToLinalgNamedOptions());
  pm.addNestedPass<func::FuncOp>(createTosaToArithPass());
  pm.addNestedPass<func::FuncOp>(createTosaToTensorPass());
  // arith and math applied to whole tensors: linalg.generic, which bufferizes.
  pm.addNestedPass<func::FuncOp>(createConvertElementwiseToLinalgPass());
  // linalg.softmax has no lowering of its own: its decomposition does.
  pm.addPass(mips::createMipsDecomposeAggregates());
}

/// Convolutions into matmuls, matmuls into mips.matmul, then tensors into
/// buffers and mips.matmul into libmips calls.
static void addMipsPasses(OpPassManager &pm, const mips::MipsLoweringOptions &options) {
  mips::ConvertConvToMatmulOptions convs;
  convs.im2colBytes = options.im2colBytes;
  // The im2col copy's vectors: one register (vector<[2]xf32>, LMUL 1) on RVV.
  convs.scalableLanes = options.scalableVectors ? kScalableVectorLanes : 0;
  // Taps that read only zero padding go first: what remains may be a 1x1 conv.
  pm.addPass(mips::createMipsDropPaddingOnlyTaps());
  pm.addPass(mips::createMipsDepthwiseMultiplierOne());
  pm.addPass(mips::createConvertConvToMatmul(convs));
  pm.addPass(mips::createMipsRaiseContractions());
  pm.addPass(mips::createMipsDecomposeQuantizedMatmuls());
  pm.addPass(mips::createConvertLinalgToMips());
  mips::MipsInlineSmallMatmulsOptions inlining;
  inlining.threshold = options.inlineThreshold;
  inlining.anyShape = options.inlineAnyShape;
  inlining.embeddedLibmips = options.embedLibmips;
  inlining.scalable = options.scalableVectors;
  pm.addNestedPass<func::FuncOp>(mips::createMipsInlineSmallMatmuls(inlining));
  if (options.remarks) {
    mips::MipsRemarksOptions remarks;
    remarks.precise = options.preciseMath;
    pm.addPass(mips::createMipsRemarks(remarks));
  }
  // After the remarks, which name the op as the input wrote it.
  pm.addPass(mips::createMipsFlattenDepthwiseNchw());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(mips::createMipsExposeCInterface());
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  // Function arguments are fully strided memrefs: a C caller may pass any view
  // (offset, strides) through the descriptor, as the header says.
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::FullyDynamicLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  pm.addPass(mips::createMipsDeallocateBuffers());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(bufferization::createBufferDeallocationSimplificationPass());
  pm.addPass(bufferization::createLowerDeallocationsPass());
  pm.addPass(createCSEPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createConvertBufferizationToMemRefPass());
  // Loops over dense arguments vectorize; over unknown strides they do not.
  if (options.specializeDenseArguments) {
    pm.addPass(mips::createMipsSpecializeDenseArguments());
    pm.addPass(createCanonicalizerPass());
    pm.addPass(mips::createMipsForwardArgumentCopies());
  }
  // Narrow products with constant weights run along them: packed by the runtime with
  // the flag (ABI 1.2), else transposed here, at compile time.
  if (!options.packConstantWeights)
    pm.addPass(mips::createMipsTransposeConstantWeights());
  // After specialization: mips.matmul sees the dense copy's static strides.
  mips::ConvertMipsToVectorOptions inlineCode;
  // LMUL 2 on RVV: 16 columns in one register group from VLEN 256.
  inlineCode.scalableLanes = options.scalableVectors ? 2 * kScalableVectorLanes : 0;
  pm.addPass(mips::createConvertMipsToVector(inlineCode));
  mips::ConvertMipsToLibmipsOptions libmips;
  libmips.anyOrder = options.anyOrder;
  libmips.packConstantWeights = options.packConstantWeights;
  libmips.batchedCalls = options.batchedCalls;
  pm.addPass(mips::createConvertMipsToLibmips(libmips));
  pm.addPass(createCanonicalizerPass());
  mips::MipsCopiesAsLoopsOptions copies;
  copies.allCopies = options.scalableVectors;
  pm.addPass(mips::createMipsCopiesAsLoops(copies));
  pm.addPass(mips::createMipsCollapseElementwise());
  mips::MipsVectorizeDepthwiseConvOptions depthwise;
  depthwise.lanes = options.vectorLanes;
  depthwise.scalable = options.scalableVectors;
  pm.addPass(mips::createMipsVectorizeDepthwiseConv(depthwise));
  if (options.scalableVectors) {
    mips::MipsVectorizeRowReductionsOptions reductions;
    reductions.lanes = options.vectorLanes;
    // With libm's math, an exp in vector code is a call per lane, extracted and
    // inserted: dearer than the scalar loop it replaces (softmax 49 -> 57 per element).
    reductions.fuseProducers = !options.preciseMath;
    pm.addPass(mips::createMipsVectorizeRowReductions(reductions));
  }
}

/// Everything else (bias adds, activations, other contractions, vector code)
/// down to the LLVM dialect.
static void addLLVMLoweringPasses(OpPassManager &pm, const mips::MipsLoweringOptions &options) {
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());
  // Polynomials instead of a libm call per element, so LLVM can vectorize the loops.
  mips::MipsApproximateMathOptions math;
  math.precise = options.preciseMath;
  math.fused = options.fusedMultiplyAdd;
  pm.addPass(mips::createMipsApproximateMath(math));
  if (options.scalableVectors)
    pm.addPass(mips::createMipsExpandClampToConstant());
  // Inline matmuls are small and static: their transfers unroll fully.
  pm.addPass(createConvertVectorToSCFPass(VectorTransferToSCFOptions().enableFullUnroll()));
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addNestedPass<func::FuncOp>(createConvertComplexToStandardPass());
  pm.addPass(createConvertMathToLLVMPass());
  // What LLVM has no intrinsic for (erf, atan2, ...) becomes a libm call, one per
  // element on vectors: the vector ops that scalarization leaves lower next.
  pm.addPass(createConvertMathToLibmPass());
  ConvertVectorToLLVMPassOptions vectorToLLVM;
  // A matmul's contraction as a sequence of rank-1 updates (FMAs of a broadcast
  // lhs column and an rhs row): what vector units run best.
  vectorToLLVM.vectorContractLowering = vector::VectorContractLowering::OuterProduct;
  pm.addPass(createConvertVectorToLLVMPass(vectorToLLVM));
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createConvertComplexToLLVMPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createUBToLLVMConversionPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

void mlir::mips::buildMipsLoweringPipeline(OpPassManager &pm,
                                           const MipsLoweringOptions &options) {
  addFrontendPasses(pm);
  addMipsPasses(pm, options);
  addLLVMLoweringPasses(pm, options);
  if (!options.staticEmbedding)
    pm.addPass(createMipsImportTable());
}

void mlir::mips::registerMipsPipelines() {
  PassPipelineRegistration<MipsLoweringOptions>(
      "mips-lower-to-llvm",
      "Lower linalg, TOSA and mips on tensors or memrefs to the LLVM dialect, "
      "with matmuls as libmips calls or, when small, inline",
      buildMipsLoweringPipeline);
}
