#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# upstream_object.sh <model.mlir> <function|-> <out.o> <cc> [cc flags...]
# The model lowered by upstream MLIR alone (loops, libm; the differential tester's
# reference pipeline), its function renamed <function>_reference so that it links
# beside mips-compile's object (- keeps every name), compiled by <cc> with the flags
# given (-O2 unless they say otherwise). The one copy of this pipeline: bench/models.sh
# runs it too.
set -euo pipefail
src=$1 fn=$2 out=$3
shift 3
llvm=/usr/lib/llvm-22/bin
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
rename=()
if [ "$fn" != - ]; then rename=(-e "s/^func\.func @$fn\(/func.func @${fn}_reference(/"); fi
sed -E "${rename[@]}" \
  -e 's/^(func\.func @[^(]*\(.*\) -> [^{]*)\{$/\1attributes {llvm.emit_c_interface} {/' \
  "$src" >"$work/up.mlir"
"$llvm/mlir-opt" "$work/up.mlir" --tosa-to-linalg-pipeline --tosa-to-arith --tosa-to-tensor \
  --convert-elementwise-to-linalg \
  "--one-shot-bufferize=bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" \
  --buffer-deallocation-pipeline --convert-bufferization-to-memref --convert-linalg-to-loops \
  --expand-strided-metadata --lower-affine --convert-scf-to-cf --convert-math-to-llvm \
  --convert-math-to-libm --convert-arith-to-llvm --finalize-memref-to-llvm --convert-func-to-llvm \
  --convert-cf-to-llvm --reconcile-unrealized-casts -o "$work/up.llvm.mlir"
"$llvm/mlir-translate" --mlir-to-llvmir "$work/up.llvm.mlir" -o "$work/up.ll"
"$@" -Wno-override-module -c "$work/up.ll" -o "$out"
[ -s "$out" ] || { echo "upstream_object.sh: $* wrote no $out" >&2; exit 1; }
