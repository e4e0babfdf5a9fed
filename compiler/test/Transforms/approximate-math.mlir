// RUN: mips-opt %s --mips-approximate-math | FileCheck %s
// RUN: mips-opt %s --mips-approximate-math=precise=true | FileCheck %s --check-prefix=PRECISE

// The functions models use become arithmetic (no math op left to become a libm
// call); sin keeps its call; vectors are rewritten as scalars are.
// CHECK-LABEL: func.func @model_math
// CHECK-NOT:     math.exp
// CHECK-NOT:     math.erf
// CHECK-NOT:     math.tanh
// CHECK:         math.sin
// CHECK-NOT:     math.exp
// CHECK-NOT:     math.erf
// CHECK-NOT:     math.tanh
// CHECK:         return
// PRECISE-LABEL: func.func @model_math
// PRECISE:         math.exp
// PRECISE:         math.erf
// PRECISE:         math.tanh
// PRECISE:         math.sin
func.func @model_math(%x: f32, %v: vector<8xf32>) -> (f32, f32, vector<8xf32>, f32) {
  %e = math.exp %x : f32
  %r = math.erf %e : f32
  %t = math.tanh %v : vector<8xf32>
  %s = math.sin %x : f32
  return %e, %r, %t, %s : f32, f32, vector<8xf32>, f32
}

// log scales a subnormal input by 2^23 and takes 23 ln 2 off the result.
// CHECK-LABEL: func.func @log_subnormal
// CHECK-DAG:     %[[MIN:.*]] = arith.constant 1.17549435E-38 : f32
// CHECK-DAG:     %[[SCALE:.*]] = arith.constant 0x4B000000 : f32
// CHECK-DAG:     %[[OFFSET:.*]] = arith.constant 15.9423847 : f32
// CHECK:         %[[ABS:.*]] = math.absf %[[X:.*]] : f32
// CHECK:         %[[TINY:.*]] = arith.cmpf olt, %[[ABS]], %[[MIN]] : f32
// CHECK:         %[[SCALED:.*]] = arith.mulf %[[X]], %[[SCALE]] : f32
// CHECK:         arith.select %[[TINY]], %[[SCALED]], %[[X]] : f32
// CHECK-NOT:     math.log
// CHECK:         arith.select %[[TINY]], %[[OFFSET]], %{{.*}} : f32
// CHECK:         arith.subf
func.func @log_subnormal(%x: f32) -> f32 {
  %l = math.log %x : f32
  return %l : f32
}

// log2 on vectors takes 23 off; bf16 is widened to f32 before scaling.
// CHECK-LABEL: func.func @log2_vector_and_bf16
// CHECK-DAG:     arith.constant dense<2.300000e+01> : vector<4xf32>
// CHECK-DAG:     arith.constant dense<0x4B000000> : vector<4xf32>
// CHECK:         arith.extf %{{.*}} : bf16 to f32
// CHECK:         arith.cmpf olt, %{{.*}} : f32
// CHECK-NOT:     math.log
// CHECK:         return
func.func @log2_vector_and_bf16(%v: vector<4xf32>, %h: bf16) -> (vector<4xf32>, bf16) {
  %a = math.log2 %v : vector<4xf32>
  %b = math.log %h : bf16
  return %a, %b : vector<4xf32>, bf16
}

// In precise mode expm1 and log1p call libm (MLIR's own lowering would write
// exp(x) - 1 and log(1 + x)); log stays for LLVM's intrinsic.
// PRECISE-LABEL: func.func @precise_expm1
// PRECISE:         call @expm1f(
// PRECISE:         call @log1pf(
// PRECISE:         math.log %
// PRECISE-NOT:     math.expm1
// PRECISE-NOT:     math.log1p
func.func @precise_expm1(%x: f32) -> (f32, f32, f32) {
  %a = math.expm1 %x : f32
  %b = math.log1p %x : f32
  %c = math.log %x : f32
  return %a, %b, %c : f32, f32, f32
}

// On vectors, every lane calls expm1f.
// PRECISE-LABEL: func.func @precise_expm1_vector
// PRECISE-COUNT-4: call @expm1f(
// PRECISE-NOT:     math.expm1
func.func @precise_expm1_vector(%v: vector<4xf32>) -> vector<4xf32> {
  %a = math.expm1 %v : vector<4xf32>
  return %a : vector<4xf32>
}

// erf is one rational function of the clamped argument (no coefficient selects):
// two Horner chains, one divide, the result clamped to [-1, 1] and NaN given back.
// A constant factor of the argument (x / sqrt 2) folds into the coefficients: the
// clamp bound is 3.92 * sqrt 2.
// CHECK-LABEL: func.func @erf_rational
// CHECK-DAG:     %[[BOUND:.*]] = arith.constant 5.543716{{[0-9]*}} : f32
// CHECK-DAG:     %[[NBOUND:.*]] = arith.constant -5.543716{{[0-9]*}} : f32
// CHECK-NOT:     arith.divf %{{.*}}, %cst
// CHECK:         %[[MIN:.*]] = arith.minnumf %[[X:[^,]*]], %[[BOUND]] : f32
// CHECK:         %[[XC:.*]] = arith.maxnumf %[[MIN]], %[[NBOUND]] : f32
// CHECK:         %[[T:.*]] = arith.mulf %[[XC]], %[[XC]] : f32
// CHECK-COUNT-10: math.fma
// CHECK:         %[[NUM:.*]] = arith.mulf %[[XC]], %{{.*}} : f32
// CHECK:         %[[RATIO:.*]] = arith.divf %[[NUM]], %{{.*}} : f32
// CHECK:         arith.minnumf %[[RATIO]]
// CHECK:         %[[CLAMPED:.*]] = arith.maxnumf
// CHECK:         %[[NAN:.*]] = arith.cmpf uno, %[[X]], %[[X]] : f32
// CHECK:         %[[R:.*]] = arith.select %[[NAN]], %[[X]], %[[CLAMPED]] : f32
// CHECK-NOT:     math.erf
// CHECK:         return %[[R]]
func.func @erf_rational(%x: f32) -> f32 {
  %c = arith.constant 1.41421354 : f32
  %s = arith.divf %x, %c : f32
  %r = math.erf %s : f32
  return %r : f32
}

// GELU, 0.5 x (1 + erf(x / sqrt 2)), becomes x * max-free phi: the rational, one
// FMA for 0.5 + 0.5 erf, zero below the bound, and the product with x (no clamp
// of erf's result and no NaN select).
// CHECK-LABEL: func.func @gelu_erf
// CHECK:         %[[XC:.*]] = arith.maxnumf
// CHECK:         arith.mulf %[[XC]], %[[XC]] : vector<4xf32>
// CHECK-COUNT-9: math.fma
// CHECK:         %[[RATIO:.*]] = arith.divf
// CHECK:         %[[PHI:.*]] = math.fma %[[RATIO]], %{{.*}}, %{{.*}} : vector<4xf32>
// CHECK:         %[[LOW:.*]] = arith.cmpf olt, %[[X:[^,]*]], %{{.*}} : vector<4xf32>
// CHECK:         %[[PHI0:.*]] = arith.select %[[LOW]], %{{.*}}, %[[PHI]]
// CHECK:         %[[Y:.*]] = arith.mulf %[[X]], %[[PHI0]] : vector<4xf32>
// CHECK-NOT:     arith.cmpf uno
// CHECK-NOT:     math.erf
// CHECK:         return %[[Y]]
func.func @gelu_erf(%x: vector<4xf32>) -> vector<4xf32> {
  %half = arith.constant dense<0.5> : vector<4xf32>
  %one = arith.constant dense<1.0> : vector<4xf32>
  %s = arith.constant dense<0.707106769> : vector<4xf32>
  %xs = arith.mulf %x, %s : vector<4xf32>
  %e = math.erf %xs : vector<4xf32>
  %p = arith.addf %one, %e : vector<4xf32>
  %h = arith.mulf %x, %half : vector<4xf32>
  %y = arith.mulf %h, %p : vector<4xf32>
  return %y : vector<4xf32>
}

// The other nesting, (x * (1 + erf)) * 0.5, is GELU too; erf of another value is not.
// CHECK-LABEL: func.func @gelu_other_nesting
// CHECK:         arith.cmpf olt
// CHECK-NOT:     arith.cmpf uno
// CHECK-LABEL: func.func @not_gelu
// CHECK:         arith.cmpf uno
func.func @gelu_other_nesting(%x: f32) -> f32 {
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %s = arith.constant 0.707106769 : f32
  %xs = arith.mulf %x, %s : f32
  %e = math.erf %xs : f32
  %p = arith.addf %e, %one : f32
  %m = arith.mulf %x, %p : f32
  %y = arith.mulf %half, %m : f32
  return %y : f32
}
func.func @not_gelu(%x: f32, %z: f32) -> f32 {
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %e = math.erf %z : f32
  %p = arith.addf %one, %e : f32
  %h = arith.mulf %x, %half : f32
  %y = arith.mulf %h, %p : f32
  return %y : f32
}

// exp: n from the magic-number sum (no float-to-integer conversion), 2^n by a shift
// of its bits, a degree-5 polynomial; no select for overflow (the polynomial
// overflows to +inf by itself) and one on the magic sum where 2^n would wrap
// (n < -127: 0), so that x is dead once t is formed.
// CHECK-LABEL: func.func @exp_reduced
// CHECK-DAG:     %[[MAGIC:.*]] = arith.constant 0x4B40007F : f32
// CHECK-DAG:     %[[BELOW:.*]] = arith.constant 0x4B400000 : f32
// CHECK-NOT:     arith.fptosi
// CHECK:         %[[XR:.*]] = arith.minnumf %[[X:[^,]*]], %{{.*}} : f32
// CHECK:         %[[SUM:.*]] = math.fma %[[XR]], %{{.*}}, %[[MAGIC]] : f32
// CHECK:         %[[BITS:.*]] = arith.bitcast %[[SUM]] : f32 to i32
// CHECK:         %[[SHIFTED:.*]] = arith.shli %[[BITS]], %{{.*}} : i32
// CHECK:         %[[SCALE:.*]] = arith.bitcast %[[SHIFTED]] : i32 to f32
// CHECK-COUNT-5: math.fma
// CHECK-NOT:     arith.cmpf ogt
// CHECK:         %[[UNDER:.*]] = arith.cmpf olt, %[[SUM]], %[[BELOW]] : f32
// CHECK:         arith.select %[[UNDER]]
// CHECK-NOT:     arith.select
// CHECK-NOT:     math.exp
// CHECK-NOT:     arith.fptosi
// CHECK:         return
func.func @exp_reduced(%x: f32) -> f32 {
  %e = math.exp %x : f32
  return %e : f32
}
