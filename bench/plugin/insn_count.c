/* SPDX-License-Identifier: Apache-2.0 */
/* mips-insn-count: a QEMU 7.2 TCG plugin (plugin API v1) for qemu-riscv64 that counts the
 * instructions a program executes and prices its vector work, so that mips-bench can
 * compare kernels without timing an emulator.
 *
 *   qemu-riscv64 -cpu rv64,v=true,vext_spec=v1.0,vlen=256 -d plugin -D counts.log \
 *     -plugin ./libmips-insn-count.so,vlen=256 ./program
 *
 * Regions. A program brackets what it wants counted with two HINT instructions (they
 * are no-ops on hardware; `slti x0, ...` is the HINT space reserved for custom use):
 *   open:  slti x0, x0, 0x6d0      close: slti x0, x0, 0x6d1
 * Every close prints one line with the counts since the matching open, summed over all
 * guest threads, and one per thread when several ran. Without regions the whole run is
 * reported at exit.
 *   mips-count: region=N insns=I scalar=S vector=V vcost=C vfma=F vload=L vstore=T
 *               vstrided=X vsetvl=Z threads=T busiest=B
 *
 * The cost model (a vector unit whose datapath is VLEN bits wide, next to a scalar pipe
 * that issues one instruction per cycle; they overlap perfectly):
 *   scalar   every non-vector instruction, compressed ones included: 1 each.
 *   vcost    cycles of the vector unit:
 *            - arithmetic: the register groups written or read at the widest, i.e.
 *              max(1, LMUL), and max(1, 2*LMUL) for widening and narrowing operations
 *              (vwmacc writes 2*LMUL registers);
 *            - unit-stride loads and stores: max(1, EMUL) per field, EMUL = EEW/SEW*LMUL;
 *              whole-register loads and stores: the register count; mask loads: 1;
 *            - strided and indexed loads and stores: one element per cycle, VLMAX =
 *              LMUL*VLEN/SEW per field (vlen=N must be given, else they are priced as
 *              unit-stride and a warning says so);
 *            - vsetvl{i}: 1.
 *   busiest  max over threads of max(vcost, scalar): the critical path of a parallel run.
 * LMUL and SEW come from the last vsetvli/vsetivli the thread executed (the register
 * form vsetvl is counted but cannot be decoded from a plugin; kernels do not use it).
 * It sees no caches or latencies: a proxy for speed, not a cycle count. A region is
 * opened and closed by one thread; the others are counted whole when, as around a
 * libmips call, they are idle at the open and done by the close (libmips's workers
 * finish their parts before the call returns). Each vCPU updates only its own counters;
 * the report reads them all at the close. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "region.h"

/* The handful of plugin API v1 entry points used (QEMU exports them to plugins). */
typedef uint64_t qemu_plugin_id_t;
struct qemu_plugin_tb;
struct qemu_plugin_insn;
typedef struct qemu_info_t qemu_info_t;
extern void qemu_plugin_register_vcpu_tb_trans_cb(
    qemu_plugin_id_t, void (*)(qemu_plugin_id_t, struct qemu_plugin_tb *));
extern size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *);
extern struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *, size_t);
extern const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *);
extern size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *);
extern void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *,
                                                   void (*)(unsigned int, void *), int, void *);
extern void qemu_plugin_register_atexit_cb(qemu_plugin_id_t, void (*)(qemu_plugin_id_t, void *),
                                           void *);
extern void qemu_plugin_outs(const char *);

__attribute__((visibility("default"))) int qemu_plugin_version = 1;

#define REGION_OPEN MIPS_REGION_OPEN_INSN
#define REGION_CLOSE MIPS_REGION_CLOSE_INSN
#define VCPUS_MAX 256            /* qemu-user: one vCPU index per guest thread */

typedef enum op_class {
  OP_SCALAR_RUN, /* a run of consecutive scalar instructions */
  OP_VSETVLI,    /* immediate vtype: tracked */
  OP_VSETVL,     /* register vtype: counted only */
  OP_VARITH,
  OP_VFMA,
  OP_VLOAD,
  OP_VSTORE,
  OP_OPEN,
  OP_CLOSE,
} op_class;

/* What translation decoded about one instruction (or a run of scalar ones). */
typedef struct decoded {
  op_class cls;
  uint32_t count;      /* OP_SCALAR_RUN: instructions in the run */
  uint32_t vtype;      /* OP_VSETVLI: the immediate vtype */
  uint8_t widens;      /* arithmetic on 2*SEW operands */
  uint8_t strided;     /* strided or indexed memory access */
  uint8_t fields;      /* segment fields (nf + 1) */
  uint8_t eew;         /* memory element width in bits; 0 for mask loads */
  uint8_t whole_regs;  /* whole-register load/store: register count, else 0 */
} decoded;

typedef struct counts {
  uint64_t scalar, vsetvl, varith, vfma, vload, vstore, vstrided, vcost;
} counts;

typedef struct vcpu_state {
  counts c;
  unsigned lmul_x8, sew; /* from the last vsetvli; 0 before any */
} vcpu_state;

static vcpu_state vcpus[VCPUS_MAX];
static unsigned vlen_bits;
static volatile int counting = 1, regions_seen;

/*------------------------------------------------------------------------------------
 * Decoding (RISC-V V 1.0 encodings)
 *----------------------------------------------------------------------------------*/
static int is_widening_or_narrowing(uint32_t w) {
  const uint32_t funct3 = (w >> 12) & 7, funct6 = w >> 26, vs1 = (w >> 15) & 31;
  switch (funct3) {
    case 0: case 3: case 4: /* OPIVV, OPIVI, OPIVX: narrowing shifts and clips, and */
      return (funct6 >= 0x2c && funct6 <= 0x2f) || /* vwredsum{u} (OPIVV) */
             (funct3 == 0 && (funct6 == 0x30 || funct6 == 0x31));
    case 2: case 6: /* OPMVV, OPMVX: vwadd ... vwmaccsu */
      return funct6 >= 0x30;
    case 1: case 5: /* OPFVV, OPFVF: vfwadd ... vfwnmsac, and vfwcvt/vfncvt */
      return funct6 >= 0x30 || (funct6 == 0x12 && funct3 == 1 && vs1 >= 8 && vs1 < 24);
    default:
      return 0;
  }
}

static int is_multiply_add(uint32_t w) {
  const uint32_t funct3 = (w >> 12) & 7, funct6 = w >> 26;
  if (funct3 == 1 || funct3 == 5) /* vfmadd ... vfnmsac, vfwmacc ... vfwnmsac */
    return (funct6 >= 0x28 && funct6 <= 0x2f) || funct6 >= 0x3c;
  if (funct3 == 2 || funct3 == 6) /* vmadd, vnmsub, vmacc, vnmsac, vwmacc* */
    return funct6 == 0x29 || funct6 == 0x2b || funct6 == 0x2d || funct6 == 0x2f || funct6 >= 0x3c;
  return 0;
}

/* Returns 1 and fills `d` if `w` (of `size` bytes) is a vector instruction or a marker. */
static int decode_vector(uint32_t w, size_t size, decoded *d) {
  memset(d, 0, sizeof *d);
  if (size != 4) return 0;
  if (w == REGION_OPEN) return d->cls = OP_OPEN, 1;
  if (w == REGION_CLOSE) return d->cls = OP_CLOSE, 1;
  const uint32_t opcode = w & 0x7f;
  if (opcode == 0x57) {
    if (((w >> 12) & 7) == 7) {
      if ((w >> 31) == 0) return d->cls = OP_VSETVLI, d->vtype = (w >> 20) & 0x7ff, 1;
      if ((w >> 30) == 3) return d->cls = OP_VSETVLI, d->vtype = (w >> 20) & 0x3ff, 1;
      return d->cls = OP_VSETVL, 1;
    }
    d->cls = is_multiply_add(w) ? OP_VFMA : OP_VARITH;
    d->widens = (uint8_t)is_widening_or_narrowing(w);
    return 1;
  }
  if (opcode == 0x07 || opcode == 0x27) {
    static const uint8_t eew_of_width[8] = {8, 0, 0, 0, 0, 16, 32, 64};
    const uint32_t width = (w >> 12) & 7, mop = (w >> 26) & 3, lumop = (w >> 20) & 31;
    if (width != 0 && width < 5) return 0; /* scalar FP load/store */
    d->cls = opcode == 0x07 ? OP_VLOAD : OP_VSTORE;
    d->eew = eew_of_width[width];
    d->fields = (uint8_t)(((w >> 29) & 7) + 1);
    d->strided = mop != 0;
    if (mop == 0 && lumop == 8) d->whole_regs = d->fields, d->fields = 1;
    if (mop == 0 && lumop == 11) d->eew = 0; /* vlm.v / vsm.v */
    return 1;
  }
  return 0;
}

/*------------------------------------------------------------------------------------
 * Execution
 *----------------------------------------------------------------------------------*/
static uint64_t max_u64(uint64_t x, uint64_t y) { return x > y ? x : y; }

/* The vector unit's cycles for one execution of `d` under this vCPU's vtype. */
static uint64_t vector_cost(const vcpu_state *s, const decoded *d) {
  const uint64_t lmul_x8 = s->lmul_x8 ? s->lmul_x8 : 8, sew = s->sew ? s->sew : 8;
  if (d->cls == OP_VSETVLI || d->cls == OP_VSETVL) return 1;
  if (d->cls == OP_VARITH || d->cls == OP_VFMA)
    return max_u64(1, lmul_x8 * (d->widens ? 2 : 1) / 8);
  if (d->whole_regs) return d->whole_regs;
  if (d->eew == 0) return 1;
  if (d->strided && vlen_bits) return d->fields * max_u64(1, lmul_x8 * vlen_bits / 8 / sew);
  return d->fields * max_u64(1, lmul_x8 * d->eew / sew / 8);
}

static void emit_line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void emit_line(const char *fmt, ...) {
  char line[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  qemu_plugin_outs(line);
}

static uint64_t insns_of(const counts *c) {
  return c->scalar + c->vsetvl + c->varith + c->vfma + c->vload + c->vstore;
}

static void report(int region) {
  counts all = {0};
  uint64_t busiest = 0;
  int threads = 0;
  for (int v = 0; v < VCPUS_MAX; ++v) {
    const counts *c = &vcpus[v].c;
    if (insns_of(c) == 0) continue;
    ++threads;
    all.scalar += c->scalar, all.vsetvl += c->vsetvl, all.varith += c->varith;
    all.vfma += c->vfma, all.vload += c->vload, all.vstore += c->vstore;
    all.vstrided += c->vstrided, all.vcost += c->vcost;
    busiest = max_u64(busiest, max_u64(c->vcost, c->scalar));
  }
  if (all.vstrided && !vlen_bits)
    emit_line("mips-count: warning: strided accesses priced as unit-stride; pass vlen=N\n");
  emit_line("mips-count: region=%d insns=%llu scalar=%llu vector=%llu vcost=%llu vfma=%llu "
            "vload=%llu vstore=%llu vstrided=%llu vsetvl=%llu threads=%d busiest=%llu\n",
            region, (unsigned long long)insns_of(&all), (unsigned long long)all.scalar,
            (unsigned long long)(insns_of(&all) - all.scalar), (unsigned long long)all.vcost,
            (unsigned long long)all.vfma, (unsigned long long)all.vload,
            (unsigned long long)all.vstore, (unsigned long long)all.vstrided,
            (unsigned long long)all.vsetvl, threads, (unsigned long long)busiest);
  if (threads > 1)
    for (int v = 0; v < VCPUS_MAX; ++v) {
      const counts *c = &vcpus[v].c;
      if (insns_of(c) == 0) continue;
      emit_line("mips-count: region=%d thread=%d insns=%llu scalar=%llu vcost=%llu\n", region,
                v, (unsigned long long)insns_of(c), (unsigned long long)c->scalar,
                (unsigned long long)c->vcost);
    }
}

static void reset_counts(void) {
  for (int v = 0; v < VCPUS_MAX; ++v) memset(&vcpus[v].c, 0, sizeof vcpus[v].c);
}

static void on_exec(unsigned int vcpu_index, void *udata) {
  const decoded *d = udata;
  vcpu_state *s = &vcpus[vcpu_index < VCPUS_MAX ? vcpu_index : VCPUS_MAX - 1];
  switch (d->cls) {
    case OP_OPEN:
      reset_counts();
      counting = 1;
      return;
    case OP_CLOSE:
      if (counting) report(++regions_seen);
      counting = 0;
      return;
    case OP_VSETVLI: { /* vtype is tracked whether or not a region is open */
      static const unsigned lmul_x8_of[8] = {8, 16, 32, 64, 8, 1, 2, 4};
      s->lmul_x8 = lmul_x8_of[d->vtype & 7];
      s->sew = 8u << ((d->vtype >> 3) & 7);
      break;
    }
    default:
      break;
  }
  if (!counting) return;
  counts *c = &s->c;
  switch (d->cls) {
    case OP_SCALAR_RUN: c->scalar += d->count; return;
    case OP_VSETVLI: case OP_VSETVL: c->vsetvl++; break;
    case OP_VARITH: c->varith++; break;
    case OP_VFMA: c->vfma++; break;
    case OP_VLOAD: c->vload++; break;
    case OP_VSTORE: c->vstore++; break;
    default: break;
  }
  if (d->strided) c->vstrided++;
  c->vcost += vector_cost(s, d);
}

/* Scalar instructions are counted a run at a time: one callback on the first
 * instruction of each run of consecutive scalar instructions in a block. */
static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb) {
  (void)id;
  const size_t n = qemu_plugin_tb_n_insns(tb);
  decoded *run = NULL;
  for (size_t i = 0; i < n; ++i) {
    struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
    const size_t size = qemu_plugin_insn_size(insn);
    uint32_t word = 0;
    memcpy(&word, qemu_plugin_insn_data(insn), size < 4 ? size : 4);
    decoded d;
    if (decode_vector(word, size, &d)) {
      decoded *copy = malloc(sizeof *copy); /* lives as long as the translation */
      if (copy == NULL) abort();
      *copy = d;
      qemu_plugin_register_vcpu_insn_exec_cb(insn, on_exec, 0, copy);
      run = NULL;
    } else if (run != NULL) {
      run->count++;
    } else {
      run = calloc(1, sizeof *run);
      if (run == NULL) abort();
      run->cls = OP_SCALAR_RUN, run->count = 1;
      qemu_plugin_register_vcpu_insn_exec_cb(insn, on_exec, 0, run);
    }
  }
}

static void on_plugin_exit(qemu_plugin_id_t id, void *udata) {
  (void)id, (void)udata;
  if (!regions_seen) report(0);
}

__attribute__((visibility("default"))) int qemu_plugin_install(qemu_plugin_id_t id,
                                                               const qemu_info_t *info,
                                                               int argc, char **argv) {
  (void)info;
  for (int i = 0; i < argc; ++i) {
    if (strncmp(argv[i], "vlen=", 5) == 0) {
      vlen_bits = (unsigned)strtoul(argv[i] + 5, NULL, 10);
    } else {
      fprintf(stderr, "mips-insn-count: unknown argument '%s' (expected vlen=N)\n", argv[i]);
      return -1;
    }
  }
  qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
  qemu_plugin_register_atexit_cb(id, on_plugin_exit, NULL);
  return 0;
}
