/* SPDX-License-Identifier: Apache-2.0 */
/* What vector.print lowers to: MLIR's convert-vector-to-llvm emits calls of these
 * functions, which upstream takes from libmlir_c_runner_utils. A model compiled by
 * mips-compile links against libc only, so the runtime carries its own, with the same
 * output format. Weak and hidden like the rest of the runtime: objects share one
 * copy, and a program that links MLIR's runner utilities keeps working. */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define MIPS_RT_PRINT __attribute__((weak, visibility("hidden")))

/* IEEE half and bfloat16 bits widened to float: every value is exact in float. */
static float float_from_bits(uint32_t bits) {
  float value;
  memcpy(&value, &bits, sizeof value);
  return value;
}

static float half_to_float(uint16_t half) {
  uint32_t sign = (uint32_t)(half >> 15) << 31;
  uint32_t exponent = (half >> 10) & 0x1f, mantissa = half & 0x3ff;
  if (exponent == 0x1f) /* inf, nan */
    return float_from_bits(sign | 0x7f800000u | (mantissa << 13));
  if (exponent != 0)
    return float_from_bits(sign | ((exponent + 112) << 23) | (mantissa << 13));
  /* zero and subnormals: mantissa * 2^-24 */
  float magnitude = (float)mantissa / 16777216.0f;
  return sign ? -magnitude : magnitude;
}

MIPS_RT_PRINT void printI64(int64_t value) { printf("%" PRId64, value); }
MIPS_RT_PRINT void printU64(uint64_t value) { printf("%" PRIu64, value); }
MIPS_RT_PRINT void printF32(float value) { printf("%g", value); }
MIPS_RT_PRINT void printF64(double value) { printf("%lg", value); }
MIPS_RT_PRINT void printF16(uint16_t bits) { printf("%g", half_to_float(bits)); }
MIPS_RT_PRINT void printBF16(uint16_t bits) { printf("%g", float_from_bits((uint32_t)bits << 16)); }
MIPS_RT_PRINT void printString(const char *text) { fputs(text, stdout); }
MIPS_RT_PRINT void printOpen(void) { fputs("( ", stdout); }
MIPS_RT_PRINT void printClose(void) { fputs(" )", stdout); }
MIPS_RT_PRINT void printComma(void) { fputs(", ", stdout); }
MIPS_RT_PRINT void printNewline(void) { fputc('\n', stdout); }
