/* SPDX-License-Identifier: Apache-2.0 */
/* The libmips ABI that compiled models need, shared by the compiler (C++) and the
 * runtime linked into each object (C). An object needs only what its calls use: ABI 1.0
 * (MIPS_RT_ABI_MINOR_BASE), so that it runs with any 1.x library, unless it calls a
 * function or passes a flag that a later minor added (batched calls, any-order sums:
 * 1.2). The runtime is built once per minor an object can need (MIPS_RT_ABI_MINORS),
 * with MIPS_RT_ABI_MINOR set to it. */
#ifndef MIPS_COMPILER_RUNTIME_REQUIREDABI_H
#define MIPS_COMPILER_RUNTIME_REQUIREDABI_H

#define MIPS_RT_ABI_MAJOR 1
#define MIPS_RT_ABI_MINOR_BASE 0
#define MIPS_RT_ABI_MINOR_LATEST 2
#ifndef MIPS_RT_ABI_MINOR /* the runtime's build sets it; the compiler never reads it */
#define MIPS_RT_ABI_MINOR MIPS_RT_ABI_MINOR_BASE
#endif

#endif /* MIPS_COMPILER_RUNTIME_REQUIREDABI_H */
