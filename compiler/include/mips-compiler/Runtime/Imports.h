/* SPDX-License-Identifier: Apache-2.0 */
//===- Imports.h - names shared with the mips runtime -----------*- C++ -*-===//
//
// The symbols that generated code and the C runtime (compiler/runtime/) agree
// on: import-table slots, the table itself and the runtime entry points.
//
//===----------------------------------------------------------------------===//

#ifndef MIPS_RUNTIME_IMPORTS_H
#define MIPS_RUNTIME_IMPORTS_H

#include "mips-compiler/Runtime/RequiredAbi.h"
#include "mips/mips.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"

#include <optional>
#include <string>

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

/// The mips runtime's internal symbols referenced by generated code:
/// __mips_rt_v<major>_<minor>_<mode>_<name>, as MIPS_RT_NAME in
/// compiler/runtime/mips_runtime.c spells them. Mode is "dynamic2" (the import
/// table and its secure-mode-aware loader; earlier objects' loader was "dynamic"),
/// "static" or "common" (the same in both).
inline std::string runtimeSymbol(llvm::StringRef mode, llvm::StringRef name) {
  return ("__mips_rt_v" + llvm::Twine(MIPS_RT_ABI_MAJOR) + "_" +
          llvm::Twine(MIPS_RT_ABI_MINOR) + "_" + mode + "_" + name)
      .str();
}
inline std::string importTableSymbol() { return runtimeSymbol("dynamic2", "import_table"); }
inline std::string ensureImportsSymbol() { return runtimeSymbol("dynamic2", "ensure_imports"); }
inline std::string callFailedSymbol() { return runtimeSymbol("common", "call_failed"); }
inline std::string badShapesSymbol() { return runtimeSymbol("common", "bad_shapes"); }

} // namespace mips
} // namespace mlir

#endif // MIPS_RUNTIME_IMPORTS_H
