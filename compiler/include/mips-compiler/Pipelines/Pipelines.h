/* SPDX-License-Identifier: Apache-2.0 */
//===- Pipelines.h - the mips lowering pipeline -----------------*- C++ -*-===//

#ifndef MIPS_PIPELINES_PIPELINES_H
#define MIPS_PIPELINES_PIPELINES_H

#include "mips-compiler/Transforms/Passes.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir {
class OpPassManager;

namespace mips {

/// f32 lanes of the vector code the compiler writes itself: on a target with
/// scalable vectors (RVV) vscale x 2, one register at every VLEN; else 8 fixed lanes.
/// Its inline matmuls take twice the scalable lanes (LMUL 2: 16 columns in one
/// register group from VLEN 256).
inline constexpr int64_t kScalableVectorLanes = 2;
inline constexpr int64_t kFixedVectorLanes = 8;

struct MipsLoweringOptions : public PassPipelineOptions<MipsLoweringOptions> {
  PassOptions::Option<bool> staticEmbedding{
      *this, "static-embedding",
      llvm::cl::desc("Call libmips directly (link with -lmips) instead of "
                     "through the run-time import table"),
      llvm::cl::init(false)};
  PassOptions::Option<int64_t> inlineThreshold{
      *this, "inline-threshold",
      llvm::cl::desc("Static matmuls of at most this many multiply-adds (M*N*K) "
                     "with K <= 8, or half as many with K <= 16, run as inline vector "
                     "code instead of a libmips call (with scalable vectors: f32 ones "
                     "more than 8 columns wide with K <= 16, up to 8 times as many); 0 "
                     "calls libmips for every matmul"),
      llvm::cl::init(kDefaultInlineThreshold)};
  PassOptions::Option<bool> embedLibmips{
      *this, "embed-libmips",
      llvm::cl::desc("libmips is linked into the object as bitcode (calls are direct, "
                     "as with static-embedding, and cheaper: the inline rule adapts)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> inlineAnyShape{
      *this, "inline-any-shape",
      llvm::cl::desc("Inline static matmuls up to the threshold whatever their K "
                     "(for measuring; bench/inline_threshold.sh)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> preciseMath{
      *this, "precise-math",
      llvm::cl::desc("Keep libm calls for f32 math functions instead of polynomial "
                     "approximations"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> fusedMultiplyAdd{
      *this, "fused-multiply-add",
      llvm::cl::desc("The target has fused multiply-add instructions (RISC-V; x86-64 "
                     "with FMA): the math polynomials use them"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> specializeDenseArguments{
      *this, "specialize-dense-arguments",
      llvm::cl::desc("Give functions with loops over their arguments a copy for dense "
                     "row-major arguments, picked at run time (mips-specialize-dense-arguments)"),
      llvm::cl::init(true)};
  PassOptions::Option<int64_t> im2colBytes{
      *this, "im2col-bytes",
      llvm::cl::desc("Largest im2col buffer of a convolution, in bytes; larger ones run in "
                     "blocks of output rows"),
      llvm::cl::init(4 << 20)};
  PassOptions::Option<int64_t> vectorLanes{
      *this, "vector-lanes",
      llvm::cl::desc("f32 lanes of the vector code the compiler writes itself (depthwise "
                     "convolutions): a multiple of vscale with scalable-vectors"),
      llvm::cl::init(kFixedVectorLanes)};
  PassOptions::Option<bool> scalableVectors{
      *this, "scalable-vectors",
      llvm::cl::desc("The target has scalable vectors (RVV): vector-lanes times vscale "
                     "lanes, one object for every VLEN"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> anyOrder{
      *this, "any-order",
      llvm::cl::desc("Let libmips sum f32 matmuls over k in any order (dot products for "
                     "matrix-vector shapes); the objects then need libmips ABI 1.2"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> packConstantWeights{
      *this, "pack-constant-weights",
      llvm::cl::desc("Pack matmuls' constant weights once, on first use, and call libmips's "
                     "packed form; the objects then need libmips ABI 1.2"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> batchedCalls{
      *this, "batched-calls",
      llvm::cl::desc("Make each batch matmul one batched libmips call instead of a call per "
                     "batch entry; the objects then need libmips ABI 1.2"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> remarks{
      *this, "remarks",
      llvm::cl::desc("Emit remarks saying which ops reach libmips, which run as inline "
                     "vector code, and which stay loops or libm calls, and why"),
      llvm::cl::init(false)};
};

/// TOSA and linalg -> mips.matmul (small static ones inline) -> buffers ->
/// libmips calls -> LLVM dialect, with _mlir_ciface_ wrappers for public
/// functions; then, unless static embedding is requested, calls routed
/// through the import table.
void buildMipsLoweringPipeline(OpPassManager &pm, const MipsLoweringOptions &options);

/// Registers the pipeline as `mips-lower-to-llvm`.
void registerMipsPipelines();

} // namespace mips
} // namespace mlir

#endif // MIPS_PIPELINES_PIPELINES_H
