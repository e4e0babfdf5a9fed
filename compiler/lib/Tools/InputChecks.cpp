// SPDX-License-Identifier: Apache-2.0
//===- InputChecks.cpp - What mips-compile and mips-opt check around MLIR -===//

#include "mips-compiler/Tools/InputChecks.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace mlir;

std::optional<std::string> mips::describeNonText(llvm::StringRef text) {
  if (text.trim().empty())
    return std::string("the input is empty; expected an MLIR module (func.func on tensors "
                       "or memrefs)");
  for (size_t i = 0; i < text.size(); ++i) {
    const unsigned char c = text[i];
    if (c == 0 || (c < 0x20 && c != '\n' && c != '\r' && c != '\t'))
      return "the input is not MLIR text (binary byte 0x" + llvm::utohexstr(c) +
             " at offset " + std::to_string(i) + "); mips-compile reads .mlir source";
  }
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Known parser crashes
//===----------------------------------------------------------------------===//

namespace {
enum class ElementKind { Float, Integer, Complex, Other };
} // namespace

static ElementKind classifyElement(llvm::StringRef type) {
  if (type.starts_with("complex<"))
    return ElementKind::Complex;
  if (type == "bf16" || type == "tf32" || (type.size() > 1 && type[0] == 'f' && llvm::isDigit(type[1])))
    return ElementKind::Float;
  llvm::StringRef width = type;
  if (width.consume_front("si") || width.consume_front("ui") || width.consume_front("i"))
    if (!width.empty() && llvm::all_of(width, llvm::isDigit))
      return ElementKind::Integer;
  return ElementKind::Other;
}

/// The element types of the tensor<...> and memref<...> types in `span`.
static llvm::SmallVector<llvm::StringRef> elementTypesIn(llvm::StringRef span) {
  llvm::SmallVector<llvm::StringRef> types;
  for (llvm::StringRef head : {"tensor<", "memref<"}) {
    for (size_t at = span.find(head); at != llvm::StringRef::npos; at = span.find(head, at + 1)) {
      const size_t start = at + head.size();
      size_t end = start, firstComma = llvm::StringRef::npos;
      for (int depth = 1; end < span.size(); ++end) {
        const char c = span[end];
        depth += c == '<' ? 1 : c == '>' ? -1 : 0;
        if (depth == 0)
          break;
        if (depth == 1 && c == ',' && firstComma == llvm::StringRef::npos)
          firstComma = end;
      }
      llvm::StringRef shape = span.slice(start, std::min(end, firstComma)).trim();
      // Strip the dimensions: "2x?x4xf32" -> "f32".
      while (true) {
        const size_t x = shape.find('x');
        llvm::StringRef dim = shape.take_front(x);
        if (x == llvm::StringRef::npos || dim.empty() ||
            !(dim == "?" || dim == "*" || llvm::all_of(dim, llvm::isDigit)))
          break;
        shape = shape.drop_front(x + 1);
      }
      types.push_back(shape);
    }
  }
  return types;
}

/// linalg ops whose custom-form parser, in MLIR 22, calls an empty error callback when
/// it cannot build the op's body (e.g. on index elements) and so dies with SIGSEGV.
static const char *const kOpsCrashingOnBadElements[] = {"linalg.batch_matmul",
                                                        "linalg.batch_reduce_matmul"};

// For the tests of crash recovery: an input known to crash the parser, let through.
static llvm::cl::opt<bool> letKnownCrashesThrough(
    "mips-no-crash-precheck", llvm::cl::Hidden,
    llvm::cl::desc("Testing: let inputs known to crash MLIR's parser reach it"));

static bool isIdentifierChar(char c) { return llvm::isAlnum(c) || c == '_' || c == '.' || c == '$'; }

/// The position just past the ')' that closes the '(' at `open` (or the end).
static size_t skipParentheses(llvm::StringRef text, size_t open) {
  size_t at = open;
  for (int depth = 0; at < text.size();) {
    depth += text[at] == '(' ? 1 : text[at] == ')' ? -1 : 0;
    ++at;
    if (depth == 0)
      break;
  }
  return at;
}

/// Reports a block label defined twice in one region. MLIR 22's parser reports it
/// too, but then frees the region's blocks while their arguments are still used, and
/// dies with heap corruption (now and then: it depends on the heap). Returns true if
/// there is none.
static bool reportDuplicateBlockLabels(llvm::SourceMgr &sourceMgr, llvm::StringRef text) {
  // The labels defined so far in each open region (or attribute dictionary: one
  // holds no labels, so it does no harm).
  llvm::SmallVector<llvm::StringSet<>> regions(1);
  bool lineStart = true, clean = true;
  for (size_t at = 0; at < text.size(); ++at) {
    const char c = text[at];
    if (c == '\n') {
      lineStart = true;
      continue;
    }
    if (c == '"') { // a string: skip it, escapes included
      for (++at; at < text.size() && text[at] != '"' && text[at] != '\n'; ++at)
        at += text[at] == '\\';
      lineStart = false;
      continue;
    }
    if (text.substr(at).starts_with("//")) {
      at = std::min(text.find('\n', at), text.size()) - 1;
      continue;
    }
    if (c == '{')
      regions.emplace_back();
    else if (c == '}' && regions.size() > 1)
      regions.pop_back();
    // A definition starts its line: ^name, its arguments in parentheses, then ':'.
    if (c == '^' && lineStart) {
      size_t end = at + 1;
      while (end < text.size() && isIdentifierChar(text[end]))
        ++end;
      llvm::StringRef label = text.slice(at, end);
      size_t next = end;
      if (next < text.size() && text[next] == '(')
        next = skipParentheses(text, next);
      while (next < text.size() && (text[next] == ' ' || text[next] == '\t'))
        ++next;
      if (label.size() > 1 && next < text.size() && text[next] == ':' &&
          !regions.back().insert(label).second) {
        sourceMgr.PrintMessage(llvm::SMLoc::getFromPointer(label.data()),
                               llvm::SourceMgr::DK_Error,
                               "redefinition of block '" + label +
                                   "' in this region; rename one of them (MLIR 22's parser "
                                   "crashes on this input)");
        clean = false;
      }
    }
    if (c != ' ' && c != '\t')
      lineStart = false;
  }
  return clean;
}

LogicalResult mips::checkKnownParserCrashes(llvm::SourceMgr &sourceMgr) {
  if (letKnownCrashesThrough)
    return success();
  const llvm::StringRef text = sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID())->getBuffer();
  bool clean = true;
  for (llvm::StringRef op : kOpsCrashingOnBadElements) {
    for (size_t at = text.find(op); at != llvm::StringRef::npos; at = text.find(op, at + 1)) {
      const size_t after = at + op.size();
      // The custom form only: not "linalg.batch_matmul"(...), not a longer name.
      if ((at > 0 && (text[at - 1] == '"' || isIdentifierChar(text[at - 1]))) ||
          (after < text.size() && isIdentifierChar(text[after])))
        continue;
      const size_t lineStart = text.rfind('\n', at) + 1; // npos + 1 == 0
      if (text.slice(lineStart, at).contains("//"))
        continue;
      // Its operand and result types end with the line that closes outs(...).
      const size_t outs = text.find("outs(", after);
      if (outs == llvm::StringRef::npos)
        continue;
      const size_t close = skipParentheses(text, outs + 4);
      const size_t end = std::min(text.find('\n', close), text.size());
      bool complex = false, real = false;
      llvm::StringRef other;
      for (llvm::StringRef type : elementTypesIn(text.slice(after, end))) {
        const ElementKind kind = classifyElement(type);
        complex |= kind == ElementKind::Complex;
        real |= kind == ElementKind::Float || kind == ElementKind::Integer;
        if (kind == ElementKind::Other && other.empty())
          other = type;
      }
      if (other.empty() && !(complex && real))
        continue;
      std::string what = other.empty() ? std::string("complex and real")
                                       : ("'" + other + "'").str();
      sourceMgr.PrintMessage(llvm::SMLoc::getFromPointer(text.data() + at), llvm::SourceMgr::DK_Error,
                             "'" + op + "' on " + what + " elements: MLIR 22's parser crashes " +
                                 "on this op when it cannot build the op's body; its elements " +
                                 "must be all integer or float, or all complex");
      clean = false;
    }
  }
  return success(reportDuplicateBlockLabels(sourceMgr, text) && clean);
}

//===----------------------------------------------------------------------===//
// Unlocated errors
//===----------------------------------------------------------------------===//

/// No place in the input: an unknown location, or the line 0 that the parser
/// gives the implicit top-level module (the transform interpreter reports there).
static bool isUnlocated(Location loc) {
  if (isa<UnknownLoc>(loc))
    return true;
  auto fileLoc = dyn_cast<FileLineColLoc>(loc);
  return fileLoc && fileLoc.getLine() == 0;
}

void mips::locateUnlocatedErrors(MLIRContext &context, llvm::StringRef displayName) {
  context.getDiagEngine().registerHandler(
      [&context, name = displayName.str()](Diagnostic &diag) -> LogicalResult {
        if (diag.getSeverity() != DiagnosticSeverity::Error || !isUnlocated(diag.getLocation()))
          return failure();
        InFlightDiagnostic located =
            emitError(FileLineColLoc::get(&context, name, 1, 1), diag.str());
        // linalg's named ops build their bodies while parsing; on ui8/si8 operands
        // those bodies fail to verify with no location at all.
        if (llvm::StringRef(diag.str()).contains("must be signless"))
          located << " (the mips tools lower signless integers only: convert unsigned or "
                  << "signed-qualified operands such as ui8 to i8 or i32 first)";
        return success();
      });
}

//===----------------------------------------------------------------------===//
// Crashes
//===----------------------------------------------------------------------===//

int mips::runRecoveringCrashes(llvm::StringRef tool, llvm::StringRef displayName,
                               llvm::function_ref<int()> body) {
  llvm::CrashRecoveryContext::Enable();
  llvm::CrashRecoveryContext recovery;
  int status = 1;
  if (recovery.RunSafely([&] { status = body(); }))
    return status;
  // The stack is gone: remove partial outputs and leave without running destructors.
  llvm::sys::RunInterruptHandlers();
  llvm::errs() << displayName << ": error: " << tool
               << " crashed on this input; this is a bug in " << tool
               << " or in MLIR, please report it with the input\n";
  llvm::errs().flush();
  std::_Exit(1);
}
