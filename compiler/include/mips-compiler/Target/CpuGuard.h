/* SPDX-License-Identifier: Apache-2.0 */
//===- CpuGuard.h - exported functions check the CPU first ------*- C++ -*-===//
//
// A riscv64 object compiled for extensions a core lacks (V, by default) would die of
// SIGILL there. Each exported function of the model becomes a guard, compiled without
// vector extensions, that checks AT_HWCAP once (the mips runtime's check_cpu) and then
// calls the function's body: on a core without them, one message and exit status 127.
//
//===----------------------------------------------------------------------===//

#ifndef MIPS_TARGET_CPUGUARD_H
#define MIPS_TARGET_CPUGUARD_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

namespace llvm {
class Module;
} // namespace llvm

namespace mlir::mips {

/// Guards every function `isModelSymbol` names in a riscv64 module compiled with
/// `features` (the target machine's resolved feature string), which must already hold
/// the mips runtime for ABI 1.<abiMinor>. Does nothing for other targets.
void guardEntryPoints(llvm::Module &module, llvm::StringRef features, unsigned abiMinor,
                      llvm::function_ref<bool(llvm::StringRef)> isModelSymbol);

} // namespace mlir::mips

#endif // MIPS_TARGET_CPUGUARD_H
