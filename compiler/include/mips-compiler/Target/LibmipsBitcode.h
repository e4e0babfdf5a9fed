/* SPDX-License-Identifier: Apache-2.0 */
//===- LibmipsBitcode.h - libmips embedded as bitcode -----------*- C++ -*-===//
//
// The third linkage (--embed-libmips): libmips's own bitcode (libmips-<target>.bc,
// built from the library's sources) is linked into the model's module before LLVM's
// optimization, and every libmips symbol is made internal, so the object needs no
// libmips at link or run time, cannot be interposed, and gets calls specialised to
// their constant shapes, strides and flags.
//
//===----------------------------------------------------------------------===//

#ifndef MIPS_TARGET_LIBMIPSBITCODE_H
#define MIPS_TARGET_LIBMIPSBITCODE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace llvm {
class Module;
} // namespace llvm

namespace mlir::mips {

struct TargetSpec;

/// Where mips-compile looks for the bitcode when --libmips-bitcode is not given:
/// ../share/mips/libmips-<target>.bc from its own executable (the build tree and an
/// install have the same layout). `argv0` and `mainAddress` locate the executable.
std::string defaultLibmipsBitcodePath(const char *argv0, void *mainAddress,
                                      const TargetSpec &target);

/// Checks that `bytes` is libmips bitcode for `target` and returns the ABI minor it
/// implements (major 1). The error text names what was expected, for one line.
llvm::Expected<unsigned> checkLibmipsBitcode(llvm::StringRef bytes, const TargetSpec &target);

/// Links the checked bitcode into `module` (only what the module's calls need) and
/// internalizes everything but `keep` (the model's own symbols) and the runtime's
/// mipsrt_* API.
llvm::Error embedLibmips(llvm::Module &module, llvm::StringRef bytes,
                         llvm::function_ref<bool(llvm::StringRef)> keep);

} // namespace mlir::mips

#endif // MIPS_TARGET_LIBMIPSBITCODE_H
