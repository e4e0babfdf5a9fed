// memref.copy between strided views lowers to the runtime's memrefCopy, which every
// accumulating model uses to copy its read-only C. Element sizes 1, 2, 4 and 8.
#view = strided<[?, ?, ?], offset: ?>
func.func @copy_i8(%s: memref<?x?x?xi8, #view>, %d: memref<?x?x?xi8, #view>) {
  memref.copy %s, %d : memref<?x?x?xi8, #view> to memref<?x?x?xi8, #view>
  return
}
func.func @copy_i16(%s: memref<?x?x?xi16, #view>, %d: memref<?x?x?xi16, #view>) {
  memref.copy %s, %d : memref<?x?x?xi16, #view> to memref<?x?x?xi16, #view>
  return
}
func.func @copy_f32(%s: memref<?x?x?xf32, #view>, %d: memref<?x?x?xf32, #view>) {
  memref.copy %s, %d : memref<?x?x?xf32, #view> to memref<?x?x?xf32, #view>
  return
}
func.func @copy_f64(%s: memref<?x?x?xf64, #view>, %d: memref<?x?x?xf64, #view>) {
  memref.copy %s, %d : memref<?x?x?xf64, #view> to memref<?x?x?xf64, #view>
  return
}
