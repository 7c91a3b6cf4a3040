// The second seed shape: a skinny matmul, D[32x2048] (f32) = A[32x1024] x B[1024x2048] (f16).
func.func @matmul(%a: tensor<32x1024xf16>, %b: tensor<1024x2048xf16>) -> tensor<32x2048xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<32x2048xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%empty : tensor<32x2048xf32>) -> tensor<32x2048xf32>
  %d = linalg.matmul ins(%a, %b : tensor<32x1024xf16>, tensor<1024x2048xf16>)
                     outs(%acc : tensor<32x2048xf32>) -> tensor<32x2048xf32>
  return %d : tensor<32x2048xf32>
}
