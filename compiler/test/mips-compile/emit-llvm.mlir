// RUN: mips-compile %S/Inputs/model.mlir --target=riscv64 --emit=llvm -o - | FileCheck %s
// RUN: mips-compile %S/Inputs/model.mlir --emit=asm -o - | FileCheck %s --check-prefix=ASM
// RUN: mips-compile %S/Inputs/model.mlir --emit=mlir -o - | FileCheck %s --check-prefix=MLIR

// CHECK:        target triple = "riscv64-unknown-linux-gnu"
// CHECK:        @mips.isa = private {{.*}} c"rv64imafdcv\00"
// CHECK:        define internal {{.*}} @matmul.mips_body(
// CHECK:        call void @__mips_rt_v1_0_dynamic2_ensure_imports()
// CHECK:        load ptr, ptr getelementptr {{.*}}@__mips_rt_v1_0_dynamic2_import_table
// CHECK:        define internal {{.*}}void @_mlir_ciface_matmul.mips_body(
// The runtime bitcode is linked in: the resolver dlopens the provider.
// CHECK:        define weak hidden void @__mips_rt_v1_0_dynamic2_resolve()
// CHECK:        call ptr @dlopen(
// Each exported function is a guard, compiled without V, that runs its body while the
// object's flag is set, and until then a cold function that checks the CPU first
// (I, M, A, F, D, C and V: bits 8, 12, 0, 5, 3, 2 and 21 of AT_HWCAP).
// CHECK:        define internal {{.*}} @matmul.mips_check_cpu({{.*}}) {{.*}}#[[FIRST:[0-9]+]] {
// CHECK-NEXT:   entry:
// CHECK-NEXT:     call void @__mips_rt_v1_0_common_check_cpu(i64 2101549, ptr nonnull @mips.isa, ptr nonnull @{{.*}}, ptr nonnull @mips.cpu_checked)
// CHECK-NEXT:     tail call {{.*}} @matmul.mips_body(
// CHECK:        define {{.*}} @matmul({{.*}}) {{.*}}#[[GUARD:[0-9]+]] {
// CHECK:          load i8, ptr @mips.cpu_checked
// CHECK:          tail call {{.*}} @matmul.mips_body(
// CHECK:          tail call {{.*}} @matmul.mips_check_cpu(
// CHECK:        define {{.*}}void @_mlir_ciface_matmul({{.*}}) {{.*}}#[[GUARD]] {
// CHECK:          tail call {{.*}}void @_mlir_ciface_matmul.mips_body(
// CHECK:        attributes #[[FIRST]] = { cold noinline "target-features"="{{[^"]*}},-v,{{[^"]*}},-zve32x,
// CHECK:        attributes #[[GUARD]] = { noinline "target-features"="{{[^"]*}},-v,{{[^"]*}},-zve32x,

// ASM:          _mlir_ciface_matmul:
// MLIR:         llvm.func @_mlir_ciface_matmul
