/* SPDX-License-Identifier: Apache-2.0 */
/* The RVV tiles, f32 and int8 x int8 -> int32, each type at 15x2v, 15x1v (the narrow
 * companion of 15x2v) and 7x4v, stamped out from tile_body.h, with their descriptors.
 * Both types are in one file: split in two, clang 22 compiled the 15x1v tiles
 * differently (measured by comparing their disassembly). */
#include "kernels/rvv/tile_body.h"

/*------------------------------------------------------------------------------------
 * f32 (packed and unpacked B are both f32). Each instantiation sets LM, the LMUL
 * suffix of the accumulators and of B's rows (m1, m2, m4).
 *----------------------------------------------------------------------------------*/
#define A_T float
#define C_T float
#define B_ELEM sizeof(float)
#define V MIPS_PASTE(MIPS_PASTE(vfloat32, LM), _t)
#define BV V
#define F32_OP(name) MIPS_PASTE(name, LM)
#define SETVL(n) F32_OP(__riscv_vsetvl_e32)(n)
#define UNDEF() F32_OP(__riscv_vundefined_f32)()
#define ZERO() F32_OP(__riscv_vfmv_v_f_f32)(0.0f, vl)
#define LOAD_B(p, strided)                                                             \
  ((strided) ? F32_OP(__riscv_vlse32_v_f32)((const float *)(const void *)(p), b_col_bytes, vl) \
             : F32_OP(__riscv_vle32_v_f32)((const float *)(const void *)(p), vl))
#define VLMAX() F32_OP(__riscv_vsetvlmax_e32)()
#define FMA(acc, x, bv) F32_OP(__riscv_vfmacc_vf_f32)((acc), (x), (bv), vl)
#define LOAD_C(p) F32_OP(__riscv_vle32_v_f32)((p), vl)
#define LOAD_C_STRIDED(p, bytes) F32_OP(__riscv_vlse32_v_f32)((p), (bytes), vl)
#define STORE_C(p, v) F32_OP(__riscv_vse32_v_f32)((p), (v), vl)
#define STORE_C_STRIDED(p, bytes, v) F32_OP(__riscv_vsse32_v_f32)((p), (bytes), (v), vl)

#define MIPS_RVV_F32_TILE(NAME, MR)                                                    \
  static MIPS_ALWAYS_INLINE void NAME##_body(const mips_tile_args *t, const int R,     \
                                             const bool b_packed, const bool a_rows,   \
                                             const bool b_strided,                     \
                                             const bool b_adjacent) {                  \
    (void)b_packed;                                                                    \
    MIPS_RVV_TILE_BODY                                                                 \
  }                                                                                    \
  MIPS_RVV_TILE_VARIANTS(NAME, MR)                                                     \
  static int64_t NAME##_nr(void) { return (int64_t)F32_OP(__riscv_vsetvlmax_e32)(); }

/* UNROLL4_MAX_ROWS: rows * LMUL + 4 B rows * LMUL must fit 32 registers with room for
 * the compiler's scheduling (measured: no spills). */
/* Eight registers read as one whole-register load (vl8re32): a type that may alias the
 * floats of B, which the caller and the packers write as floats. */
typedef vfloat32m8_t __attribute__((may_alias)) f32m8_alias;
/* UNROLL8_MAX_ROWS: LMUL 1 only, whose tiles are scalar-bound (one load of A per
 * multiply-add of one register): eight steps or more (up to thirty-two) share the
 * pointer updates, and each eight rows of B come in one whole-register load where they
 * are adjacent. Elsewhere the group
 * macros are placeholders that are never reached. */
#define BV8 BV
#define LOAD_B8(p) LOAD_B(p, false)
#define B8_GET(group, u) (group)
#define LM m2
#define UNROLL4_MAX_ROWS 8
#define UNROLL8_MAX_ROWS 0
MIPS_RVV_F32_TILE(f32_15x2v_rvv, 15)
#undef LM
#undef UNROLL4_MAX_ROWS
#undef UNROLL8_MAX_ROWS
#undef BV8
#undef LOAD_B8
#undef B8_GET
#define BV8 vfloat32m8_t
#define LOAD_B8(p) (*(const f32m8_alias *)(const void *)(p))
#define B8_GET(group, u) __riscv_vget_v_f32m8_f32m1((group), (u))
#define LM m1
#define UNROLL4_MAX_ROWS 15
#define UNROLL8_MAX_ROWS 15
MIPS_RVV_F32_TILE(f32_15x1v_rvv, 15)
MIPS_RVV_TINY_TABLE(f32_15x1v_rvv, 15)
MIPS_RVV_BLOCKS_FN(f32_15x1v_rvv, 15)
#undef LM
#undef UNROLL4_MAX_ROWS
#undef UNROLL8_MAX_ROWS
#undef BV8
#undef LOAD_B8
#undef B8_GET
#define BV8 BV
#define LOAD_B8(p) LOAD_B(p, false)
#define B8_GET(group, u) (group)
#define LM m4
#define UNROLL4_MAX_ROWS 2
#define UNROLL8_MAX_ROWS 0
MIPS_RVV_F32_TILE(f32_7x4v_rvv, 7)
#undef LM
#undef UNROLL4_MAX_ROWS
#undef UNROLL8_MAX_ROWS

#undef A_T
#undef C_T
#undef B_ELEM
#undef V
#undef BV
#undef SETVL
#undef UNDEF
#undef ZERO
#undef LOAD_B
#undef VLMAX
#undef FMA
#undef LOAD_C
#undef LOAD_C_STRIDED
#undef STORE_C
#undef STORE_C_STRIDED

/* f32 at LMUL 1 is the scalar-bound tile (one load of A per register multiplied). */
MIPS_RVV_TILE_DESC(f32_15x1v_rvv, 15, 1, float, mips_pack_b_f32_rvv, NULL, NULL, 0, NULL,
                   f32_15x1v_rvv_blocks)
MIPS_RVV_TILE_DESC(f32_7x4v_rvv, 7, 4, float, mips_pack_b_f32_rvv, NULL, NULL, 0, NULL, NULL)
MIPS_RVV_TILE_DESC(f32_15x2v_rvv, 15, 2, float, mips_pack_b_f32_rvv, &f32_15x1v_rvv_tile,
                   &f32_7x4v_rvv_tile, 7, NULL, NULL)

/* The first entry is the small-problem tile; the driver costs the others per call. */
const mips_tile *const mips_rvv_f32_tiles[3] = {&f32_15x2v_rvv_tile, &f32_7x4v_rvv_tile,
                                               &f32_15x1v_rvv_tile};


/*------------------------------------------------------------------------------------
 * i8 x i8 -> i32: packed B is widened to i16 once; unpacked B is loaded as i8 and
 * sign-extended in the loop. vwmacc.vx multiplies it by A as a sign-extended scalar into
 * i32 accumulators of twice B's LMUL; B's e16 vtype and the accumulators' e32 share
 * VLMAX, so the inner loop never changes vtype. vwmacc wraps modulo 2^32 like the
 * portable tiles. Each instantiation sets the LMUL suffixes of the accumulators (LM32),
 * of B widened (LM16) and of B as loaded (LM8).
 *----------------------------------------------------------------------------------*/
#define A_T int8_t
#define C_T int32_t
#define V MIPS_PASTE(MIPS_PASTE(vint32, LM32), _t)
#define BV MIPS_PASTE(MIPS_PASTE(vint16, LM16), _t)
#define I32_OP(name) MIPS_PASTE(name, LM32)
#define I16_OP(name) MIPS_PASTE(name, LM16)
#define I8_OP(name) MIPS_PASTE(name, LM8)
#define SETVL(n) I16_OP(__riscv_vsetvl_e16)(n)
#define UNDEF() I32_OP(__riscv_vundefined_i32)()
#define ZERO() I32_OP(__riscv_vmv_v_x_i32)(0, vl)
#define LOAD_B(p, strided)                                                             \
  (b_packed ? I16_OP(__riscv_vle16_v_i16)((const int16_t *)(const void *)(p), vl)      \
            : I16_OP(__riscv_vsext_vf2_i16)(                                           \
                  (strided) ? I8_OP(__riscv_vlse8_v_i8)((const int8_t *)(p), b_col_bytes, vl) \
                            : I8_OP(__riscv_vle8_v_i8)((const int8_t *)(p), vl), vl))
#define VLMAX() I16_OP(__riscv_vsetvlmax_e16)()
#define FMA(acc, x, bv) I32_OP(__riscv_vwmacc_vx_i32)((acc), (int16_t)(x), (bv), vl)
#define LOAD_C(p) I32_OP(__riscv_vle32_v_i32)((p), vl)
#define LOAD_C_STRIDED(p, bytes) I32_OP(__riscv_vlse32_v_i32)((p), (bytes), vl)
#define STORE_C(p, v) I32_OP(__riscv_vse32_v_i32)((p), (v), vl)
#define STORE_C_STRIDED(p, bytes, v) I32_OP(__riscv_vsse32_v_i32)((p), (bytes), (v), vl)

#define MIPS_RVV_I8_TILE(NAME, MR)                                                     \
  static MIPS_ALWAYS_INLINE void NAME##_body(const mips_tile_args *t, const int R,     \
                                             const bool b_packed, const bool a_rows,   \
                                             const bool b_strided,                     \
                                             const bool b_adjacent) {                  \
    const size_t B_ELEM = b_packed ? sizeof(int16_t) : sizeof(int8_t);                 \
    /* Its group macros are placeholders (one row for eight). */                       \
    _Static_assert(UNROLL8_MAX_ROWS == 0, "int8 tiles load no eight rows of B at once"); \
    MIPS_RVV_TILE_BODY                                                                 \
  }                                                                                    \
  MIPS_RVV_TILE_VARIANTS(NAME, MR)                                                     \
  static int64_t NAME##_nr(void) { return (int64_t)I16_OP(__riscv_vsetvlmax_e16)(); }

/* int8 keeps the unroll by two (measured, four made the unpacked path slower), except for
 * a single row, whose loop is all overhead: decode against packed weights. */
#define UNROLL4_MAX_ROWS 1
/* The eight-row group macros are placeholders here: int8 tiles load one row at a time. */
#define BV8 BV
#define LOAD_B8(p) LOAD_B(p, false)
#define B8_GET(group, u) (group)
#define UNROLL8_MAX_ROWS 0
#define LM32 m2
#define LM16 m1
#define LM8 mf2
MIPS_RVV_I8_TILE(i8i32_15x2v_rvv, 15)
#undef LM32
#undef LM16
#undef LM8
#define LM32 m1
#define LM16 mf2
#define LM8 mf4
MIPS_RVV_I8_TILE(i8i32_15x1v_rvv, 15)
MIPS_RVV_TINY_TABLE(i8i32_15x1v_rvv, 15)
#undef LM32
#undef LM16
#undef LM8
/* Few rows, wide panels: 7 accumulators at LMUL 4 (28 registers), half the panels of
 * 15x2v, so half the scalar loads of A (what bounds a call with few rows). */
#define LM32 m4
#define LM16 m2
#define LM8 m1
MIPS_RVV_I8_TILE(i8i32_7x4v_rvv, 7)
#undef LM32
#undef LM16
#undef LM8
#undef UNROLL4_MAX_ROWS
#undef UNROLL8_MAX_ROWS
#undef BV8
#undef LOAD_B8
#undef B8_GET

MIPS_RVV_TILE_DESC(i8i32_15x1v_rvv, 15, 1, int16_t, mips_pack_b_i8_rvv, NULL, NULL, 0,
                   mips_pack_a_rows_i8_rvv, NULL)
/* No row packer: at LMUL 4 its vector work always bounds it (scalar_bound_in_place). */
MIPS_RVV_TILE_DESC(i8i32_7x4v_rvv, 7, 4, int16_t, mips_pack_b_i8_rvv, NULL, NULL, 0, NULL, NULL)
MIPS_RVV_TILE_DESC(i8i32_15x2v_rvv, 15, 2, int16_t, mips_pack_b_i8_rvv, &i8i32_15x1v_rvv_tile,
                   &i8i32_7x4v_rvv_tile, 7, mips_pack_a_rows_i8_rvv, NULL)

const mips_tile *const mips_rvv_i8i32_tiles[3] = {&i8i32_15x2v_rvv_tile, &i8i32_7x4v_rvv_tile,
                                                 &i8i32_15x1v_rvv_tile};

/* The smallest calls' tables under the names kernel_set.c knows: aliases, declared last,
 * so that the tables stay internal and the file compiles as it did when the kernel set
 * was one file (an external table, or these aliases placed beside the tables, changed
 * clang 22's code for the 15x1v tiles: measured by comparing their disassembly). */
extern const mips_tiny_fn mips_rvv_f32_tiny_by_rows[16]
    __attribute__((alias("f32_15x1v_rvv_tiny_by_rows")));
extern const mips_tiny_fn mips_rvv_i8i32_tiny_by_rows[16]
    __attribute__((alias("i8i32_15x1v_rvv_tiny_by_rows")));
