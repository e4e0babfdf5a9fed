/* SPDX-License-Identifier: Apache-2.0 */
/* ScaLAPACK's psgemm on a 2 x 2 process grid (2-D block-cyclic, uneven blocks), linked
 * with libmips-blas ahead of the system BLAS: each rank's local products go through
 * sgemm_ into libmips. Every rank checks its part of C against the product computed
 * from the global formulas, and that its sgemm calls reached libmips. */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

void Cblacs_pinfo(int *rank, int *nprocs);
void Cblacs_get(int context, int what, int *value);
void Cblacs_gridinit(int *context, const char *order, int nprow, int npcol);
void Cblacs_gridinfo(int context, int *nprow, int *npcol, int *myrow, int *mycol);
void Cblacs_gridexit(int context);
void Cblacs_exit(int keep_mpi);
int numroc_(const int *n, const int *nb, const int *iproc, const int *isrcproc, const int *nprocs);
void descinit_(int *desc, const int *m, const int *n, const int *mb, const int *nb,
               const int *irsrc, const int *icsrc, const int *context, const int *lld, int *info);
void psgemm_(const char *transa, const char *transb, const int *m, const int *n, const int *k,
             const float *alpha, const float *a, const int *ia, const int *ja, const int *desca,
             const float *b, const int *ib, const int *jb, const int *descb, const float *beta,
             float *c, const int *ic, const int *jc, const int *descc);
unsigned long long mips_blas_calls(void); /* libmips-blas's counter */

enum { M = 100, N = 90, K = 70, BLOCK = 8, GRID = 2 };

/* Quarter-integers: every product and sum below is exact in float. */
static float a_at(int i, int l) { return (float)((i * 7 + l * 3) % 11 - 5) / 4; }
static float b_at(int l, int j) { return (float)((l * 5 + j * 2) % 9 - 4) / 4; }
static float c_at(int i, int j) { return (float)((i + 2 * j) % 5 - 2); }

/* A distributed rows x cols matrix: this rank's column-major local part. */
typedef struct { int rows, cols, local_rows, local_cols, desc[9]; float *data; } dist;

static int global_index(int local, int coord) { return (local / BLOCK * GRID + coord) * BLOCK + local % BLOCK; }

static dist make(int context, int rows, int cols, int myrow, int mycol, float (*at)(int, int),
                 int transposed) {
  dist d = {rows, cols, 0, 0, {0}, NULL};
  int zero = 0, grid = GRID, block = BLOCK, info;
  d.local_rows = numroc_(&rows, &block, &myrow, &zero, &grid);
  d.local_cols = numroc_(&cols, &block, &mycol, &zero, &grid);
  int lld = d.local_rows > 1 ? d.local_rows : 1;
  descinit_(d.desc, &rows, &cols, &block, &block, &zero, &zero, &context, &lld, &info);
  if (info) { fprintf(stderr, "descinit_: info %d\n", info); MPI_Abort(MPI_COMM_WORLD, 1); }
  d.data = malloc(sizeof(float) * (size_t)(lld * (d.local_cols > 0 ? d.local_cols : 1)));
  for (int lj = 0; lj < d.local_cols; ++lj)
    for (int li = 0; li < d.local_rows; ++li) {
      int gi = global_index(li, myrow), gj = global_index(lj, mycol);
      d.data[li + lj * lld] = transposed ? at(gj, gi) : at(gi, gj);
    }
  return d;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, nprocs, context, nprow, npcol, myrow, mycol;
  Cblacs_pinfo(&rank, &nprocs);
  if (nprocs != GRID * GRID) {
    if (rank == 0) fprintf(stderr, "psgemm_check: run on %d ranks, not %d\n", GRID * GRID, nprocs);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  Cblacs_get(-1, 0, &context);
  Cblacs_gridinit(&context, "Row", GRID, GRID);
  Cblacs_gridinfo(context, &nprow, &npcol, &myrow, &mycol);

  /* C = A B, then C = 1.5 A'^T B + 0.5 C with A' stored K x M. */
  dist a = make(context, M, K, myrow, mycol, a_at, 0);
  dist a_t = make(context, K, M, myrow, mycol, a_at, 1);
  dist b = make(context, K, N, myrow, mycol, b_at, 0);
  dist c = make(context, M, N, myrow, mycol, c_at, 0);
  int m = M, n = N, k = K, one = 1;
  float alpha = 1, beta = 0, alpha2 = 1.5f, beta2 = 0.5f;
  unsigned long long before = mips_blas_calls();
  psgemm_("N", "N", &m, &n, &k, &alpha, a.data, &one, &one, a.desc, b.data, &one, &one, b.desc,
          &beta, c.data, &one, &one, c.desc);
  psgemm_("T", "N", &m, &n, &k, &alpha2, a_t.data, &one, &one, a_t.desc, b.data, &one, &one,
          b.desc, &beta2, c.data, &one, &one, c.desc);
  unsigned long long calls = mips_blas_calls() - before;

  int wrong = 0;
  int lld = c.local_rows > 1 ? c.local_rows : 1;
  for (int lj = 0; lj < c.local_cols; ++lj)
    for (int li = 0; li < c.local_rows; ++li) {
      int gi = global_index(li, myrow), gj = global_index(lj, mycol);
      double product = 0;
      for (int l = 0; l < K; ++l) product += (double)a_at(gi, l) * b_at(l, gj);
      double expected = 1.5 * product + 0.5 * product;
      if (fabs(c.data[li + lj * lld] - expected) > 1e-3 && wrong++ < 3)
        fprintf(stderr, "rank %d: C(%d, %d) = %g, expected %g\n", rank, gi, gj,
                (double)c.data[li + lj * lld], expected);
    }
  if (calls == 0 && c.local_rows * c.local_cols > 0) {
    fprintf(stderr, "rank %d: no local sgemm reached libmips\n", rank);
    wrong++;
  }
  printf("rank %d (grid %d,%d): local C %dx%d, %d wrong, %llu sgemm calls in libmips\n", rank,
         myrow, mycol, c.local_rows, c.local_cols, wrong, calls);
  int total = 0;
  MPI_Allreduce(&wrong, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf("psgemm %dx%dx%d on %d ranks: %s\n", M, N, K, nprocs, total ? "FAILED" : "correct");
  Cblacs_gridexit(context);
  Cblacs_exit(1);
  MPI_Finalize();
  return total != 0;
}
