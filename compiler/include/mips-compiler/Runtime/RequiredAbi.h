/* SPDX-License-Identifier: Apache-2.0 */
/* The libmips ABI that compiled models need, shared by the compiler (C++) and the
 * runtime linked into each object (C). Generated code calls only functions and flags
 * of MIPS_1.0, so its objects run with any 1.x library; this moves only when the
 * generated calls start to use something a later minor version added. */
#ifndef MIPS_COMPILER_RUNTIME_REQUIREDABI_H
#define MIPS_COMPILER_RUNTIME_REQUIREDABI_H

#define MIPS_RT_ABI_MAJOR 1
#define MIPS_RT_ABI_MINOR 0

#endif /* MIPS_COMPILER_RUNTIME_REQUIREDABI_H */
