/* SPDX-License-Identifier: Apache-2.0 */
//===- BufferizableOpInterfaceImpl.h - mips.matmul bufferization -*- C++ -*-===//

#ifndef MIPS_BUFFERIZATION_BUFFERIZABLEOPINTERFACEIMPL_H
#define MIPS_BUFFERIZATION_BUFFERIZABLEOPINTERFACEIMPL_H

namespace mlir {
class DialectRegistry;

namespace mips {
/// Lets One-Shot Bufferize turn mips.matmul on tensors into mips.matmul on the
/// operands' buffers.
void registerBufferizableOpInterfaceExternalModels(DialectRegistry &registry);
} // namespace mips
} // namespace mlir

#endif // MIPS_BUFFERIZATION_BUFFERIZABLEOPINTERFACEIMPL_H
