/* SPDX-License-Identifier: Apache-2.0 */
/* The B packers of the portable tile template, shared by the scalar and x86 sets. */
#include "kernels/portable_tile.h"

MIPS_PORTABLE_PACK_B(mips_pack_b_f32_portable, float, float, MIPS_F32_FROM)
MIPS_PORTABLE_PACK_B(mips_pack_b_i8_portable, int8_t, uint32_t, MIPS_U32_FROM_I8)
