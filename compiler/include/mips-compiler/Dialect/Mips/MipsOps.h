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

/// Whether mips.matmul multiplies `lhs` x `rhs` into `acc` elements: f32 x f32
/// -> f32, or i8 x i8 -> i32 (sign-extended). The one place that says which
/// element types it takes; convert-mips-to-libmips names the functions.
bool isMatmulElementTypes(Type lhs, Type rhs, Type acc);

/// True if libmips can be handed `type`'s buffers: a strided layout, which gives
/// (offset, strides), in the default memory space, which gives a plain pointer.
bool isPlainStridedMemRef(MemRefType type);

} // namespace mips
} // namespace mlir

#endif // MIPS_DIALECT_MIPS_MIPSOPS_H
