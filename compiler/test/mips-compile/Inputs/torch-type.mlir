// A PyTorch type in a function signature (torch-mlir output before lowering).
func.func @f(%a: !torch.vtensor<[4,4],f32>) {
  return
}
