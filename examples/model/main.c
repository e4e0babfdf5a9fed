/* SPDX-License-Identifier: Apache-2.0 */
/* Runs the compiled MLP (mlp.mlir) on a small batch, checks it against a plain C
 * computation, and prints the result and the kernel library that ran it.
 * Exits 0 only if every output matches. */
#include <stdio.h>
#include <stdlib.h>

#include "mlp.h" /* written by mips-compile --emit-header */

enum { BATCH = 5, IN = 16, HIDDEN = 32, OUT = 4 };

/* Small integers keep every float sum exact, so the check can be exact. */
static float value(int seed) { return (float)(seed % 5 - 2); }

int main(void) {
  static float x[BATCH * IN], w1[IN * HIDDEN], b1[HIDDEN], w2[HIDDEN * OUT], b2[OUT];
  for (int i = 0; i < BATCH * IN; ++i) x[i] = value(i * 7 + 1);
  for (int i = 0; i < IN * HIDDEN; ++i) w1[i] = value(i * 3 + 2);
  for (int i = 0; i < HIDDEN; ++i) b1[i] = value(i);
  for (int i = 0; i < HIDDEN * OUT; ++i) w2[i] = value(i * 11 + 4);
  for (int i = 0; i < OUT; ++i) b2[i] = (float)i;

  /* Row-major memref descriptors: {allocated, aligned, offset, sizes, strides}. */
  mips_memref_f32_2d mx = {x, x, 0, {BATCH, IN}, {IN, 1}};
  mips_memref_f32_2d mw1 = {w1, w1, 0, {IN, HIDDEN}, {HIDDEN, 1}};
  mips_memref_f32_1d mb1 = {b1, b1, 0, {HIDDEN}, {1}};
  mips_memref_f32_2d mw2 = {w2, w2, 0, {HIDDEN, OUT}, {OUT, 1}};
  mips_memref_f32_1d mb2 = {b2, b2, 0, {OUT}, {1}};
  mips_memref_f32_2d y;
  _mlir_ciface_mlp(&y, &mx, &mw1, &mb1, &mw2, &mb2);

  int mismatches = 0;
  printf("y = relu(x*w1 + b1)*w2 + b2, batch %d:\n", BATCH);
  for (int r = 0; r < BATCH; ++r) {
    float hidden[HIDDEN];
    for (int j = 0; j < HIDDEN; ++j) {
      float s = b1[j];
      for (int k = 0; k < IN; ++k) s += x[r * IN + k] * w1[k * HIDDEN + j];
      hidden[j] = s > 0 ? s : 0;
    }
    for (int j = 0; j < OUT; ++j) {
      float want = b2[j];
      for (int k = 0; k < HIDDEN; ++k) want += hidden[k] * w2[k * OUT + j];
      const float got = y.aligned[y.offset + r * y.strides[0] + j * y.strides[1]];
      printf(" %8.1f", got);
      if (got != want) ++mismatches;
    }
    printf("\n");
  }
  free(y.allocated);
  printf("kernel: %s (libmips %s)\n", mipsrt_kernel_name(), mipsrt_library_version());
  printf("%s\n", mismatches == 0 ? "result matches the C reference"
                                 : "MISMATCH against the C reference");
  return mismatches == 0 ? 0 : 1;
}
