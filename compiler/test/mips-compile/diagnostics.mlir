// Input mips-compile cannot compile gets one located error line and exit status 1, and
// no output file. MLIR's debugging flags work.
// RUN: rm -f %t.o
// RUN: not mips-compile %S/Inputs/torch-dialect.mlir -o %t.o 2>&1 | FileCheck %s --check-prefix=TORCH
// RUN: not mips-compile %S/Inputs/stablehlo-generic.mlir -o %t.o 2>&1 | FileCheck %s --check-prefix=SHLO
// RUN: not mips-compile %S/Inputs/torch-type.mlir -o %t.o 2>&1 | FileCheck %s --check-prefix=TORCH-TYPE
// RUN: printf '' > %t.empty.mlir
// RUN: not mips-compile %t.empty.mlir -o %t.o 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: printf '\177ELF\002\001\001' > %t.binary.mlir
// RUN: not mips-compile %t.binary.mlir -o %t.o 2>&1 | FileCheck %s --check-prefix=BINARY
// RUN: not mips-compile %S/Inputs/reserved-names.mlir -o %t.o 2>&1 | FileCheck %s --check-prefix=RESERVED
// RUN: sed 's/@memrefCopy/@mipsrt_bind/' %S/Inputs/reserved-names.mlir > %t.bind.mlir
// RUN: not mips-compile %t.bind.mlir -o %t.o 2>&1 | FileCheck %s --check-prefix=BIND
// RUN: sed 's/@memrefCopy/@mips_abi_version/' %S/Inputs/reserved-names.mlir > %t.abi.mlir
// RUN: not mips-compile %t.abi.mlir -o %t.o 2>&1 | FileCheck %s --check-prefix=ABI
// RUN: not mips-compile %S/Inputs/unsigned-matmul.mlir -o %t.o 2>&1 | FileCheck %s --check-prefix=UNSIGNED
// RUN: not test -e %t.o
// RUN: mips-compile %S/Inputs/model.mlir -o %t.timed.o --mlir-timing 2>&1 | FileCheck %s --check-prefix=TIMING
// RUN: mips-compile %S/Inputs/model.mlir -o %t.dumped.o --mlir-print-ir-after-all 2>&1 | FileCheck %s --check-prefix=DUMP

// TORCH: torch-dialect.mlir:2:8: error: 'torch' operations are not something mips-compile compiles; it accepts {{.*}}linalg, tosa{{.*}}: lower the model to linalg or TOSA first
// TORCH-NOT: Available dialects
// TORCH-NOT: allowUnregisteredDialects
// TORCH-TYPE: torch-type.mlir:2:{{[0-9]+}}: error: 'torch' types are not something mips-compile compiles; it accepts {{.*}}: lower the model to linalg or TOSA first
// TORCH-TYPE-NOT: allowUnregisteredDialects
// TORCH-TYPE-NOT: error:
// SHLO: stablehlo-generic.mlir:2:23: error: 'stablehlo' operations are not something mips-compile compiles
// SHLO-NOT: -allow-unregistered-dialect
// EMPTY: empty.mlir:1:1: error: the input is empty; expected an MLIR module
// BINARY: binary.mlir:1:1: error: the input is not MLIR text (binary byte 0x2 at offset 4); mips-compile reads .mlir source
// BINARY-NOT: ELF
// RESERVED: reserved-names.mlir:1:1: error: @memrefCopy collides with a name the mips runtime or libmips defines
// RESERVED-NOT: see current operation
// BIND: bind.mlir:1:1: error: @mipsrt_bind collides with a name
// ABI: abi.mlir:1:1: error: @mips_abi_version collides with a name
// UNSIGNED: unsigned-matmul.mlir:1:1: error: {{.*}}must be signless{{.*}} (the mips tools lower signless integers only
// UNSIGNED-NOT: <unknown>
// TIMING: Execution time report
// DUMP: IR Dump After
