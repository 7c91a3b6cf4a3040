// A transformer MLP block in f16: y = relu(x W1 + b1) W2 + b2, x: 512 tokens x 1024, hidden 4096.
// Accumulation in f32, stored as f16 between the layers, as a framework export would do.
!x_t = tensor<512x1024xf16>
!h_t = tensor<512x4096xf16>
func.func @mlp(%x: !x_t, %w1: tensor<1024x4096xf16>, %b1: tensor<4096xf16>,
               %w2: tensor<4096x1024xf16>, %b2: tensor<1024xf16>) -> !x_t {
  %zero = arith.constant 0.0 : f32
  %hzero = arith.constant 0.0 : f16
  %e1 = tensor.empty() : tensor<512x4096xf32>
  %a1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<512x4096xf32>) -> tensor<512x4096xf32>
  %m1 = linalg.matmul ins(%x, %w1 : !x_t, tensor<1024x4096xf16>) outs(%a1 : tensor<512x4096xf32>) -> tensor<512x4096xf32>
  %eh = tensor.empty() : !h_t
  %h = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%m1, %b1 : tensor<512x4096xf32>, tensor<4096xf16>) outs(%eh : !h_t) {
  ^bb0(%v: f32, %b: f16, %o: f16):
    %bf = arith.extf %b : f16 to f32
    %s = arith.addf %v, %bf : f32
    %t = arith.truncf %s : f32 to f16
    %r = arith.maximumf %t, %hzero : f16
    linalg.yield %r : f16
  } -> !h_t
  %e2 = tensor.empty() : tensor<512x1024xf32>
  %a2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<512x1024xf32>) -> tensor<512x1024xf32>
  %m2 = linalg.matmul ins(%h, %w2 : !h_t, tensor<4096x1024xf16>) outs(%a2 : tensor<512x1024xf32>) -> tensor<512x1024xf32>
  %ey = tensor.empty() : !x_t
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%m2, %b2 : tensor<512x1024xf32>, tensor<1024xf16>) outs(%ey : !x_t) {
  ^bb0(%v: f32, %b: f16, %o: f16):
    %bf = arith.extf %b : f16 to f32
    %s = arith.addf %v, %bf : f32
    %t = arith.truncf %s : f32 to f16
    linalg.yield %t : f16
  } -> !x_t
  return %y : !x_t
}
