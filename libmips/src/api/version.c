/* SPDX-License-Identifier: Apache-2.0 */
/* What the library is: its versions, status texts, kernel set and thread default. */
#include "mips/mips.h"
#include "dispatch.h"
#include "threading/threading.h"

#define MIPS_STRINGIFY_(x) #x
#define MIPS_STRINGIFY(x) MIPS_STRINGIFY_(x)

uint32_t mips_abi_version(void) { return MIPS_ABI_VERSION; }

const char *mips_version_string(void) {
  return MIPS_STRINGIFY(MIPS_VERSION_MAJOR) "." MIPS_STRINGIFY(MIPS_VERSION_MINOR) "." MIPS_STRINGIFY(
      MIPS_VERSION_PATCH);
}

const char *mips_kernel_name(void) { return mips_selected_kernels()->name; }

int mips_default_threads(void) { return mips_threads_default(); }

const char *mips_status_string(int status) {
  switch (status) {
#define MIPS_STATUS_CASE_(name, value, text) \
  case MIPS_##name:                          \
    return text;
    MIPS_STATUS_MAP(MIPS_STATUS_CASE_)
#undef MIPS_STATUS_CASE_
    default:
      return "unknown status";
  }
}
