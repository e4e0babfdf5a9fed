// SPDX-License-Identifier: Apache-2.0
//===- Passes.td - conversions into and out of mips --------*- tablegen -*-===//

#ifndef MIPS_CONVERSION_PASSES_TD
#define MIPS_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertConvToMatmul : Pass<"convert-conv-to-matmul"> {
  let summary = "Rewrite 2-D convolutions into matmuls that reach libmips";
  let description = [{
    Convolutions on tensors with static shapes, f32 or int8 into int32, in the
    layouts TOSA and PyTorch lower to, become linalg contractions that
    `convert-linalg-to-mips` turns into libmips calls:

    - 1x1 convolutions with unit strides are one matmul on collapsed views of
      the operands, with no copy: `linalg.conv_2d_nhwc_hwcf` and
      `conv_2d_nhwc_fhwc` (the filter read transposed) over N*H*W rows, and
      `linalg.conv_2d_nchw_fchw` as a batch of (F x C) * (C x H*W) products
      sharing the filter;
    - other `conv_2d_nhwc_hwcf`, `conv_2d_nhwc_fhwc` and `conv_2d_nchw_fchw`
      (strides, dilation; padding is a `tensor.pad` before them) go through
      an im2col copy of the input patches (NHWC: a vector of channels at a
      time; NCHW with unit column stride: a vector of a row's output columns
      at a time), then one matmul (NCHW: a batch of them sharing the filter).

    The NHWC `_q` forms (int8 with zero points, as TOSA's quantized conv2d
    lowers) take the same paths into `linalg.quantized_matmul`, an FHWC
    filter transposed first. Dynamic shapes, depthwise convolutions and NCHW
    `_q` ones are left alone (loops; `mips-depthwise-multiplier-one` and
    `mips-vectorize-depthwise-conv` write depthwise ones as vector code). Taps
    that read only zero padding are dropped first, by `mips-drop-padding-only-taps`.

    The im2col tensor holds at most `im2col-bytes`: when the whole output's
    patches would be larger, a loop over the images and blocks of output rows
    (the largest number of rows that divides the output's and fits) copies and
    multiplies one block at a time into its slice of the output.

    With `scalable-lanes` (riscv64 with V), an NHWC patch row with unit column
    dilation (KW*C elements, contiguous in the input and in the patches) and an
    NCHW row of at least 8 output columns move with scalable vectors, in one of
    three loop nests chosen once by VLEN: a run shorter than a register is one
    masked register; one longer than a register and at most two is one masked
    group of two; any other moves in whole registers, then, if some remain, its
    last whole register (overlapping the one before). Fixed vectors are priced for the
    smallest VLEN (16 floats: LMUL 4 at every VLEN).
  }];
  let options = [
    Option<"im2colBytes", "im2col-bytes", "int64_t", /*default=*/"4 << 20",
           "Largest im2col buffer, in bytes (blocks of output rows beyond it)">,
    Option<"scalableLanes", "scalable-lanes", "int64_t", /*default=*/"0",
           "Copy im2col rows (NHWC: KW*C elements with unit column dilation; NCHW: "
           "8 output columns or more) with vectors of this many 32-bit lanes times "
           "vscale (0: fixed vectors)">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
    "::mlir::ub::UBDialect",
    "::mlir::vector::VectorDialect"
  ];
}

def ConvertLinalgToMips : Pass<"convert-linalg-to-mips"> {
  let summary = "Rewrite the matmuls of linalg into mips.matmul";
  let description = [{
    Rewrites every linalg contraction that libmips can run into `mips.matmul`,
    on tensors or on memrefs. Element types are f32 x f32 -> f32, or
    i8 x i8 -> i32 with signed extension (unsigned int8 is left alone).

    - `linalg.matmul`, with the plain or transposed indexing maps (a transpose
      becomes a flag, never a copy). A zero `linalg.fill` feeding the init of a
      tensor matmul becomes the `overwrite` flag.
    - `linalg.batch_matmul`, with its transposed maps: `mips.batch_matmul`
      (an operand without a batch dimension stays rank 2); a static batch of
      1 is a single `mips.matmul` on 2-D slices (no copies).
    - `linalg.matvec` and `linalg.vecmat`: the vector is an N = 1 (M = 1)
      matrix view.
    Generic and contract forms reach it as named ops (`mips-raise-contractions`),
    quantized matmuls as plain int8 products (`mips-decompose-quantized-matmuls`);
    the generic form of a zero `linalg.fill` is recognised as the overwrite flag.

    Memrefs whose layout has no strides stay loops.

    Anything else is left for the default lowering.
  }];
  let dependentDialects = [
    "::mlir::mips::MipsDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

def ConvertMipsToLibmips : Pass<"convert-mips-to-libmips", "::mlir::ModuleOp"> {
  let summary = "Turn mips.matmul and mips.batch_matmul on memrefs into calls of the libmips C ABI";
  let description = [{
    Owns the libmips ABI. Each buffer becomes (base, offset, stride0, stride1)
    through `memref.extract_strided_metadata`; a transpose swaps the strides;
    `overwrite` clears `MIPS_MATMUL_ACCUMULATE`. Dynamic shapes are checked
    before the call (a mismatch calls the runtime's report, which stops the
    program), and a nonzero status calls the runtime's failure report with
    `mips_status_string`'s text. The callee is declared `llvm.bareptr`, so a
    base buffer lowers to a plain pointer. A declaration of the same name
    with another type is an error.

    A matmul marked `inlined` is an error here: `convert-mips-to-vector`, which
    runs first, writes it as vector code.

    With `any-order`, f32 calls pass `MIPS_MATMUL_ANY_ORDER`: libmips may sum
    over k in any order (dot products for matrix-vector shapes), which libmips
    1.2 added. The module then records that its calls need ABI 1.2
    (`mips.libmips_abi_minor`), so that the runtime linked into the object
    refuses an older library with the loader's message instead of failing a call.

    With `pack-constant-weights`, a matmul whose B is a constant `memref.global`
    (a model's weights), or a view of one with a static layout, calls
    `mips_matmul_packed_<type>` with a handle that the runtime packs on the first
    call (thread-safely) and keeps in a private `memref<1xi64>` global per packed
    matrix (weights, view and orientation); that too needs 1.2. Constant weights
    that are A (an NCHW convolution's filters) are packed when the product is
    narrower than A is tall: the call computes C^T = B^T * A^T, so the vectors run
    along A's rows and the sum over k keeps its order.

    `mips.batch_matmul` becomes a loop of `mips.matmul` on 2-D views, one call
    per batch entry; with `batched-calls`, one `mips_matmul_batch_<type>` call
    instead (batch strides from the buffers' layouts, 0 for an operand every
    entry shares), which needs 1.2. With dynamic shapes the batch extents are
    checked before the call too.
  }];
  let options = [
    Option<"anyOrder", "any-order", "bool", /*default=*/"false",
           "Let libmips sum f32 products over k in any order (needs libmips 1.2)">,
    Option<"packConstantWeights", "pack-constant-weights", "bool", /*default=*/"false",
           "Pack a B that is a constant global once, on first use, and call the "
           "packed form (needs libmips 1.2)">,
    Option<"batchedCalls", "batched-calls", "bool", /*default=*/"false",
           "Make each mips.batch_matmul one batched libmips call instead of a call "
           "per entry (needs libmips 1.2)">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::func::FuncDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::ub::UBDialect",
    "::mlir::vector::VectorDialect"
  ];
}

def ConvertMipsToVector : Pass<"convert-mips-to-vector", "::mlir::ModuleOp"> {
  let summary = "Write mips.matmul on memrefs marked `inlined` as inline vector code";
  let description = [{
    A matmul marked `inlined` (by `mips-inline-small-matmuls`: small and
    static) becomes straight-line vector code instead of a libmips call: B's
    rows in vector registers, then one row of C at a time, with a multiply-add
    of a broadcast A element per (i, l). It needs unit-stride rows of B and C,
    checked at run time; other views, and a transposed B, run as loops. When
    the matmul's C is a fresh buffer that a `memref.copy` just before it fills
    (bufferization's copy of a C it may not write), the rows are read from the
    copy's source and the copy is left to the loops alone.
    With `scalable-lanes` (a target with scalable vectors), f32 matmuls more
    than 8 columns wide run on vector<[N]xf32>: C's columns in chunks of
    vscale * N with a mask for the last, C's rows in blocks of at most 8 whose
    accumulators stay in registers. Matmuls not marked are left for
    `convert-mips-to-libmips`.
  }];
  let options = [
    Option<"scalableLanes", "scalable-lanes", "int64_t", /*default=*/"0",
           "Inline f32 matmuls more than 8 columns wide on vector<[N]xf32> (a target "
           "with scalable vectors; 0: fixed vectors)">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::ub::UBDialect",
    "::mlir::vector::VectorDialect"
  ];
}

#endif // MIPS_CONVERSION_PASSES_TD
