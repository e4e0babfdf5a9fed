/* SPDX-License-Identifier: Apache-2.0 */
/* One program, two generated objects: seed.mlir built with --static-embedding and
 * dynamic.mlir built with the import table. Their runtimes must not get in each
 * other's way, whichever the linker sees first. */
#include "dynamic.h"
#include "seed.h"
#include "e2e_driver.h"

int main(void) {
  float a[4] = {1, 2, 3, 4}, b[6] = {5, 6, 7, 8, 9, 10};
  const float want[6] = {21, 24, 27, 47, 54, 61};
  mips_memref_f32_2d ma = E2E_ROW_MAJOR(mips_memref_f32_2d, a, 2, 2);
  mips_memref_f32_2d mb = E2E_ROW_MAJOR(mips_memref_f32_2d, b, 2, 3);
  mips_memref_f32_2d r1, r2;
  _mlir_ciface_mm2x3x2(&r1, &ma, &mb); /* static embedding */
  _mlir_ciface_matmul(&r2, &ma, &mb);  /* import table */
  for (int x = 0; x < 6; ++x) {
    EXPECT(E2E_AT(r1, x / 3, x % 3) == want[x], "static object: element %d", x);
    EXPECT(E2E_AT(r2, x / 3, x % 3) == want[x], "dynamic object: element %d", x);
  }
  free(r1.allocated), free(r2.allocated);
  return e2e_finish("mixed modes");
}
