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
