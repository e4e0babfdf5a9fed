// Where mips-compile writes: objects go to a pipe intact, and a compilation that
// cannot write one of its files leaves none of them behind.
// RUN: mips-compile %S/Inputs/model.mlir -o - | cat > %t.piped.o
// RUN: llvm-nm %t.piped.o | FileCheck %s --check-prefix=PIPED
// RUN: mips-compile %S/Inputs/model.mlir --target=riscv64 -o - | cat > %t.piped-rv.o
// RUN: llvm-readelf -h %t.piped-rv.o | FileCheck %s --check-prefix=PIPED-RV
// RUN: rm -f %t.orphan.o
// RUN: not mips-compile %S/Inputs/model.mlir -o %t.orphan.o \
// RUN:   --emit-header=%t.no-such-dir/model.h 2>&1 | FileCheck %s --check-prefix=NO-HEADER
// RUN: not test -e %t.orphan.o
// RUN: mips-compile --version | FileCheck %s --check-prefix=VERSION
// RUN: mips-opt --version | FileCheck %s --check-prefix=OPT-VERSION

// PIPED-DAG: T _mlir_ciface_matmul
// PIPED-DAG: T matmul
// PIPED-RV: Machine: RISC-V
// NO-HEADER: mips-compile: error: cannot open output file '{{.*}}no-such-dir/model.h'
// VERSION: mips-compile {{[0-9]+\.[0-9]+\.[0-9]+}} (mips compiler; its objects need libmips ABI 1.0 or a later 1.x, or 1.2 with --mips-any-order, --mips-pack-constant-weights or --mips-batched-calls)
// VERSION-NEXT: built with LLVM/MLIR 22.
// OPT-VERSION: mips-opt {{[0-9]+\.[0-9]+\.[0-9]+}} (mips compiler; its objects need libmips ABI
