#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# mips-run as users call it: examples/model/mlp.mlir on .npy and inline inputs against
# numpy's result, .npy outputs, expected-output checks, printing (elided, scalar, 1-D,
# int8 -> int32), and each kind of bad input: one line, the documented exit status.
# host: natively. riscv64: under qemu at VLEN 128, 512, 1024 and without V, and --count.
# usage: run_mips_run.sh <mips-run> <source dir> host|riscv64 [riscv64 libmips.so.1]
set -euo pipefail
mips_run=$1 src=$2 mode=$3 libmips=${4:-}
python=/usr/bin/python3   # Debian's, with python3-numpy
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }
mlp=$src/examples/model/mlp.mlir models=$src/tests/mips-run/models.mlir

"$python" - <<'PY'
import numpy as np
rng = np.random.default_rng(2026)
x = rng.standard_normal((5, 16)).astype(np.float32)
w1 = rng.standard_normal((16, 32)).astype(np.float32)
b1 = rng.standard_normal(32).astype(np.float32)
w2 = rng.standard_normal((32, 4)).astype(np.float32)
b2 = rng.standard_normal(4).astype(np.float32)
np.save("x.npy", x); np.save("b1.npy", b1); np.save("w2.npy", w2); np.save("b2.npy", b2)
np.save("w1.npy", np.asfortranarray(w1))          # column-major on disk: passed as strides
y = np.maximum(x @ w1 + b1, 0) @ w2 + b2
np.save("y.npy", y)
wrong = y.copy(); wrong[3, 2] += 0.5
np.save("y_wrong.npy", wrong)
np.save("x_f64.npy", x.astype(np.float64))
np.save("pick_f.npy", np.asfortranarray(np.arange(6, dtype=np.float32).reshape(2, 3)))
np.save("be.npy", np.arange(8, dtype=">f4").reshape(2, 4))   # big-endian on disk
PY
inputs=(--input=@x.npy --input=@w1.npy --input=@b1.npy --input=@w2.npy --input=@b2.npy)

# expect <status> <pattern> <mips-run args...>: output (stdout+stderr) must match.
expect() {
  local want=$1 pattern=$2 status=0 out
  shift 2
  out=$("$mips_run" "$@" 2>&1) || status=$?
  echo "$out" | head -n 5
  [ "$status" -eq "$want" ] || fail "exit status $status, expected $want: mips-run $*"
  grep -qE -- "$pattern" <<<"$out" || fail "no /$pattern/ in the output of mips-run $*"
}

if [ "$mode" = host ]; then
  expect 0 '^result\[0\] matches the expected output' "$mlp" --function=mlp "${inputs[@]}" \
    --output=@y_out.npy --expected_output=@y.npy
  "$python" -c "import numpy as np; a, b = np.load('y_out.npy'), np.load('y.npy');
assert a.dtype == np.float32 and a.shape == (5, 4), (a.dtype, a.shape)
assert np.allclose(a, b, rtol=1e-5, atol=1e-5)" || fail "--output wrote a wrong .npy"
  expect 0 '^result\[0\]: 5x4xf32=\[' "$mlp" "${inputs[@]}"
  expect 1 'result\[0\] differs from the expected output at \[3, 2\]' "$mlp" "${inputs[@]}" \
    --expected_output=@y_wrong.npy
  # Printing: int8 products are exact int32; big results elided; scalars; 1-D.
  expect 0 '^result\[0\]: 3x2xi32=\[95 110\]\[-95 -110\]\[-232 -230\]$' "$models" \
    --function=matmul_i8 --input="3x5xi8=1,2,3,4,5,-1,-2,-3,-4,-5,127,-128,0,1,2" \
    --input="5x2xi8=1 2 3 4 5 6 7 8 9 10"
  expect 0 '^result\[0\]: 40x40xf32=\[10 10 10 \.\.\. 10 10 10\]\[10 .*\]\.\.\.\[10 10 10 \.\.\. 10 10 10\]' \
    "$models" --function=square --input="40x40xf32=0.5"
  expect 0 '^result\[0\]: f32=-3$' "$models" --function=scale --input=f32=1.5 --input=f32=-2 \
    --expected_output=f32=-3
  expect 0 '^result\[0\]: 2xf32=10 26$' "$models" --function=row_sums \
    --input="2x4xf32=[1 2 3 4][5 6 7 8]" --expected_output=2xf32=10,26
  # Bad input: one line naming the argument and both types, exit status 2, no run.
  expect 2 '^mips-run: @mlp takes 5 inputs \(tensor<\?x16xf32>, .*\), 4 given$' "$mlp" "${inputs[@]:0:4}"
  expect 2 "^mips-run: --input 1 \(16x31xf32=0.5\) is 16x31xf32, but argument 1 of @mlp is tensor<16x32xf32>$" \
    "$mlp" --input=@x.npy --input=16x31xf32=0.5 "${inputs[@]:2}"
  expect 2 "^mips-run: --input 0 \(@x_f64.npy\) is 5x16xf64, but argument 0 of @mlp is tensor<\?x16xf32>$" \
    "$mlp" --input=@x_f64.npy "${inputs[@]:1}"
  expect 2 '^mips-run: --input 0: cannot read missing.npy: No such file or directory$' "$mlp" --input=@missing.npy
  expect 2 '^mips-run: --input 0: .* is not a .npy file$' "$mlp" --input=@"$mlp"
  expect 2 '^mips-run: --input 0: 2x2xf32 needs 4 values or one, got 3$' "$mlp" --input=2x2xf32=1,2,3
  expect 2 "is neither @file.npy nor SHAPExTYPE=values" "$mlp" --input=2x2=1
  expect 0 '^result\[0\]: f32=3$' "$models" --function=pick --input=@pick_f.npy --expected_output=f32=3
  expect 0 '^result\[0\]: 2xf32=6 22$' "$models" --function=row_sums --input=@be.npy
  # Infinities match only themselves, whatever the tolerance.
  expect 0 'matches the expected output' "$models" --function=scale --input=f32=inf --input=f32=2 \
    --expected_output=f32=inf
  expect 1 'differs from the expected output at \[\]: 6 instead of inf' "$models" --function=scale \
    --input=f32=3 --input=f32=2 --expected_output=f32=inf
  expect 2 "^mips-run: --input 0: a value in 'f32=1e39' is not a f32$" "$models" --function=scale \
    --input=f32=1e39 --input=f32=1
  expect 2 '^mips-run: the model has 5 public functions \(matmul_i8, pick, row_sums, scale, square\): choose one with --function$' \
    "$models" --input=f32=1
  expect 2 '^mips-run: the model has no public function @nope' "$models" --function=nope
  expect 2 '^mips-run: --count counts riscv64 instructions under qemu: add --target=riscv64$' "$mlp" --count
  expect 2 "^mips-run: --output=y.npy: write results as --output=@file.npy$" "$mlp" "${inputs[@]}" --output=y.npy
  expect 2 '^mips-run: mips-compile could not compile' "$src/compiler/test/mips-compile/Inputs/torch-type.mlir"
else
  for cpu in rv64,v=true,vext_spec=v1.0,vlen=128 rv64,v=true,vext_spec=v1.0,vlen=512 \
             rv64,v=true,vext_spec=v1.0,vlen=1024 rv64,v=false; do
    expect 0 '^result\[0\] matches the expected output' "$mlp" "${inputs[@]}" --target=riscv64 \
      --cpu=$cpu --libmips="$libmips" --expected_output=@y.npy
  done
  expect 0 '^count: [0-9]+ multiply-adds in libmips calls: ideal [0-9]+, eff 0\.[0-9]+$' "$models" \
    --function=square --input=40x40xf32=0.25 --target=riscv64 --libmips="$libmips" --count \
    --cpu=rv64,v=true,vext_spec=v1.0,vlen=256 --expected_output=40x40xf32=2.5
  "$mips_run" "$models" --function=square --input=40x40xf32=0.25 --target=riscv64 \
    --libmips="$libmips" --count --cpu=rv64,v=true,vext_spec=v1.0,vlen=256 |
    grep -q "count: 64000 multiply-adds in libmips calls: ideal 8000," || fail "--count missed the call's 40^3 MACs"
  expect 2 '^mips-run: --libmips=/nonexistent: no such file$' "$mlp" "${inputs[@]}" --target=riscv64 --libmips=/nonexistent
fi
echo "mips-run ($mode): all checks passed"
