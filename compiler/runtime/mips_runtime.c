/* The runtime that mips-compile links into every generated object (as LLVM bitcode).
 *
 * It reports failed libmips calls and, in the default (dynamic) mode, owns the
 * import table: one function pointer per libmips function generated code calls,
 * filled once, thread-safely, by dlopen + dlsym of the kernel provider
 * (MIPS_KERNEL_LIBRARY, else libmips.so.1) after checking its ABI version.
 * With MIPS_RT_DYNAMIC=0 (--static-embedding) calls go straight to libmips.
 *
 * Every definition is weak and hidden: several generated objects in one program
 * share one table, and nothing here is exported from a shared object. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mips/mips.h"

#define MIPS_RT_API __attribute__((weak, visibility("hidden")))

/* Exit status when the kernel provider cannot be used, as the dynamic loader's own. */
#define MIPS_RT_EXIT_LOAD_FAILURE 127

enum {
#define MIPS_IMPORT(name) MIPS_RT_SLOT_##name,
#include "mips-compiler/Runtime/MipsImports.def"
  MIPS_RT_SLOT_COUNT
};

static const char *const mips_rt_import_names[MIPS_RT_SLOT_COUNT] = {
#define MIPS_IMPORT(name) #name,
#include "mips-compiler/Runtime/MipsImports.def"
};

/* Status codes of mipsrt_bind(), declared in the generated header. */
#define MIPSRT_OK 0
#define MIPSRT_ERROR_LOAD (-1)
#define MIPSRT_ERROR_SYMBOL (-2)
#define MIPSRT_ERROR_ABI (-3)

#if MIPS_RT_DYNAMIC
#include <dlfcn.h>
#include <pthread.h>

/* Read by generated code (mips-import-table) after __mips_rt_ensure_imports(). */
MIPS_RT_API void *__mips_rt_import_table[MIPS_RT_SLOT_COUNT];

MIPS_RT_API int __mips_rt_bind_status = MIPSRT_ERROR_LOAD;
MIPS_RT_API int __mips_rt_bound;
MIPS_RT_API char __mips_rt_error[512];
MIPS_RT_API pthread_once_t __mips_rt_once = PTHREAD_ONCE_INIT;

MIPS_RT_API void __mips_rt_resolve(void) {
  const char *path = getenv("MIPS_KERNEL_LIBRARY");
  if (path == NULL || path[0] == '\0') path = "libmips.so.1";
  void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (library == NULL) {
    snprintf(__mips_rt_error, sizeof __mips_rt_error,
             "mips: cannot load kernel library '%s' (needed for libmips ABI %d.%d): %s", path,
             MIPS_VERSION_MAJOR, MIPS_VERSION_MINOR, dlerror());
    __mips_rt_bind_status = MIPSRT_ERROR_LOAD;
    return;
  }
  void *slots[MIPS_RT_SLOT_COUNT];
  for (int i = 0; i < MIPS_RT_SLOT_COUNT; ++i) {
    slots[i] = dlsym(library, mips_rt_import_names[i]);
    if (slots[i] == NULL) {
      snprintf(__mips_rt_error, sizeof __mips_rt_error,
               "mips: kernel library '%s' has no symbol '%s' (needed for libmips ABI %d.%d)",
               path, mips_rt_import_names[i], MIPS_VERSION_MAJOR, MIPS_VERSION_MINOR);
      __mips_rt_bind_status = MIPSRT_ERROR_SYMBOL;
      return;
    }
  }
  const uint32_t abi = ((uint32_t (*)(void))slots[MIPS_RT_SLOT_mips_abi_version])();
  if ((abi >> 16) != MIPS_VERSION_MAJOR || (abi & 0xffffu) < MIPS_VERSION_MINOR) {
    snprintf(__mips_rt_error, sizeof __mips_rt_error,
             "mips: kernel library '%s' provides libmips ABI %u.%u, but this program was "
             "compiled for ABI %d.%d (needs major %d, minor >= %d)",
             path, abi >> 16, abi & 0xffffu, MIPS_VERSION_MAJOR, MIPS_VERSION_MINOR,
             MIPS_VERSION_MAJOR, MIPS_VERSION_MINOR);
    __mips_rt_bind_status = MIPSRT_ERROR_ABI;
    return;
  }
  memcpy(__mips_rt_import_table, slots, sizeof slots);
  __mips_rt_error[0] = '\0';
  __mips_rt_bind_status = MIPSRT_OK;
  __atomic_store_n(&__mips_rt_bound, 1, __ATOMIC_RELEASE);
}

MIPS_RT_API int mipsrt_bind(void) {
  pthread_once(&__mips_rt_once, __mips_rt_resolve);
  return __mips_rt_bind_status;
}

MIPS_RT_API const char *mipsrt_error_message(void) {
  mipsrt_bind();
  return __mips_rt_error;
}

/* Called by generated code before each use of the table. */
MIPS_RT_API void __mips_rt_ensure_imports(void) {
  if (__atomic_load_n(&__mips_rt_bound, __ATOMIC_ACQUIRE)) return;
  if (mipsrt_bind() != MIPSRT_OK) {
    fprintf(stderr, "%s\n", __mips_rt_error);
    exit(MIPS_RT_EXIT_LOAD_FAILURE);
  }
}

#define MIPS_RT_CALL(name, type) \
  (__mips_rt_ensure_imports(), ((type)__mips_rt_import_table[MIPS_RT_SLOT_##name]))

#else /* --static-embedding: libmips is linked in */

MIPS_RT_API int mipsrt_bind(void) {
  const uint32_t abi = mips_abi_version();
  return (abi >> 16) == MIPS_VERSION_MAJOR && (abi & 0xffffu) >= MIPS_VERSION_MINOR
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

/* Generated code calls this when a libmips call returns a nonzero status: compiled
 * code never passes invalid views, so this is a bug worth stopping for. */
MIPS_RT_API void __mips_rt_call_failed(int32_t slot, int32_t status) {
  const char *callee = slot >= 0 && slot < MIPS_RT_SLOT_COUNT ? mips_rt_import_names[slot] : "?";
  const char *text = MIPS_RT_CALL(mips_status_string, const char *(*)(int))(status);
  fprintf(stderr, "mips: %s failed with status %d: %s\n", callee, (int)status, text);
  abort();
}
