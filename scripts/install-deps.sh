#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs the Debian (bookworm) packages the build and tests need, skipping what is
# already installed; --bench adds what mips-bench compares with and plots with.
# usage: scripts/install-deps.sh [--bench]
set -euo pipefail

packages=(
  # build
  cmake ninja-build pkg-config gcc libc6-dev binutils
  # riscv64 cross toolchain (clang for RVV intrinsics, GCC's sysroot and crt files) and qemu
  clang-22 lld-22 gcc-riscv64-linux-gnu libc6-dev-riscv64-cross qemu-user
  # tests: CMocka, sanitizer runtimes, ABI checks
  libcmocka-dev libclang-rt-22-dev abigail-tools
  # the OpenMP runtime clang uses (host builds with clang: ThreadSanitizer runs)
  libomp-22-dev
  # the mips compiler: LLVM/MLIR 22, mlir-tblgen, lit and FileCheck
  llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools
  # the Python module's tests; libmips-blas under the reference BLAS testers, numpy and
  # ScaLAPACK on MPI
  python3-numpy python3-pytest libblas-test libscalapack-openmpi-dev libopenmpi-dev openmpi-bin
)
if [ "${1:-}" = "--bench" ]; then
  packages+=(libopenblas0-serial libdnnl2 gnuplot-nox)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

sudo=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "install-deps: need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
  sudo=(sudo)
fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -q
"${sudo[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
