// RUN: mips-compile %S/Inputs/model.mlir --target=riscv64 --emit=llvm -o - | FileCheck %s
// RUN: mips-compile %S/Inputs/model.mlir --emit=asm -o - | FileCheck %s --check-prefix=ASM
// RUN: mips-compile %S/Inputs/model.mlir --emit=mlir -o - | FileCheck %s --check-prefix=MLIR

// CHECK:        target triple = "riscv64-unknown-linux-gnu"
// CHECK:        define {{.*}} @matmul(
// CHECK:        call void @__mips_rt_v1_0_dynamic2_ensure_imports()
// CHECK:        load ptr, ptr getelementptr {{.*}}@__mips_rt_v1_0_dynamic2_import_table
// CHECK:        define {{.*}}void @_mlir_ciface_matmul(
// The runtime bitcode is linked in: the resolver dlopens the provider.
// CHECK:        define weak hidden void @__mips_rt_v1_0_dynamic2_resolve()
// CHECK:        call ptr @dlopen(

// ASM:          _mlir_ciface_matmul:
// MLIR:         llvm.func @_mlir_ciface_matmul
