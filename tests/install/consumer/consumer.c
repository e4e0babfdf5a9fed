/* SPDX-License-Identifier: Apache-2.0 */
/* A program that uses an installed libmips the way a user would. It exits 0 only if
 * the library it linked is ABI compatible and computes a known product correctly. */
#include <mips/mips.h>
#include <stdio.h>

int main(void) {
  const uint32_t abi = mips_abi_version();
  if ((abi >> 16) != MIPS_VERSION_MAJOR || (abi & 0xffff) < MIPS_VERSION_MINOR) {
    fprintf(stderr, "consumer: libmips ABI %u.%u, built against %d.%d\n", abi >> 16,
            abi & 0xffff, MIPS_VERSION_MAJOR, MIPS_VERSION_MINOR);
    return 1;
  }
  /* A and X are 2x3 row-major. */
  const float a[6] = {1, 2, 3, 4, 5, 6};
  const float x[6] = {7, 8, 9, 10, 11, 12};
  float c[4];
  /* C = A * X^T: X^T's element (i, j) is x[j*3 + i], so strides (1, 3). */
  int status = mips_matmul_f32(2, 2, 3, a, 0, 3, 1, x, 0, 1, 3, c, 0, 2, 1, 0);
  const float want[4] = {50, 68, 122, 167};
  if (status != MIPS_OK) {
    fprintf(stderr, "consumer: %s\n", mips_status_string(status));
    return 1;
  }
  for (int i = 0; i < 4; ++i)
    if (c[i] != want[i]) {
      fprintf(stderr, "consumer: c[%d] = %g, expected %g\n", i, c[i], want[i]);
      return 1;
    }
  printf("consumer: libmips %s, kernel: %s, C = [%g %g; %g %g]\n", mips_version_string(),
         mips_kernel_name(), c[0], c[1], c[2], c[3]);
  return 0;
}
