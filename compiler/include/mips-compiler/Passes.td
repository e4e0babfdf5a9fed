// SPDX-License-Identifier: Apache-2.0
//===- Passes.td - mips compiler passes --------------------*- tablegen -*-===//

#ifndef MIPS_PASSES_TD
#define MIPS_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertLinalgToMips : Pass<"convert-linalg-to-mips"> {
  let summary = "Rewrite linalg.matmul on tensors into mips.matmul";
  let description = [{
    Rewrites `linalg.matmul` with tensor semantics into `mips.matmul` when libmips
    can run it: f32 x f32 -> f32 or i8 x i8 -> i32 with signed extension, static
    or dynamic shapes, and the plain or transposed indexing maps (a transpose
    becomes a flag, which bufferization turns into swapped strides). A zero
    `linalg.fill` feeding the init is folded into the `overwrite` flag. Anything
    else is left for the default lowering.
  }];
  let dependentDialects = ["::mlir::mips::MipsDialect"];
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

#endif // MIPS_PASSES_TD
