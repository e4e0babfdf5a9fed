#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The end-to-end demo. Builds libmips (x86_64 and riscv64) and the mips compiler (only what
# it runs), then:
#  1. runs the C API example natively and under qemu (VLEN 128, 512, and no V);
#  2. compiles examples/model/mlp.mlir to a riscv64 object both ways, links it, and
#     runs it under qemu: through the dlopen import table, with --static-embedding,
#     and with another kernel provider swapped in without recompiling.
set -euo pipefail
source "$(dirname "$0")/common.sh"
"$MIPS_ROOT/scripts/install-deps.sh"

# The same build trees as scripts/test.sh, but only what the demo runs (the test tree,
# with its generated network sources, is test.sh's to build).
mips_configure host
cmake --build "$MIPS_BUILD/host" --target matmul_example mips-compile
mips_configure riscv64 -DCMAKE_TOOLCHAIN_FILE="$MIPS_ROOT/cmake/riscv64-linux-gnu.cmake" \
  -DMIPS_COMPILE_EXECUTABLE="$MIPS_BUILD/host/compiler/bin/mips-compile"
cmake --build "$MIPS_BUILD/riscv64" --target matmul_example mips mips_trace

run() { echo "\$ $*"; "$@"; }
section() { printf '\n=== %s ===\n' "$*"; }

section "1. The C API: x86_64 host"
"$MIPS_BUILD/host/examples/matmul_example"
for cpu in "$MIPS_RVV_CPU,vlen=128" "$MIPS_RVV_CPU,vlen=512" "rv64,v=false"; do
  section "1. The C API: riscv64 under qemu -cpu $cpu"
  "${MIPS_QEMU[@]}" -cpu "$cpu" "$MIPS_BUILD/riscv64/examples/matmul_example"
done

demo=$MIPS_BUILD/demo
mkdir -p "$demo"
cd "$demo"
mips_compile=$MIPS_BUILD/host/compiler/bin/mips-compile
model=$MIPS_ROOT/examples/model
libdir=$MIPS_BUILD/riscv64/libmips
cc=(clang-22 --target=riscv64-linux-gnu -fuse-ld=lld)

section "2a. Compile the MLP model for riscv64 (default: dlopen import table)"
run "$mips_compile" "$model/mlp.mlir" --target=riscv64 -o mlp.o --emit-header=mlp.h
run "${cc[@]}" -I. "$model/main.c" mlp.o -o mlp_dynamic
echo "(mlp_dynamic needs no libmips at link time; it loads libmips.so.1 when first used)"
run env LD_LIBRARY_PATH="$libdir" "${MIPS_QEMU[@]}" -cpu "$MIPS_RVV_CPU,vlen=128" ./mlp_dynamic

section "2b. The same model with --static-embedding, linked against libmips"
run "$mips_compile" "$model/mlp.mlir" --target=riscv64 --static-embedding -o mlp_static.o
run "${cc[@]}" -I. "$model/main.c" mlp_static.o -L"$libdir" -lmips -Wl,-rpath,"$libdir" -o mlp_static
run "${MIPS_QEMU[@]}" -cpu "$MIPS_RVV_CPU,vlen=512" ./mlp_static

section "2c. Another kernel provider, swapped in without recompiling"
run env LD_LIBRARY_PATH="$libdir" MIPS_KERNEL_LIBRARY="$MIPS_BUILD/riscv64/examples/libmips_trace.so" \
  "${MIPS_QEMU[@]}" -cpu "$MIPS_RVV_CPU,vlen=256" ./mlp_dynamic

section "2d. A missing provider is one clear message and exit status 127"
set +e
env MIPS_KERNEL_LIBRARY=/nonexistent/libmips.so.1 "${MIPS_QEMU[@]}" -cpu "$MIPS_RVV_CPU,vlen=128" ./mlp_dynamic
echo "exit status $?"
