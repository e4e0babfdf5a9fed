// SPDX-License-Identifier: Apache-2.0
//===- Pipelines.cpp - the mips lowering pipeline ---------------*- C++ -*-===//

#include "mips-compiler/Pipelines/Pipelines.h"

#include "mips-compiler/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

/// The upstream part, as a pass list (not wrapped in builtin.module(...): the
/// pass manager it is parsed into is already rooted at the module).
static constexpr llvm::StringLiteral kLoweringPasses =
    "convert-linalg-to-mips,"
    "canonicalize,"
    "mips-expose-c-interface,"
    // Function arguments are fully strided memrefs: a C caller may pass any
    // view (offset, strides) through the descriptor, as the header says.
    "one-shot-bufferize{bufferize-function-boundaries "
    "function-boundary-type-conversion=fully-dynamic-layout-map},"
    "buffer-deallocation-pipeline,"
    "convert-bufferization-to-memref,"
    // What libmips does not run (bias adds, activations, other matmuls).
    "func.func(convert-linalg-to-loops),"
    "expand-strided-metadata,"
    "lower-affine,"
    "convert-scf-to-cf,"
    "finalize-memref-to-llvm,"
    "convert-math-to-llvm,"
    "convert-arith-to-llvm,"
    "convert-index-to-llvm,"
    "convert-cf-to-llvm,"
    "convert-func-to-llvm,"
    "reconcile-unrealized-casts";

LogicalResult
mlir::mips::buildMipsLoweringPipeline(OpPassManager &pm,
                                      const MipsLoweringOptions &options) {
  if (failed(parsePassPipeline(kLoweringPasses, pm, llvm::errs())))
    return failure();
  if (!options.staticEmbedding)
    pm.addPass(createMipsImportTable());
  return success();
}

void mlir::mips::registerMipsPipelines() {
  PassPipelineRegistration<MipsLoweringOptions>(
      "mips-lower-to-llvm",
      "Lower linalg/mips on tensors to the LLVM dialect with libmips calls",
      [](OpPassManager &pm, const MipsLoweringOptions &options) {
        // Registration cannot report failure; the pass list is a constant
        // that the lit tests parse on every run.
        (void)buildMipsLoweringPipeline(pm, options);
      });
}
