// RUN: mips-opt %s -split-input-file --mips-deallocate-buffers -verify-diagnostics | FileCheck %s

// What bufferization allocated is freed (upstream's ownership-based analysis).
// CHECK-LABEL: func.func @allocates
// CHECK:         %[[T:.*]] = memref.alloc()
// CHECK:         bufferization.dealloc ({{.*}}) if ({{.*}}%true)
func.func @allocates(%a: memref<4x4xf32>, %out: memref<4x4xf32>) {
  %t = memref.alloc() : memref<4x4xf32>
  memref.copy %a, %t : memref<4x4xf32> to memref<4x4xf32>
  mips.matmul ins(%a, %a : memref<4x4xf32>, memref<4x4xf32>) outs(%t : memref<4x4xf32>)
  memref.copy %t, %out : memref<4x4xf32> to memref<4x4xf32>
  return
}

// -----

// A function that frees its own memory is left as written (upstream's analysis
// would refuse it).
// CHECK-LABEL: func.func @frees_its_own
// CHECK:         %[[T:.*]] = memref.alloc()
// CHECK-NOT:     bufferization.dealloc
// CHECK:         memref.dealloc %[[T]]
func.func @frees_its_own(%a: memref<4x4xf32>, %out: memref<4x4xf32>) {
  %t = memref.alloc() : memref<4x4xf32>
  mips.matmul overwrite ins(%a, %a : memref<4x4xf32>, memref<4x4xf32>) outs(%t : memref<4x4xf32>)
  memref.copy %t, %out : memref<4x4xf32> to memref<4x4xf32>
  memref.dealloc %t : memref<4x4xf32>
  return
}

// -----

// ... but only if it frees all of it.
func.func @frees_some(%a: memref<4x4xf32>, %out: memref<4x4xf32>) {
  %t = memref.alloc() : memref<4x4xf32>
  // expected-error @+1 {{this buffer is neither freed nor returned, but @frees_some frees others itself (memref.dealloc), so mips-compile leaves its memory to it; free this buffer with memref.dealloc too, or remove the function's memref.dealloc ops and let mips-compile place them all}}
  %u = memref.alloc() : memref<4x4xf32>
  mips.matmul overwrite ins(%a, %a : memref<4x4xf32>, memref<4x4xf32>) outs(%t : memref<4x4xf32>)
  mips.matmul overwrite ins(%t, %a : memref<4x4xf32>, memref<4x4xf32>) outs(%u : memref<4x4xf32>)
  memref.copy %u, %out : memref<4x4xf32> to memref<4x4xf32>
  // expected-note @+1 {{the function frees memory here}}
  memref.dealloc %t : memref<4x4xf32>
  return
}

// -----

// A buffer it returns (here through a cast) belongs to the caller.
// CHECK-LABEL: func.func @returns_one
// CHECK:         %[[O:.*]] = memref.alloc()
// CHECK:         %[[T:.*]] = memref.alloc()
// CHECK-NOT:     bufferization.dealloc
// CHECK:         memref.dealloc %[[T]]
// CHECK:         %[[R:.*]] = memref.cast %[[O]]
// CHECK:         return %[[R]]
func.func @returns_one(%a: memref<4x4xf32>) -> memref<?x4xf32> {
  %o = memref.alloc() : memref<4x4xf32>
  %t = memref.alloc() : memref<4x4xf32>
  mips.matmul overwrite ins(%a, %a : memref<4x4xf32>, memref<4x4xf32>) outs(%t : memref<4x4xf32>)
  memref.copy %t, %o : memref<4x4xf32> to memref<4x4xf32>
  memref.dealloc %t : memref<4x4xf32>
  %r = memref.cast %o : memref<4x4xf32> to memref<?x4xf32>
  return %r : memref<?x4xf32>
}
