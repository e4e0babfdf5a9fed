// --embed-libmips: libmips's bitcode is linked in and internalized, so the object has
// no undefined libmips symbol, no dlopen, and exports only the model and mipsrt_*.
// RUN: mips-compile %S/Inputs/model.mlir --embed-libmips -o %t.x86.o --emit-header=%t.h
// RUN: llvm-nm %t.x86.o | FileCheck %s
// RUN: llvm-nm -u %t.x86.o | not grep -E 'mips_|dlopen|dlsym'
// RUN: llvm-nm --defined-only -g %t.x86.o | not grep -E ' mips_|__mips_bitcode'
// RUN: FileCheck %s --check-prefix=HEADER < %t.h
// RUN: mips-compile %S/Inputs/model.mlir --embed-libmips --target=riscv64 -o %t.rv.o
// RUN: llvm-nm %t.rv.o | FileCheck %s
// RUN: llvm-nm -u %t.rv.o | not grep -E 'mips_|dlopen|dlsym'
// RUN: mips-compile --version | FileCheck %s --check-prefix=VERSION

// CHECK-DAG: T _mlir_ciface_matmul
// CHECK-DAG: W mipsrt_bind
// HEADER: libmips linkage: libmips embedded (--embed-libmips): link with nothing else
// VERSION: --embed-libmips (libmips inside the object), whose bitcode is:
// VERSION-NEXT: x86_64: {{.*}}share/mips/libmips-x86_64.bc{{$}}
// VERSION-NEXT: riscv64: {{.*}}share/mips/libmips-riscv64.bc{{$}}

// Bad bitcode: one line naming the file and what was expected, exit 1, no object.
// RUN: rm -f %t.bad.o
// RUN: not mips-compile %S/Inputs/model.mlir --embed-libmips --libmips-bitcode=%t.missing.bc -o %t.bad.o 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not mips-compile %S/Inputs/model.mlir --embed-libmips --libmips-bitcode=%S/Inputs/model.mlir -o %t.bad.o 2>&1 | FileCheck %s --check-prefix=NOT-BITCODE
// RUN: mips-compile --version | sed -n 's/^ *x86_64: //p' > %t.x86-path
// RUN: not mips-compile %S/Inputs/model.mlir --embed-libmips --target=riscv64 --libmips-bitcode=$(cat %t.x86-path) -o %t.bad.o 2>&1 | FileCheck %s --check-prefix=WRONG-ARCH
// RUN: printf 'target triple = "x86_64-unknown-linux-gnu"\n@other = constant i32 1\n' | llvm-as -o %t.foreign.bc
// RUN: not mips-compile %S/Inputs/model.mlir --embed-libmips --libmips-bitcode=%t.foreign.bc -o %t.bad.o 2>&1 | FileCheck %s --check-prefix=FOREIGN
// RUN: printf 'target triple = "x86_64-unknown-linux-gnu"\n@__mips_bitcode_abi_version = constant i32 65536\n' | llvm-as -o %t.old.bc
// RUN: not mips-compile %S/Inputs/model.mlir --mips-any-order --embed-libmips --libmips-bitcode=%t.old.bc -o %t.bad.o 2>&1 | FileCheck %s --check-prefix=OLD
// RUN: printf 'target triple = "x86_64-unknown-linux-gnu"\n@__mips_bitcode_abi_version = constant i32 131072\n' | llvm-as -o %t.major.bc
// RUN: not mips-compile %S/Inputs/model.mlir --embed-libmips --libmips-bitcode=%t.major.bc -o %t.bad.o 2>&1 | FileCheck %s --check-prefix=MAJOR
// RUN: not mips-compile %S/Inputs/model.mlir --embed-libmips --static-embedding -o %t.bad.o 2>&1 | FileCheck %s --check-prefix=BOTH
// RUN: not mips-compile %S/Inputs/model.mlir --libmips-bitcode=%t.old.bc -o %t.bad.o 2>&1 | FileCheck %s --check-prefix=ALONE
// RUN: not test -e %t.bad.o

// MISSING: mips-compile: error: {{.*}}missing.bc: cannot read the libmips bitcode for x86_64 (No such file or directory); build the libmips-bitcode target, or pass --libmips-bitcode=<file>
// NOT-BITCODE: mips-compile: error: {{.*}}model.mlir not LLVM bitcode
// WRONG-ARCH: mips-compile: error: {{.*}}libmips-x86_64.bc is libmips bitcode for x86_64, not for riscv64 (expected libmips-riscv64.bc)
// FOREIGN: mips-compile: error: {{.*}}foreign.bc is not libmips bitcode (it has no __mips_bitcode_abi_version)
// OLD: mips-compile: error: {{.*}}old.bc implements libmips ABI 1.0, older than the 1.2 this object's calls need
// MAJOR: mips-compile: error: {{.*}}major.bc implements libmips ABI 2.0; this mips-compile needs 1.x
// BOTH: mips-compile: error: --embed-libmips and --static-embedding are two different linkages; choose one
// ALONE: mips-compile: error: --libmips-bitcode names the bitcode --embed-libmips links; add --embed-libmips
