#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Every test: host build (CMocka unit tests, ABI, install, lit, the compiler fuzzer, the
# harness-catches-bugs check, the differential tester and its planted miscompiles, the
# setuid loader check, mips-run, the Python module's pytest suite, libmips-blas under the
# reference BLAS testers, numpy and ScaLAPACK on 4 MPI ranks, the end-to-end suite in
# all three linkages), host build under AddressSanitizer + UBSan (unit tests,
# the C API fuzzers), the riscv64 cross build run under qemu at VLEN 128..1024, with
# agnostic-ones policies and without V (unit, the seeded C API fuzzer, ABI, install, the
# differential tester at VLEN 128, 1024 and 256 with agnostic ones),
# and the riscv64 unit tests again under UBSan (trap mode).
set -euo pipefail
source "$(dirname "$0")/common.sh"
"$MIPS_ROOT/scripts/install-deps.sh"

jobs=$(nproc)
total_passed=0 total_failed=0 failed_suites=()

# run_suite <build name> [ctest args...]
run_suite() {
  local name=$1 log
  shift
  log=$(mktemp)
  echo "=== ctest: $name ==="
  if ctest --test-dir "$MIPS_BUILD/$name" --output-on-failure -j "$jobs" "$@" | tee "$log"; then :; else
    failed_suites+=("$name")
  fi
  local line passed_pct failed total
  line=$(grep -E 'tests passed, [0-9]+ tests? failed out of [0-9]+' "$log" | tail -n1 || true)
  if [ -z "$line" ]; then
    failed_suites+=("$name (no summary)")
  else
    failed=$(sed -E 's/.* ([0-9]+) tests? failed out of ([0-9]+).*/\1/' <<<"$line")
    total=$(sed -E 's/.* ([0-9]+) tests? failed out of ([0-9]+).*/\2/' <<<"$line")
    total_passed=$((total_passed + total - failed))
    total_failed=$((total_failed + failed))
  fi
  rm -f "$log"
}

mips_configure_build host
run_suite host

# The same build carries libFuzzer's coverage, for the C API fuzzer (tests/fuzz/).
mips_configure_build host-sanitizers -DCMAKE_C_COMPILER=clang-22 -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS_DEBUG="-g -O1" \
  -DCMAKE_C_FLAGS="-fsanitize=address,undefined,fuzzer-no-link -fno-sanitize-recover=all -fno-omit-frame-pointer" \
  -DMIPS_LINK_NO_UNDEFINED=OFF -DMIPS_BUILD_COMPILER=OFF -DMIPS_BUILD_EXAMPLES=OFF \
  -DMIPS_BUILD_BENCH=OFF -DMIPS_BUILD_FUZZERS=ON -DMIPS_THREADING=pthreads
run_suite host-sanitizers -L "^(unit|fuzz)$"

# ThreadSanitizer, under each threading backend: user threads calling at once while
# libmips runs its own. Archer tells TSan what OpenMP synchronizes; tests/tsan.supp says why
# libomp's own internals are left out. Forked children start new threads (die_after_fork=0).
for backend in pthreads openmp; do
  mips_configure_build "host-tsan-$backend" -DCMAKE_C_COMPILER=clang-22 \
    -DCMAKE_C_FLAGS="-fsanitize=thread" -DMIPS_THREADING="$backend" -DMIPS_LINK_NO_UNDEFINED=OFF \
    -DMIPS_BUILD_COMPILER=OFF -DMIPS_BUILD_EXAMPLES=OFF -DMIPS_BUILD_BENCH=OFF
  TSAN_OPTIONS="halt_on_error=1 die_after_fork=0 suppressions=$MIPS_ROOT/tests/tsan.supp" \
    OMP_TOOL_LIBRARIES=/usr/lib/llvm-22/lib/libarcher.so \
    run_suite "host-tsan-$backend" -R '^test_(parallel|parallel_for|threads)\.'
done

mips_configure_build riscv64 -DCMAKE_TOOLCHAIN_FILE="$MIPS_ROOT/cmake/riscv64-linux-gnu.cmake" \
  -DMIPS_COMPILE_EXECUTABLE="$MIPS_BUILD/host/compiler/bin/mips-compile"
run_suite riscv64

# UBSan in trap mode needs no runtime, so the RVV kernels run under it too.
mips_configure_build riscv64-sanitizers -DCMAKE_TOOLCHAIN_FILE="$MIPS_ROOT/cmake/riscv64-linux-gnu.cmake" \
  -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS="-march=rv64gc -mabi=lp64d -fsanitize=undefined -fsanitize-trap=all" \
  -DMIPS_BUILD_COMPILER=OFF -DMIPS_BUILD_EXAMPLES=OFF
run_suite riscv64-sanitizers -L "^(vlen128|vlen1024|novector)$" -LE fuzz

echo
if [ ${#failed_suites[@]} -gt 0 ]; then
  echo "failing suites: ${failed_suites[*]}"
fi
echo "all suites: $total_passed passed, $total_failed failed"
[ ${#failed_suites[@]} -eq 0 ] && [ "$total_failed" -eq 0 ]
