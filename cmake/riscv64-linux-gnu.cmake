# SPDX-License-Identifier: Apache-2.0
# Cross-build for riscv64 Linux with clang-22 + lld against Debian's cross sysroot
# (gcc-riscv64-linux-gnu, libc6-dev-riscv64-cross); tests run under qemu-riscv64.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR riscv64)

set(MIPS_RISCV64_TRIPLE riscv64-linux-gnu)
set(MIPS_RISCV64_SYSROOT /usr/riscv64-linux-gnu)

find_program(MIPS_CLANG NAMES clang-22 HINTS /usr/lib/llvm-22/bin REQUIRED)
set(CMAKE_C_COMPILER ${MIPS_CLANG})
set(CMAKE_C_COMPILER_TARGET ${MIPS_RISCV64_TRIPLE})
set(CMAKE_CXX_COMPILER_TARGET ${MIPS_RISCV64_TRIPLE})
# The library's baseline is rv64gc; only the RVV kernels are built for +v.
set(CMAKE_C_FLAGS_INIT "-march=rv64gc -mabi=lp64d")
foreach(kind EXE SHARED MODULE)
  set(CMAKE_${kind}_LINKER_FLAGS_INIT "-fuse-ld=lld")
endforeach()

set(CMAKE_FIND_ROOT_PATH ${MIPS_RISCV64_SYSROOT})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
# Packages (e.g. an installed mips) may live in any prefix the user names.
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)

find_program(MIPS_QEMU_RISCV64 NAMES qemu-riscv64 REQUIRED)
# Default CPU for plain runs; the tests add their own per-VLEN variants.
set(CMAKE_CROSSCOMPILING_EMULATOR
    ${MIPS_QEMU_RISCV64} -L ${MIPS_RISCV64_SYSROOT} -cpu rv64,v=true,vext_spec=v1.0,vlen=256)
