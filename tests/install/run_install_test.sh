#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs a configured build into a fresh prefix and links the consumer against it
# the ways users do: pkg-config (shared), pkg-config --static (fully static binary),
# and find_package(mips) (mips::mips and mips::mips_static); then runs each. With the
# compiler built, the installed mips-compile and mips-opt must run from the prefix with
# no environment set up, and compile a model.
# mips_compile_model() must work in a consumer project, natively with the installed
# compiler and in a cross build with a host mips-compile (<compile-exe>).
# usage: run_install_test.sh <build-dir> <source-dir> native|riscv64 [with-compiler: 0|1]
#                            [compile-exe]
set -euo pipefail
build=$1 src=$2 mode=$3 with_compiler=${4:-0} compile_exe=${5:-}
consumer=$src/tests/install/consumer
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix

case $mode in
  native)
    cc=(cc) cc_static=(cc -static) run=() cmake_toolchain=()
    expect_kernel=scalar; [ "$(uname -m)" = x86_64 ] && expect_kernel=x86
    export PKG_CONFIG_PATH="" ;;
  riscv64)
    cc=(clang-22 --target=riscv64-linux-gnu -fuse-ld=lld)
    cc_static=("${cc[@]}" -static --sysroot=/usr/riscv64-linux-gnu
               --gcc-install-dir=/usr/lib/gcc-cross/riscv64-linux-gnu/12/)
    run=(qemu-riscv64 -L /usr/riscv64-linux-gnu -cpu rv64,v=true,vext_spec=v1.0,vlen=128)
    expect_kernel=rvv
    cmake_toolchain=(-DCMAKE_TOOLCHAIN_FILE="$src/cmake/riscv64-linux-gnu.cmake") ;;
  *) echo "unknown mode $mode" >&2; exit 2 ;;
esac

step() { echo "== $*"; }
fail() { echo "FAIL: $*" >&2; exit 1; }
check_run() { # <binary> <must-be-static: yes|no>
  local bin=$1 static=$2 needed out
  needed=$(readelf -d "$bin" | grep NEEDED || true)
  if [ "$static" = yes ]; then
    echo "$needed" | grep -q 'libmips' && fail "$bin is meant to be static but needs libmips.so"
  else
    echo "$needed" | grep -q 'libmips.so.1' || fail "$bin does not need libmips.so.1"
  fi
  out=$("${run[@]}" "$bin") || fail "$bin exited with status $?"
  echo "$out"
  echo "$out" | grep -q "kernel: $expect_kernel," || fail "$bin did not run the $expect_kernel kernel"
}

step "cmake --install into $prefix"
cmake --install "$build" --prefix "$prefix" >/dev/null
pc=$(find "$prefix" -name mips.pc)
[ -n "$pc" ] || fail "mips.pc not installed"
for f in include/mips/mips.h; do [ -f "$prefix/$f" ] || fail "$f not installed"; done
libdir=$(dirname "$(dirname "$pc")")
for f in libmips.so libmips.so.1 libmips.a; do [ -e "$libdir/$f" ] || fail "$libdir/$f not installed"; done
[ -f "$libdir/cmake/mips/mipsConfig.cmake" ] || fail "CMake package not installed"
export PKG_CONFIG_LIBDIR=$(dirname "$pc")

step "pkg-config"
[ "$(pkg-config --modversion mips)" = "$(grep -oP '^Version: \K.*' "$pc")" ] || fail "bad modversion"
read -r -a flags <<<"$(pkg-config --cflags --libs mips)"
read -r -a static_flags <<<"$(pkg-config --static --cflags --libs mips)"

step "shared link via pkg-config"
"${cc[@]}" "$consumer/consumer.c" "${flags[@]}" -Wl,-rpath,"$libdir" -o "$work/pc_shared"
check_run "$work/pc_shared" no

step "static link via pkg-config --static"
"${cc_static[@]}" "$consumer/consumer.c" "${static_flags[@]}" -o "$work/pc_static"
check_run "$work/pc_static" yes

step "find_package(mips 1.0)"
cmake -S "$consumer" -B "$work/cmake" -G Ninja "${cmake_toolchain[@]}" \
  -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$work/cmake" >/dev/null
check_run "$work/cmake/consumer_shared" no
check_run "$work/cmake/consumer_static" yes

step "find_package(mips 2.0) is refused (SameMajorVersion)"
if cmake -S "$consumer" -B "$work/cmake2" -G Ninja "${cmake_toolchain[@]}" \
     -DCMAKE_PREFIX_PATH="$prefix" -DMIPS_REQUIRED_VERSION=2.0 >/dev/null 2>&1; then
  fail "find_package(mips 2.0) accepted a 1.x install"
fi

if [ "$with_compiler" = 1 ]; then
  step "the installed compiler runs without any environment"
  for tool in mips-compile mips-opt; do
    [ -x "$prefix/bin/$tool" ] || fail "bin/$tool not installed"
    out=$(env -i "$prefix/bin/$tool" --version) || fail "installed $tool --version exited with $?"
    echo "$out" | grep -q "^$tool [0-9]" || fail "$tool --version does not name the tool: $out"
  done
  env -i "$prefix/bin/mips-compile" "$src/examples/model/mlp.mlir" -o "$work/mlp.o" ||
    fail "installed mips-compile cannot compile examples/model/mlp.mlir"
  readelf -h "$work/mlp.o" | grep -q 'REL (Relocatable file)' || fail "mlp.o is not an object"
  for target in x86_64 riscv64; do
    [ -f "$prefix/share/mips/libmips-$target.bc" ] || fail "share/mips/libmips-$target.bc not installed"
    env -i "$prefix/bin/mips-compile" "$src/examples/model/mlp.mlir" --target=$target \
      --embed-libmips -o "$work/mlp_embedded_$target.o" ||
      fail "installed mips-compile --embed-libmips --target=$target failed"
  done
  if [ "$mode" = native ]; then
    step "the installed mips-run runs a model with the prefix's libmips"
    out=$(cd "$work" && env -i PATH=/usr/bin:/bin "$prefix/bin/mips-run" "$src/examples/model/mlp.mlir" \
          --input=2x16xf32=0.5 --input=16x32xf32=0.25 --input=32xf32=-1 --input=32x4xf32=0.5 \
          --input=4xf32=1 --expected_output=2x4xf32=17 2>&1) || fail "installed mips-run failed: $out"
    echo "$out"
    echo "$out" | grep -q "matches the expected output" || fail "installed mips-run: wrong result"
  fi
fi

if [ "$with_compiler" = 1 ] || [ -n "$compile_exe" ]; then
  step "mips_compile_model() in a consumer project"
  extra=()
  if [ "$with_compiler" != 1 ]; then extra=(-DMIPS_COMPILE_EXECUTABLE="$compile_exe"); fi
  cmake -S "$src/tests/install/consumer_model" -B "$work/model" -G Ninja "${cmake_toolchain[@]}" \
    -DCMAKE_PREFIX_PATH="$prefix" -DMIPS_MODEL_DIR="$src/examples/model" "${extra[@]}" >/dev/null
  cmake --build "$work/model" >/dev/null
  for exe in model_dynamic model_static_embedding; do
    out=$(LD_LIBRARY_PATH="$libdir" "${run[@]}" "$work/model/$exe") || fail "$exe exited with status $?"
    echo "$out"
    echo "$out" | grep -q "result matches the C reference" || fail "$exe computed a wrong result"
  done
fi

step "the installed tree is relocatable"
mv "$prefix" "$work/moved"
moved_pc=$work/moved/${pc#"$prefix"/}
PKG_CONFIG_LIBDIR=$(dirname "$moved_pc") pkg-config --variable=includedir mips | grep -q "^$work/moved/" ||
  fail "mips.pc does not follow a moved prefix"
[ -f "$(PKG_CONFIG_LIBDIR=$(dirname "$moved_pc") pkg-config --variable=includedir mips)/mips/mips.h" ] ||
  fail "moved includedir has no mips/mips.h"

if [ -e "$build/blas/libmips-blas.so.1" ]; then
  [ -e "$work/moved/${libdir#"$prefix"/}/libmips-blas.so.1" ] || fail "libmips-blas.so.1 not installed"
fi
python_dir=$work/moved/lib/python3/dist-packages
[ -f "$python_dir/mips/__init__.py" ] || fail "the Python module is not in lib/python3/dist-packages"
if [ "$mode" = native ]; then
  step "the installed Python module finds the moved prefix's libmips, with no environment"
  out=$(env -i PYTHONPATH="$python_dir" /usr/bin/python3 -c '
import mips, numpy as np
a = np.arange(6, dtype=np.float32).reshape(2, 3)
print(mips._lib._name, mips.version(), mips.matmul(a, a.T).tolist())') ||
    fail "import mips from the installed prefix failed"
  echo "$out"
  echo "$out" | grep -q "^$work/moved/.*libmips.so.1 " || fail "mips loaded a libmips outside the prefix"
  echo "$out" | grep -qF "[[5.0, 14.0], [14.0, 50.0]]" || fail "mips.matmul from the prefix is wrong"
  if [ -e "$build/blas/libmips-blas.so.1" ]; then
    step "the installed libmips-blas finds its libmips when preloaded"
    out=$(env -i MIPS_VERBOSE=1 LD_PRELOAD="$work/moved/${libdir#"$prefix"/}/libmips-blas.so.1" \
          /usr/bin/python3 -c 'import numpy as np; a = np.ones((64, 64), np.float32); a @ a' 2>&1) ||
      fail "numpy with the installed libmips-blas preloaded failed: $out"
    echo "$out"
    echo "$out" | grep -qE "libmips-blas: [1-9][0-9]* sgemm calls ran in libmips" ||
      fail "numpy's product did not reach the installed libmips-blas"
  fi
fi

echo "install test ($mode) passed"
