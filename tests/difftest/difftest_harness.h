/* SPDX-License-Identifier: Apache-2.0 */
/* What every generated harness (harness.py) shares: it lays each argument out in memory
 * as the case says (dense, at an offset, with padded rows, transposed, or broadcast
 * along its first axis through a zero stride), with the gaps poisoned; calls the
 * function; checks that no argument it may only read changed and that no byte outside
 * an output view changed; and writes each result, densely, to the outputs file.
 *
 * Built with DT_REFERENCE for the upstream-only reference, whose tensor arguments are
 * plain row-major memrefs: there every tensor argument is dense. Memref arguments
 * carry their strides in the type, so both sides get the same view.
 *
 * Files: inputs = int64 case count, int64 byte offset per case, then each case's
 * arguments densely in order. outputs = per case run: int64 case, int64 flags, int64
 * element count, int64 element bytes, then the elements. */
#ifndef DIFFTEST_HARNESS_H
#define DIFFTEST_HARNESS_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DT_MAX_RANK 6
#define DT_GUARD 8 /* poisoned elements before and after every argument's view */

/* MLIR's memref descriptor for any rank up to DT_MAX_RANK: sizes in dims[0..rank),
 * strides in dims[rank..2*rank). */
typedef struct dt_memref {
  void *allocated;
  void *aligned;
  int64_t offset;
  int64_t dims[2 * DT_MAX_RANK];
} dt_memref;

enum dt_view { DT_DENSE, DT_OFFSET, DT_PADDED, DT_TRANSPOSED, DT_BROADCAST };

enum dt_flags {
  DT_INPUT_CHANGED = 1,        /* an argument the function only reads was written */
  DT_OUTSIDE_VIEW_WRITTEN = 2, /* a byte of an output's storage outside its view changed */
  DT_RESULT_ALIASES_ARG = 4,   /* the result is an argument's storage, not a new buffer */
};

typedef struct dt_arg {
  dt_memref d;
  int rank, elem_bytes, output;
  int64_t sizes[DT_MAX_RANK], strides[DT_MAX_RANK], offset, storage_elems;
  unsigned char *storage, *copy;
} dt_arg;

typedef struct dt_io {
  FILE *in, *out;
  int64_t case_count;
  int64_t *case_offsets;
  int64_t flags;
} dt_io;

static void dt_die(const char *what) {
  fprintf(stderr, "difftest harness: %s\n", what);
  exit(2);
}

static void dt_read(dt_io *io, void *to, size_t bytes) {
  if (bytes && fread(to, 1, bytes, io->in) != bytes) dt_die("inputs file too short");
}

static int64_t dt_count(int rank, const int64_t *sizes) {
  int64_t n = 1;
  for (int i = 0; i < rank; ++i) n *= sizes[i];
  return n;
}

/* Storage position of dense element `linear` of a view. */
static int64_t dt_position(int rank, const int64_t *sizes, const int64_t *strides, int64_t offset,
                           int64_t linear) {
  int64_t at = offset;
  for (int i = rank - 1; i >= 0; --i) {
    at += (linear % sizes[i]) * strides[i];
    linear /= sizes[i];
  }
  return at;
}

/* Reads one argument's dense data and lays it out as `view`. */
static void dt_arg_make(dt_io *io, dt_arg *arg, int rank, int elem_bytes, const int64_t *sizes,
                        int view, int is_memref, int output) {
  memset(arg, 0, sizeof *arg);
  arg->rank = rank;
  arg->elem_bytes = elem_bytes;
  arg->output = output;
#ifdef DT_REFERENCE
  if (!is_memref) view = DT_DENSE;
#else
  (void)is_memref;
#endif
  const int64_t count = dt_count(rank, sizes);
  for (int i = 0; i < rank; ++i) arg->sizes[i] = sizes[i];
  /* Row-major strides, padded ones, or column-major ones. */
  int64_t stride = 1;
  for (int i = rank - 1; i >= 0; --i) {
    arg->strides[i] = stride;
    int64_t extent = sizes[i] > 0 ? sizes[i] : 1;
    stride *= view == DT_PADDED && i == rank - 1 ? extent + 3 : extent;
  }
  if (view == DT_TRANSPOSED) {
    stride = 1;
    for (int i = 0; i < rank; ++i) {
      arg->strides[i] = stride;
      stride *= sizes[i] > 0 ? sizes[i] : 1;
    }
  }
  arg->offset = view == DT_OFFSET ? 5 : view == DT_PADDED ? 2 : view == DT_TRANSPOSED ? 1 : 0;
  if (view == DT_BROADCAST && rank > 0) arg->strides[0] = 0;
  int64_t extent = 0;
  for (int i = 0; i < rank; ++i)
    if (sizes[i] > 0) extent += (sizes[i] - 1) * arg->strides[i];
  /* Poisoned guards on both sides of the view: `aligned` starts DT_GUARD elements
   * into the storage, so a write just before element 0 is caught too. */
  arg->storage_elems = DT_GUARD + arg->offset + extent + 1 + DT_GUARD;
  const size_t bytes = (size_t)(arg->storage_elems * elem_bytes);
  arg->storage = malloc(bytes);
  arg->copy = malloc(bytes);
  if (!arg->storage || !arg->copy) dt_die("out of memory");
  memset(arg->storage, 0xFF, bytes); /* NaN for f32, -1 for integers */
  unsigned char *dense = malloc((size_t)(count * elem_bytes) + 1);
  if (!dense) dt_die("out of memory");
  dt_read(io, dense, (size_t)(count * elem_bytes));
  for (int64_t e = 0; e < count; ++e) {
    const int64_t at = DT_GUARD + dt_position(rank, sizes, arg->strides, arg->offset, e);
    memcpy(arg->storage + at * elem_bytes, dense + e * elem_bytes, (size_t)elem_bytes);
  }
  free(dense);
  memcpy(arg->copy, arg->storage, bytes);
  arg->d.allocated = arg->storage;
  arg->d.aligned = arg->storage + DT_GUARD * elem_bytes;
  arg->d.offset = arg->offset;
  for (int i = 0; i < rank; ++i) {
    arg->d.dims[i] = sizes[i];
    arg->d.dims[rank + i] = arg->strides[i];
  }
}

static void dt_write_header(dt_io *io, int64_t case_index, int64_t count, int64_t elem_bytes) {
  const int64_t header[4] = {case_index, io->flags, count, elem_bytes};
  fwrite(header, sizeof header, 1, io->out);
}

/* Writes a view's elements densely. */
static void dt_write_view(dt_io *io, int64_t case_index, const void *aligned, int64_t offset,
                          int rank, const int64_t *sizes, const int64_t *strides, int elem_bytes) {
  const int64_t count = dt_count(rank, sizes);
  dt_write_header(io, case_index, count, elem_bytes);
  const unsigned char *base = aligned;
  for (int64_t e = 0; e < count; ++e) {
    const int64_t at = dt_position(rank, sizes, strides, offset, e);
    fwrite(base + at * elem_bytes, (size_t)elem_bytes, 1, io->out);
  }
}

/* After the call: read-only arguments unchanged, outputs unchanged outside their
 * view. An output's view is compared by the caller through the outputs file. */
static void dt_check_args(dt_io *io, dt_arg *const *args, int n) {
  for (int a = 0; a < n; ++a) {
    dt_arg *arg = args[a];
    const int64_t eb = arg->elem_bytes;
    if (!arg->output) {
      if (memcmp(arg->storage, arg->copy, (size_t)(arg->storage_elems * eb)) != 0)
        io->flags |= DT_INPUT_CHANGED;
      continue;
    }
    /* Restore the view's elements in the copy, then the whole storage must match. */
    const int64_t count = dt_count(arg->rank, arg->sizes);
    for (int64_t e = 0; e < count; ++e) {
      const int64_t at = DT_GUARD + dt_position(arg->rank, arg->sizes, arg->strides, arg->offset, e);
      memcpy(arg->copy + at * eb, arg->storage + at * eb, (size_t)eb);
    }
    if (memcmp(arg->storage, arg->copy, (size_t)(arg->storage_elems * eb)) != 0)
      io->flags |= DT_OUTSIDE_VIEW_WRITTEN;
  }
}

static void dt_write_result(dt_io *io, int64_t case_index, dt_memref *result, int rank,
                            int elem_bytes, dt_arg *const *args, int n) {
  for (int a = 0; a < n; ++a) {
    const unsigned char *lo = args[a]->storage;
    const unsigned char *hi = lo + args[a]->storage_elems * args[a]->elem_bytes;
    const unsigned char *allocated = result->allocated, *aligned = result->aligned;
    if ((allocated >= lo && allocated < hi) || (aligned >= lo && aligned < hi))
      io->flags |= DT_RESULT_ALIASES_ARG;
  }
  dt_write_view(io, case_index, result->aligned, result->offset, rank, result->dims,
                result->dims + rank, elem_bytes);
  if (!(io->flags & DT_RESULT_ALIASES_ARG)) free(result->allocated);
}

static void dt_free_args(dt_arg *const *args, int n) {
  for (int a = 0; a < n; ++a) {
    free(args[a]->storage);
    free(args[a]->copy);
  }
}

typedef void (*dt_case_fn)(dt_io *io, int64_t case_index);

/* usage: harness <inputs> <outputs> [case]: runs every case, or only that one. Each
 * case's name goes to stderr first, so a crash names it. */
static int dt_main(int argc, char **argv, const dt_case_fn *cases, int64_t count) {
  if (argc < 3) dt_die("usage: harness <inputs> <outputs> [case]");
  dt_io io = {0};
  io.in = fopen(argv[1], "rb");
  io.out = fopen(argv[2], "wb");
  if (!io.in || !io.out) dt_die("cannot open the inputs or outputs file");
  dt_read(&io, &io.case_count, sizeof io.case_count);
  if (io.case_count != count) dt_die("the inputs file is for another harness");
  io.case_offsets = malloc((size_t)count * sizeof *io.case_offsets + 1);
  dt_read(&io, io.case_offsets, (size_t)count * sizeof *io.case_offsets);
  int64_t first = 0, last = count;
  if (argc > 3) {
    first = strtoll(argv[3], NULL, 10);
    last = first + 1;
    if (first < 0 || first >= count) dt_die("no such case");
  }
  for (int64_t c = first; c < last; ++c) {
    fprintf(stderr, "case %lld\n", (long long)c);
    fflush(stderr);
    fflush(io.out);
    if (fseek(io.in, (long)io.case_offsets[c], SEEK_SET) != 0) dt_die("bad case offset");
    io.flags = 0;
    cases[c](&io, c);
  }
  fclose(io.out);
  fclose(io.in);
  free(io.case_offsets);
  return 0;
}

#endif
