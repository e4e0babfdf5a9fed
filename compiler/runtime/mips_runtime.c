/* SPDX-License-Identifier: Apache-2.0 */
/* The runtime that mips-compile links into every generated object (as LLVM bitcode).
 *
 * It reports failed libmips calls and, in the default (dynamic) mode, owns the
 * import table: one function pointer per libmips function generated code calls,
 * filled once, thread-safely, by dlopen + dlsym of the kernel provider
 * (MIPS_KERNEL_LIBRARY, else libmips.so.1) after checking its ABI version. In
 * secure-execution mode (setuid, setgid, file capabilities) MIPS_KERNEL_LIBRARY is
 * ignored, as the dynamic loader ignores LD_PRELOAD: the provider is libmips.so.1.
 * With MIPS_RT_DYNAMIC=0 (--static-embedding) calls go straight to libmips.
 *
 * Every definition is weak and hidden: several generated objects in one program
 * share one table, and nothing here is exported from a shared object. Internal
 * names carry the libmips ABI version and the mode (MIPS_RT_NAME), so objects
 * of other compiler versions, or of the other mode, never share them by mistake;
 * only the documented mipsrt_* functions are common to all. */
#define _GNU_SOURCE /* dladdr1 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>

#include "mips/mips.h"
#include "mips-compiler/Runtime/RequiredAbi.h"

#define MIPS_RT_API __attribute__((weak, visibility("hidden")))

#if MIPS_RT_DYNAMIC
/* "dynamic2": the loader that ignores MIPS_KERNEL_LIBRARY in secure-execution mode.
 * Its names differ from the earlier loader's ("dynamic"), so that an object from an
 * older mips-compile, whose weak resolver would otherwise win at link time, cannot
 * serve this object's calls. */
#define MIPS_RT_MODE dynamic2
#else
#define MIPS_RT_MODE static
#endif
/* __mips_rt_v<major>_<minor>_<mode>_<name>, as compiler/include/.../Imports.h spells it. */
#define MIPS_RT_NAME(name) MIPS_RT_NAME_(MIPS_RT_ABI_MAJOR, MIPS_RT_ABI_MINOR, MIPS_RT_MODE, name)
#define MIPS_RT_NAME_(major, minor, mode, name) MIPS_RT_NAME__(major, minor, mode, name)
#define MIPS_RT_NAME__(major, minor, mode, name) __mips_rt_v##major##_##minor##_##mode##_##name
/* Shared by both modes: same behaviour in each. */
#define MIPS_RT_COMMON_NAME(name) MIPS_RT_NAME_(MIPS_RT_ABI_MAJOR, MIPS_RT_ABI_MINOR, common, name)

/* Exit status when the kernel provider cannot be used, as the dynamic loader's own. */
#define MIPS_RT_EXIT_LOAD_FAILURE 127

enum {
#define MIPS_IMPORT(name, minor) MIPS_RT_SLOT_##name,
#include "mips-compiler/Runtime/MipsImports.def"
  /* The table holds the functions up to this object's minor (the list is in minor
   * order), so that a 1.0 object's table is what it always was. */
  MIPS_RT_SLOT_COUNT = 0
#define MIPS_IMPORT(name, minor) +((minor) <= MIPS_RT_ABI_MINOR)
#include "mips-compiler/Runtime/MipsImports.def"
};

static const char *const mips_rt_import_names[] = {
#define MIPS_IMPORT(name, minor) #name,
#include "mips-compiler/Runtime/MipsImports.def"
};

/* Status codes of mipsrt_bind(), declared in the generated header. */
#define MIPSRT_OK 0
#define MIPSRT_ERROR_LOAD (-1)
#define MIPSRT_ERROR_SYMBOL (-2)
#define MIPSRT_ERROR_ABI (-3)

#if MIPS_RT_DYNAMIC
#include <dlfcn.h>
#include <link.h>
#include <pthread.h>

#define MIPS_RT_DEFAULT_PROVIDER "libmips.so.1"

/* Whether `address`, found by dlsym, is a function: a provider that exports a libmips
 * name as data would otherwise be called and crash the program. */
static int mips_rt_is_function(void *address) {
  Dl_info info;
  const ElfW(Sym) *symbol = NULL;
  if (!dladdr1(address, &info, (void **)&symbol, RTLD_DL_SYMENT) || symbol == NULL) return 1;
  const int type = ELF64_ST_TYPE(symbol->st_info);
  return type == STT_FUNC || type == STT_GNU_IFUNC;
}

/* Read by generated code (mips-import-table) after MIPS_RT_NAME(ensure_imports)(). */
MIPS_RT_API void *MIPS_RT_NAME(import_table)[MIPS_RT_SLOT_COUNT];

MIPS_RT_API int MIPS_RT_NAME(bind_status) = MIPSRT_ERROR_LOAD;
MIPS_RT_API int MIPS_RT_NAME(bound);
MIPS_RT_API char MIPS_RT_NAME(error)[512];
MIPS_RT_API pthread_once_t MIPS_RT_NAME(once) = PTHREAD_ONCE_INIT;

/* The provider to load. A user who starts a setuid, setgid or capability-raising
 * program must not choose code that runs with its privileges (a library's constructor
 * runs at dlopen, before any check), so secure mode ignores the override; the loader
 * resolves the bare default name safely there. Sets *ignored when it did so. */
static const char *mips_rt_provider_path(int *ignored) {
  const char *path = getenv("MIPS_KERNEL_LIBRARY");
  *ignored = 0;
  if (path == NULL || path[0] == '\0') return MIPS_RT_DEFAULT_PROVIDER;
  if (getauxval(AT_SECURE) != 0) {
    *ignored = 1;
    const char *verbose = getenv("MIPS_VERBOSE");
    if (verbose != NULL && strcmp(verbose, "1") == 0)
      fprintf(stderr,
              "mips: MIPS_KERNEL_LIBRARY=%s ignored: secure-execution mode (setuid, setgid or "
              "file capabilities); loading " MIPS_RT_DEFAULT_PROVIDER "\n",
              path);
    return MIPS_RT_DEFAULT_PROVIDER;
  }
  return path;
}

MIPS_RT_API void MIPS_RT_NAME(resolve)(void) {
  int override_ignored;
  const char *path = mips_rt_provider_path(&override_ignored);
  void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (library == NULL) {
    snprintf(MIPS_RT_NAME(error), sizeof MIPS_RT_NAME(error),
             "mips: cannot load kernel library '%s' (needed for libmips ABI %d.%d): %s%s", path,
             MIPS_RT_ABI_MAJOR, MIPS_RT_ABI_MINOR, dlerror(),
             override_ignored ? " (MIPS_KERNEL_LIBRARY is ignored in secure-execution mode)"
                              : "");
    MIPS_RT_NAME(bind_status) = MIPSRT_ERROR_LOAD;
    return;
  }
  void *slots[MIPS_RT_SLOT_COUNT];
  /* Slot 0 is mips_abi_version: the version is checked before any later function is
   * looked up, so that an older library is named as such, not as one missing a symbol. */
  for (int i = 0; i < MIPS_RT_SLOT_COUNT; ++i) {
    slots[i] = dlsym(library, mips_rt_import_names[i]);
    if (slots[i] == NULL) {
      snprintf(MIPS_RT_NAME(error), sizeof MIPS_RT_NAME(error),
               "mips: kernel library '%s' has no symbol '%s' (needed for libmips ABI %d.%d)",
               path, mips_rt_import_names[i], MIPS_RT_ABI_MAJOR, MIPS_RT_ABI_MINOR);
      MIPS_RT_NAME(bind_status) = MIPSRT_ERROR_SYMBOL;
      return;
    }
    if (!mips_rt_is_function(slots[i])) {
      snprintf(MIPS_RT_NAME(error), sizeof MIPS_RT_NAME(error),
               "mips: kernel library '%s' exports '%s' as data, not as a function (needed "
               "for libmips ABI %d.%d)",
               path, mips_rt_import_names[i], MIPS_RT_ABI_MAJOR, MIPS_RT_ABI_MINOR);
      MIPS_RT_NAME(bind_status) = MIPSRT_ERROR_SYMBOL;
      return;
    }
    if (i != MIPS_RT_SLOT_mips_abi_version) continue;
    const uint32_t abi = ((uint32_t (*)(void))slots[i])();
    if ((abi >> 16) != MIPS_RT_ABI_MAJOR || (abi & 0xffffu) < MIPS_RT_ABI_MINOR) {
      snprintf(MIPS_RT_NAME(error), sizeof MIPS_RT_NAME(error),
               "mips: kernel library '%s' provides libmips ABI %u.%u, but this program was "
               "compiled for ABI %d.%d (needs major %d, minor >= %d)",
               path, abi >> 16, abi & 0xffffu, MIPS_RT_ABI_MAJOR, MIPS_RT_ABI_MINOR,
               MIPS_RT_ABI_MAJOR, MIPS_RT_ABI_MINOR);
      MIPS_RT_NAME(bind_status) = MIPSRT_ERROR_ABI;
      return;
    }
  }
  memcpy(MIPS_RT_NAME(import_table), slots, sizeof slots);
  MIPS_RT_NAME(error)[0] = '\0';
  MIPS_RT_NAME(bind_status) = MIPSRT_OK;
  __atomic_store_n(&MIPS_RT_NAME(bound), 1, __ATOMIC_RELEASE);
}

/* Binds this object's table; mipsrt_bind() may belong to another object's runtime. */
MIPS_RT_API int MIPS_RT_NAME(bind)(void) {
  pthread_once(&MIPS_RT_NAME(once), MIPS_RT_NAME(resolve));
  return MIPS_RT_NAME(bind_status);
}

MIPS_RT_API int mipsrt_bind(void) { return MIPS_RT_NAME(bind)(); }

MIPS_RT_API const char *mipsrt_error_message(void) {
  MIPS_RT_NAME(bind)();
  return MIPS_RT_NAME(error);
}

MIPS_RT_API pthread_once_t MIPS_RT_NAME(failure_once) = PTHREAD_ONCE_INIT;

/* Runs once: the first thread to find the provider unusable reports it and exits; any
 * other thread that fails at the same time waits in pthread_once until the process
 * is gone, so the message prints once and exit() runs once. */
MIPS_RT_API void MIPS_RT_NAME(report_failure)(void) {
  fprintf(stderr, "%s\n", MIPS_RT_NAME(error));
  exit(MIPS_RT_EXIT_LOAD_FAILURE);
}

/* Called by generated code before each use of the table. */
MIPS_RT_API void MIPS_RT_NAME(ensure_imports)(void) {
  if (__atomic_load_n(&MIPS_RT_NAME(bound), __ATOMIC_ACQUIRE)) return;
  if (MIPS_RT_NAME(bind)() != MIPSRT_OK)
    pthread_once(&MIPS_RT_NAME(failure_once), MIPS_RT_NAME(report_failure));
}

#define MIPS_RT_CALL(name, type) \
  (MIPS_RT_NAME(ensure_imports)(), ((type)MIPS_RT_NAME(import_table)[MIPS_RT_SLOT_##name]))

#else /* --static-embedding: libmips is linked in */

MIPS_RT_API int mipsrt_bind(void) {
  const uint32_t abi = mips_abi_version();
  return (abi >> 16) == MIPS_RT_ABI_MAJOR && (abi & 0xffffu) >= MIPS_RT_ABI_MINOR
             ? MIPSRT_OK
             : MIPSRT_ERROR_ABI;
}

MIPS_RT_API const char *mipsrt_error_message(void) {
  return mipsrt_bind() == MIPSRT_OK ? "" : "mips: the linked libmips has another ABI major";
}

#define MIPS_RT_CALL(name, type) (name)

#endif /* MIPS_RT_DYNAMIC */

MIPS_RT_API const char *mipsrt_kernel_name(void) {
  return MIPS_RT_CALL(mips_kernel_name, const char *(*)(void))();
}

MIPS_RT_API const char *mipsrt_library_version(void) {
  return MIPS_RT_CALL(mips_version_string, const char *(*)(void))();
}

/* Generated code calls this when a libmips call returns a nonzero status, with the
 * status text it fetched from the same provider: compiled code never passes invalid
 * views, so this is a bug worth stopping for. */
MIPS_RT_API void MIPS_RT_COMMON_NAME(call_failed)(int32_t slot, int32_t status, const char *text) {
  const char *callee = slot >= 0 && slot < MIPS_RT_SLOT_COUNT ? mips_rt_import_names[slot] : "?";
  fprintf(stderr, "mips: %s failed with status %d: %s\n", callee, (int)status,
          text != NULL ? text : "(no status text)");
  abort();
}

/* Every exported function of a riscv64 object first makes sure, once, that this CPU has
 * the single-letter extensions the object was compiled for (`required`: bit x - 'a' for
 * extension x, as AT_HWCAP reports them; `isa`: the object's ISA, e.g. "rv64imafdcv").
 * Without one, the object's own code would die of SIGILL: instead, one line names what
 * is missing and how to compile for this core, and the program exits as the dynamic
 * loader does when it cannot run a program. The caller runs it only until `*checked`
 * is set (each object keeps its own flag: two objects may need different extensions). */
MIPS_RT_API void MIPS_RT_COMMON_NAME(check_cpu)(uint64_t required, const char *isa,
                                                const char *function, uint8_t *checked) {
#if defined(__riscv) && defined(__linux__)
  const uint64_t missing = required & ~(uint64_t)getauxval(AT_HWCAP);
#else
  const uint64_t missing = 0; /* only riscv64 objects are checked */
#endif
  if (missing != 0) {
    char letters[2 * 26 + 1];
    size_t used = 0;
    for (int bit = 0; bit < 26; ++bit)
      if (missing >> bit & 1) {
        if (used > 0) letters[used++] = ',';
        letters[used++] = (char)('A' + bit);
      }
    letters[used] = '\0';
    fprintf(stderr,
            "mips: %s was compiled for %s, but this CPU lacks the %s extension%s (AT_HWCAP); "
            "compile it for this core with mips-compile --march=rv64gc\n",
            function, isa, letters, used > 1 ? "s" : "");
    exit(MIPS_RT_EXIT_LOAD_FAILURE);
  }
  __atomic_store_n(checked, 1, __ATOMIC_RELAXED);
}

#if MIPS_RT_ABI_MINOR >= 2
/* Constant weights packed once (mips-compile --mips-pack-constant-weights): generated
 * code keeps one slot per weight matrix and asks for its handle before each call. The
 * first caller packs; threads that race both pack, one handle wins and the other is
 * freed. Handles live as long as the process (the weights are constants of the program).
 * Packing can only fail for memory: reported like a failed call. */
typedef int (*mips_rt_pack_fn)(int64_t, int64_t, const void *, int64_t, int64_t, int64_t,
                               mips_packed_b **);

static mips_packed_b *mips_rt_packed_b(mips_packed_b **slot, mips_rt_pack_fn pack, const char *name,
                                       int64_t k, int64_t n, const void *b, int64_t offset,
                                       int64_t stride0, int64_t stride1) {
  mips_packed_b *packed = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
  if (packed != NULL) return packed;
  const int status = pack(k, n, b, offset, stride0, stride1, &packed);
  if (status != MIPS_OK) {
    fprintf(stderr, "mips: %s of a %lld x %lld constant weight matrix failed with status %d: %s\n",
            name, (long long)k, (long long)n, status,
            MIPS_RT_CALL(mips_status_string, const char *(*)(int))(status));
    abort();
  }
  mips_packed_b *none = NULL;
  if (__atomic_compare_exchange_n(slot, &none, packed, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
    return packed;
  MIPS_RT_CALL(mips_packed_b_free, void (*)(mips_packed_b *))(packed);
  return none; /* the handle another thread stored first */
}

MIPS_RT_API mips_packed_b *MIPS_RT_COMMON_NAME(packed_b_f32)(mips_packed_b **slot, int64_t k,
                                                             int64_t n, const float *b,
                                                             int64_t offset, int64_t stride0,
                                                             int64_t stride1) {
  return mips_rt_packed_b(slot,
                          (mips_rt_pack_fn)MIPS_RT_CALL(mips_pack_b_f32, mips_rt_pack_fn),
                          "mips_pack_b_f32", k, n, b, offset, stride0, stride1);
}

MIPS_RT_API mips_packed_b *MIPS_RT_COMMON_NAME(packed_b_i8)(mips_packed_b **slot, int64_t k,
                                                            int64_t n, const int8_t *b,
                                                            int64_t offset, int64_t stride0,
                                                            int64_t stride1) {
  return mips_rt_packed_b(slot, (mips_rt_pack_fn)MIPS_RT_CALL(mips_pack_b_i8, mips_rt_pack_fn),
                          "mips_pack_b_i8", k, n, b, offset, stride0, stride1);
}
#endif

/* memref.copy of strided buffers lowers to a call of memrefCopy, which MLIR's
 * runner-utils library provides; objects must link with libc alone, so the runtime
 * brings its own (weak: a real one, if linked, wins). The descriptors are MLIR's:
 * {allocated, aligned, offset, sizes[rank], strides[rank]}, strides in elements. */
typedef struct mips_rt_unranked_memref {
  int64_t rank;
  void *descriptor;
} mips_rt_unranked_memref;

/* Copies `count` elements `elem_size` bytes wide, strided in elements. A run that is
 * unit-stride on both sides is one memcpy; otherwise typed loads and stores of the
 * common widths (a memcpy call per element costs dozens of instructions). */
static void copy_run(char *dst, int64_t dst_stride, const char *src, int64_t src_stride,
                     int64_t count, int64_t elem_size) {
  if (dst_stride == 1 && src_stride == 1) {
    memcpy(dst, src, (size_t)(count * elem_size));
    return;
  }
#define MIPS_RT_COPY_RUN(T)                                                           \
  for (int64_t i = 0; i < count; ++i)                                               \
    memcpy(dst + i * dst_stride * (int64_t)sizeof(T), src + i * src_stride * (int64_t)sizeof(T), \
           sizeof(T));                                                              \
  return;
  switch (elem_size) {
  case 1: MIPS_RT_COPY_RUN(uint8_t)
  case 2: MIPS_RT_COPY_RUN(uint16_t)
  case 4: MIPS_RT_COPY_RUN(uint32_t)
  case 8: MIPS_RT_COPY_RUN(uint64_t)
  default:
    for (int64_t i = 0; i < count; ++i)
      memcpy(dst + i * dst_stride * elem_size, src + i * src_stride * elem_size, (size_t)elem_size);
  }
#undef MIPS_RT_COPY_RUN
}

MIPS_RT_API void memrefCopy(int64_t elem_size, mips_rt_unranked_memref *src,
                            mips_rt_unranked_memref *dst) {
  enum { MAX_RANK = 32 };
  const int64_t rank = src->rank;
  if (rank < 0 || rank > MAX_RANK || dst->rank != rank) abort();
  const char *src_data = ((char *const *)src->descriptor)[1];
  char *dst_data = ((char *const *)dst->descriptor)[1];
  const int64_t *src_meta = (const int64_t *)((char *const *)src->descriptor + 2);
  const int64_t *dst_meta = (const int64_t *)((char *const *)dst->descriptor + 2);
  const int64_t *sizes = src_meta + 1;
  const int64_t *src_strides = src_meta + 1 + rank, *dst_strides = dst_meta + 1 + rank;
  for (int64_t d = 0; d < rank; ++d)
    if (sizes[d] == 0) return;
  const char *src_base = src_data + src_meta[0] * elem_size;
  char *dst_base = dst_data + dst_meta[0] * elem_size;
  if (rank == 0) {
    memcpy(dst_base, src_base, (size_t)elem_size);
    return;
  }
  /* Runs along the last dimension, the outer ones walked as an odometer. Leading
   * dimensions that are dense on both sides fold into the run (a row-major copy is one
   * run). */
  int64_t inner = rank - 1, run = sizes[inner];
  if (src_strides[inner] == 1 && dst_strides[inner] == 1)
    while (inner > 0 && src_strides[inner - 1] == run && dst_strides[inner - 1] == run) {
      --inner;
      run *= sizes[inner];
    }
  const int64_t src_step = src_strides[rank - 1], dst_step = dst_strides[rank - 1];
  int64_t index[MAX_RANK] = {0};
  int64_t src_at = 0, dst_at = 0;
  for (;;) {
    copy_run(dst_base + dst_at * elem_size, dst_step, src_base + src_at * elem_size, src_step,
             run, elem_size);
    int64_t d = inner - 1;
    for (; d >= 0; --d) {
      src_at += src_strides[d];
      dst_at += dst_strides[d];
      if (++index[d] < sizes[d]) break;
      src_at -= sizes[d] * src_strides[d];
      dst_at -= sizes[d] * dst_strides[d];
      index[d] = 0;
    }
    if (d < 0) return;
  }
}

/* Generated code calls this when the dynamic shapes given to a matmul disagree:
 * libmips would otherwise read or write outside the buffers. */
MIPS_RT_API void MIPS_RT_COMMON_NAME(bad_shapes)(int64_t m, int64_t k, int64_t rhs_k, int64_t n,
                                                 int64_t init_m, int64_t init_n) {
  fprintf(stderr,
          "mips: matmul operands do not fit together at run time: lhs is %lldx%lld, rhs is "
          "%lldx%lld, init is %lldx%lld\n",
          (long long)m, (long long)k, (long long)rhs_k, (long long)n, (long long)init_m,
          (long long)init_n);
  abort();
}

/* ... and this when the batch extents of a batch matmul disagree; -1 is an operand
 * that every entry shares. */
MIPS_RT_API void MIPS_RT_COMMON_NAME(bad_batch)(int64_t lhs_batch, int64_t rhs_batch,
                                                int64_t init_batch) {
  char lhs[32] = "shared", rhs[32] = "shared";
  if (lhs_batch >= 0) snprintf(lhs, sizeof lhs, "%lld", (long long)lhs_batch);
  if (rhs_batch >= 0) snprintf(rhs, sizeof rhs, "%lld", (long long)rhs_batch);
  fprintf(stderr,
          "mips: batch matmul operands do not fit together at run time: lhs has a batch of %s, "
          "rhs %s, init %lld\n",
          lhs, rhs, (long long)init_batch);
  abort();
}

