/* SPDX-License-Identifier: Apache-2.0 */
/* Every matmul form of models/forms.mlir against a C reference. Before each call the
 * driver announces on stderr how many libmips calls it must make; count_calls.sh
 * matches that against the trace provider's log. Integer-valued data keeps every float
 * sum exact, so results compare with ==. */
#include "forms.h"
#include "e2e_driver.h"

#include <stdint.h>

#define DESC3(type, data, d0, d1, d2) \
  ((type){(data), (data), 0, {(d0), (d1), (d2)}, {(int64_t)(d1) * (d2), (d2), 1}})
#define DESC1(type, data, d0) ((type){(data), (data), 0, {(d0)}, {1}})
#define AT3(desc, i, j, l)                                                                   \
  ((desc).aligned[(desc).offset + (int64_t)(i) * (desc).strides[0] +                         \
                  (int64_t)(j) * (desc).strides[1] + (int64_t)(l) * (desc).strides[2]])
#define AT1(desc, i) ((desc).aligned[(desc).offset + (int64_t)(i) * (desc).strides[0]])

static void expect_calls(const char *function, int calls) {
  fprintf(stderr, "e2e-expect: %s %d\n", function, calls);
}

static void fill_f32(float *x, int count, int seed) {
  for (int i = 0; i < count; ++i) x[i] = (float)e2e_value(seed + i, 4);
}

/* Full int8 range, -128 included. */
static void fill_i8(int8_t *x, int count, int seed) {
  for (int i = 0; i < count; ++i) x[i] = (int8_t)(i % 7 == 3 ? -128 : e2e_value(seed + i, 127));
}

static void check_batch(void) {
  enum { B = 3, M = 13, K = 40, N = 11 };
  static float a[B * M * K], b[B * K * N];
  fill_f32(a, B * M * K, 1);
  fill_f32(b, B * K * N, 2);
  mips_memref_f32_3d ma = DESC3(mips_memref_f32_3d, a, B, M, K);
  mips_memref_f32_3d mb = DESC3(mips_memref_f32_3d, b, B, K, N);
  mips_memref_f32_3d r;
  expect_calls("batch", B);
  _mlir_ciface_batch(&r, &ma, &mb);
  for (int p = 0; p < B; ++p)
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        float want = 0;
        for (int l = 0; l < K; ++l) want += a[(p * M + i) * K + l] * b[(p * K + l) * N + j];
        EXPECT(AT3(r, p, i, j) == want, "batch (%d,%d,%d) = %g, expected %g", p, i, j,
               AT3(r, p, i, j), want);
      }
  free(r.allocated);
}

static void check_batch_transposed(void) {
  enum { B = 2, M = 9, K = 24, N = 17 };
  static float at[B * K * M], bt[B * N * K], c[B * M * N];
  fill_f32(at, B * K * M, 3);
  fill_f32(bt, B * N * K, 4);
  fill_f32(c, B * M * N, 5);
  mips_memref_f32_3d mat = DESC3(mips_memref_f32_3d, at, B, K, M);
  mips_memref_f32_3d mbt = DESC3(mips_memref_f32_3d, bt, B, N, K);
  mips_memref_f32_3d mc = DESC3(mips_memref_f32_3d, c, B, M, N);
  mips_memref_f32_3d r;
  expect_calls("batch_transposed", B);
  _mlir_ciface_batch_transposed(&r, &mat, &mbt, &mc);
  for (int p = 0; p < B; ++p)
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        float want = c[(p * M + i) * N + j];
        for (int l = 0; l < K; ++l) want += at[(p * K + l) * M + i] * bt[(p * N + j) * K + l];
        EXPECT(AT3(r, p, i, j) == want, "batch_transposed (%d,%d,%d) = %g, expected %g", p, i,
               j, AT3(r, p, i, j), want);
      }
  if (r.allocated != c) free(r.allocated);
}

static void check_generic_i8(void) {
  enum { M = 21, K = 70, N = 12 };
  static int8_t x[M * K], yt[N * K];
  fill_i8(x, M * K, 6);
  fill_i8(yt, N * K, 7);
  mips_memref_i8_2d mx = E2E_ROW_MAJOR(mips_memref_i8_2d, x, M, K);
  mips_memref_i8_2d my = E2E_ROW_MAJOR(mips_memref_i8_2d, yt, N, K);
  mips_memref_i32_2d r;
  expect_calls("generic_i8", 1);
  _mlir_ciface_generic_i8(&r, &mx, &my);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      int32_t want = 0;
      for (int l = 0; l < K; ++l) want += x[i * K + l] * yt[j * K + l];
      EXPECT(E2E_AT(r, i, j) == want, "generic_i8 (%d,%d) = %d, expected %d", i, j,
             E2E_AT(r, i, j), want);
    }
  free(r.allocated);
}

/* Views: A is a column-major (transposed) store, C a block inside a bigger matrix. */
static void check_memref_matmul(void) {
  enum { M = 10, K = 31, N = 14, LDC = 20, ROW0 = 3, COL0 = 5 };
  static float a_cm[K * M], b[K * N], big[(M + ROW0 + 2) * LDC], before[(M + ROW0 + 2) * LDC];
  fill_f32(a_cm, K * M, 8);
  fill_f32(b, K * N, 9);
  fill_f32(big, (M + ROW0 + 2) * LDC, 10);
  memcpy(before, big, sizeof big);
  mips_memref_f32_2d ma = {a_cm, a_cm, 0, {M, K}, {1, M}};
  mips_memref_f32_2d mb = E2E_ROW_MAJOR(mips_memref_f32_2d, b, K, N);
  mips_memref_f32_2d mc = {big, big, ROW0 * LDC + COL0, {M, N}, {LDC, 1}};
  expect_calls("memref_matmul", 1);
  _mlir_ciface_memref_matmul(&ma, &mb, &mc);
  for (int i = 0; i < M + ROW0 + 2; ++i)
    for (int j = 0; j < LDC; ++j) {
      float want = before[i * LDC + j];
      int inside = i >= ROW0 && i < ROW0 + M && j >= COL0 && j < COL0 + N;
      if (inside)
        for (int l = 0; l < K; ++l) want += a_cm[l * M + (i - ROW0)] * b[l * N + (j - COL0)];
      EXPECT(big[i * LDC + j] == want, "memref_matmul (%d,%d) = %g, expected %g%s", i, j,
             big[i * LDC + j], want, inside ? "" : " (outside the view)");
    }
}

static void check_matvec_vecmat(void) {
  enum { M = 37, K = 29 };
  static float a[M * K], x[K];
  fill_f32(a, M * K, 11);
  fill_f32(x, K, 12);
  mips_memref_f32_2d ma = E2E_ROW_MAJOR(mips_memref_f32_2d, a, M, K);
  mips_memref_f32_1d mx = DESC1(mips_memref_f32_1d, x, K);
  mips_memref_f32_1d y;
  expect_calls("matvec", 1);
  _mlir_ciface_matvec(&y, &ma, &mx);
  for (int i = 0; i < M; ++i) {
    float want = 0;
    for (int l = 0; l < K; ++l) want += a[i * K + l] * x[l];
    EXPECT(AT1(y, i) == want, "matvec (%d) = %g, expected %g", i, AT1(y, i), want);
  }
  free(y.allocated);

  enum { VK = 130, VN = 19 };
  static int8_t v[VK], bm[VK * VN];
  int32_t acc[VN];
  fill_i8(v, VK, 13);
  fill_i8(bm, VK * VN, 14);
  for (int j = 0; j < VN; ++j) acc[j] = 1000 * j - 7000;
  mips_memref_i8_1d mv = DESC1(mips_memref_i8_1d, v, VK);
  mips_memref_i8_2d mbm = E2E_ROW_MAJOR(mips_memref_i8_2d, bm, VK, VN);
  mips_memref_i32_1d macc = DESC1(mips_memref_i32_1d, acc, VN);
  mips_memref_i32_1d r;
  expect_calls("vecmat", 1);
  _mlir_ciface_vecmat(&r, &mv, &mbm, &macc);
  for (int j = 0; j < VN; ++j) {
    int32_t want = 1000 * j - 7000;
    for (int l = 0; l < VK; ++l) want += v[l] * bm[l * VN + j];
    EXPECT(AT1(r, j) == want, "vecmat (%d) = %d, expected %d", j, AT1(r, j), want);
  }
  if (r.allocated != acc) free(r.allocated);
}

/* sum (a - za)(b - zb) over K, plus C; i32 wraps like the op's own arithmetic. */
static int32_t quantized_ref(const int8_t *a, const int8_t *b, int k, int lda, int ldb, int i,
                             int j, int32_t c, int32_t za, int32_t zb) {
  uint32_t sum = (uint32_t)c;
  for (int l = 0; l < k; ++l)
    sum += (uint32_t)(((int32_t)a[i * lda + l] - za) * ((int32_t)b[l * ldb + j] - zb));
  return (int32_t)sum;
}

static void check_quantized(void) {
  enum { M = 15, K = 77, N = 23 };
  static int8_t a[M * K], b[K * N];
  static int32_t c[M * N];
  fill_i8(a, M * K, 15);
  fill_i8(b, K * N, 16);
  for (int x = 0; x < M * N; ++x) c[x] = e2e_value(x, 100000);
  const int32_t za = -128, zb = 77;
  mips_memref_i8_2d ma = E2E_ROW_MAJOR(mips_memref_i8_2d, a, M, K);
  mips_memref_i8_2d mb = E2E_ROW_MAJOR(mips_memref_i8_2d, b, K, N);
  mips_memref_i32_2d mc = E2E_ROW_MAJOR(mips_memref_i32_2d, c, M, N);
  mips_memref_i32_2d r;
  expect_calls("quantized", 1);
  _mlir_ciface_quantized(&r, &ma, &mb, &mc, za, zb);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      int32_t want = quantized_ref(a, b, K, K, N, i, j, c[i * N + j], za, zb);
      EXPECT(E2E_AT(r, i, j) == want, "quantized (%d,%d) = %d, expected %d", i, j,
             E2E_AT(r, i, j), want);
    }
  if (r.allocated != c) free(r.allocated);

  enum { B = 2, QM = 11, QK = 50, QN = 7 };
  static int8_t qa[B * QM * QK], qb[B * QK * QN];
  fill_i8(qa, B * QM * QK, 17);
  fill_i8(qb, B * QK * QN, 18);
  mips_memref_i8_3d mqa = DESC3(mips_memref_i8_3d, qa, B, QM, QK);
  mips_memref_i8_3d mqb = DESC3(mips_memref_i8_3d, qb, B, QK, QN);
  mips_memref_i32_3d qr;
  expect_calls("quantized_batch", B);
  _mlir_ciface_quantized_batch(&qr, &mqa, &mqb);
  for (int p = 0; p < B; ++p)
    for (int i = 0; i < QM; ++i)
      for (int j = 0; j < QN; ++j) {
        int32_t want = quantized_ref(qa + p * QM * QK, qb + p * QK * QN, QK, QK, QN, i, j, 0, -7,
                                     100);
        EXPECT(AT3(qr, p, i, j) == want, "quantized_batch (%d,%d,%d) = %d, expected %d", p, i,
               j, AT3(qr, p, i, j), want);
      }
  free(qr.allocated);
}

/* Generalized forms: a matvec and its fill, a vecmat with the vector second, a batch
 * with a shared B, and linalg.contract. */
static void check_generic_forms(void) {
  enum { M = 33, K = 45 };
  static float a[M * K], x[K];
  fill_f32(a, M * K, 30);
  fill_f32(x, K, 31);
  mips_memref_f32_2d ma = E2E_ROW_MAJOR(mips_memref_f32_2d, a, M, K);
  mips_memref_f32_1d mx = DESC1(mips_memref_f32_1d, x, K);
  mips_memref_f32_1d y;
  expect_calls("generic_matvec", 1);
  _mlir_ciface_generic_matvec(&y, &ma, &mx);
  for (int i = 0; i < M; ++i) {
    float want = 0;
    for (int l = 0; l < K; ++l) want += a[i * K + l] * x[l];
    EXPECT(AT1(y, i) == want, "generic_matvec (%d) = %g, expected %g", i, AT1(y, i), want);
  }
  free(y.allocated);

  enum { VK = 70, VN = 26 };
  static int8_t bm[VK * VN], v[VK];
  int32_t acc[VN];
  fill_i8(bm, VK * VN, 32);
  fill_i8(v, VK, 33);
  for (int j = 0; j < VN; ++j) acc[j] = 313 * j - 4000;
  mips_memref_i8_2d mbm = E2E_ROW_MAJOR(mips_memref_i8_2d, bm, VK, VN);
  mips_memref_i8_1d mv = DESC1(mips_memref_i8_1d, v, VK);
  mips_memref_i32_1d macc = DESC1(mips_memref_i32_1d, acc, VN);
  mips_memref_i32_1d r;
  expect_calls("generic_vecmat_i8", 1);
  _mlir_ciface_generic_vecmat_i8(&r, &mbm, &mv, &macc);
  for (int j = 0; j < VN; ++j) {
    int32_t want = 313 * j - 4000;
    for (int l = 0; l < VK; ++l) want += v[l] * bm[l * VN + j];
    EXPECT(AT1(r, j) == want, "generic_vecmat_i8 (%d) = %d, expected %d", j, AT1(r, j), want);
  }
  if (r.allocated != acc) free(r.allocated);

  enum { B = 3, BM = 10, BK = 20, BN = 9 };
  static float ba[B * BM * BK], bb[BK * BN], bc[B * BM * BN];
  fill_f32(ba, B * BM * BK, 34);
  fill_f32(bb, BK * BN, 35);
  fill_f32(bc, B * BM * BN, 36);
  mips_memref_f32_3d mba = DESC3(mips_memref_f32_3d, ba, B, BM, BK);
  mips_memref_f32_2d mbb = E2E_ROW_MAJOR(mips_memref_f32_2d, bb, BK, BN);
  mips_memref_f32_3d mbc = DESC3(mips_memref_f32_3d, bc, B, BM, BN);
  mips_memref_f32_3d br;
  expect_calls("generic_batch_shared_b", B);
  _mlir_ciface_generic_batch_shared_b(&br, &mba, &mbb, &mbc);
  for (int p = 0; p < B; ++p)
    for (int i = 0; i < BM; ++i)
      for (int j = 0; j < BN; ++j) {
        float want = bc[(p * BM + i) * BN + j];
        for (int l = 0; l < BK; ++l) want += ba[(p * BM + i) * BK + l] * bb[l * BN + j];
        EXPECT(AT3(br, p, i, j) == want, "generic_batch_shared_b (%d,%d,%d) = %g, expected %g",
               p, i, j, AT3(br, p, i, j), want);
      }
  if (br.allocated != bc) free(br.allocated);

  enum { CM = 12, CK = 40, CN = 18 };
  static float ca[CM * CK], cbt[CN * CK], cc[CM * CN];
  fill_f32(ca, CM * CK, 37);
  fill_f32(cbt, CN * CK, 38);
  fill_f32(cc, CM * CN, 39);
  mips_memref_f32_2d mca = E2E_ROW_MAJOR(mips_memref_f32_2d, ca, CM, CK);
  mips_memref_f32_2d mcbt = E2E_ROW_MAJOR(mips_memref_f32_2d, cbt, CN, CK);
  mips_memref_f32_2d mcc = E2E_ROW_MAJOR(mips_memref_f32_2d, cc, CM, CN);
  mips_memref_f32_2d cr;
  expect_calls("contract", 1);
  _mlir_ciface_contract(&cr, &mca, &mcbt, &mcc);
  for (int i = 0; i < CM; ++i)
    for (int j = 0; j < CN; ++j) {
      float want = cc[i * CN + j];
      for (int l = 0; l < CK; ++l) want += ca[i * CK + l] * cbt[j * CK + l];
      EXPECT(E2E_AT(cr, i, j) == want, "contract (%d,%d) = %g, expected %g", i, j,
             E2E_AT(cr, i, j), want);
    }
  if (cr.allocated != cc) free(cr.allocated);
}

/* Quantized on buffers, in place: A with padded rows, B column-major, C a block of a
 * bigger matrix (nothing outside it may change); then a batch with a dynamic zb. */
static void check_quantized_memref(void) {
  enum { M = 14, K = 53, N = 19, LDA = 60, LDC = 25, ROW0 = 2, COL0 = 4, ROWS = M + ROW0 + 1 };
  static int8_t a[M * LDA], b_cm[N * K], b[K * N];
  static int32_t big[ROWS * LDC], before[ROWS * LDC];
  fill_i8(a, M * LDA, 40);
  fill_i8(b_cm, N * K, 41);
  for (int l = 0; l < K; ++l)
    for (int j = 0; j < N; ++j) b[l * N + j] = b_cm[j * K + l];
  for (int x = 0; x < ROWS * LDC; ++x) big[x] = before[x] = e2e_value(x + 7, 50000);
  const int32_t za = 13, zb = -128;
  mips_memref_i8_2d ma = {a, a, 0, {M, K}, {LDA, 1}};
  mips_memref_i8_2d mb = {b_cm, b_cm, 0, {K, N}, {1, K}};
  mips_memref_i32_2d mc = {big, big, ROW0 * LDC + COL0, {M, N}, {LDC, 1}};
  expect_calls("quantized_memref", 1);
  _mlir_ciface_quantized_memref(&ma, &mb, &mc, za, zb);
  for (int i = 0; i < ROWS; ++i)
    for (int j = 0; j < LDC; ++j) {
      int inside = i >= ROW0 && i < ROW0 + M && j >= COL0 && j < COL0 + N;
      int32_t want = inside ? quantized_ref(a, b, K, LDA, N, i - ROW0, j - COL0,
                                            before[i * LDC + j], za, zb)
                            : before[i * LDC + j];
      EXPECT(big[i * LDC + j] == want, "quantized_memref (%d,%d) = %d, expected %d%s", i, j,
             big[i * LDC + j], want, inside ? "" : " (outside the view)");
    }

  enum { B = 2, QM = 9, QK = 40, QN = 13 };
  static int8_t qa[B * QM * QK], qb[B * QK * QN];
  static int32_t qc[B * QM * QN], qbefore[B * QM * QN];
  fill_i8(qa, B * QM * QK, 42);
  fill_i8(qb, B * QK * QN, 43);
  for (int x = 0; x < B * QM * QN; ++x) qc[x] = qbefore[x] = e2e_value(x, 3000);
  mips_memref_i8_3d mqa = DESC3(mips_memref_i8_3d, qa, B, QM, QK);
  mips_memref_i8_3d mqb = DESC3(mips_memref_i8_3d, qb, B, QK, QN);
  mips_memref_i32_3d mqc = DESC3(mips_memref_i32_3d, qc, B, QM, QN);
  expect_calls("quantized_batch_memref", B);
  _mlir_ciface_quantized_batch_memref(&mqa, &mqb, &mqc, -3);
  for (int p = 0; p < B; ++p)
    for (int i = 0; i < QM; ++i)
      for (int j = 0; j < QN; ++j) {
        int32_t want = quantized_ref(qa + p * QM * QK, qb + p * QK * QN, QK, QK, QN, i, j,
                                     qbefore[(p * QM + i) * QN + j], 5, -3);
        EXPECT(qc[(p * QM + i) * QN + j] == want,
               "quantized_batch_memref (%d,%d,%d) = %d, expected %d", p, i, j,
               qc[(p * QM + i) * QN + j], want);
      }
}

static void check_tosa(void) {
  enum { B = 2, M = 16, K = 32, N = 24 };
  static float q[B * M * K], k[B * K * N];
  fill_f32(q, B * M * K, 19);
  fill_f32(k, B * K * N, 20);
  mips_memref_f32_3d mq = DESC3(mips_memref_f32_3d, q, B, M, K);
  mips_memref_f32_3d mk = DESC3(mips_memref_f32_3d, k, B, K, N);
  mips_memref_f32_3d r;
  expect_calls("tosa_f32", B);
  _mlir_ciface_tosa_f32(&r, &mq, &mk);
  for (int p = 0; p < B; ++p)
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        float want = 0;
        for (int l = 0; l < K; ++l) want += q[(p * M + i) * K + l] * k[(p * K + l) * N + j];
        EXPECT(AT3(r, p, i, j) == want, "tosa_f32 (%d,%d,%d) = %g, expected %g", p, i, j,
               AT3(r, p, i, j), want);
      }
  free(r.allocated);

  enum { QM = 16, QK = 64, QN = 8 };
  static int8_t a[QM * QK], b[QK * QN];
  fill_i8(a, QM * QK, 21);
  fill_i8(b, QK * QN, 22);
  mips_memref_i8_3d ma = DESC3(mips_memref_i8_3d, a, 1, QM, QK);
  mips_memref_i8_3d mb = DESC3(mips_memref_i8_3d, b, 1, QK, QN);
  mips_memref_i32_3d qr;
  expect_calls("tosa_i8", 1);
  _mlir_ciface_tosa_i8(&qr, &ma, &mb);
  for (int i = 0; i < QM; ++i)
    for (int j = 0; j < QN; ++j) {
      int32_t want = quantized_ref(a, b, QK, QK, QN, i, j, 0, 3, -5);
      EXPECT(AT3(qr, 0, i, j) == want, "tosa_i8 (%d,%d) = %d, expected %d", i, j,
             AT3(qr, 0, i, j), want);
    }
  free(qr.allocated);
}

/* C is a read-only argument, so the inline code reads its rows from it and writes a
 * new buffer: row-major, rows padded apart, row-major at an offset (all vector loads),
 * and column-major (the loops, after a copy). The argument must come back unchanged. */
static void check_tiny_inline(void) {
  int8_t a[16], b[16];
  int32_t c[32], before[32];
  for (int x = 0; x < 16; ++x) {
    a[x] = (int8_t)(x % 3 ? -128 : 127 - x);
    b[x] = (int8_t)(x % 2 ? -128 : x - 100);
  }
  for (int x = 0; x < 32; ++x) c[x] = 100 * x - 800;
  memcpy(before, c, sizeof c);
  static const int64_t c_layouts[4][3] = {{0, 4, 1}, {0, 8, 1}, {9, 4, 1}, {0, 1, 4}};
  for (int layout = 0; layout < 4; ++layout) {
    const int64_t at = c_layouts[layout][0], s0 = c_layouts[layout][1], s1 = c_layouts[layout][2];
    mips_memref_i8_2d ma = E2E_ROW_MAJOR(mips_memref_i8_2d, a, 4, 4);
    mips_memref_i8_2d mb = E2E_ROW_MAJOR(mips_memref_i8_2d, b, 4, 4);
    mips_memref_i32_2d mc = {c, c, at, {4, 4}, {s0, s1}};
    mips_memref_i32_2d r;
    expect_calls("tiny_i8", 0);
    _mlir_ciface_tiny_i8(&r, &ma, &mb, &mc);
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) {
        int32_t want = before[at + i * s0 + j * s1];
        for (int l = 0; l < 4; ++l) want += a[i * 4 + l] * b[l * 4 + j];
        EXPECT(E2E_AT(r, i, j) == want, "tiny_i8 C at %d strides (%d,%d): (%d,%d) = %d, expected %d",
               (int)at, (int)s0, (int)s1, i, j, E2E_AT(r, i, j), want);
      }
    EXPECT(memcmp(c, before, sizeof c) == 0, "tiny_i8 C at %d strides (%d,%d): wrote its argument C",
           (int)at, (int)s0, (int)s1);
    EXPECT(r.allocated != c, "tiny_i8 returned its argument C");
    if (r.allocated != c) free(r.allocated);
  }
}

/* Row-major operands (the vector path), then B column-major and C transposed (loops). */
static void check_tiny_views(void) {
  enum { M = 6, K = 4, N = 5 };
  float a[M * K], b[K * N], c[M * N], before[M * N];
  fill_f32(a, M * K, 23);
  fill_f32(b, K * N, 24);
  for (int layout = 0; layout < 2; ++layout) {
    fill_f32(c, M * N, 25 + layout);
    memcpy(before, c, sizeof c);
    mips_memref_f32_2d ma = E2E_ROW_MAJOR(mips_memref_f32_2d, a, M, K);
    /* layout 1: b holds B column-major, c holds C column-major */
    mips_memref_f32_2d mb = layout ? (mips_memref_f32_2d){b, b, 0, {K, N}, {1, K}}
                                   : E2E_ROW_MAJOR(mips_memref_f32_2d, b, K, N);
    mips_memref_f32_2d mc = layout ? (mips_memref_f32_2d){c, c, 0, {M, N}, {1, M}}
                                   : E2E_ROW_MAJOR(mips_memref_f32_2d, c, M, N);
    expect_calls(layout ? "tiny_views (strided)" : "tiny_views (row-major)", 0);
    _mlir_ciface_tiny_views(&ma, &mb, &mc);
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        const int at_c = layout ? j * M + i : i * N + j;
        float want = before[at_c];
        for (int l = 0; l < K; ++l) want += a[i * K + l] * b[layout ? j * K + l : l * N + j];
        EXPECT(c[at_c] == want, "tiny_views layout %d (%d,%d) = %g, expected %g", layout, i, j,
               c[at_c], want);
      }
  }
}

/* 18x5x20 inline on scalable vectors: row-major; C at an offset with rows padded apart
 * (still unit-stride rows: the vector path); B column-major, then A column-major (the
 * loops). Then A stored transposed, C overwritten. */
static void check_wide_views(void) {
  enum { M = 18, K = 5, N = 20, PAD = 23 };
  float a[M * K], b[K * N], c[7 + M * PAD], before[7 + M * PAD], at[K * M];
  fill_f32(a, M * K, 31);
  fill_f32(b, K * N, 32);
  for (int i = 0; i < M; ++i)
    for (int l = 0; l < K; ++l) at[l * M + i] = a[i * K + l];
  for (int layout = 0; layout < 4; ++layout) {
    fill_f32(c, 7 + M * PAD, 33 + layout);
    memcpy(before, c, sizeof c);
    const int64_t off = layout == 1 ? 7 : 0, s0 = layout == 1 ? PAD : N;
    /* layout 3: `at` holds A column-major */
    mips_memref_f32_2d ma = layout == 3 ? (mips_memref_f32_2d){at, at, 0, {M, K}, {1, M}}
                                        : E2E_ROW_MAJOR(mips_memref_f32_2d, a, M, K);
    mips_memref_f32_2d mb = layout == 2 ? (mips_memref_f32_2d){b, b, 0, {K, N}, {1, K}}
                                        : E2E_ROW_MAJOR(mips_memref_f32_2d, b, K, N);
    mips_memref_f32_2d mc = {c, c, off, {M, N}, {s0, 1}};
    expect_calls("wide_views", 0);
    _mlir_ciface_wide_views(&ma, &mb, &mc);
    for (int x = 0; x < 7 + M * PAD; ++x) {
      const int i = (int)((x - off) / s0), j = (int)((x - off) % s0);
      float want = before[x];
      if (x >= off && i < M && j < N)
        for (int l = 0; l < K; ++l) want += a[i * K + l] * b[layout == 2 ? j * K + l : l * N + j];
      EXPECT(c[x] == want, "wide_views layout %d element %d = %g, expected %g", layout, x, c[x],
             want);
    }
  }
  fill_f32(c, M * N, 36);
  mips_memref_f32_2d mat = E2E_ROW_MAJOR(mips_memref_f32_2d, at, K, M);
  mips_memref_f32_2d mb = E2E_ROW_MAJOR(mips_memref_f32_2d, b, K, N);
  mips_memref_f32_2d mc = E2E_ROW_MAJOR(mips_memref_f32_2d, c, M, N);
  expect_calls("wide_transposed", 0);
  _mlir_ciface_wide_transposed(&mat, &mb, &mc);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float want = 0.0f;
      for (int l = 0; l < K; ++l) want += a[i * K + l] * b[l * N + j];
      EXPECT(c[i * N + j] == want, "wide_transposed (%d,%d) = %g, expected %g", i, j, c[i * N + j],
             want);
    }
}

int main(void) {
  check_batch();
  check_batch_transposed();
  check_generic_i8();
  check_memref_matmul();
  check_matvec_vecmat();
  check_quantized();
  check_generic_forms();
  check_quantized_memref();
  check_tosa();
  check_tiny_inline();
  check_tiny_views();
  check_wide_views();
  expect_calls("end", 0);
  return e2e_finish("forms");
}
