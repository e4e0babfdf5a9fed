// The ISA an object may use: --march and --mattr resolve as clang's -march does, so an
// object for a core without V holds no vector instruction; bad CPUs, ISAs and features
// are one clear error each, before any work.
// RUN: mips-compile %S/Inputs/model.mlir --target=riscv64 --march=rv64gc -o %t.gc.o
// RUN: llvm-readelf -A %t.gc.o | FileCheck %s --check-prefix=SCALAR-ISA
// RUN: llvm-objdump -d --mattr=+v %t.gc.o | not grep -E '\sv(setvli|setivli|le|se|fmacc)'
// RUN: mips-compile %S/Inputs/model.mlir --target=riscv64 --mattr=-v -o %t.nov.o
// RUN: llvm-readelf -A %t.nov.o | FileCheck %s --check-prefix=SCALAR-ISA
// RUN: llvm-objdump -d --mattr=+v %t.nov.o | not grep -E '\sv(setvli|setivli|le|se|fmacc)'
// The default does use V, so the greps above can fail.
// RUN: mips-compile %S/Inputs/model.mlir --target=riscv64 -o %t.v.o
// RUN: llvm-objdump -d --mattr=+v %t.v.o | grep -E '\sv(setvli|setivli|le|se)'
// RUN: mips-compile %S/Inputs/model.mlir --target=riscv64 --march=rv64gcv_zba --mcpu=sifive-x280 -o %t.zba.o
// RUN: llvm-readelf -A %t.zba.o | FileCheck %s --check-prefix=ZBA
// RUN: not mips-compile %S/Inputs/model.mlir --target=riscv64 --mattr=+bogus -o %t.o 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BOGUS --implicit-check-not=bogus
// RUN: not mips-compile %S/Inputs/model.mlir --mattr=+bogus -o %t.o 2>&1 | FileCheck %s --check-prefix=BOGUS-X86
// RUN: not mips-compile %S/Inputs/model.mlir --target=riscv64 --mcpu=nope -o %t.o 2>&1 \
// RUN:   | FileCheck %s --check-prefix=CPU --implicit-check-not=nope
// RUN: not mips-compile %S/Inputs/model.mlir --target=riscv64 --march=rv32gc -o %t.o 2>&1 | FileCheck %s --check-prefix=RV32
// RUN: not mips-compile %S/Inputs/model.mlir --march=rv64gc -o %t.o 2>&1 | FileCheck %s --check-prefix=X86-MARCH

// SCALAR-ISA: TagName: arch
// SCALAR-ISA-NOT: _v1p0
// SCALAR-ISA-NOT: zve
// SCALAR-ISA: Value: rv64i2p1_m2p0_a2p1_f2p2_d2p2_c2p0_zicsr
// ZBA: Value: rv64i2p1_m2p0_a2p1_f2p2_d2p2_c2p0_v1p0{{.*}}_zba1p0
// BOGUS: mips-compile: error: unknown riscv64 target feature '+bogus' in --mattr (write +name or -name, e.g. +zba)
// BOGUS-X86: mips-compile: error: unknown x86_64 target feature '+bogus' in --mattr
// CPU: mips-compile: error: unknown CPU 'nope' for riscv64 (--mcpu)
// RV32: mips-compile: error: --march 'rv32gc' is not a 64-bit ISA
// X86-MARCH: mips-compile: error: --march takes a RISC-V ISA string; for x86_64 use --mcpu
