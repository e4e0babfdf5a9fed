/* SPDX-License-Identifier: Apache-2.0 */
/* A kernel provider that logs every libmips call to stderr, then forwards it to the
 * real library (MIPS_TRACE_TARGET, else libmips.so.1; the variable is ignored in
 * secure-execution mode). Programs compiled by
 * mips-compile in the default mode use it without recompiling:
 *
 *   MIPS_KERNEL_LIBRARY=./libmips_trace.so ./model
 *
 * It implements the whole libmips 1.0 ABI, as any provider must. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include <mips/mips.h>

typedef struct forward_table {
  uint32_t (*abi_version)(void);
  const char *(*version_string)(void);
  const char *(*kernel_name)(void);
  const char *(*status_string)(int);
  int (*matmul_f32)(int64_t, int64_t, int64_t, const float *, int64_t, int64_t, int64_t,
                    const float *, int64_t, int64_t, int64_t, float *, int64_t, int64_t,
                    int64_t, uint32_t);
  int (*matmul_i8i32)(int64_t, int64_t, int64_t, const int8_t *, int64_t, int64_t, int64_t,
                      const int8_t *, int64_t, int64_t, int64_t, int32_t *, int64_t, int64_t,
                      int64_t, uint32_t);
} forward_table;

static forward_table real;
static char kernel_name[64];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void *need(void *library, const char *name) {
  void *symbol = dlsym(library, name);
  if (symbol == NULL) {
    fprintf(stderr, "mips-trace: the traced library has no %s\n", name);
    exit(127);
  }
  return symbol;
}

static void load_real_library(void) {
  /* secure_getenv: in a setuid/setgid program the user must not choose the library. */
  const char *path = secure_getenv("MIPS_TRACE_TARGET");
  if (path == NULL || path[0] == '\0') path = "libmips.so.1";
  void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (library == NULL) {
    fprintf(stderr, "mips-trace: cannot load %s: %s\n", path, dlerror());
    exit(127);
  }
  real.abi_version = (uint32_t (*)(void))need(library, "mips_abi_version");
  real.version_string = (const char *(*)(void))need(library, "mips_version_string");
  real.kernel_name = (const char *(*)(void))need(library, "mips_kernel_name");
  real.status_string = (const char *(*)(int))need(library, "mips_status_string");
  real.matmul_f32 = (__typeof__(real.matmul_f32))need(library, "mips_matmul_f32");
  real.matmul_i8i32 = (__typeof__(real.matmul_i8i32))need(library, "mips_matmul_i8i32");
  snprintf(kernel_name, sizeof kernel_name, "trace+%s", real.kernel_name());
  fprintf(stderr, "mips-trace: forwarding to %s (libmips %s)\n", path, real.version_string());
}

static const forward_table *forward(void) {
  pthread_once(&once, load_real_library);
  return &real;
}

uint32_t mips_abi_version(void) { return forward()->abi_version(); }
const char *mips_version_string(void) { return forward()->version_string(); }
const char *mips_kernel_name(void) {
  forward();
  return kernel_name;
}
const char *mips_status_string(int status) { return forward()->status_string(status); }

/* One log line per call: the shape, the strides of each operand, and the status. */
static int trace(const char *name, int64_t m, int64_t n, int64_t k, int64_t as0, int64_t as1,
                 int64_t bs0, int64_t bs1, int64_t cs0, int64_t cs1, uint32_t flags, int status) {
  fprintf(stderr,
          "mips-trace: %s(m=%lld n=%lld k=%lld A strides %lld,%lld B strides %lld,%lld "
          "C strides %lld,%lld flags=%u) = %d\n",
          name, (long long)m, (long long)n, (long long)k, (long long)as0, (long long)as1,
          (long long)bs0, (long long)bs1, (long long)cs0, (long long)cs1, flags, status);
  return status;
}

int mips_matmul_f32(int64_t m, int64_t n, int64_t k, const float *a, int64_t ao, int64_t as0,
                    int64_t as1, const float *b, int64_t bo, int64_t bs0, int64_t bs1, float *c,
                    int64_t co, int64_t cs0, int64_t cs1, uint32_t flags) {
  const int status = forward()->matmul_f32(m, n, k, a, ao, as0, as1, b, bo, bs0, bs1, c, co, cs0,
                                           cs1, flags);
  return trace("mips_matmul_f32", m, n, k, as0, as1, bs0, bs1, cs0, cs1, flags, status);
}

int mips_matmul_i8i32(int64_t m, int64_t n, int64_t k, const int8_t *a, int64_t ao, int64_t as0,
                      int64_t as1, const int8_t *b, int64_t bo, int64_t bs0, int64_t bs1,
                      int32_t *c, int64_t co, int64_t cs0, int64_t cs1, uint32_t flags) {
  const int status = forward()->matmul_i8i32(m, n, k, a, ao, as0, as1, b, bo, bs0, bs1, c, co,
                                             cs0, cs1, flags);
  return trace("mips_matmul_i8i32", m, n, k, as0, as1, bs0, bs1, cs0, cs1, flags, status);
}
