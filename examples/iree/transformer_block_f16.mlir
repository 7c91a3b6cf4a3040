// A transformer block in f16 (post-residual, no normalisation): 512 tokens, model dim 1024,
// 8 heads of 128, MLP hidden 4096. Matmuls accumulate in f32 and store f16, as a framework
// export would; the softmax runs in f32.
//   q, k, v = x Wq, x Wk, x Wv                       (512x1024 each)
//   a = softmax(q_h k_h^T / sqrt(128)) v_h per head  (8 x 512x512 scores)
//   h = x + a Wo
//   y = h + relu(h W1 + b1) W2 + b2
!x_t = tensor<512x1024xf16>
!w_t = tensor<1024x1024xf16>
!acc_t = tensor<512x1024xf32>
!heads_t = tensor<8x512x128xf16>
!scores_t = tensor<8x512x512xf32>
#id2 = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (j)>
#id3 = affine_map<(b, i, j) -> (b, i, j)>
#red3 = affine_map<(b, i, j) -> (b, i)>

// f32 accumulator of x W, stored as f16.
func.func private @project(%x: !x_t, %w: !w_t) -> !x_t {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : !acc_t
  %a = linalg.fill ins(%zero : f32) outs(%e : !acc_t) -> !acc_t
  %m = linalg.matmul ins(%x, %w : !x_t, !w_t) outs(%a : !acc_t) -> !acc_t
  %eh = tensor.empty() : !x_t
  %r = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%m : !acc_t) outs(%eh : !x_t) {
  ^bb0(%v: f32, %o: f16):
    %t = arith.truncf %v : f32 to f16
    linalg.yield %t : f16
  } -> !x_t
  return %r : !x_t
}

// 512x1024 -> 8 heads x 512 x 128.
func.func private @split_heads(%t: !x_t) -> !heads_t {
  %s = tensor.expand_shape %t [[0], [1, 2]] output_shape [512, 8, 128] : !x_t into tensor<512x8x128xf16>
  %e = tensor.empty() : !heads_t
  %h = linalg.transpose ins(%s : tensor<512x8x128xf16>) outs(%e : !heads_t) permutation = [1, 0, 2]
  return %h : !heads_t
}

// softmax(q k^T / sqrt(128)) v for every head, back to 512x1024.
func.func private @attention(%q: !x_t, %k: !x_t, %v: !x_t) -> !x_t {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant -3.40282347e+38 : f32
  %scale = arith.constant 0.0883883461 : f32
  %qh = func.call @split_heads(%q) : (!x_t) -> !heads_t
  %vh = func.call @split_heads(%v) : (!x_t) -> !heads_t
  %ks = tensor.expand_shape %k [[0], [1, 2]] output_shape [512, 8, 128] : !x_t into tensor<512x8x128xf16>
  %ekt = tensor.empty() : tensor<8x128x512xf16>
  %kt = linalg.transpose ins(%ks : tensor<512x8x128xf16>) outs(%ekt : tensor<8x128x512xf16>) permutation = [1, 2, 0]
  %es = tensor.empty() : !scores_t
  %as = linalg.fill ins(%zero : f32) outs(%es : !scores_t) -> !scores_t
  %s = linalg.batch_matmul ins(%qh, %kt : !heads_t, tensor<8x128x512xf16>) outs(%as : !scores_t) -> !scores_t
  %em = tensor.empty() : tensor<8x512xf32>
  %am = linalg.fill ins(%ninf : f32) outs(%em : tensor<8x512xf32>) -> tensor<8x512xf32>
  %mx = linalg.generic {indexing_maps = [#id3, #red3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%s : !scores_t) outs(%am : tensor<8x512xf32>) {
  ^bb0(%a: f32, %m: f32):
    %r = arith.maximumf %a, %m : f32
    linalg.yield %r : f32
  } -> tensor<8x512xf32>
  %ex = linalg.generic {indexing_maps = [#id3, #red3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s, %mx : !scores_t, tensor<8x512xf32>) outs(%es : !scores_t) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    %ds = arith.mulf %d, %scale : f32
    %e = math.exp %ds : f32
    linalg.yield %e : f32
  } -> !scores_t
  %az = linalg.fill ins(%zero : f32) outs(%em : tensor<8x512xf32>) -> tensor<8x512xf32>
  %sum = linalg.generic {indexing_maps = [#id3, #red3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%ex : !scores_t) outs(%az : tensor<8x512xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<8x512xf32>
  %ep = tensor.empty() : tensor<8x512x512xf16>
  %p = linalg.generic {indexing_maps = [#id3, #red3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%ex, %sum : !scores_t, tensor<8x512xf32>) outs(%ep : tensor<8x512x512xf16>) {
  ^bb0(%a: f32, %t: f32, %o: f16):
    %d = arith.divf %a, %t : f32
    %h = arith.truncf %d : f32 to f16
    linalg.yield %h : f16
  } -> tensor<8x512x512xf16>
  %eo = tensor.empty() : tensor<8x512x128xf32>
  %ao = linalg.fill ins(%zero : f32) outs(%eo : tensor<8x512x128xf32>) -> tensor<8x512x128xf32>
  %o = linalg.batch_matmul ins(%p, %vh : tensor<8x512x512xf16>, !heads_t) outs(%ao : tensor<8x512x128xf32>) -> tensor<8x512x128xf32>
  %eoh = tensor.empty() : tensor<512x8x128xf16>
  %oh = linalg.generic {indexing_maps = [affine_map<(t, h, d) -> (h, t, d)>, affine_map<(t, h, d) -> (t, h, d)>],
                        iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%o : tensor<8x512x128xf32>) outs(%eoh : tensor<512x8x128xf16>) {
  ^bb0(%a: f32, %x: f16):
    %h = arith.truncf %a : f32 to f16
    linalg.yield %h : f16
  } -> tensor<512x8x128xf16>
  %r = tensor.collapse_shape %oh [[0], [1, 2]] : tensor<512x8x128xf16> into !x_t
  return %r : !x_t
}

func.func @transformer_block(%x: !x_t, %wq: !w_t, %wk: !w_t, %wv: !w_t, %wo: !w_t,
                             %w1: tensor<1024x4096xf16>, %b1: tensor<4096xf16>,
                             %w2: tensor<4096x1024xf16>, %b2: tensor<1024xf16>) -> !x_t {
  %zero = arith.constant 0.0 : f32
  %hzero = arith.constant 0.0 : f16
  %q = func.call @project(%x, %wq) : (!x_t, !w_t) -> !x_t
  %k = func.call @project(%x, %wk) : (!x_t, !w_t) -> !x_t
  %v = func.call @project(%x, %wv) : (!x_t, !w_t) -> !x_t
  %a = func.call @attention(%q, %k, %v) : (!x_t, !x_t, !x_t) -> !x_t
  // h = x + a Wo
  %e0 = tensor.empty() : !acc_t
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : !acc_t) -> !acc_t
  %mo = linalg.matmul ins(%a, %wo : !x_t, !w_t) outs(%z0 : !acc_t) -> !acc_t
  %eh = tensor.empty() : !x_t
  %h = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%mo, %x : !acc_t, !x_t) outs(%eh : !x_t) {
  ^bb0(%m: f32, %r: f16, %o: f16):
    %rf = arith.extf %r : f16 to f32
    %s = arith.addf %m, %rf : f32
    %t = arith.truncf %s : f32 to f16
    linalg.yield %t : f16
  } -> !x_t
  // f = relu(h W1 + b1)
  %e1 = tensor.empty() : tensor<512x4096xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<512x4096xf32>) -> tensor<512x4096xf32>
  %m1 = linalg.matmul ins(%h, %w1 : !x_t, tensor<1024x4096xf16>) outs(%z1 : tensor<512x4096xf32>) -> tensor<512x4096xf32>
  %ef = tensor.empty() : tensor<512x4096xf16>
  %f = linalg.generic {indexing_maps = [#id2, #row, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%m1, %b1 : tensor<512x4096xf32>, tensor<4096xf16>) outs(%ef : tensor<512x4096xf16>) {
  ^bb0(%m: f32, %b: f16, %o: f16):
    %bf = arith.extf %b : f16 to f32
    %s = arith.addf %m, %bf : f32
    %t = arith.truncf %s : f32 to f16
    %r = arith.maximumf %t, %hzero : f16
    linalg.yield %r : f16
  } -> tensor<512x4096xf16>
  // y = h + f W2 + b2
  %z2 = linalg.fill ins(%zero : f32) outs(%e0 : !acc_t) -> !acc_t
  %m2 = linalg.matmul ins(%f, %w2 : tensor<512x4096xf16>, tensor<4096x1024xf16>) outs(%z2 : !acc_t) -> !acc_t
  %ey = tensor.empty() : !x_t
  %y = linalg.generic {indexing_maps = [#id2, #row, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%m2, %b2, %h : !acc_t, tensor<1024xf16>, !x_t) outs(%ey : !x_t) {
  ^bb0(%m: f32, %b: f16, %r: f16, %o: f16):
    %bf = arith.extf %b : f16 to f32
    %rf = arith.extf %r : f16 to f32
    %s = arith.addf %m, %bf : f32
    %s2 = arith.addf %s, %rf : f32
    %t = arith.truncf %s2 : f32 to f16
    linalg.yield %t : f16
  } -> !x_t
  return %y : !x_t
}
