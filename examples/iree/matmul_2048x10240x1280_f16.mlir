// The seed dispatch of the IREE issue: D[2048x10240] (f32) = A[2048x1280] x B[1280x10240] (f16).
func.func @matmul(%a: tensor<2048x1280xf16>, %b: tensor<1280x10240xf16>) -> tensor<2048x10240xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<2048x10240xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<2048x10240xf32>) -> tensor<2048x10240xf32>
  %d = linalg.matmul ins(%a, %b : tensor<2048x1280xf16>, tensor<1280x10240xf16>)
                     outs(%acc : tensor<2048x10240xf32>) -> tensor<2048x10240xf32>
  return %d : tensor<2048x10240xf32>
}
