/* SPDX-License-Identifier: Apache-2.0 */
/* libmips by example: the same library call handles row-major, transposed and int8
 * matrices, with no copies; weights can be packed once. Build:
 * cc matmul.c $(pkg-config --cflags --libs mips) */
#include <mips/mips.h>
#include <stdio.h>
#include <stdlib.h>

static void print_matrix(const char *title, const float *c, int rows, int cols) {
  printf("%s\n", title);
  for (int i = 0; i < rows; ++i) {
    for (int j = 0; j < cols; ++j) printf(" %7.1f", c[i * cols + j]);
    printf("\n");
  }
}

static int check(int status, const char *what) {
  if (status != MIPS_OK) {
    fprintf(stderr, "%s failed: %s\n", what, mips_status_string(status));
    exit(1);
  }
  return status;
}

int main(void) {
  printf("libmips %s (ABI 0x%05x), kernel: %s\n", mips_version_string(),
         (unsigned)mips_abi_version(), mips_kernel_name());

  /* C (3x4) = A (3x2) * B (2x4), all row-major: strides are (columns, 1). */
  const float a[3 * 2] = {1, 2, 3, 4, 5, 6};
  const float b[2 * 4] = {1, 0, -1, 2, 0, 1, 1, -2};
  float c[3 * 4];
  check(mips_matmul_f32(3, 4, 2, a, 0, 2, 1, b, 0, 4, 1, c, 0, 4, 1, 0), "row-major");
  print_matrix("A * B (row-major):", c, 3, 4);

  /* C (3x3) = A * A^T: A^T is A's storage with the strides swapped, (1, 2). */
  float g[3 * 3];
  check(mips_matmul_f32(3, 3, 2, a, 0, 2, 1, a, 0, 1, 2, g, 0, 3, 1, 0), "transposed");
  print_matrix("A * A^T (transpose via strides):", g, 3, 3);

  /* Accumulate: C += A * B. */
  check(mips_matmul_f32(3, 4, 2, a, 0, 2, 1, b, 0, 4, 1, c, 0, 4, 1, MIPS_MATMUL_ACCUMULATE),
        "accumulate");
  print_matrix("C += A * B:", c, 3, 4);

  /* int8 x int8 -> int32, with the extremes of int8. */
  const int8_t qa[2 * 3] = {-128, 127, 1, 2, -3, 4};
  const int8_t qb[3 * 2] = {-128, 1, 127, -1, 5, 6};
  int32_t qc[2 * 2];
  check(mips_matmul_i8i32(2, 2, 3, qa, 0, 3, 1, qb, 0, 2, 1, qc, 0, 2, 1, 0), "int8");
  printf("int8 A * B -> int32:\n %7d %7d\n %7d %7d\n", qc[0], qc[1], qc[2], qc[3]);

  /* A layer's weights W, stored n x k (4 outputs x 2 inputs, PyTorch's layout), packed
   * once (since 1.2): every later call skips packing them. B = W^T: strides (1, k). */
  const float w[4 * 2] = {1, 2, 3, 4, 5, 6, 7, 8};
  mips_packed_b *w_packed;
  check(mips_pack_b_f32(2, 4, w, 0, 1, 2, &w_packed), "pack");
  float y[4];
  check(mips_matmul_packed_f32(1, a, 0, 2, 1, w_packed, y, 0, 4, 1, 0), "packed");
  print_matrix("A's first row * W^T, W packed once:", y, 1, 4);
  mips_packed_b_free(w_packed);

  /* Bad input gets a status, and C is left alone. */
  const int status = mips_matmul_f32(2, 2, 2, a, 0, 2, 1, b, 0, 4, 1, c, 0, 0, 1, 0);
  printf("C with row stride 0: %s (%d)\n", mips_status_string(status), status);
  return status == MIPS_ERROR_OVERLAP ? 0 : 1;
}
