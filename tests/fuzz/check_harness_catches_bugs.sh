#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Shows that each fuzz harness can fail: builds it against deliberately broken copies of
# libmips (and a broken stand-in for mips-compile) and requires every harness to report
# every break, after the unbroken copy passes. A harness that misses a break fails this.
#
# usage: check_harness_catches_bugs.sh <source root> <mips-compile or "none"> [fuzz seconds]
#   fuzz seconds: how long libFuzzer may take to find each break (default 120)
set -euo pipefail
root=$(cd "$1" && pwd)
mips_compile=$2
fuzz_seconds=${3:-120}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# A copy of the sources, so the breaks never touch the checkout.
mkdir "$work/src"
tar -C "$root" --exclude=./build --exclude=./.git -cf - . | tar -C "$work/src" -xf -
src=$work/src

common=(-G Ninja -DMIPS_BUILD_COMPILER=OFF -DMIPS_BUILD_EXAMPLES=OFF -DMIPS_BUILD_BENCH=OFF)
cmake -S "$src" -B "$work/host" "${common[@]}" -DCMAKE_C_COMPILER=clang-22 -DCMAKE_BUILD_TYPE=Debug \
  -DCMAKE_C_FLAGS_DEBUG="-g -O1" -DMIPS_LINK_NO_UNDEFINED=OFF -DMIPS_BUILD_FUZZERS=ON \
  -DCMAKE_C_FLAGS="-fsanitize=address,undefined,fuzzer-no-link -fno-sanitize-recover=all" >/dev/null
cmake -S "$src" -B "$work/riscv64" "${common[@]}" \
  -DCMAKE_TOOLCHAIN_FILE="$src/cmake/riscv64-linux-gnu.cmake" >/dev/null
qemu=(qemu-riscv64 -L /usr/riscv64-linux-gnu -cpu rv64,v=true,vext_spec=v1.0,vlen=256)

# What a harness says when it catches something (anything else is not a catch).
caught='contract broken|finding:|ERROR: AddressSanitizer|runtime error|deadly signal|SEGV|Segmentation fault'

failures=()
# expect <caught|passes> <label> <command...>: runs the harness, judges its verdict.
expect() {
  local want=$1 label=$2 log=$work/log status=0
  shift 2
  "$@" >"$log" 2>&1 || status=$?
  if [ "$want" = passes ]; then
    if [ "$status" -eq 0 ]; then echo "  ok: $label passes"; return; fi
    echo "  FAIL: $label fails on unbroken code:"; tail -n 20 "$log"
  else
    # A crash (killed by a signal, e.g. at a guard page under qemu) is a catch too.
    if [ "$status" -gt 128 ] || { [ "$status" -ne 0 ] && grep -Eq "$caught" "$log"; }; then
      echo "  ok: $label caught it (exit $status): $(grep -Em1 "$caught" "$log" | cut -c1-100)"; return
    fi
    echo "  FAIL: $label did not catch it (exit $status):"; tail -n 20 "$log"
  fi
  failures+=("$label")
}

run_host_harnesses() { # <passes|caught> <label> <libFuzzer seconds>
  cmake --build "$work/host" --target matmul_fuzz matmul_random >/dev/null
  expect "$1" "$2: matmul_random (host)" "$work/host/tests/fuzz/matmul_random" --seed 1 --cases 20000
  expect "$1" "$2: libFuzzer" "$src/tests/fuzz/run_libfuzzer.sh" "$work/host/tests/fuzz/matmul_fuzz" \
    "$src/tests/fuzz/corpus/matmul" "$3" "$work/findings" -seed=1
}
run_riscv64_harness() { # <passes|caught> <label>
  cmake --build "$work/riscv64" --target matmul_random >/dev/null
  expect "$1" "$2: matmul_random (riscv64 qemu)" "${qemu[@]}" "$work/riscv64/tests/fuzz/matmul_random" \
    --seed 1 --cases 20000
}

# break <name> <where: host|riscv64|both> <file> <sed expression>: applies one break.
break_and_check() {
  local name=$1 where=$2 file=$src/$3 expr=$4
  cp "$root/$3" "$file"
  sed -i -e "$expr" "$file"
  if cmp -s "$root/$3" "$file"; then
    echo "FAIL: break '$name' no longer applies to $3: update this script"; failures+=("$name"); return
  fi
  echo "break: $name"
  case $where in host | both) run_host_harnesses caught "$name" "$fuzz_seconds" ;; esac
  case $where in riscv64 | both) run_riscv64_harness caught "$name" ;; esac
  cp "$root/$3" "$file"
}

echo "unbroken copy:"
run_host_harnesses passes unbroken 15
run_riscv64_harness passes unbroken

# Without MIPS_MATMUL_ACCUMULATE, C is still read (it holds NaN: the results show it).
break_and_check reads-c-in-overwrite both libmips/src/driver/gemm_driver.c \
  's/const bool accumulate = pc > 0 || p->accumulate;/const bool accumulate = true;/; s/\.accumulate = p->accumulate,/.accumulate = true,/; s/args->accumulate = p->accumulate,/args->accumulate = true,/'
# The last k is dropped from every product with k > 1.
break_and_check drops-last-k both libmips/src/api/matmul.c 's/      \.m = m, \.n = n, \.k = k,$/      .m = m, .n = n, .k = k > 1 ? k - 1 : k,/'
# The overlap check misses pairs at the edge of the view.
break_and_check weak-overlap-check both libmips/src/api/checks.c \
  's|return s1 / g <= max_di \&\& s0 / g <= max_dj;|return s1 / g < max_di \&\& s0 / g < max_dj;|'
# The highest element's byte offset is no longer checked for overflow.
break_and_check weak-overflow-check both libmips/src/api/checks.c \
  's|!__builtin_mul_overflow(highest_index, size, \&byte_offset);|1;|'
# The portable and x86 tiles' B packer turns NaN into zero.
break_and_check drops-nan host libmips/src/kernels/portable_tile.h \
  's|^#define MIPS_F32_FROM(x) (x)$|#define MIPS_F32_FROM(x) ((x) != (x) ? 0.0f : (x))|'
# RVV tiles take one lane too many at the last columns.
break_and_check rvv-tail-overrun riscv64 libmips/src/kernels/rvv/tiles.c \
  's|#define SETVL(n) F32_OP(__riscv_vsetvl_e32)(n)$|#define SETVL(n) F32_OP(__riscv_vsetvl_e32)((n) + 1)|'

# The compiler fuzzer, against a stand-in that crashes, hangs or loses the location on
# some inputs; it must report each as a finding.
if [ "$mips_compile" != none ]; then
  for mode in crash hang unlocated; do
    stub=$work/mips-compile-$mode
    cat >"$stub" <<EOF
#!/usr/bin/env bash
# Breaks on a third of the inputs with a function (their size a multiple of 3): often
# enough whichever of the project's .mlir files the mutants come from.
input=""
for a in "\$@"; do case \$a in *.mlir) input=\$a ;; esac; done
if [ -n "\$input" ] && grep -q 'func.func' "\$input" && [ \$(( \$(wc -c <"\$input") % 3 )) -eq 0 ]; then
  case $mode in
    crash) kill -SEGV \$\$ ;;
    hang) sleep 60 ;;
    unlocated) echo "error: something went wrong" >&2; exit 1 ;;
  esac
fi
exec "$mips_compile" "\$@"
EOF
    chmod +x "$stub"
    echo "break: mips-compile $mode"
    expect caught "mips-compile $mode: compile_fuzz" python3 "$src/tests/fuzz/compile_fuzz.py" \
      --mips-compile "$stub" --tools mips-compile --mutants 60 --seed 3 --timeout 5 --findings "$work/cf-$mode"
  done
fi

echo
if [ ${#failures[@]} -gt 0 ]; then
  printf 'harness missed or misjudged: %s\n' "${failures[@]}"
  exit 1
fi
echo "every harness caught every break, and passed the unbroken copy"
