// SPDX-License-Identifier: Apache-2.0
//===- Passes.td - mips rewrites ---------------------------*- tablegen -*-===//

#ifndef MIPS_TRANSFORMS_PASSES_TD
#define MIPS_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def MipsInlineSmallMatmuls : Pass<"mips-inline-small-matmuls", "::mlir::func::FuncOp"> {
  let summary = "Pick inline vector code instead of a libmips call for small static matmuls";
  let description = [{
    Kernel variant selection. A libmips call costs several hundred
    instructions before its first multiply-add (argument checks, dispatch,
    packing): a model function computing C + A*B for 4x4x4 costs 1010
    instructions calling libmips and 257 inline (483 and 158 in place on
    buffers, without the result's allocation). Each
    `mips.matmul` whose shapes are static, with N >= 2, is marked `inlined`
    when M*N*K is at most `threshold` with K <= 8, or at most half of it with
    K <= 16;
    `convert-mips-to-vector` then emits straight-line vector code for it
    instead of a call. Longer reductions, and single columns (matvecs), lose
    inline at any size (measured by bench/inline_threshold.sh). A threshold of
    0 keeps every call. With libmips embedded a call costs about 250
    instructions less, and it beats the inline code from 10x10x10 and 16x16x8
    on, but not for narrow N (32x8x8, 128x2x8), where libmips's tiles waste
    lanes: with `embedded-libmips`, shapes with N > 8 count double. With
    `scalable` (RVV), f32 shapes with N > 8, K <= 16 and B not transposed run
    inline up to 8 times the threshold whatever the linkage: their inline code streams B's rows
    through blocks of 8 rows of C on scalable vectors and costs less than an
    embedded call (16x16x16: 645 against 787 at VLEN 256).
  }];
  let options = [
    Option<"threshold", "threshold", "int64_t",
           /*default=*/"::mlir::mips::kDefaultInlineThreshold",
           "Largest M*N*K that runs inline with K <= 8, half of it with K <= 16 (0: none)">,
    Option<"anyShape", "any-shape", "bool", /*default=*/"false",
           "Inline any static shape up to the threshold, whatever its K (for measuring)">,
    Option<"embeddedLibmips", "embedded-libmips", "bool", /*default=*/"false",
           "libmips is embedded (--embed-libmips): its calls cost less, so shapes with "
           "N > 8 count double (measured by bench/linkage_modes.sh)">,
    Option<"scalable", "scalable", "bool", /*default=*/"false",
           "The target has scalable vectors (RVV): f32 shapes with N > 8 and K <= 16 "
           "run inline up to 8 times the threshold (wide inline code on "
           "vector<[4]xf32>; measured by bench/linkage_modes.sh)">
  ];
  let dependentDialects = ["::mlir::mips::MipsDialect"];
}

def MipsApproximateMath : Pass<"mips-approximate-math"> {
  let summary = "Evaluate f32 math functions with polynomials instead of libm calls";
  let description = [{
    LLVM has no vector math library for RISC-V: a `math.erf` or `math.exp`
    left to the LLVM lowering is a libm call per element, which also keeps
    the loop around it scalar. This pass rewrites the f32 functions models
    use (exp, expm1, log, log1p, log2, tanh, erf) into polynomial
    approximations, on scalars and vectors alike, so LLVM's loop vectorizer
    can run them on vectors: exp and erf are the project's own (a reduction
    with a shift for 2^n, and one rational function), GELU's erf form is
    recognised as a whole, the others are upstream's (subnormal inputs of log
    and log2 are scaled into the normal range first). Other element types are
    widened to f32 first.
    Accuracy against libm is measured by `tests/math/` and stated in the
    README.

    With `precise`, every function stays a libm call; only expm1 and log1p,
    which upstream's MathToLLVM would write as exp(x) - 1 and log(1 + x)
    (losing all accuracy for tiny x), become calls of expm1f and log1pf here.
  }];
  let options = [
    Option<"precise", "precise", "bool", /*default=*/"false",
           "Keep libm calls (expm1 and log1p as calls, not exp(x) - 1 and log(1 + x))">,
    Option<"fused", "fused", "bool", /*default=*/"true",
           "The target has fused multiply-add instructions; without, the polynomials' "
           "steps are a multiply and an add (a math.fma would be a libm call per element)">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::func::FuncDialect",
    "::mlir::math::MathDialect",
    "::mlir::vector::VectorDialect"
  ];
}

def MipsSpecializeDenseArguments : Pass<"mips-specialize-dense-arguments", "::mlir::ModuleOp"> {
  let summary = "Give functions a copy for dense row-major memref arguments, picked at run time";
  let description = [{
    Function arguments are fully strided memrefs so that callers may pass any
    view, but loops over unknown strides do not vectorize. Each function with
    loops (linalg ops or copies) and memref arguments of unknown strides
    becomes a dispatcher: when every such argument is dense row-major (any
    offset), it calls `<name>.mips_dense`, a private copy whose arguments have
    those strides in their types; otherwise `<name>.mips_strided`, the
    unchanged body. Runs on buffers, after deallocation.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect"
  ];
}

def MipsTransposeConstantWeights : Pass<"mips-transpose-constant-weights", "::mlir::ModuleOp"> {
  let summary = "Lay constant weights out at compile time as libmips reads them in place: narrow products turned round, n x k B copied k x n";
  let description = [{
    A `mips.matmul` on buffers whose A is a view with a static layout of a
    constant `memref.global` with known data (inline or a resource blob), and
    whose product is narrower than A is tall (n < m: an NCHW convolution's
    filters times a small image's few pixels, a classifier for one image),
    becomes C^T = B^T * A^T: A^T is written into a new private constant global
    (`<weights>_transposed`, k x m, shared by the matmuls that read the same
    view), B^T is B with the other transpose flag and C^T a `memref.transpose`
    of C. The libmips call then reads the copy in place, summing over k in
    ascending order, with ABI 1.0: along its rows for one column of C, or,
    where libmips turns the call back, as a column-major A. Otherwise, constant
    f32 weights that are B with rows along n not contiguous (stored n x k, as
    PyTorch's Linear stores them) are copied k x n into such a global, and the
    matmul reads them without transpose_rhs: in ascending order libmips would
    transpose an n x k B on every call. A private global of this module left
    unread is erased; views whose static layout reaches past the global's data
    are left alone. Runs before convert-mips-to-libmips when
    --mips-pack-constant-weights is off (with it, the runtime packs them).
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def MipsForwardArgumentCopies : Pass<"mips-forward-argument-copies"> {
  let summary = "Read function arguments in place instead of through a copy made to reshape them";
  let description = [{
    A `memref.copy` of a function argument into a new buffer that is then only
    collapsed (`memref.collapse_shape`) and read (by `mips.matmul` as A or B, or
    any op whose memory effects on it are reads) is removed: the collapse is
    made on the argument itself, where its layout guarantees that is valid (a
    dense-argument copy of the function, whose strides are static). The
    argument must never be written in the function. Runs on buffers, after
    mips-specialize-dense-arguments and before convert-mips-to-libmips.
  }];
}

def MipsCopiesAsLoops : Pass<"mips-copies-as-loops"> {
  let summary = "Write buffer copies as linalg.copy, a loop LLVM vectorizes";
  let description = [{
    `memref.copy` between strided buffers becomes `linalg.copy`: a copy that is
    not contiguous on both sides would otherwise call the runtime's memrefCopy
    for every element (a padded input, copied into the interior of its padded
    buffer, is one), and with `all` a contiguous one would call the C library's
    memcpy, which is scalar on riscv64.
  }];
  let options = [
    Option<"allCopies", "all", "bool", /*default=*/"false",
           "Contiguous copies too (targets whose memcpy is scalar: riscv64)">
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def MipsCollapseElementwise : Pass<"mips-collapse-elementwise"> {
  let summary = "Run elementwise ops over dense buffers as one loop over all elements";
  let description = [{
    An elementwise `linalg.generic` (parallel, identity maps) on buffers that
    are each contiguous, such as those of a dense-argument copy, is rewritten
    over `memref.collapse_shape` views of rank 1, so that its loop is the one
    LLVM vectorizes (a nest with a short static innermost loop gets unrolled
    and vectorized across the outer loop with strided accesses). Where an
    operand broadcasts along trailing dims (a bias per channel over an NCHW
    image), those dims merge into one, if every other operand runs along them
    in order over a contiguous stretch of its buffer.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def MipsVectorizeDepthwiseConv : Pass<"mips-vectorize-depthwise-conv"> {
  let summary = "Write depthwise convolutions on buffers as vector code along the channels";
  let description = [{
    Each f32 `linalg.depthwise_conv_2d_nhwc_hwc` on buffers whose channels are
    contiguous, with a static kernel of at most 25 taps (any strides and
    dilations), becomes loops over batch, channel blocks, output rows and tiles
    of 4 output pixels, with vector code inside: the block's weights loaded once,
    the 4 pixels' sums in registers, each input vector loaded once per kernel
    row for every pixel and tap that reads it, and a masked last block of
    channels. Each sum keeps linalg's order, with fused multiply-adds.
  }];
  let options = [
    Option<"lanes", "lanes", "int64_t", /*default=*/"8",
           "f32 lanes per vector (times vscale when scalable)">,
    Option<"scalable", "scalable", "bool", /*default=*/"false",
           "Scalable vectors: lanes x vscale, for RVV at every VLEN">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::ub::UBDialect",
    "::mlir::vector::VectorDialect"
  ];
}

def MipsFlattenDepthwiseNchw : Pass<"mips-flatten-depthwise-nchw"> {
  let summary = "Compute NCHW depthwise convolutions over each channel's flattened plane";
  let description = [{
    Each f32 `linalg.depthwise_conv_2d_nchw_chw` on tensors of static shape, with
    at most 25 taps and strides of at most 2 (any dilation), becomes one
    `linalg.generic` over (image, channel, position in the flattened padded
    plane): output position g reads input g + kh * W + kw for each tap, so the
    innermost loop runs over the whole plane with unit-stride loads, however
    short the image rows are. Positions whose window wraps into the next row are
    computed and never read: the result is a strided `tensor.extract_slice` of
    the computed plane (every second row and column for stride 2). The input
    gets spare rows for the last windows (the tensor.pad that made it is made
    again with them); taps that only ever read zero padding are dropped, with
    less padding (a 3x3 kernel on a 1x1 image keeps its centre tap; the products
    dropped are zero unless a weight is Inf or NaN, as convert-conv-to-matmul
    also assumes). A fill or a broadcast bias start the sums as before, other
    inits are copied onto the plane. Each sum keeps linalg's order, its multiplies
    and adds marked `contract` (fused where the target can).
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

def MipsVectorizeRowReductions : Pass<"mips-vectorize-row-reductions"> {
  let summary = "Write f32 reductions along a contiguous row as scalable vector code";
  let description = [{
    Each `linalg.generic` or `linalg.reduce` on buffers that reduces its input's last dimension
    (contiguous) into an output indexed by the other dimensions, with `addf`,
    `maximumf` or `minimumf` of the element and the accumulator as its body (no
    fast-math flags), becomes loops over the rows with vector code inside:
    whole vectors of `lanes` x vscale f32, then one masked tail. A sum stays in
    order (an ordered reduction of each vector into the accumulator); a maximum
    or minimum keeps a NaN-ignoring vector extreme and a flag of NaNs seen, so
    the result is NaN when the row (or the output's initial value) holds one,
    and -0 and +0 are ordered as `maximumf` orders them. For RVV, whose
    vector maximum orders the zeros; the pipeline runs it only there.

    A row sum whose input an elementwise `linalg.generic` has just written
    (softmax's exponentials; a `linalg.fill` of the sum's output may sit
    between them) is fused with it: the generic's body runs on the same
    vectors, each vector is stored and added to the sum, and the row is not
    loaded again. The generic's inputs are read through the identity or once
    per row, and its body is elementwise arith and math ops.
  }];
  let options = [
    Option<"lanes", "lanes", "int64_t", /*default=*/"2",
           "f32 lanes per vector, times vscale (2: one RVV register)">,
    Option<"fuseProducers", "fuse-producers", "bool", /*default=*/"true",
           "Compute a row sum of what an elementwise op has just written as the op "
           "writes it">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect"
  ];
}

def MipsExpandClampToConstant : Pass<"mips-expand-clamp-to-constant"> {
  let summary = "maximumf/minimumf with a non-NaN constant as a NaN-ignoring one and a select";
  let description = [{
    `arith.maximumf %x, %c` (and `minimumf`) where `%c` is a constant, scalar or
    splat, that is not NaN becomes `select(isnan(%x), %x, maxnumf(%x, %c))`:
    the same values where the NaN-ignoring maximum orders -0 below +0, as RVV's
    vfmax does; three vector ops for a ReLU instead of the five LLVM makes of a
    NaN-propagating maximum. The pipeline runs it for RVV only.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def MipsRemarks : Pass<"mips-remarks"> {
  let summary = "Say, as remarks, which ops reach libmips and which stay slow, and why";
  let description = [{
    Emits a remark at each op whose cost a user would want to know about, after
    convolutions and matmuls have been converted and small ones marked inline:
    each `mips.matmul` (a libmips call or inline vector code, with its shape),
    each linalg convolution or contraction that stays as loops (with the reason
    convert-conv-to-matmul or convert-linalg-to-mips left it), and each math
    function that becomes a libm call per element (no polynomial for it, or
    `precise`). `mips-compile --mips-remarks` adds it to the pipeline.
  }];
  let options = [
    Option<"precise", "precise", "bool", /*default=*/"false",
           "The pipeline keeps libm calls for every math function (--mips-precise-math)">
  ];
}

def MipsDropPaddingOnlyTaps : Pass<"mips-drop-padding-only-taps"> {
  let summary = "Drop the taps of a convolution that read only zero padding";
  let description = [{
    A convolution libmips runs (`convert-conv-to-matmul`'s: tensors, static
    shapes, f32 or int8 into int32) over a `tensor.pad` of constant zero
    whose outer taps read only the padding (small images: a 3x3 kernel,
    padding 1, on a 1x1 input reads the input with its centre tap alone)
    becomes the convolution of the taps that read the input: its filter a
    slice of the filter, its input padded less. The dropped terms are products
    with zero, so the result is the same unless a dropped weight is Inf or NaN.
    The kept filter must be a view of the filter when the matmul flattens it
    (one tap, or whole rows of taps before the channels), else the conv is
    left alone. Runs before `convert-conv-to-matmul`: what remains may be a
    1x1 conv, a view with no im2col.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

def MipsDepthwiseMultiplierOne : Pass<"mips-depthwise-multiplier-one"> {
  let summary = "A depthwise conv with channel multiplier 1 as the plain depthwise form";
  let description = [{
    `linalg.depthwise_conv_2d_nhwc_hwcm` on tensors whose multiplier is 1
    (what `tosa.depthwise_conv2d` becomes) becomes
    `depthwise_conv_2d_nhwc_hwc` between collapse and expand shapes that drop
    the unit dimension of the filter and the output, the form that
    `mips-vectorize-depthwise-conv` writes as vector code.
  }];
  let dependentDialects = [
    "::mlir::linalg::LinalgDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

def MipsRaiseContractions : Pass<"mips-raise-contractions"> {
  let summary = "Raise the generic and contract forms of matmuls libmips runs to named linalg ops";
  let description = [{
    `linalg.generic` that is one of the matmuls libmips runs (iterators
    parallel then one reduction; matmul, batch matmul (a shared operand
    included), matvec or vecmat maps; a body of `acc + a * b`, with
    `arith.extsi` for int8) becomes `linalg.matmul` or `linalg.batch_matmul`
    with its indexing maps, `linalg.matvec` or `linalg.vecmat`; so does
    `linalg.contract` with (b?, m, n, k) matmul maps and signed extension.
    Element types and memrefs are checked as `convert-linalg-to-mips` checks
    them: what it could not convert stays as it was. Upstream's
    `linalg-specialize-generic-ops` is not used: in LLVM 22 it turns a
    transposed matmul into an invalid `linalg.matmul`.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def MipsDecomposeQuantizedMatmuls : Pass<"mips-decompose-quantized-matmuls"> {
  let summary = "Quantized matmuls as the plain int8 product plus zero-point corrections";
  let description = [{
    `linalg.quantized_matmul` and `linalg.quantized_batch_matmul` (int8 into
    int32) become the int8 `linalg.matmul` (`batch_matmul`), which libmips
    runs, then the corrections `- zb * rowsum(A) - za * colsum(B) + K * za * zb`,
    all in i32 (exact modulo 2^32, as the op's own semantics). On tensors the
    corrections are linalg ops; on memrefs, loops that update C in place with
    no temporary. Corrections for a zero point that is a constant 0 are left out.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

def MipsDecomposeAggregates : Pass<"mips-decompose-aggregates"> {
  let summary = "Decompose aggregated linalg ops (linalg.softmax) into generics";
  let description = [{
    `linalg.softmax` has no loop lowering of its own; without this pass it
    reaches LLVM translation unconverted. Each op implementing
    `AggregatedOpInterface` is replaced by its own decomposition: a max
    reduction, exp of the difference, a sum reduction and a divide, as
    `linalg.generic` ops that lower (and vectorize) like any other.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

def MipsDeallocateBuffers : Pass<"mips-deallocate-buffers", "::mlir::ModuleOp"> {
  let summary = "Free the buffers bufferization allocated, where the input does not free its own";
  let description = [{
    Runs upstream's ownership-based buffer deallocation, then its
    simplification and lowering, on every function that does not already
    contain `memref.dealloc`; upstream's analysis refuses those. A function
    that frees memory itself is trusted to free all of it: an allocation in it
    that no `memref.dealloc` frees is an error that says so, instead of a
    leak.
  }];
  let dependentDialects = [
    "::mlir::bufferization::BufferizationDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect"
  ];
}

def MipsExposeCInterface : Pass<"mips-expose-c-interface", "::mlir::ModuleOp"> {
  let summary = "Give every public function a _mlir_ciface_ C wrapper";
  let description = [{
    Marks each public `func.func` definition with `llvm.emit_c_interface`, so
    that lowering to LLVM emits `_mlir_ciface_<name>`, which takes memref
    descriptors by pointer (the form `mips-compile --emit-header` declares).
    Its tensor arguments become `bufferization.writable = false`: the caller's
    buffers are only read.
  }];
  let dependentDialects = ["::mlir::bufferization::BufferizationDialect"];
}

def MipsImportTable : Pass<"mips-import-table", "::mlir::ModuleOp"> {
  let summary = "Route calls to libmips through the run-time import table";
  let description = [{
    Runs on the LLVM dialect. Each `llvm.call` of a libmips ABI function becomes
    a call of `__mips_rt_ensure_imports` (which binds the kernel provider once,
    or reports and exits), a load of the function's slot from
    `__mips_rt_import_table`, and an indirect call. The external declarations
    are then removed, so the object has no undefined libmips symbol. The table
    and its resolver come from the mips runtime linked into the object.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif // MIPS_TRANSFORMS_PASSES_TD
