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
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"

#include <optional>
#include <string>

namespace mlir {
namespace mips {

/// A libmips ABI function generated code may call, and the minor version that
/// added it.
struct ImportedFunction {
  llvm::StringLiteral name;
  unsigned abiMinor;
};

/// libmips ABI functions, in import-table slot order (and minor order).
inline constexpr ImportedFunction kImportedFunctions[] = {
#define MIPS_IMPORT(name, minor) {#name, minor},
#include "mips-compiler/Runtime/MipsImports.def"
};

/// The slot of a libmips function in the import table, if it has one.
inline std::optional<unsigned> lookupImportSlot(llvm::StringRef name) {
  for (unsigned slot = 0; slot < std::size(kImportedFunctions); ++slot)
    if (kImportedFunctions[slot].name == name)
      return slot;
  return std::nullopt;
}

/// The slots of an object that needs libmips ABI 1.<abiMinor>: every function up
/// to that minor.
inline unsigned importSlotCount(unsigned abiMinor) {
  unsigned count = 0;
  for (const ImportedFunction &function : kImportedFunctions)
    count += function.abiMinor <= abiMinor;
  return count;
}

/// The mips runtime's internal symbols referenced by generated code:
/// __mips_rt_v<major>_<minor>_<mode>_<name>, as MIPS_RT_NAME in
/// compiler/runtime/mips_runtime.c spells them, for the runtime of an object that
/// needs ABI 1.<abiMinor>. Mode is "dynamic2" (the import table and its
/// secure-mode-aware loader; earlier objects' loader was "dynamic"), "static" or
/// "common" (the same in both).
inline std::string runtimeSymbol(llvm::StringRef mode, llvm::StringRef name, unsigned abiMinor) {
  return ("__mips_rt_v" + llvm::Twine(MIPS_RT_ABI_MAJOR) + "_" + llvm::Twine(abiMinor) + "_" +
          mode + "_" + name)
      .str();
}
inline std::string importTableSymbol(unsigned abiMinor) {
  return runtimeSymbol("dynamic2", "import_table", abiMinor);
}
inline std::string ensureImportsSymbol(unsigned abiMinor) {
  return runtimeSymbol("dynamic2", "ensure_imports", abiMinor);
}
inline std::string callFailedSymbol(unsigned abiMinor) {
  return runtimeSymbol("common", "call_failed", abiMinor);
}
inline std::string badShapesSymbol(unsigned abiMinor) {
  return runtimeSymbol("common", "bad_shapes", abiMinor);
}
inline std::string badBatchSymbol(unsigned abiMinor) {
  return runtimeSymbol("common", "bad_batch", abiMinor);
}
/// void check_cpu(uint64_t required, const char *isa, const char *function,
///                uint8_t *checked): what every exported riscv64 function runs first.
inline std::string checkCpuSymbol(unsigned abiMinor) {
  return runtimeSymbol("common", "check_cpu", abiMinor);
}

/// The module attribute (an i32) that records the libmips ABI minor a module's
/// calls need; absent: MIPS_RT_ABI_MINOR_BASE. Set by convert-mips-to-libmips,
/// read by mips-import-table and the object emitter (which links that runtime).
inline constexpr llvm::StringLiteral kRequiredAbiMinorAttr = "mips.libmips_abi_minor";

inline unsigned getRequiredAbiMinor(ModuleOp module) {
  if (auto minor = module->getAttrOfType<IntegerAttr>(kRequiredAbiMinorAttr))
    return static_cast<unsigned>(minor.getInt());
  return MIPS_RT_ABI_MINOR_BASE;
}

} // namespace mips
} // namespace mlir

#endif // MIPS_RUNTIME_IMPORTS_H
