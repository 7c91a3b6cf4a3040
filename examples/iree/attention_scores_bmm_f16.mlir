// Attention scores: S = Q K^T per head, 8 heads x 128 x 64, as a batch_matmul of Q [8,128,64] and Kt [8,64,128].
func.func @scores(%q: tensor<8x128x64xf16>, %kt: tensor<8x64x128xf16>) -> tensor<8x128x128xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x128x128xf32>
  %a = linalg.fill ins(%zero : f32) outs(%e : tensor<8x128x128xf32>) -> tensor<8x128x128xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<8x128x64xf16>, tensor<8x64x128xf16>) outs(%a : tensor<8x128x128xf32>) -> tensor<8x128x128xf32>
  return %s : tensor<8x128x128xf32>
}
