/* SPDX-License-Identifier: Apache-2.0 */
//===- TilingInterfaceImpl.h - tiling mips.matmul ---------------*- C++ -*-===//

#ifndef MIPS_DIALECT_MIPS_TILINGINTERFACEIMPL_H
#define MIPS_DIALECT_MIPS_TILINGINTERFACEIMPL_H

namespace mlir {
class DialectRegistry;

namespace mips {
/// Gives mips.matmul the TilingInterface over its (M, N, K) iteration space,
/// so upstream's tiling and fusion drivers (scf::tileUsingSCF, the transform
/// dialect's tile_using_for/forall, tile-and-fuse) work on it.
void registerTilingInterfaceExternalModels(DialectRegistry &registry);
} // namespace mips
} // namespace mlir

#endif // MIPS_DIALECT_MIPS_TILINGINTERFACEIMPL_H
