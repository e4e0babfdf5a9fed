// SPDX-License-Identifier: Apache-2.0
//===- InputChecks.h - What mips-compile and mips-opt check around MLIR ---===//
//
// Both tools promise to end every input with success or a located error, never a
// crash or an error without a place. These are the pieces that keep the promise
// where MLIR 22 itself does not.
//
//===----------------------------------------------------------------------===//

#ifndef MIPS_COMPILER_TOOLS_INPUTCHECKS_H
#define MIPS_COMPILER_TOOLS_INPUTCHECKS_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace mlir {
class MLIRContext;
namespace mips {

/// Why `text` is not MLIR source worth compiling, if it is not: empty, or binary.
std::optional<std::string> describeNonText(llvm::StringRef text);

/// Reports, located, the inputs on which MLIR 22's parser is known to crash, so the
/// parser never sees them. Fails if it reported any.
LogicalResult checkKnownParserCrashes(llvm::SourceMgr &sourceMgr);

/// Gives errors that carry no location (ops that upstream builders create with an
/// unknown location, or the implicit top-level module's line 0) the input file's
/// first line, with a hint where one is known.
/// Registered last, the handler sees each diagnostic before earlier handlers.
void locateUnlocatedErrors(MLIRContext &context, llvm::StringRef displayName);

/// Runs `body` and returns its exit code. If it crashes, removes any partial output
/// files, reports the crash against the input in one line, and exits with 1.
int runRecoveringCrashes(llvm::StringRef tool, llvm::StringRef displayName,
                         llvm::function_ref<int()> body);

} // namespace mips
} // namespace mlir

#endif // MIPS_COMPILER_TOOLS_INPUTCHECKS_H
