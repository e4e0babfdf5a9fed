/* SPDX-License-Identifier: Apache-2.0 */
/* The counted region's markers: instructions that do nothing (they write x0), which the
 * instruction-count plugin (insn_count.c) watches for; a program brackets what it wants
 * counted with them. riscv64 only. */
#ifndef MIPS_BENCH_PLUGIN_REGION_H
#define MIPS_BENCH_PLUGIN_REGION_H

/* What the plugin matches: slti x0, x0, 0x6d0 and slti x0, x0, 0x6d1. */
#define MIPS_REGION_OPEN_INSN 0x6d002013u
#define MIPS_REGION_CLOSE_INSN 0x6d102013u
#define MIPS_REGION_OPEN_ASM "slti x0, x0, 0x6d0"
#define MIPS_REGION_CLOSE_ASM "slti x0, x0, 0x6d1"

#define MIPS_REGION_OPEN() __asm__ volatile(MIPS_REGION_OPEN_ASM)
#define MIPS_REGION_CLOSE() __asm__ volatile(MIPS_REGION_CLOSE_ASM)
/* The same, and a compiler barrier: no store is moved across the marker. */
#define MIPS_REGION_OPEN_FENCED() __asm__ volatile(MIPS_REGION_OPEN_ASM ::: "memory")
#define MIPS_REGION_CLOSE_FENCED() __asm__ volatile(MIPS_REGION_CLOSE_ASM ::: "memory")

#endif /* MIPS_BENCH_PLUGIN_REGION_H */
