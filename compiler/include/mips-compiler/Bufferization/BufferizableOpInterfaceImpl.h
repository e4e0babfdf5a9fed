/* SPDX-License-Identifier: Apache-2.0 */
//===- BufferizableOpInterfaceImpl.h - mips.matmul bufferization -*- C++ -*-===//

#ifndef MIPS_BUFFERIZATION_BUFFERIZABLEOPINTERFACEIMPL_H
#define MIPS_BUFFERIZATION_BUFFERIZABLEOPINTERFACEIMPL_H

namespace mlir {
class DialectRegistry;

namespace mips {
/// Lets One-Shot Bufferize turn mips.matmul into a call of the libmips ABI
/// (mips_matmul_f32 / mips_matmul_i8i32) followed by a status check.
void registerBufferizableOpInterfaceExternalModels(DialectRegistry &registry);
} // namespace mips
} // namespace mlir

#endif // MIPS_BUFFERIZATION_BUFFERIZABLEOPINTERFACEIMPL_H
