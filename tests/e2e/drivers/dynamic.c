#include "dynamic.h"
#include "e2e_driver.h"

static void check_shape(int m, int n, int k) {
  float *a = malloc(sizeof(float) * (size_t)(m * k)), *b = malloc(sizeof(float) * (size_t)(k * n));
  for (int x = 0; x < m * k; ++x) a[x] = (float)e2e_value(x, 3);
  for (int x = 0; x < k * n; ++x) b[x] = (float)e2e_value(x + 7, 3);
  mips_memref_f32_2d ma = E2E_ROW_MAJOR(mips_memref_f32_2d, a, m, k);
  mips_memref_f32_2d mb = E2E_ROW_MAJOR(mips_memref_f32_2d, b, k, n);
  mips_memref_f32_2d r;
  _mlir_ciface_matmul(&r, &ma, &mb);
  EXPECT(r.sizes[0] == m && r.sizes[1] == n, "result is %lldx%lld, expected %dx%d",
         (long long)r.sizes[0], (long long)r.sizes[1], m, n);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      float want = 0;
      for (int l = 0; l < k; ++l) want += a[i * k + l] * b[l * n + j];
      EXPECT(E2E_AT(r, i, j) == want, "%dx%dx%d: (%d,%d) = %g, expected %g", m, n, k, i, j,
             E2E_AT(r, i, j), want);
    }
  free(r.allocated), free(a), free(b);
}

int main(void) {
  check_shape(1, 1, 1);
  check_shape(37, 29, 23);
  check_shape(64, 17, 130);
  check_shape(3, 257, 2);
  return e2e_finish("dynamic");
}
