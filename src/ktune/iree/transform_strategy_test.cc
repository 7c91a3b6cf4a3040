#include "ktune/iree/transform_strategy.h"

#include <gtest/gtest.h>

#include <fstream>
#include <regex>

#include "ktune/core/read_file.h"
#include "ktune/iree/candidate_compile.h"
#include "ktune/iree/iree_test_fixture.h"
#include "ktune/iree/substitution.h"

namespace ktune::iree {
namespace {
namespace fs = std::filesystem;

using testing::kSource;
using TransformStrategies = testing::RealIree;

int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
  return n;
}

std::string ptx_of(const fs::path& dump) {
  for (const auto& e : fs::directory_iterator(dump))
    if (e.path().extension() == ".ptx") return read_file(e.path()).value_or("");
  return "";
}

TEST(TransformStrategy, LabelsRoundTrip) {
  const TransformStrategy t{256, 128, 32, 4, 2, 4};
  EXPECT_EQ(t.label(), "td/256x128x32/w4x2/d4");
  EXPECT_EQ(t.sequence_name(), "ktune_td_256x128x32_w4x2_d4");
  EXPECT_EQ(t.threads(), 256);
  const auto back = parse_strategy_label(t.label());
  ASSERT_TRUE(back);
  EXPECT_EQ(back->label(), t.label());
  EXPECT_FALSE(parse_strategy_label("default"));
  EXPECT_FALSE(parse_strategy_label("ktune/128x128x32/w2x2/s3/g8/b1"));
  EXPECT_FALSE(parse_strategy_label("NV_MMA_SYNC_F32_16x8x16_F16/sg4x4/wg2x2/r2/p2"));
}

TEST(TransformStrategy, SharedMemoryCountsEveryStageAndThePadding) {
  const TransformStrategy t{128, 128, 64, 2, 2, 3};
  EXPECT_EQ(t.shared_bytes(), 3 * 2 * (128 * 72 + 64 * 136));
}

TEST(TransformStrategy, LibraryWritesEachStrategyOnce) {
  const TransformStrategy a{128, 128, 64, 2, 2, 3}, b{128, 256, 64, 2, 4, 3};
  const std::string lib = emit_strategy_library({a, b, a});
  EXPECT_EQ(count(lib, "transform.named_sequence @__kernel_config("), 1);
  EXPECT_EQ(count(lib, "transform.named_sequence @" + a.sequence_name() + "("), 1);
  EXPECT_EQ(count(lib, "transform.named_sequence @" + b.sequence_name() + "("), 1);
  EXPECT_EQ(count(lib, "transform.named_sequence @" + a.sequence_name() + "_tile("), 1);
  EXPECT_EQ(count(lib, "${"), 0) << "a placeholder left unfilled";
  EXPECT_NE(lib.find("tile_sizes [128, 256]"), std::string::npos);
  EXPECT_NE(lib.find("workgroup_dims = [256, 1, 1]"), std::string::npos);
}

TEST(TransformStrategy, ApplyNeedsATranslationInfo) {
  EXPECT_THROW(apply_strategy("func.func @f() { return }", TransformStrategy{}), DispatchParseError);
}

// The seed dispatch (2048x10240x1280 f16 -> f32): in scope, ranked, and every strategy fits it.
TEST_F(TransformStrategies, SeedMatmulHasStrategiesThatDivideIt) {
  const CompiledModel c = compile_model(tools_, kSource / "examples/iree/matmul_2048x10240x1280_f16.mlir", parse_target("cuda:sm_80"), out_);
  ASSERT_EQ(c.dispatches.size(), 1u);
  const DumpedDispatch& d = c.dispatches[0];
  const DispatchGemmResult g = recognize_dispatch_gemm(d);
  ASSERT_TRUE(g.gemm) << g.unsupported;
  std::string why;
  const auto all = transform_strategies(d.config, g.gemm, 100, &why);
  ASSERT_GE(all.size(), 6u) << why;
  EXPECT_EQ(all.front().label(), "td/128x128x64/w2x2/d3");  // the fastest on the H200 (docs/benchmarks.md)
  for (const auto& t : all) {
    SCOPED_TRACE(t.label());
    EXPECT_EQ(2048 % t.tile_m, 0);
    EXPECT_EQ(10240 % t.tile_n, 0);
    EXPECT_EQ(1280 % t.tile_k, 0);
    EXPECT_LE(t.shared_bytes(), *d.config.max_workgroup_memory_bytes);
    EXPECT_LE((t.tile_m / t.warps_m) * (t.tile_n / t.warps_n) / 32, 128);
  }
  EXPECT_EQ(transform_strategies(d.config, g.gemm, 3).size(), 3u);

  const std::string configured = apply_strategy(read_file(d.configured).value_or(""), all.front());
  EXPECT_EQ(configured.find("lowering_config"), std::string::npos);
  EXPECT_EQ(configured.find("attrs ="), std::string::npos);
  EXPECT_NE(configured.find("codegen_spec = @ktune_td_128x128x64_w2x2_d3 workgroup_size = [128, 1, 1]"), std::string::npos);
  const fs::path file = out_ / "configured.mlir";
  std::ofstream(file) << configured;
  const auto named = strategies_named_in({file});
  ASSERT_EQ(named.size(), 1u);
  EXPECT_EQ(named[0].label(), all.front().label());
}

TEST_F(TransformStrategies, OutOfScopeDispatchesSayWhy) {
  {
    const CompiledModel c = compile_model(tools_, kSource / "examples/iree/matmul_2048x10240x1280_f16.mlir", parse_target("hip:gfx942"), out_ / "hip");
    const DumpedDispatch& d = c.dispatches.at(0);
    std::string why;
    EXPECT_TRUE(transform_strategies(d.config, recognize_dispatch_gemm(d).gemm, 6, &why).empty());
    EXPECT_NE(why.find("CUDA"), std::string::npos) << why;
  }
  {
    // Bias and relu fused after the matmul: the strategy's single-op tiling does not cover them.
    const CompiledModel c = compile_model(tools_, kSource / "examples/iree/mlp_block_f16.mlir", parse_target("cuda:sm_80"), out_ / "mlp");
    for (const DumpedDispatch& d : c.dispatches) {
      SCOPED_TRACE(d.name);
      std::string why;
      EXPECT_TRUE(transform_strategies(d.config, recognize_dispatch_gemm(d).gemm, 6, &why).empty());
      EXPECT_FALSE(why.empty());
    }
  }
}

// The real compile: IREE applies the strategy, and the PTX has what the strategy is for:
// ldmatrix (B transposed by it), mma.sync m16n8k16, cp.async, and none of the 16-bit shared
// loads of IREE's own pipeline.
TEST_F(TransformStrategies, CompilesToLdmatrixMmaSyncAndCpAsync) {
  const Target target = parse_target("cuda:sm_80");
  const CompiledModel c = compile_model(tools_, kSource / "examples/iree/matmul_2048x10240x1280_f16.mlir", target, out_ / "model");
  const DumpedDispatch& d = c.dispatches.at(0);
  const auto all = transform_strategies(d.config, recognize_dispatch_gemm(d).gemm, 100);
  ASSERT_FALSE(all.empty());
  const TransformStrategy* wide = nullptr;  // one with 256 threads as well
  for (const auto& t : all)
    if (t.threads() == 256 && !wide) wide = &t;
  ASSERT_NE(wide, nullptr);
  for (const TransformStrategy& t : {all.front(), *wide}) {
    SCOPED_TRACE(t.label());
    const fs::path dir = out_ / t.sequence_name();
    fs::create_directories(dir);
    std::ofstream(dir / "configured.mlir") << apply_strategy(read_file(d.configured).value_or(""), t);
    const SubstitutedCompile b =
        compile_substituted(tools_, d.benchmark, target, {{d.name, dir / "configured.mlir"}}, dir / "dispatch.vmfb", dir / "dump");
    ASSERT_TRUE(b.ok) << b.error;
    EXPECT_TRUE(fs::exists(dir / "dispatch.strategies.mlir"));
    EXPECT_NE(std::find(b.command.begin(), b.command.end(), "--iree-codegen-transform-dialect-library=" + (dir / "dispatch.strategies.mlir").string()),
              b.command.end());
    EXPECT_EQ(compiled_workgroup_size(dir / "dump", d.name), t.threads());
    const std::string ptx = ptx_of(dir / "dump");
    EXPECT_GT(count(ptx, "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16"), 0);
    EXPECT_GT(count(ptx, "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"), 0);
    EXPECT_GT(count(ptx, "cp.async.cg.shared.global"), 0);
    EXPECT_EQ(count(ptx, "ld.shared.b16"), 0);
  }
}

// An f16 result: accumulated in f16 it is one op and compiles to mma.sync with f16 accumulators;
// accumulated in f32 and cast, it is two ops, which the strategy does not tile, and is refused.
TEST_F(TransformStrategies, AnF16ResultInF16IsInScopeACastIsNot) {
  const auto model = [&](const std::string& name, const std::string& body) {
    const fs::path file = out_ / (name + ".mlir");
    std::ofstream(file) << "func.func @matmul(%a: tensor<1024x512xf16>, %b: tensor<512x2048xf16>) -> tensor<1024x2048xf16> {\n" << body << "}\n";
    return compile_model(tools_, file, parse_target("cuda:sm_80"), out_ / name);
  };
  const CompiledModel in_f16 = model("f16", R"(
  %z = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<1024x2048xf16>
  %c = linalg.fill ins(%z : f16) outs(%e : tensor<1024x2048xf16>) -> tensor<1024x2048xf16>
  %d = linalg.matmul ins(%a, %b : tensor<1024x512xf16>, tensor<512x2048xf16>) outs(%c : tensor<1024x2048xf16>) -> tensor<1024x2048xf16>
  return %d : tensor<1024x2048xf16>
)");
  const DumpedDispatch& d = in_f16.dispatches.at(0);
  std::string why;
  const auto all = transform_strategies(d.config, recognize_dispatch_gemm(d).gemm, 6, &why);
  ASSERT_FALSE(all.empty()) << why;
  const fs::path dir = out_ / "f16_strategy";
  fs::create_directories(dir);
  std::ofstream(dir / "configured.mlir") << apply_strategy(read_file(d.configured).value_or(""), all.front());
  const SubstitutedCompile b =
      compile_substituted(tools_, d.benchmark, parse_target("cuda:sm_80"), {{d.name, dir / "configured.mlir"}}, dir / "dispatch.vmfb", dir / "dump");
  ASSERT_TRUE(b.ok) << b.error;
  const std::string ptx = ptx_of(dir / "dump");
  EXPECT_GT(count(ptx, "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16"), 0);
  EXPECT_GT(count(ptx, "ldmatrix"), 0);

  const CompiledModel cast = model("cast", R"(
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1024x2048xf32>
  %c = linalg.fill ins(%z : f32) outs(%e : tensor<1024x2048xf32>) -> tensor<1024x2048xf32>
  %d = linalg.matmul ins(%a, %b : tensor<1024x512xf16>, tensor<512x2048xf16>) outs(%c : tensor<1024x2048xf32>) -> tensor<1024x2048xf32>
  %h = tensor.empty() : tensor<1024x2048xf16>
  %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
       ins(%d : tensor<1024x2048xf32>) outs(%h : tensor<1024x2048xf16>) {
  ^bb0(%x: f32, %y: f16):
    %r = arith.truncf %x : f32 to f16
    linalg.yield %r : f16
  } -> tensor<1024x2048xf16>
  return %t : tensor<1024x2048xf16>
)");
  for (const DumpedDispatch& c : cast.dispatches) {
    SCOPED_TRACE(c.name);
    std::string refused;
    EXPECT_TRUE(transform_strategies(c.config, recognize_dispatch_gemm(c).gemm, 6, &refused).empty());
    EXPECT_FALSE(refused.empty());
  }
}

}  // namespace
}  // namespace ktune::iree
