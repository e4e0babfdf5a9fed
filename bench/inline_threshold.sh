#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Measures where a libmips call starts to beat inline vector code, the rule behind
# mips-compile's --mips-inline-threshold. For each static shape, the same f32 model
# (C + A*B) is compiled for riscv64 twice: with every matmul a libmips call
# (--mips-inline-threshold=0) and with every matmul inline, whatever the rule says
# (--mips-inline-any-shape). MIPS_INLINE_SHAPES="MxNxK ..." picks the shapes. A driver
# runs it once to warm up (binding, dispatch) and once more inside a counted region;
# mips-insn-count reports the instructions executed (and the vector unit's cost) under
# qemu at VLEN 256, or MIPS_INLINE_VLEN.
#
#   bench/inline_threshold.sh [build dir, default build]   (needs build/host and build/riscv64)
set -euo pipefail
source "$(dirname "$0")/common.sh"
bench_setup inline_threshold "${1:-}" libmips.a
libmips=$libmips_dir/libmips.a
vlen=${MIPS_INLINE_VLEN:-256}

cat >"$work/driver.c" <<'C'
#include "model.h"
#include <stdlib.h>
#include "region.h"
#define OPEN_REGION() MIPS_REGION_OPEN()
#define CLOSE_REGION() MIPS_REGION_CLOSE()
int main(void) {
  static float a[M * K], b[K * N], c[M * N];
  for (int i = 0; i < M * K; ++i) a[i] = (float)(i % 7);
  for (int i = 0; i < K * N; ++i) b[i] = (float)(i % 5);
  mips_memref_f32_2d ma = {a, a, 0, {M, K}, {K, 1}}, mb = {b, b, 0, {K, N}, {N, 1}};
  mips_memref_f32_2d mc = {c, c, 0, {M, N}, {N, 1}}, r;
  _mlir_ciface_mm(&r, &ma, &mb, &mc);
  free(r.allocated);
  OPEN_REGION();
  _mlir_ciface_mm(&r, &ma, &mb, &mc);
  CLOSE_REGION();
  free(r.allocated);
  return 0;
}
C

# count <call|inline> <m> <n> <k> <mips-compile flags...>: "insns vcost" of one call of
# the model.
count() {
  local m=$2 n=$3 k=$4 dir=$work/$2x$3x$4_$1
  shift 4
  mkdir -p "$dir"
  cat >"$dir/model.mlir" <<MLIR
func.func @mm(%a: tensor<${m}x${k}xf32>, %b: tensor<${k}x${n}xf32>, %c: tensor<${m}x${n}xf32>) -> tensor<${m}x${n}xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<${m}x${k}xf32>, tensor<${k}x${n}xf32>) outs(%c : tensor<${m}x${n}xf32>) -> tensor<${m}x${n}xf32>
  return %r : tensor<${m}x${n}xf32>
}
MLIR
  "$compile" "$dir/model.mlir" --target=riscv64 --static-embedding "$@" \
    -o "$dir/model.o" --emit-header="$dir/model.h"
  clang-22 --target=riscv64-linux-gnu -march=rv64gcv -O2 -fuse-ld=lld -static \
    --sysroot=/usr/riscv64-linux-gnu --gcc-install-dir=/usr/lib/gcc-cross/riscv64-linux-gnu/12/ \
    -DM="$m" -DN="$n" -DK="$k" -I"$dir" -I"$root/libmips/include" -I"$root/bench/plugin" "$work/driver.c" "$dir/model.o" \
    "$libmips" -lm -o "$dir/program"
  qemu-riscv64 -cpu "rv64,v=true,vext_spec=v1.0,vlen=$vlen" -d plugin -D "$dir/counts.log" \
    -plugin "$plugin,vlen=$vlen" "$dir/program"
  sed -nE 's/.*region=1 insns=([0-9]+) .* vcost=([0-9]+) .*/\1 \2/p' "$dir/counts.log"
}

printf '%-12s %8s | %10s %10s | %10s %10s | %s\n' shape "M*N*K" "call insns" vcost \
  "inline ins" vcost "inline/call insns"
for shape in ${MIPS_INLINE_SHAPES:-2x2x2 4x4x4 1x16x16 16x2x8 4x4x32 7x9x8 8x8x8 6x6x16 16x16x2 \
             10x10x10 12x12x7 8x8x16 16x8x16 16x16x8 32x8x8 128x2x8 16x16x16 64x1x16 \
             1x8x64 2x4x64 1x1x512 32x32x32}; do
  IFS=x read -r m n k <<<"$shape"
  read -r call_insns call_vcost < <(count call "$m" "$n" "$k" --mips-inline-threshold=0)
  read -r inline_insns inline_vcost < <(count inline "$m" "$n" "$k" --mips-inline-threshold=100000000 \
    --mips-inline-any-shape)
  printf '%-12s %8d | %10d %10d | %10d %10d | %.2f\n' "$shape" $((m * n * k)) "$call_insns" \
    "$call_vcost" "$inline_insns" "$inline_vcost" "$(echo "$inline_insns / $call_insns" | bc -l)"
done
