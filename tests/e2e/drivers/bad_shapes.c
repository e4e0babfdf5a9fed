/* SPDX-License-Identifier: Apache-2.0 */
/* Calls the dynamic-shape model with operands whose K disagree: the compiled code
 * must stop with a message before libmips touches memory outside a buffer. */
#include "dynamic.h"
#include "e2e_driver.h"

int main(void) {
  float a[3 * 4] = {0}, b[5 * 2] = {0};
  mips_memref_f32_2d ma = E2E_ROW_MAJOR(mips_memref_f32_2d, a, 3, 4);
  mips_memref_f32_2d mb = E2E_ROW_MAJOR(mips_memref_f32_2d, b, 5, 2);
  mips_memref_f32_2d r;
  _mlir_ciface_matmul(&r, &ma, &mb);
  printf("the mismatch went unnoticed\n");
  return 0;
}
