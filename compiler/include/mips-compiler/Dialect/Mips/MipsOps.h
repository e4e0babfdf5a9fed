/* SPDX-License-Identifier: Apache-2.0 */
//===- MipsOps.h - mips dialect operations ----------------------*- C++ -*-===//

#ifndef MIPS_DIALECT_MIPS_MIPSOPS_H
#define MIPS_DIALECT_MIPS_MIPSOPS_H

#include "mips-compiler/Dialect/Mips/MipsDialect.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/StringRef.h"

#include <optional>

#define GET_OP_CLASSES
#include "mips-compiler/Dialect/Mips/MipsOps.h.inc"

namespace mlir {
namespace mips {

/// The libmips function that multiplies `lhs` x `rhs` into `acc` elements
/// (mips_matmul_f32, mips_matmul_i8i32), if libmips has one. The one place that
/// says which element types mips.matmul takes.
std::optional<llvm::StringRef> lookupMatmulCallee(Type lhs, Type rhs, Type acc);

/// True if libmips can be handed `type`'s buffers: a strided layout, which gives
/// (offset, strides), in the default memory space, which gives a plain pointer.
bool isPlainStridedMemRef(MemRefType type);

} // namespace mips
} // namespace mlir

#endif // MIPS_DIALECT_MIPS_MIPSOPS_H
