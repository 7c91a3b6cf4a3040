// 3x3 convolution, NHWC/HWCF: 1x32x32x16 input, 32 filters, stride 1, no padding.
func.func @conv(%x: tensor<1x32x32x16xf32>, %w: tensor<3x3x16x32xf32>) -> tensor<1x30x30x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x30x30x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x30x30x32xf32>) -> tensor<1x30x30x32xf32>
  %y = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
       ins(%x, %w : tensor<1x32x32x16xf32>, tensor<3x3x16x32xf32>) outs(%f : tensor<1x30x30x32xf32>) -> tensor<1x30x30x32xf32>
  return %y : tensor<1x30x30x32xf32>
}
