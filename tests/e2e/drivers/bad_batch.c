/* SPDX-License-Identifier: Apache-2.0 */
/* Calls a dynamic batch matmul of models/forms.mlir with operands whose batches
 * disagree (A has 3 entries, B 2, C 3): the compiled code must stop with a message
 * before libmips (or a loop of calls) reads B's third entry, which does not exist. */
#include "forms.h"
#include "e2e_driver.h"

int main(void) {
  enum { M = 9, K = 24, N = 17 };
  static float at[3 * K * M], bt[2 * N * K], c[3 * M * N];
  mips_memref_f32_3d mat = {at, at, 0, {3, K, M}, {K * M, M, 1}};
  mips_memref_f32_3d mbt = {bt, bt, 0, {2, N, K}, {N * K, K, 1}};
  mips_memref_f32_3d mc = {c, c, 0, {3, M, N}, {M * N, N, 1}};
  mips_memref_f32_3d r;
  _mlir_ciface_batch_transposed(&r, &mat, &mbt, &mc);
  printf("the mismatch went unnoticed\n");
  return 0;
}
