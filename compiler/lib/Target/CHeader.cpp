// SPDX-License-Identifier: Apache-2.0
//===- CHeader.cpp - the C header for generated objects ---------*- C++ -*-===//
//
// Declares, for C callers, the _mlir_ciface_ wrapper of each public function
// (memref descriptors by pointer, a memref result through a leading pointer)
// and the mips runtime API that every generated object carries.
//
//===----------------------------------------------------------------------===//

#include "mips-compiler/Target/Target.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;

namespace {

bool isCIdentifier(llvm::StringRef name) {
  if (name.empty() || llvm::isDigit(name.front()))
    return false;
  return llvm::all_of(name, [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

/// The C spelling of a scalar element type, or failure.
FailureOr<std::string> scalarCType(Type type) {
  if (type.isF32())
    return std::string("float");
  if (type.isF64())
    return std::string("double");
  if (type.isIndex())
    return std::string("int64_t");
  if (auto integer = dyn_cast<IntegerType>(type)) {
    unsigned width = integer.getWidth();
    if (width == 8 || width == 16 || width == 32 || width == 64)
      return (integer.isUnsigned() ? "uint" : "int") + std::to_string(width) + "_t";
  }
  return failure();
}

/// A memref descriptor struct for one element type and rank.
struct Descriptor {
  std::string name;        // e.g. mips_memref_f32_2d
  std::string elementType; // e.g. float
  int64_t rank;

  bool operator==(const Descriptor &other) const { return name == other.name; }
};

FailureOr<Descriptor> descriptorFor(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped || !shaped.hasRank() ||
      !(isa<RankedTensorType>(type) || isa<MemRefType>(type)))
    return failure();
  FailureOr<std::string> element = scalarCType(shaped.getElementType());
  if (failed(element))
    return failure();
  std::string elementName;
  llvm::raw_string_ostream(elementName) << shaped.getElementType();
  return Descriptor{"mips_memref_" + elementName + "_" +
                        std::to_string(shaped.getRank()) + "d",
                    *element, shaped.getRank()};
}

void printDescriptor(const Descriptor &d, llvm::raw_ostream &os) {
  std::string macro = llvm::StringRef(d.name).upper() + "_DEFINED";
  os << "#ifndef " << macro << "\n#define " << macro << "\n"
     << "typedef struct " << d.name << " {\n"
     << "  " << d.elementType << " *allocated; /* the pointer to free() */\n"
     << "  " << d.elementType << " *aligned;   /* the data */\n"
     << "  int64_t offset;              /* in elements, from aligned */\n";
  if (d.rank > 0)
    os << "  int64_t sizes[" << d.rank << "];\n"
       << "  int64_t strides[" << d.rank << "];            /* in elements */\n";
  os << "} " << d.name << ";\n#endif\n\n";
}

constexpr llvm::StringLiteral kRuntimeApi = R"(#ifndef MIPSRT_API_DEFINED
#define MIPSRT_API_DEFINED
/* The mips runtime inside every object mips-compile emits.
 *
 * Default mode: calls into libmips go through an import table that is filled on
 * first use, or by mipsrt_bind(), with dlopen("libmips.so.1") or the library
 * named by MIPS_KERNEL_LIBRARY, whose mips_abi_version() must have the major
 * this object was compiled for and no smaller minor. If that fails on first
 * use, the program prints one line naming the library, the symbol or the
 * versions, and exits with status 127.
 * --static-embedding: calls go straight to the linked libmips.
 * --embed-libmips: libmips is inside the object; mipsrt_bind() always succeeds.
 *
 * A libmips call that returns an error status is reported on stderr with the
 * status text, and the program aborts. */
#define MIPSRT_OK 0
#define MIPSRT_ERROR_LOAD (-1)   /* the kernel library cannot be loaded */
#define MIPSRT_ERROR_SYMBOL (-2) /* it lacks a libmips function */
#define MIPSRT_ERROR_ABI (-3)    /* its ABI major differs, or its minor is older */

/* Binds the kernel library now (once; later calls return the same status).
   Returns MIPSRT_OK or a MIPSRT_ERROR_* code, and never exits. */
int mipsrt_bind(void);
/* Why mipsrt_bind() failed; "" after success. */
const char *mipsrt_error_message(void);
/* The kernel library's mips_kernel_name() and mips_version_string(). */
const char *mipsrt_kernel_name(void);
const char *mipsrt_library_version(void);
#endif
)";

} // namespace

LogicalResult mips::emitCHeader(ModuleOp module, llvm::StringRef guard,
                                llvm::StringRef sourceName, llvm::StringRef linkage,
                                llvm::raw_ostream &os) {
  llvm::SmallVector<Descriptor> descriptors;
  std::string declarations;
  llvm::raw_string_ostream decls(declarations);

  for (auto func : module.getOps<func::FuncOp>()) {
    if (!func.isPublic() || func.isExternal())
      continue;
    if (!isCIdentifier(func.getName()))
      return func.emitError("@\"")
             << func.getName() << "\" is not a C identifier, so the C header "
             << "cannot declare its wrapper; rename the function";
    FunctionType type = func.getFunctionType();
    if (type.getNumResults() > 1)
      return func.emitError("the C header supports at most one result, @")
             << func.getName() << " has " << type.getNumResults();

    std::string returnType = "void";
    llvm::SmallVector<std::string> params;
    auto describe = [&](Type t, llvm::StringRef role) -> FailureOr<std::string> {
      if (FailureOr<Descriptor> d = descriptorFor(t); succeeded(d)) {
        if (!llvm::is_contained(descriptors, *d))
          descriptors.push_back(*d);
        return d->name + " *";
      }
      if (FailureOr<std::string> scalar = scalarCType(t); succeeded(scalar))
        return *scalar + " ";
      return func.emitError("cannot express the type of ")
             << role << " of @" << func.getName() << " in C: " << t;
    };
    if (type.getNumResults() == 1) {
      FailureOr<std::string> result = describe(type.getResult(0), "the result");
      if (failed(result))
        return failure();
      if (llvm::StringRef(*result).ends_with("*"))
        params.push_back(*result + "result");
      else
        returnType = llvm::StringRef(*result).rtrim().str();
    }
    for (auto [index, input] : llvm::enumerate(type.getInputs())) {
      FailureOr<std::string> param =
          describe(input, "argument " + std::to_string(index));
      if (failed(param))
        return failure();
      params.push_back(*param + "arg" + std::to_string(index));
    }

    decls << "/* @" << func.getName() << " : " << type << " */\n";
    if (type.getNumResults() == 1 && isa<ShapedType>(type.getResult(0)))
      decls << "/* The result is a new buffer unless it is one of the arguments: "
               "free(result->allocated)\n   when done. */\n";
    decls << returnType << " _mlir_ciface_" << func.getName() << "("
          << (params.empty() ? "void" : llvm::join(params, ", ")) << ");\n\n";
  }

  os << "/* Generated by mips-compile from " << sourceName << ". Do not edit.\n"
     << " * libmips linkage: " << linkage << ".\n"
     << " * Shaped arguments are memref descriptors: element (i, j) of a 2-D argument is\n"
     << " * aligned[offset + i*strides[0] + j*strides[1]], so any strided view (a slice, a\n"
     << " * transpose, padded rows) passes without a copy. They are only read. */\n"
     << "#ifndef " << guard << "\n#define " << guard << "\n\n"
     << "#include <stdint.h>\n\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n";
  for (const Descriptor &d : descriptors)
    printDescriptor(d, os);
  os << declarations << kRuntimeApi
     << "\n#ifdef __cplusplus\n} /* extern \"C\" */\n#endif\n\n#endif /* " << guard
     << " */\n";
  return success();
}
