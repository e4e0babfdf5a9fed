/* SPDX-License-Identifier: Apache-2.0 */
/* Linked into libmips-<arch>.bc: the ABI the bitcode implements, which mips-compile
 * --embed-libmips checks against what the object's calls need before linking it. */
#include <mips/mips.h>

const uint32_t __mips_bitcode_abi_version = MIPS_ABI_VERSION;
