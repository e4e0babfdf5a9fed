#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The three linkages side by side for small and large static matmuls: an in-place
# linalg.matmul on memrefs (C += A*B), f32 and int8 (into int32), compiled for riscv64
#   call:     --static-embedding, every matmul a libmips call (--mips-inline-threshold=0)
#   embedded: --embed-libmips, every matmul a call into the embedded libmips
#   inline:   the compiler's own inline vector code, whatever the shape (f32 only)
#   default:  --embed-libmips with the default inline rule (what users get)
# Each is run once to warm up (binding, dispatch, threads) and once in a counted region
# under qemu at VLEN 256 (MIPS_LINKAGE_VLEN), one thread. Prints instructions, the
# busiest count max(scalar, vector cost), eff = MNK/(VLEN/32) / busiest, and the
# object's size (text + data, bytes).
#
#   bench/linkage_modes.sh [build dir, default build]   (needs build/host and build/riscv64)
set -euo pipefail
source "$(dirname "$0")/common.sh"
bench_setup linkage_modes "${1:-}" libmips.a
libmips=$libmips_dir/libmips.a
vlen=${MIPS_LINKAGE_VLEN:-256}

cat >"$work/driver.c" <<'C'
#include "model.h"
#include <stdlib.h>
#include "region.h"
#define OPEN_REGION() MIPS_REGION_OPEN()
#define CLOSE_REGION() MIPS_REGION_CLOSE()
int main(void) {
  static AB a[M * K], b[K * N];
  static CT c[M * N];
  for (int i = 0; i < M * K; ++i) a[i] = (AB)(i % 7);
  for (int i = 0; i < K * N; ++i) b[i] = (AB)(i % 5);
  MEMREF_AB ma = {a, a, 0, {M, K}, {K, 1}}, mb = {b, b, 0, {K, N}, {N, 1}};
  MEMREF_C mc = {c, c, 0, {M, N}, {N, 1}};
  _mlir_ciface_mm(&ma, &mb, &mc);
  OPEN_REGION();
  _mlir_ciface_mm(&ma, &mb, &mc);
  CLOSE_REGION();
  return 0;
}
C

# count <dir> <type> <m> <n> <k> <mips-compile flags...>: "insns busiest size" of one call.
count() {
  local dir=$1 type=$2 m=$3 n=$4 k=$5 ab c driver_types
  shift 5
  mkdir -p "$dir"
  if [ "$type" = f32 ]; then
    ab=f32 c=f32 driver_types=(-DAB=float -DCT=float -DMEMREF_AB=mips_memref_f32_2d -DMEMREF_C=mips_memref_f32_2d)
  else
    ab=i8 c=i32 driver_types=(-DAB=int8_t -DCT=int32_t -DMEMREF_AB=mips_memref_i8_2d -DMEMREF_C=mips_memref_i32_2d)
  fi
  cat >"$dir/model.mlir" <<MLIR
func.func @mm(%a: memref<${m}x${k}x${ab}>, %b: memref<${k}x${n}x${ab}>, %c: memref<${m}x${n}x${c}>) {
  linalg.matmul ins(%a, %b : memref<${m}x${k}x${ab}>, memref<${k}x${n}x${ab}>) outs(%c : memref<${m}x${n}x${c}>)
  return
}
MLIR
  "$compile" "$dir/model.mlir" --target=riscv64 "$@" -o "$dir/model.o" --emit-header="$dir/model.h"
  clang-22 --target=riscv64-linux-gnu -march=rv64gcv -O2 -fuse-ld=lld -static \
    --sysroot=/usr/riscv64-linux-gnu --gcc-install-dir=/usr/lib/gcc-cross/riscv64-linux-gnu/12/ \
    -DM="$m" -DN="$n" -DK="$k" "${driver_types[@]}" -I"$dir" -I"$root/bench/plugin" "$work/driver.c" "$dir/model.o" \
    "$libmips" -lm -o "$dir/program"
  MIPS_NUM_THREADS=1 qemu-riscv64 -cpu "rv64,v=true,vext_spec=v1.0,vlen=$vlen" -d plugin \
    -D "$dir/counts.log" -plugin "$plugin,vlen=$vlen" "$dir/program"
  local counts size
  counts=$(sed -nE 's/.*region=1 insns=([0-9]+) .* busiest=([0-9]+).*/\1 \2/p' "$dir/counts.log")
  size=$(llvm-size-22 "$dir/model.o" | awk 'NR == 2 { print $1 + $2 }')
  echo "$counts $size"
}

cell() { # <insns> <busiest> <size> <macs>
  printf '%8d %7d %5.2f %7d |' "$1" "$2" "$(echo "$4 / ($vlen / 32) / $2" | bc -l)" "$3"
}
printf '%-4s %-12s | %-30s | %-30s | %-30s | %-30s\n' type shape \
  "call: insns busiest eff size" "embedded: insns busiest eff size" \
  "inline: insns busiest eff size" "default embedded"
for type in f32 i8; do
  for shape in ${MIPS_LINKAGE_SHAPES:-4x4x4 8x8x8 16x16x16 32x32x32 64x64x64 256x256x256}; do
    IFS=x read -r m n k <<<"$shape"
    macs=$((m * n * k))
    line=$(printf '%-4s %-12s |' "$type" "$shape")
    read -r i b s < <(count "$work/$type$shape/call" $type $m $n $k --static-embedding --mips-inline-threshold=0)
    line+=$(cell "$i" "$b" "$s" $macs)
    read -r i b s < <(count "$work/$type$shape/embedded" $type $m $n $k --embed-libmips --mips-inline-threshold=0)
    line+=$(cell "$i" "$b" "$s" $macs)
    if [ "$type" = f32 ] && [ "$macs" -le 32768 ]; then
      read -r i b s < <(count "$work/$type$shape/inline" $type $m $n $k --static-embedding \
        --mips-inline-threshold=100000000 --mips-inline-any-shape)
      line+=$(cell "$i" "$b" "$s" $macs)
    else
      line+=$(printf '%30s |' -)
    fi
    read -r i b s < <(count "$work/$type$shape/default" $type $m $n $k --embed-libmips)
    line+=$(cell "$i" "$b" "$s" $macs)
    echo "$line"
  done
done
