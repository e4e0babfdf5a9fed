//===- Imports.h - names shared with the mips runtime -----------*- C++ -*-===//
//
// The symbols that generated code and the C runtime (compiler/runtime/) agree
// on: import-table slots, the table itself and the runtime entry points.
//
//===----------------------------------------------------------------------===//

#ifndef MIPS_RUNTIME_IMPORTS_H
#define MIPS_RUNTIME_IMPORTS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>

namespace mlir {
namespace mips {

/// libmips ABI functions, in import-table slot order.
inline constexpr llvm::StringLiteral kImportedFunctions[] = {
#define MIPS_IMPORT(name) #name,
#include "mips-compiler/Runtime/MipsImports.def"
};

/// The slot of a libmips function in the import table, if it has one.
inline std::optional<unsigned> lookupImportSlot(llvm::StringRef name) {
  for (unsigned slot = 0; slot < std::size(kImportedFunctions); ++slot)
    if (kImportedFunctions[slot] == name)
      return slot;
  return std::nullopt;
}

/// Runtime symbols referenced by generated code.
inline constexpr llvm::StringLiteral kImportTableSymbol = "__mips_rt_import_table";
inline constexpr llvm::StringLiteral kEnsureImportsSymbol = "__mips_rt_ensure_imports";
inline constexpr llvm::StringLiteral kCallFailedSymbol = "__mips_rt_call_failed";

} // namespace mips
} // namespace mlir

#endif // MIPS_RUNTIME_IMPORTS_H
