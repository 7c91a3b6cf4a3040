// bf16 MLP: y = gelu_tanh(x W + b), x 128x256, W 256x512.
func.func @mlp(%x: tensor<128x256xbf16>, %w: tensor<256x512xbf16>, %b: tensor<512xbf16>) -> tensor<128x512xbf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x512xf32>
  %a = linalg.fill ins(%zero : f32) outs(%e : tensor<128x512xf32>) -> tensor<128x512xf32>
  %m = linalg.matmul ins(%x, %w : tensor<128x256xbf16>, tensor<256x512xbf16>) outs(%a : tensor<128x512xf32>) -> tensor<128x512xf32>
  %eo = tensor.empty() : tensor<128x512xbf16>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%m, %b : tensor<128x512xf32>, tensor<512xbf16>) outs(%eo : tensor<128x512xbf16>) {
  ^bb0(%v: f32, %bb: bf16, %o: bf16):
    %bf = arith.extf %bb : bf16 to f32
    %s = arith.addf %v, %bf : f32
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %c = arith.constant 0.7978845608 : f32
    %k = arith.constant 0.044715 : f32
    %s2 = arith.mulf %s, %s : f32
    %s3 = arith.mulf %s2, %s : f32
    %ks3 = arith.mulf %k, %s3 : f32
    %in = arith.addf %s, %ks3 : f32
    %in2 = arith.mulf %c, %in : f32
    %t = math.tanh %in2 : f32
    %tp = arith.addf %one, %t : f32
    %hs = arith.mulf %half, %s : f32
    %g = arith.mulf %hs, %tp : f32
    %r = arith.truncf %g : f32 to bf16
    linalg.yield %r : bf16
  } -> tensor<128x512xbf16>
  return %y : tensor<128x512xbf16>
}
