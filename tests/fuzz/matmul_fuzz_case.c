/* SPDX-License-Identifier: Apache-2.0 */
/* Decodes a matmul call from fuzz bytes, runs it, and checks it against the contract:
 *  - the status is exactly the one expected_status.h derives from abi/ABI.md;
 *  - on error, nothing was written; on success, A and B are unchanged, C's storage
 *    outside the view is unchanged, and C matches a double/int64 reference;
 *  - each matrix lives in a buffer of exactly its extent (lowest to highest element),
 *    so an access outside it is caught: by AddressSanitizer, or without it (riscv64
 *    under qemu) by inaccessible guard pages on either side, flush with one end;
 *  - without accumulation C is poisoned first (NaN, or a marker for int32), and the
 *    gaps a strided view leaves are poisoned too, so reading them shows in the result. */
#define _DEFAULT_SOURCE /* mmap flags */
#include "matmul_fuzz_case.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expected_status.h"

#if defined(__SANITIZE_ADDRESS__)
#define FUZZ_WITH_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FUZZ_WITH_ASAN 1
#endif
#endif
#ifndef FUZZ_WITH_ASAN
#include <sys/mman.h>
#include <unistd.h>
#endif

/* Bounds on what a case may allocate and compute; bigger successful calls are skipped. */
enum { MAX_SPAN = 1 << 18, MAX_WORK = 1 << 16 };

/*------------------------------------------------------------------------------------
 * Decoding. Every byte string decodes (missing bytes read as zero), and the common
 * selector values give small, valid, runnable problems.
 *----------------------------------------------------------------------------------*/
typedef struct reader {
  const uint8_t *p;
  size_t left;
} reader;

static uint8_t take8(reader *r) {
  if (r->left == 0) return 0;
  r->left--;
  return *r->p++;
}

static uint64_t take_bytes(reader *r, int count) {
  uint64_t v = 0;
  for (int i = 0; i < count; i++) v |= (uint64_t)take8(r) << (8 * i);
  return v;
}

/* Values where arithmetic on dimensions, strides and offsets tends to break. */
static const int64_t special_values[] = {
    0, 1, -1, 2, -2, 3, 31, 256, -257, 65535, 1 << 20,
    INT32_MAX, (int64_t)INT32_MAX + 1, INT32_MIN, UINT32_MAX, (int64_t)1 << 32,
    (int64_t)1 << 40, -((int64_t)1 << 40), (int64_t)1 << 53, (int64_t)1 << 61, (int64_t)1 << 62,
    -((int64_t)1 << 62), INT64_MAX / 2, INT64_MAX / 2 + 1, INT64_MAX / 4, INT64_MAX / 4 + 1,
    INT64_MAX / 8 + 1, INT64_MAX - 1, INT64_MAX, INT64_MIN, INT64_MIN + 1, INT64_MIN / 2,
    INT64_MIN / 4, INT64_MIN / 4 - 1};
#define SPECIAL_COUNT (sizeof special_values / sizeof special_values[0])

static int64_t take_special(reader *r) { return special_values[take8(r) % SPECIAL_COUNT]; }

static int64_t clamp64(wide v) {
  return v > INT64_MAX ? INT64_MAX : v < INT64_MIN ? INT64_MIN : (int64_t)v;
}

static int64_t take_dim(reader *r) {
  const uint8_t sel = take8(r) % 32;
  if (sel < 24) return take8(r) % 33;
  if (sel < 29) return 1 + (int64_t)(take_bytes(r, 2) % 300);
  if (sel == 29) return -1 - (int64_t)take8(r);
  if (sel == 30) return take_special(r);
  return (int64_t)take_bytes(r, 8);
}

static void take_strides(reader *r, int64_t rows, int64_t cols, model_view *v) {
  const uint8_t sel = take8(r) % 32, bits = take8(r);
  const wide pad = bits & 3;
  wide s0, s1;
  if (sel < 6) { /* row-major */
    s0 = (wide)cols + pad, s1 = 1;
  } else if (sel < 10) { /* column-major */
    s0 = 1, s1 = (wide)rows + pad;
  } else if (sel == 10) { /* broadcasts: one stride, or both, zero */
    s0 = (bits & 4) ? 0 : cols, s1 = (bits & 8) ? 0 : 1;
    if (!(bits & 12)) s0 = 0;
  } else if (sel == 11) { /* small, arbitrary, possibly colliding */
    s0 = (int)(take8(r) % 41) - 20, s1 = (int)(take8(r) % 41) - 20;
  } else if (sel == 12) { /* both strides above 1, interleaved */
    s0 = 2 + (bits & 1), s1 = s0 * (wide)rows + 1;
  } else if (sel == 13) {
    s0 = take_special(r), s1 = take_special(r);
  } else if (sel == 14) {
    s0 = (int64_t)take_bytes(r, 8), s1 = (int64_t)take_bytes(r, 8);
  } else if (sel == 15) { /* row-major with a long row pitch */
    s0 = (wide)cols + (wide)take_bytes(r, 2), s1 = 1;
  } else if (sel < 24) {
    s0 = (wide)cols + pad, s1 = 1;
  } else {
    s0 = 1, s1 = (wide)rows + pad;
  }
  if (sel < 10 || sel >= 15) {
    if (bits & 16) s0 = -s0;
    if (bits & 32) s1 = -s1;
  }
  v->stride0 = clamp64(s0), v->stride1 = clamp64(s1);
}

/* The offset that puts the lowest element at index 0, when the extent fits int64. */
static wide natural_offset(const model_view *v, int64_t rows, int64_t cols) {
  if (rows < 1 || cols < 1) return 0;
  model_view at_zero = *v;
  at_zero.offset = 0;
  wide lo, hi;
  model_extent(&at_zero, rows, cols, &lo, &hi);
  return -lo;
}

static void take_offset(reader *r, int64_t rows, int64_t cols, model_view *v) {
  const uint8_t sel = take8(r) % 32;
  const wide natural = natural_offset(v, rows, cols);
  wide offset;
  if (sel < 12 || sel > 15) offset = natural + take8(r) % 3;
  else if (sel == 12) offset = natural - 1 - take8(r);
  else if (sel == 13) offset = take_special(r);
  else if (sel == 14) offset = (int64_t)take_bytes(r, 8);
  else offset = natural + take_special(r);
  v->offset = clamp64(offset);
}

static void take_view(reader *r, int64_t rows, int64_t cols, model_view *v) {
  take_strides(r, rows, cols, v);
  take_offset(r, rows, cols, v);
  v->null = take8(r) % 32 == 31;
}

typedef struct fuzz_call {
  bool i8;
  model_call call;
  bool ab_share_storage; /* B's base is A's base, in one buffer holding both */
  uint8_t value_mode;
  uint64_t value_seed;
  bool packed; /* through mips_pack_b_* and mips_matmul_packed_* (1.2) */
} fuzz_call;

static fuzz_call decode(const uint8_t *data, size_t size) {
  reader r = {data, size};
  fuzz_call fc;
  memset(&fc, 0, sizeof fc);
  fc.i8 = take8(&r) & 1;
  const uint8_t flag_sel = take8(&r) % 32;
  if (flag_sel < 11) fc.call.flags = 0;
  else if (flag_sel < 15) /* 1.2: any order, with or without accumulation */
    fc.call.flags = MIPS_MATMUL_ANY_ORDER | (flag_sel & MIPS_MATMUL_ACCUMULATE);
  else if (flag_sel < 29) fc.call.flags = MIPS_MATMUL_ACCUMULATE;
  else if (flag_sel == 29) fc.call.flags = (take8(&r) & MIPS_MATMUL_ACCUMULATE) | MIPS_MATMUL_MAX_THREADS(take8(&r));
  else if (flag_sel == 30) fc.call.flags = (take8(&r) & MIPS_MATMUL_ACCUMULATE) | 1u << (take8(&r) % 32);
  else fc.call.flags = (uint32_t)take_bytes(&r, 4);
  model_call *call = &fc.call;
  call->m = take_dim(&r), call->n = take_dim(&r), call->k = take_dim(&r);
  take_view(&r, call->m, call->k, &call->a);
  take_view(&r, call->k, call->n, &call->b);
  take_view(&r, call->m, call->n, &call->c);
  fc.ab_share_storage = take8(&r) % 8 == 7;
  fc.value_mode = take8(&r);
  fc.value_seed = take_bytes(&r, 8);
  /* Last, so that inputs written before 1.2 decode as they did. Only shapes whose
   * packed copy is small: the packed size is not part of the model. */
  fc.packed = take8(&r) % 4 == 3 && (wide)call->k * call->n <= MAX_SPAN;
  call->in_size = fc.i8 ? sizeof(int8_t) : sizeof(float);
  call->out_size = fc.i8 ? sizeof(int32_t) : sizeof(float);
  return fc;
}

/*------------------------------------------------------------------------------------
 * Storage: exact-extent buffers.
 *----------------------------------------------------------------------------------*/
typedef struct storage {
  unsigned char *data; /* element at index lo */
  size_t bytes;
  void *mapping;
  size_t mapping_bytes;
} storage;

/* Every byte before data and from data + bytes on is out of bounds. Without ASan the
 * buffer sits against a PROT_NONE page on one side (flush_right picks which). */
static bool storage_alloc(storage *s, size_t bytes, bool flush_right) {
  memset(s, 0, sizeof *s);
  s->bytes = bytes;
#ifdef FUZZ_WITH_ASAN
  (void)flush_right;
  s->data = malloc(bytes);
  return s->data != NULL || bytes == 0;
#else
  const size_t page = (size_t)sysconf(_SC_PAGESIZE);
  const size_t body = (bytes + page - 1) / page * page;
  s->mapping_bytes = body + 2 * page;
  unsigned char *map = mmap(NULL, s->mapping_bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (map == MAP_FAILED) return false;
  if (body && mprotect(map + page, body, PROT_READ | PROT_WRITE) != 0) {
    munmap(map, s->mapping_bytes);
    return false;
  }
  s->mapping = map;
  s->data = flush_right ? map + page + body - bytes : map + page;
  return true;
#endif
}

static void storage_free(storage *s) {
#ifdef FUZZ_WITH_ASAN
  free(s->data);
#else
  if (s->mapping) munmap(s->mapping, s->mapping_bytes);
#endif
  memset(s, 0, sizeof *s);
}

/* One operand as the call sees it: its storage (maybe shared), base and view bitmap. */
typedef struct operand {
  const char *name;
  model_view *view;
  int64_t rows, cols;
  size_t elem;
  bool accessed;
  wide lo, hi;        /* extent of the storage, in elements relative to base */
  storage *store;     /* NULL: no storage, base is a decoy or NULL */
  void *base;
  unsigned char *before; /* copy of the storage before the call */
  uint8_t *in_view;      /* per storage element: 1 if some (i, j) maps to it */
} operand;

static int64_t view_index(const model_view *v, int64_t i, int64_t j) {
  return v->offset + i * v->stride0 + j * v->stride1;
}

/* base = data - lo elements, unless that pointer would wrap around the address space. */
static bool base_for(unsigned char *data, wide lo, size_t elem, void **base) {
  const wide shift = lo * (wide)elem, addr = (wide)(uintptr_t)data - shift;
  if (addr <= 0 || addr >= ((wide)1 << 62)) return false;
  *base = (void *)(uintptr_t)addr;
  return true;
}

/*------------------------------------------------------------------------------------
 * Values.
 *----------------------------------------------------------------------------------*/
static uint64_t splitmix(uint64_t *state) {
  uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/* Magnitudes stay below 2^13, so no f32 sum over k <= 2^16 terms can overflow: a NaN
 * or Inf in the result has only the inputs' NaN and Inf as its cause. */
static float f32_value(uint64_t *rng, uint8_t mode, bool *nonfinite) {
  const uint64_t x = splitmix(rng);
  switch (mode % 8) {
    case 4:
    case 5: { /* any mantissa, exponent in [-12, 12] */
      const float mant = 1.0f + (float)(x & 0x7FFFFF) / (float)(1 << 23);
      const float v = ldexpf(mant, (int)((x >> 23) % 25) - 12);
      return (x >> 48) & 1 ? -v : v;
    }
    case 6: /* small integers with the odd special value */
      if ((x >> 32) % 16 == 0) {
        static const float specials[] = {NAN, INFINITY, -INFINITY, -0.0f, 0.0f, FLT_TRUE_MIN, -FLT_MIN};
        const float v = specials[(x >> 8) % 7];
        if (!isfinite(v)) *nonfinite = true;
        return v;
      }
      return (float)((int)(x % 17) - 8);
    case 7: { /* mostly zeros and infinities: Inf * 0 */
      static const float mix[] = {0.0f, -0.0f, INFINITY, -INFINITY, 1.0f, -2.0f, 0.0f, NAN};
      const float v = mix[x % 8];
      if (!isfinite(v)) *nonfinite = true;
      return v;
    }
    default:
      return (float)((int)(x % 17) - 8);
  }
}

static int8_t i8_value(uint64_t *rng, uint8_t mode) {
  const uint64_t x = splitmix(rng);
  switch (mode % 8) {
    case 4: return (x & 1) ? INT8_MIN : INT8_MAX;
    case 5: return (int8_t)((int)(x % 5) - 2);
    default: return (int8_t)(uint8_t)x;
  }
}

static int32_t i32_value(uint64_t *rng, uint8_t mode) {
  const uint64_t x = splitmix(rng);
  if (mode % 8 == 4) return (x & 1) ? INT32_MAX - (int32_t)(x % 1000) : INT32_MIN + (int32_t)(x % 1000);
  return (int32_t)(uint32_t)(x >> 7);
}

/* Fills never read (the gaps of strided views, overwritten C): a value that would
 * show in any result it reached. */
static void poison_element(bool out, bool i8, unsigned char *p) {
  if (i8 && out) {
    const int32_t marker = (int32_t)0x7EADBEEF;
    memcpy(p, &marker, sizeof marker);
  } else if (i8) {
    *(int8_t *)p = INT8_MIN;
  } else {
    const float nan = NAN;
    memcpy(p, &nan, sizeof nan);
  }
}

/*------------------------------------------------------------------------------------
 * The case.
 *----------------------------------------------------------------------------------*/
static void describe_view(const char *name, const model_view *v) {
  fprintf(stderr, "  %s: %s offset %" PRId64 ", strides (%" PRId64 ", %" PRId64 ")\n", name,
          v->null ? "NULL," : "", v->offset, v->stride0, v->stride1);
}

static void describe(const fuzz_call *fc, int expected, int got) {
  const model_call *c = &fc->call;
  fprintf(stderr, "matmul fuzz: contract broken by mips_matmul_%s%s(m %" PRId64 ", n %" PRId64
          ", k %" PRId64 ", flags 0x%x)%s\n", fc->packed ? "packed_" : "", fc->i8 ? "i8i32" : "f32", c->m, c->n, c->k,
          c->flags, fc->ab_share_storage ? ", A and B in one buffer" : "");
  describe_view("A", &c->a);
  describe_view("B", &c->b);
  describe_view("C", &c->c);
  fprintf(stderr, "  status: expected %d (%s), got %d (%s); values: mode %u seed 0x%" PRIx64 "\n",
          expected, mips_status_string(expected), got, mips_status_string(got), fc->value_mode % 8,
          fc->value_seed);
}

static bool operand_has_storage(const operand *op) { return op->store != NULL; }

/* Sets up storage for an accessed operand whose extent is small enough. */
static bool operand_prepare(operand *op, storage *store, bool flush_right) {
  if (!storage_alloc(store, (size_t)(op->hi - op->lo + 1) * op->elem, flush_right)) return false;
  op->store = store;
  const size_t count = (size_t)(op->hi - op->lo + 1);
  op->in_view = calloc(count ? count : 1, 1);
  op->before = malloc(store->bytes ? store->bytes : 1);
  return op->in_view && op->before;
}

static void mark_view(operand *op, const model_view *v, int64_t rows, int64_t cols) {
  for (int64_t i = 0; i < rows; i++)
    for (int64_t j = 0; j < cols; j++) op->in_view[view_index(v, i, j) - (int64_t)op->lo] = 1;
}

static double in_at(const fuzz_call *fc, const void *base, const model_view *v, int64_t i, int64_t j) {
  const int64_t idx = view_index(v, i, j);
  return fc->i8 ? (double)((const int8_t *)base)[idx] : (double)((const float *)base)[idx];
}

int fuzz_matmul_case(const uint8_t *data, size_t size, fuzz_tally *tally) {
  fuzz_call fc = decode(data, size);
  model_call *call = &fc.call;
  int (*const expected_status)(const model_call *) =
      fc.packed ? model_expected_packed_status : model_expected_status;
  int expected = expected_status(call);
  tally->cases++;

  const bool reads = model_reads_inputs(call), writes = model_writes_c(call);
  /* Packing reads B whenever it has elements, whatever m. */
  const bool reads_b = fc.packed ? call->k > 0 && call->n > 0 : reads;
  operand ops[3] = {
      {"A", &call->a, call->m, call->k, call->in_size, reads, 0, 0, NULL, NULL, NULL, NULL},
      {"B", &call->b, call->k, call->n, call->in_size, reads_b, 0, 0, NULL, NULL, NULL, NULL},
      {"C", &call->c, call->m, call->n, call->out_size, writes, 0, 0, NULL, NULL, NULL, NULL}};
  /* Which operands can have exact storage: accessed, extent within int64 and small. */
  bool fits[3] = {false, false, false};
  for (int x = 0; x < 3; x++) {
    operand *op = &ops[x];
    if (!op->accessed || model_view_overflows(op->view, op->rows, op->cols, op->elem)) continue;
    model_extent(op->view, op->rows, op->cols, &op->lo, &op->hi);
    fits[x] = op->hi - op->lo < MAX_SPAN;
  }
  const bool shared = fc.ab_share_storage && reads && fits[0] && fits[1];
  if (shared) {
    const wide lo = ops[0].lo < ops[1].lo ? ops[0].lo : ops[1].lo;
    const wide hi = ops[0].hi > ops[1].hi ? ops[0].hi : ops[1].hi;
    fits[0] = fits[1] = hi - lo < MAX_SPAN;
    ops[0].lo = ops[1].lo = lo, ops[0].hi = ops[1].hi = hi;
  }
  const bool work_fits = !reads || (call->m <= MAX_WORK && call->n <= MAX_WORK && call->k <= MAX_WORK &&
                                    (wide)call->m * call->n * call->k <= MAX_WORK);
  /* Packing reads B even when the call after it fails. */
  const bool packs_b = fc.packed && reads_b && model_expected_pack_status(call) == MIPS_OK;
  if ((packs_b && !fits[1]) ||
      (expected == MIPS_OK && (!work_fits || (reads && !fits[0]) || (reads_b && !fits[1]) ||
                               (writes && !fits[2])))) {
    tally->by_status[expected >= -4 && expected <= 0 ? -expected : 0]++;
    if (expected == MIPS_OK) tally->skipped++;
    return 0;
  }

  int failed = 0;
  storage stores[3], decoys[3];
  memset(stores, 0, sizeof stores);
  for (int x = 0; x < 3; x++) {
    if (!storage_alloc(&decoys[x], 0, x & 1) || decoys[x].data == NULL) {
      fprintf(stderr, "matmul fuzz: out of memory\n");
      abort();
    }
  }

  /* Storage, bases, and the bitmap of view elements. */
  for (int x = 0; x < 3; x++) {
    operand *op = &ops[x];
    if (x == 1 && shared) { /* B's base is A's */
      op->store = ops[0].store, op->in_view = ops[0].in_view, op->before = ops[0].before;
      op->base = ops[0].base, op->lo = ops[0].lo, op->hi = ops[0].hi;
      continue;
    }
    if (fits[x] && !operand_prepare(op, &stores[x], (fc.value_seed >> x) & 1)) {
      fprintf(stderr, "matmul fuzz: out of memory\n");
      abort();
    }
    if (!operand_has_storage(op)) {
      op->base = decoys[x].data;
      continue;
    }
    if (base_for(op->store->data, op->lo, op->elem, &op->base)) continue;
    op->base = op->store->data;
    /* Any base will do when nothing may be accessed; packing reads B regardless. */
    if (expected != MIPS_OK && !((x == 1 || (x == 0 && shared)) && packs_b)) continue;
    /* Keep the layout, move the extent to start at index 0 of the storage. */
    op->view->offset = clamp64((wide)op->view->offset - op->lo);
    if (x == 0 && shared) call->b.offset = clamp64((wide)call->b.offset - op->lo);
    op->hi -= op->lo, op->lo = 0;
    expected = expected_status(call);
  }
  if (expected == MIPS_OK) {
    for (int x = 0; x < 3; x++)
      if (operand_has_storage(&ops[x])) mark_view(&ops[x], ops[x].view, ops[x].rows, ops[x].cols);
  }

  /* Values: view elements of A and B, C when accumulating; poison everywhere else. */
  uint64_t rng = fc.value_seed;
  bool nonfinite = false;
  for (int x = 0; x < 3; x++) {
    operand *op = &ops[x];
    if (!operand_has_storage(op) || (x == 1 && shared)) continue;
    const size_t count = op->store->bytes / op->elem;
    const bool out = x == 2;
    for (size_t e = 0; e < count; e++) {
      unsigned char *p = op->store->data + e * op->elem;
      const bool live = op->in_view[e] && (!out || (call->flags & MIPS_MATMUL_ACCUMULATE));
      if (!live) {
        poison_element(out, fc.i8, p);
      } else if (fc.i8 && out) {
        const int32_t v = i32_value(&rng, fc.value_mode);
        memcpy(p, &v, sizeof v);
      } else if (fc.i8) {
        *(int8_t *)p = i8_value(&rng, fc.value_mode);
      } else {
        const float v = f32_value(&rng, fc.value_mode, &nonfinite);
        memcpy(p, &v, sizeof v);
      }
    }
    memcpy(op->before, op->store->data, op->store->bytes);
  }

  void *a = call->a.null ? NULL : ops[0].base;
  void *b = call->b.null ? NULL : ops[1].base;
  void *c = call->c.null ? NULL : ops[2].base;
  int got;
  if (fc.packed) {
    mips_packed_b *packed = NULL;
    got = fc.i8 ? mips_pack_b_i8(call->k, call->n, b, call->b.offset, call->b.stride0,
                                 call->b.stride1, &packed)
                : mips_pack_b_f32(call->k, call->n, b, call->b.offset, call->b.stride0,
                                  call->b.stride1, &packed);
    if (got == MIPS_OK)
      got = fc.i8 ? mips_matmul_packed_i8i32(call->m, a, call->a.offset, call->a.stride0,
                                             call->a.stride1, packed, c, call->c.offset,
                                             call->c.stride0, call->c.stride1, call->flags)
                  : mips_matmul_packed_f32(call->m, a, call->a.offset, call->a.stride0,
                                           call->a.stride1, packed, c, call->c.offset,
                                           call->c.stride0, call->c.stride1, call->flags);
    else if (packed != NULL)
      got = 1; /* a failed pack must leave NULL: no status is 1 */
    mips_packed_b_free(packed);
  } else {
    got = fc.i8 ? mips_matmul_i8i32(call->m, call->n, call->k, a, call->a.offset, call->a.stride0,
                                    call->a.stride1, b, call->b.offset, call->b.stride0,
                                    call->b.stride1, c, call->c.offset, call->c.stride0,
                                    call->c.stride1, call->flags)
                : mips_matmul_f32(call->m, call->n, call->k, a, call->a.offset, call->a.stride0,
                                  call->a.stride1, b, call->b.offset, call->b.stride0,
                                  call->b.stride1, c, call->c.offset, call->c.stride0,
                                  call->c.stride1, call->flags);
  }
  tally->by_status[expected >= -4 && expected <= 0 ? -expected : 0]++;
  if (got != expected) {
    describe(&fc, expected, got);
    failed = 1;
  }

  /* A and B never change; C changes only in its view, and only on success. */
  for (int x = 0; x < 3 && !failed; x++) {
    const operand *op = &ops[x];
    if (!operand_has_storage(op)) continue;
    if (x == 2 && got == MIPS_OK ? false : !memcmp(op->before, op->store->data, op->store->bytes)) continue;
    const size_t count = op->store->bytes / op->elem;
    for (size_t e = 0; e < count; e++) {
      const bool may_change = x == 2 && got == MIPS_OK && op->in_view[e];
      if (!may_change && memcmp(op->before + e * op->elem, op->store->data + e * op->elem, op->elem)) {
        describe(&fc, expected, got);
        fprintf(stderr, "  %s: storage element %zu (index %" PRId64 ") was written\n", op->name, e,
                (int64_t)(op->lo + (wide)e));
        failed = 1;
        break;
      }
    }
  }

  /* C against the reference. */
  if (!failed && got == MIPS_OK && writes) {
    const bool accumulate = call->flags & MIPS_MATMUL_ACCUMULATE;
    const unsigned char *a_base = ops[0].base, *b_base = ops[1].base;
    for (int64_t i = 0; i < call->m && !failed; i++) {
      for (int64_t j = 0; j < call->n && !failed; j++) {
        const int64_t ci = view_index(&call->c, i, j);
        const size_t at = (size_t)(ci - (int64_t)ops[2].lo) * call->out_size;
        const unsigned char *cell = ops[2].store->data + at, *old = ops[2].before + at;
        if (fc.i8) {
          int64_t want = 0;
          if (accumulate) want = *(const int32_t *)(const void *)old;
          for (int64_t p = 0; p < call->k; p++)
            want += (int64_t)in_at(&fc, a_base, &call->a, i, p) * (int64_t)in_at(&fc, b_base, &call->b, p, j);
          int32_t have;
          memcpy(&have, cell, sizeof have);
          if ((uint32_t)have != (uint32_t)(uint64_t)want) {
            describe(&fc, expected, got);
            fprintf(stderr, "  C(%" PRId64 ", %" PRId64 ") = %" PRId32 ", want %" PRId32 " (mod 2^32)\n",
                    i, j, have, (int32_t)(uint32_t)(uint64_t)want);
            failed = 1;
          }
          continue;
        }
        float have, start = 0.0f;
        memcpy(&have, cell, sizeof have);
        if (accumulate) memcpy(&start, old, sizeof start);
        double want = start, magnitude = fabs((double)start);
        for (int64_t p = 0; p < call->k; p++) {
          const double x = in_at(&fc, a_base, &call->a, i, p), y = in_at(&fc, b_base, &call->b, p, j);
          want += x * y;
          magnitude += fabs(x * y);
        }
        bool ok;
        if (call->k == 0) { /* overwrite with k = 0: exactly +0.0 */
          uint32_t bits;
          memcpy(&bits, &have, sizeof bits);
          ok = bits == 0;
        } else if (isnan(want)) {
          ok = isnan(have);
        } else if (isinf(want)) {
          ok = have == want;
        } else {
          /* f32 sums in ascending order, or any other (MIPS_MATMUL_ANY_ORDER: no term
           * passes through more than k + 2 roundings), with or without fused multiply-add. */
          const double bound = 2.0 * (double)(call->k + 2) * ldexp(magnitude, -24) +
                               (double)(call->k + 1) * FLT_TRUE_MIN;
          ok = isfinite(have) && fabs((double)have - want) <= bound;
        }
        if (!ok) {
          describe(&fc, expected, got);
          fprintf(stderr, "  C(%" PRId64 ", %" PRId64 ") = %a, want %a\n", i, j, (double)have, want);
          failed = 1;
        }
      }
    }
  }

  if (got == MIPS_OK && expected == MIPS_OK && writes) {
    tally->executed++;
    if (fc.i8) tally->i8++;
    if (fc.packed) tally->packed++;
    if (nonfinite) tally->nonfinite++;
  }

  for (int x = 0; x < 3; x++) {
    if (stores[x].data || stores[x].mapping) {
      free(ops[x].before);
      free(ops[x].in_view);
      storage_free(&stores[x]);
    }
    storage_free(&decoys[x]);
  }
  return failed;
}
