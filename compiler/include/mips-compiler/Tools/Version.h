// SPDX-License-Identifier: Apache-2.0
//===- Version.h - What --version prints for the mips tools ----*- C++ -*-===//
//
// The tool's name and the project version, the libmips ABI its objects call, and
// the LLVM/MLIR it was built with.
//
//===----------------------------------------------------------------------===//

#ifndef MIPS_COMPILER_TOOLS_VERSION_H
#define MIPS_COMPILER_TOOLS_VERSION_H

#include "mips-compiler/Runtime/RequiredAbi.h"
#include "mips/mips.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::mips {

/// Installs a --version printer naming `tool`; `more` adds the tool's own lines.
inline void setToolVersionPrinter(const char *tool,
                                  void (*more)(llvm::raw_ostream &) = nullptr) {
  static const char *name = tool;
  static void (*extra)(llvm::raw_ostream &) = more;
  llvm::cl::SetVersionPrinter([](llvm::raw_ostream &os) {
    os << name << " " << MIPS_VERSION_MAJOR << "." << MIPS_VERSION_MINOR << "."
       << MIPS_VERSION_PATCH << " (mips compiler; its objects need libmips ABI "
       << MIPS_RT_ABI_MAJOR << "." << MIPS_RT_ABI_MINOR_BASE << " or a later 1.x, or "
       << MIPS_RT_ABI_MAJOR << "." << MIPS_RT_ABI_MINOR_LATEST
       << " with --mips-any-order, --mips-pack-constant-weights or --mips-batched-calls)\n"
       << "  built with LLVM/MLIR " << LLVM_VERSION_STRING << "\n";
    if (extra)
      extra(os);
  });
}

} // namespace mlir::mips

#endif // MIPS_COMPILER_TOOLS_VERSION_H
