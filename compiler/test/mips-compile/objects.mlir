// The default object carries the import table and no libmips reference; the
// static-embedding object calls libmips directly. Both define the C wrapper.
// RUN: mips-compile %S/Inputs/model.mlir -o %t.dyn.o
// RUN: llvm-nm %t.dyn.o | FileCheck %s --check-prefixes=CHECK,DYNAMIC
// Forbidden symbols are grepped for over the whole listing: FileCheck's -NOT lines and
// --implicit-check-not do not look between the matches of a -DAG group.
// RUN: llvm-nm %t.dyn.o | not grep mips_matmul
// RUN: mips-compile %S/Inputs/model.mlir --static-embedding -o %t.static.o
// RUN: llvm-nm %t.static.o | FileCheck %s --check-prefixes=CHECK,STATIC
// RUN: llvm-nm %t.static.o | not grep dynamic_import_table
// RUN: mips-compile %S/Inputs/model.mlir --target=riscv64 -o %t.rv.o
// RUN: llvm-readelf -h -A %t.rv.o | FileCheck %s --check-prefix=RISCV
// RUN: mips-compile %S/Inputs/model.mlir --target=riscv64 --mattr=+zba -o %t.zba.o
// RUN: llvm-readelf -A %t.zba.o | FileCheck %s --check-prefix=MATTR
// RUN: llvm-nm %t.rv.o | FileCheck %s --check-prefixes=CHECK,DYNAMIC
// RUN: llvm-nm %t.rv.o | not grep mips_matmul

// CHECK-DAG:    T _mlir_ciface_matmul
// CHECK-DAG:    T _mlir_ciface_scale
// CHECK-DAG:    W mipsrt_bind
// CHECK-DAG:    W mipsrt_kernel_name
// CHECK-DAG:    W memrefCopy
// CHECK-DAG:    W __mips_rt_v1_0_common_call_failed
// DYNAMIC-DAG:  V __mips_rt_v1_0_dynamic2_import_table
// DYNAMIC-DAG:  U dlopen
// STATIC-DAG:   U mips_matmul_f32
// STATIC-DAG:   U mips_status_string

// RISCV:        Machine: RISC-V
// RISCV:        Flags: {{.*}}RVC, double-float ABI
// RISCV:        Value: rv64i{{[0-9p]+}}_m{{[0-9p]+}}_a{{[0-9p]+}}_f{{[0-9p]+}}_d{{[0-9p]+}}_c{{[0-9p]+}}_v1p0
// MATTR:        Value: rv64i{{.*}}_v1p0{{.*}}_zba1p0
